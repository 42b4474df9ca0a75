"""Short, printable renderings of raw input values for the scorer's English messages.

A value read from a file can be anything JSON holds, including text of any length and
integers of thousands of digits; a message shows it briefly and never recursively.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
