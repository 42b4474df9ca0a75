"""Numbers as the read models carry them for reading: the same text on the
page, its live fragment, the hall screen and the PDF (the API sends the numbers).

Text depends on the active language (its decimal separator): a read model is built
inside the language it is shown in (a page's request, a PDF's ``translation.override``).
Nothing here computes a score: each function writes one value ``scoring`` computed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.translation import get_language

import scoring
from scoring.championship import percentage
from scoring.interchange import export_number
from tournaments.numbers import comparative_out

#: Decimals shown at most in the standings' totals and averages (the same number down a
#: column; the exact values are in the API and the export).
MAX_DECIMALS = 2
#: Decimals of a percentage of the scale.
PERCENT_DECIMALS = 1


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def number_formatter(places: int | None) -> Callable[[Decimal], str]:
    """``number_format(value, decimal_pos=places)`` with the language's formats looked
    up once, for a whole column (looking them up per value cost more than the rest of
    the standings' formatting). ``places=None`` writes the decimals the value has."""
    language = get_language()
    separator = get_format("DECIMAL_SEPARATOR", language, use_l10n=True)
    grouping = get_format("NUMBER_GROUPING", language, use_l10n=True)
    thousands = get_format("THOUSAND_SEPARATOR", language, use_l10n=True)

    def formatted(value: Decimal) -> str:
        return str(numberformat.format(value, separator, places, grouping, thousands,
                                       use_l10n=True))

    return formatted


def _exact(values: Iterable[Fraction | None],
           rules: scoring.ScoringRules) -> list[Decimal | None]:
    return [None if v is None else Decimal(str(comparative_out(Fraction(v), rules)))
            for v in values]


def column_places(values: Iterable[Fraction | None], rules: scoring.ScoringRules,
                  *, cap: int = MAX_DECIMALS) -> int:
    """The decimals :func:`column` writes ``values`` with: as many as the value that
    needs most (the export's value), at most ``cap``.

    >>> from scoring.model import ScoringRules
    >>> column_places([Fraction(3, 2), Fraction(2), Fraction(1, 3), None], ScoringRules())
    2
    """
    return min(cap, max((_decimals(v) for v in _exact(values, rules) if v is not None),
                        default=0))


def column(values: Iterable[Fraction | None], rules: scoring.ScoringRules,
           *, cap: int = MAX_DECIMALS, places: int | None = None) -> list[str]:
    """Comparative totals or averages with the same number of decimals down the column:
    as many as the value that needs most (the export's value, ``tournaments.numbers``),
    at most ``cap`` (:func:`column_places`; ``places``: that number given, for values
    that must read like another column), rounded half up, with the language's
    separator; ``—`` for ``None``.

    >>> from scoring.model import ScoringRules
    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     column([Fraction(3, 2), Fraction(2), None], ScoringRules())
    ['1.5', '2.0', '—']
    """
    exact = _exact(values, rules)
    if places is None:
        places = min(cap, max((_decimals(v) for v in exact if v is not None), default=0))
    quantum = Decimal(1).scaleb(-places)
    formatted = number_formatter(places)
    return [
        "—" if v is None else formatted(v.quantize(quantum, rounding=ROUND_HALF_UP))
        for v in exact
    ]


def percent_value(average: Fraction, rules: scoring.ScoringRules) -> float:
    """``scoring.percentage`` of ``average`` rounded half up to one decimal, 0..100.

    >>> from scoring.model import ScoringRules
    >>> percent_value(Fraction(8, 5), ScoringRules()), percent_value(Fraction(1), ScoringRules())
    (60.0, 0.0)
    """
    return export_number(percentage(average, rules), places=PERCENT_DECIMALS)


def percent_column(values: Iterable[float | None]) -> list[str]:
    """Percentages (:func:`percent_value`) with one decimal and the language's
    separator; ``—`` for ``None``.

    >>> from django.utils import translation
    >>> with translation.override("ca"):
    ...     percent_column([60.0, 56.3, None])
    ['60,0', '56,3', '—']
    """
    formatted = number_formatter(PERCENT_DECIMALS)
    return ["—" if v is None else formatted(Decimal(str(v))) for v in values]


def points_text(value: Fraction | None, rules: scoring.ScoringRules) -> str:
    """One comparative value (a board's points, a card's total) as the export writes it
    (``tournaments.numbers``: whole, or at most 4 decimals) with the language's
    separator; ``—`` for ``None``.

    >>> from scoring.model import ScoringRules
    >>> from django.utils import translation
    >>> with translation.override("ca"):
    ...     points_text(Fraction(47, 32), ScoringRules()), points_text(Fraction(2), ScoringRules())
    ('1,4688', '2')
    """
    if value is None:
        return "—"
    return number_formatter(None)(Decimal(str(comparative_out(Fraction(value), rules))))
