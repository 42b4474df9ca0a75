"""Comparative points as the interchange file writes them, for pages and the API.

The app must show the same numbers as ``python -m scoring`` on the exported file, so
both use ``scoring.interchange.export_number`` (4 decimals, half up) and whole numbers
under ``floor`` rounding (docs/file-format.md "Export adds").
"""

from __future__ import annotations

from fractions import Fraction

from scoring.interchange import export_number
from scoring.model import Rounding, ScoringRules


def comparative_out(value: Fraction, rules: ScoringRules) -> int | float:
    """A comparative total or per-board value as the export writes it."""
    if rules.rounding is Rounding.FLOOR and value.denominator == 1:
        return int(value)
    if value.denominator == 1:
        return int(value)
    return export_number(value)


def average_out(value: Fraction) -> float:
    """A standings average as the export writes it (4 decimals)."""
    return export_number(value)
