"""The problem collector of :func:`scoring.interchange.load`: typed checks of JSON
values that report "JSON path: message" and go on, so every problem is listed."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from fractions import Fraction
from math import isfinite
from typing import Any, TypeVar

from scoring.interchange.document import PairDoc, RoundDoc
from scoring.interchange.limits import (
    MAX_NAME_LENGTH,
    MAX_NUMBER,
    MAX_PROBLEMS,
    MAX_SCALE,
    SCALE_PLACES,
)
from scoring.interchange.reader import join_path
from scoring.text import FORMAT_CONTROLS, OversizedNumber, brief, kind, show

E = TypeVar("E", bound=enum.Enum)

# C0 and C1 control characters (NUL breaks PostgreSQL), the line separators and
# bidirectional controls that scoring.text refuses too (FORMAT_CONTROLS), and lone
# surrogates (not UTF-8).
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff" + "".join(sorted(FORMAT_CONTROLS)) + "]"
)
MISSING = object()


class Reader:
    """Collects every problem with its JSON path instead of stopping at the first."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.count = 0

    def problem(self, path: str, message: str) -> None:
        self.count += 1
        if self.count <= MAX_PROBLEMS:
            self.problems.append(f"{path}: {brief(message)}")

    def report(self) -> list[str]:
        """The problems, the ones past MAX_PROBLEMS counted in a last line."""
        extra = self.count - len(self.problems)
        return self.problems + ([f"... and {extra} more problem(s)"] if extra else [])

    def obj(
        self,
        value: object,
        path: str,
        *,
        required: tuple[str, ...] = (),
        optional: tuple[str, ...] = (),
        ignored: frozenset[str] = frozenset(),
    ) -> dict[str, Any] | None:
        if not isinstance(value, Mapping):
            self.problem(path, f"must be an object, not {kind(value)}")
            return None
        known = set(required) | set(optional) | ignored
        for key in value:
            if key not in known:
                expected = ", ".join(sorted(set(required) | set(optional)))
                self.problem(join_path(path, str(key)), f"unknown key (expected one of {expected})")
        for key in required:
            if key not in value:
                self.problem(join_path(path, key), "is missing")
        return dict(value)

    def array(self, value: object, path: str) -> list[Any]:
        if value is MISSING or value is None:
            return []
        if not isinstance(value, list):
            self.problem(path, f"must be a list, not {kind(value)}")
            return []
        return value

    def integer(
        self, value: object, path: str, *, minimum: int | None = 1, maximum: int | None = None
    ) -> int | None:
        if isinstance(value, OversizedNumber):
            self.problem(path, f"{value} is out of range")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"must be a whole number, not {kind(value)}")
            return None
        if minimum is not None and value < minimum:
            self.problem(path, f"{show(value)} must be {minimum} or more")
            return None
        if maximum is not None and value > maximum:
            self.problem(path, f"{show(value)} must be {maximum} or less")
            return None
        return value

    def item_number(self, value: object, path: str) -> int | None:
        """A round, table, board or pair number: 1..MAX_NUMBER."""
        return self.integer(value, path, minimum=1, maximum=MAX_NUMBER)

    def text(
        self, value: object, path: str, *, empty: bool = False, max_length: int = MAX_NAME_LENGTH
    ) -> str | None:
        if not isinstance(value, str):
            self.problem(path, f"must be text, not {kind(value)}")
            return None
        if not empty and not value.strip():
            self.problem(path, "must not be empty")
            return None
        if len(value) > max_length:
            self.problem(path, f"{len(value)} characters, more than {max_length}")
            return None
        bad = _CONTROL.search(value)
        if bad is not None:
            self.problem(
                path, f"holds the control character {bad.group()!r} at {bad.start() + 1}"
            )
            return None
        return value

    def boolean(self, value: object, path: str) -> bool:
        if value is MISSING:
            return False
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, not {kind(value)}")
            return False
        return value

    def number(self, value: object, path: str) -> Fraction | None:
        if isinstance(value, OversizedNumber):
            self.problem(path, f"{value} is out of range")
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(path, f"must be a number, not {kind(value)}")
            return None
        if not isfinite(value):
            self.problem(path, f"{value} is not a finite number")
            return None
        # str() keeps the decimal the file wrote (0.1 stays 1/10, not the nearest binary).
        return Fraction(value) if isinstance(value, int) else Fraction(str(value))

    def scale_value(self, value: object, path: str) -> Fraction | None:
        """A scale value or infraction score: |x| < MAX_SCALE, at most SCALE_PLACES decimals
        (the database keeps 10 digits, 4 of them decimals)."""
        number = self.number(value, path)
        if number is None:
            return None
        if not -MAX_SCALE < number < MAX_SCALE:
            self.problem(path, f"{show(value)} is not between -{MAX_SCALE} and {MAX_SCALE}")
            return None
        if (number * 10**SCALE_PLACES).denominator != 1:
            self.problem(path, f"{show(value)} has more than {SCALE_PLACES} decimals")
            return None
        return number

    def choice(self, value: object, path: str, cls: type[E], default: E) -> E:
        if value is MISSING:
            return default
        for member in cls:
            if member.value == value:
                return member
        choices = ", ".join(str(m.value) for m in cls)
        self.problem(path, f"{show(value)} is not one of {choices}")
        return default


def check_field(rd: Reader, pairs: tuple[PairDoc, ...], rounds: tuple[RoundDoc, ...]) -> None:
    """A pair sits (or sits out) only in the rounds it belongs to: from its
    ``joined_round``, up to its ``withdrawn_after_round``."""
    by_number = {p.number: p for p in pairs}
    for i, pair in enumerate(pairs):
        if pair.withdrawn_after_round is not None and (
            pair.withdrawn_after_round < pair.joined_round - 1
        ):
            rd.problem(
                f"pairs[{i}].withdrawn_after_round",
                f"pair {pair.number} withdrew before round {pair.joined_round}, "
                "the round it joined",
            )
    for round_ in rounds:
        present = {p for t in round_.tables for p in (t.ns, t.ew)} | set(round_.byes)
        for number in sorted(present):
            member = by_number.get(number)
            if member is None:
                continue
            if round_.number < member.joined_round:
                rd.problem(
                    "rounds",
                    f"round {round_.number}: pair {number} plays before its joined_round "
                    f"{member.joined_round}",
                )
            elif (
                member.withdrawn_after_round is not None
                and round_.number > member.withdrawn_after_round
            ):
                rd.problem(
                    "rounds",
                    f"round {round_.number}: pair {number} plays after it withdrew "
                    f"(withdrawn_after_round {member.withdrawn_after_round})",
                )
