"""Short, printable renderings of raw input values for the scorer's English messages.

A value read from a file can be anything JSON holds, including text of any length and
integers of thousands of digits; a message shows it briefly and never recursively.

Also the one rule for text that enters the program (forms, CSV, the admin, the API, the
interchange file): :func:`normalise` composes it to Unicode NFC and
:func:`control_characters` finds the characters it may not hold.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class OversizedNumber:
    """An integer of a file too long to convert (``digits`` digits): the JSON reader puts
    it where the number was, so the checks can refuse it by JSON path."""

    digits: int

    def __str__(self) -> str:
        return f"a number of {self.digits} digits"


def brief(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters (the last one an ellipsis)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: object) -> str:
    """A short rendering of a value: text quoted and cut at 40 characters, a huge integer
    by its number of digits, a container by its kind.

    >>> show("x" * 50), show(10**30), show(72)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'", 'a number of about 31 digits', '72')
    """
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40])[:-1] + "…'"
    if isinstance(value, bool) or value is None:
        return kind(value)
    if isinstance(value, int):
        if -(10**20) < value < 10**20:
            return str(value)
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, float | OversizedNumber):
        return str(value)
    return kind(value)


def kind(value: object) -> str:
    """What a value is, for "must be X, not <kind>" (``null``, ``the text 'a'``...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {show(value)}"
    if isinstance(value, OversizedNumber):
        return str(value)
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


#: The control characters a multi-line text (a note, a reason) may hold: tab and line
#: ends. A one-line text (a name, a venue) may hold none.
MULTILINE_CONTROLS = frozenset("\t\n\r")


def normalise(text: str) -> str:
    r"""``text`` composed to Unicode NFC: ``"Nu\u0301ria"`` (``u`` + combining acute,
    as some keyboards and files send it) becomes ``"Núria"`` (one ``ú``), so that the
    same name typed two ways is one name, compares equal, and prints with the fonts'
    precomposed glyphs. Idempotent; any other character is kept as it is.

    >>> normalise("Nu\u0301ria") == "N\u00faria", len(normalise("Nu\u0301ria"))
    (True, 5)
    """
    return unicodedata.normalize("NFC", text)


def control_characters(text: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    r"""The control characters of ``text`` (Unicode category ``Cc``: U+0000..U+001F,
    U+007F..U+009F) other than ``allowed``, each once, in order of appearance, written
    ``U+0007``. Empty when the text is clean.

    >>> control_characters("a\x07b\tc\x00"), control_characters("Núria")
    (['U+0007', 'U+0009', 'U+0000'], [])
    >>> control_characters("a\tb\r\n", allowed=MULTILINE_CONTROLS)
    []
    """
    found: list[str] = []
    for char in text:
        if unicodedata.category(char) == "Cc" and char not in allowed:
            code = f"U+{ord(char):04X}"
            if code not in found:
                found.append(code)
    return found


def normalise_all(value: Any) -> Any:
    """``value`` (as ``json.loads`` returns it: dicts, lists, text, numbers...) with every
    text in it, dict keys included, composed to NFC by :func:`normalise`; other values
    are kept as they are. Returns new containers; recursion is bounded by the reader's
    nesting limit (``scoring.interchange.limits``).

    >>> normalise_all({"name": "Nu\u0301ria", "n": [1, "Jose\u0301"]})
    {'name': 'Núria', 'n': [1, 'José']}
    """
    if isinstance(value, str):
        return normalise(value)
    if isinstance(value, dict):
        return {normalise_all(k): normalise_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise_all(item) for item in value]
    return value
