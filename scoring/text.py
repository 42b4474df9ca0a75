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

#: Characters refused as control characters although Unicode does not class them ``Cc``:
#: the line and paragraph separators (U+2028, U+2029: a line break no form shows), and the
#: bidirectional controls (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which turn the
#: text that follows them around on screen and on paper ("Anna" + U+202E + "lloP" shows
#: "AnnaPoll"). The zero-width joiner and non-joiner (U+200C, U+200D) are not among them:
#: emoji and some scripts need them.
FORMAT_CONTROLS = frozenset(
    "\u2028\u2029\u200e\u200f"
    + "".join(chr(code) for code in range(0x202A, 0x202F))
    + "".join(chr(code) for code in range(0x2066, 0x206A))
)


def normalise(text: str) -> str:
    r"""``text`` composed to Unicode NFC: ``"Nu\u0301ria"`` (``u`` + combining acute,
    as some keyboards and files send it) becomes ``"Núria"`` (one ``ú``), so that the
    same name typed two ways is one name, compares equal, and prints with the fonts'
    precomposed glyphs. Idempotent; any other character is kept as it is.

    >>> normalise("Nu\u0301ria") == "N\u00faria", len(normalise("Nu\u0301ria"))
    (True, 5)
    """
    return unicodedata.normalize("NFC", text)


def is_control(char: str) -> bool:
    r"""Whether ``char`` is a control character for this program: Unicode ``Cc``
    (U+0000..U+001F, U+007F..U+009F) or one of :data:`FORMAT_CONTROLS`.

    >>> is_control("\x07"), is_control("\u202e"), is_control("\u200d"), is_control("a")
    (True, True, False, False)
    """
    return unicodedata.category(char) == "Cc" or char in FORMAT_CONTROLS


def control_character_positions(
    text: str, *, allowed: frozenset[str] = frozenset()
) -> list[tuple[str, int]]:
    r"""The control characters of ``text`` (:func:`is_control`) other than ``allowed``,
    each once, in order of appearance, as ``(code, position)``: the code written
    ``U+0007``, the position (from 1) of its first appearance. Empty when the text is
    clean.

    >>> control_character_positions("ab\u202ec\x07\u202e")
    [('U+202E', 3), ('U+0007', 5)]
    """
    found: dict[str, int] = {}
    for index, char in enumerate(text):
        if char not in allowed and is_control(char):
            found.setdefault(f"U+{ord(char):04X}", index + 1)
    return list(found.items())


def control_characters(text: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    r"""The codes of :func:`control_character_positions`: each control character of
    ``text`` other than ``allowed`` once, in order of appearance, written ``U+0007``.

    >>> control_characters("a\x07b\tc\x00"), control_characters("Núria")
    (['U+0007', 'U+0009', 'U+0000'], [])
    >>> control_characters("a\tb\r\n", allowed=MULTILINE_CONTROLS)
    []
    >>> control_characters("Anna\u202ello\u2028"), control_characters("a\u200db\u200c")
    (['U+202E', 'U+2028'], [])
    """
    return [code for code, _position in control_character_positions(text, allowed=allowed)]


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
