"""Errors of the scorer, all ``ValueError`` subclasses split by cause."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class ScoringError(ValueError):
    """Base class of every error ``scoring`` raises on bad input."""


class ResultError(ScoringError):
    """A result the scorer cannot use: an impossible hand score, a played result without
    trump or points, both an infraction and an adjustment, the same key twice...

    ``problems``: the ``scoring.validate.Problem`` list behind it, when it comes from
    ``scoring.validate`` (else empty).
    """

    def __init__(self, message: str, *, problems: Iterable[object] = ()) -> None:
        super().__init__(message)
        self.problems: list[Any] = list(problems)


class InterchangeError(ScoringError):
    """A championship interchange file that breaks the spec (docs/file-format.md).

    ``problems``: every problem found, each ``"JSON path: message"``, e.g.
    ``rounds[1].tables[3].results[0].ns_points_taken: 73 is not in 0..72``.
    """

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: list[str] = list(problems)
        super().__init__("; ".join(self.problems) or "invalid championship file")
