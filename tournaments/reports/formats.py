"""Numbers as the documents print them, in the active language (the renderers run inside
``translation.override`` of the document's language, ``render.render``) or in
``language`` when given.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils import translation
from django.utils.formats import number_format


def _number(number: Decimal, language: str | None, decimal_pos: int | None = None) -> str:
    if language is None:
        return str(number_format(number, decimal_pos=decimal_pos))
    with translation.override(language):
        return str(number_format(number, decimal_pos=decimal_pos))


def fmt_points(value: float | None, language: str | None = None) -> str:
    """Comparative points, totals and averages as the web shows them: the value the
    export writes (``tournaments.numbers``: an ``int`` when whole, else at most 4
    decimals) through Django's ``number_format`` like the pages' ``points`` filter, so
    ``1,5682`` in Catalan and Spanish, ``1.5682`` in English; blank for ``None``. A
    float with more than 4 decimals (a document not built by ``build``) is rounded half
    up to 4.

    >>> fmt_points(1.5682, "ca"), fmt_points(1.5682, "en"), fmt_points(3, "ca")
    ('1,5682', '1.5682', '3')
    """
    if value is None:
        return ""
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    exponent = number.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        number = number.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    return _number(number, language)


def fmt_percent(value: float, language: str | None = None) -> str:
    """A percentage with one decimal and the language's separator: ``56,3``."""
    return _number(Decimal(f"{value:.1f}"), language, decimal_pos=1)


def fmt_score(value: int | None) -> str:
    """A signed hand score: ``+9``, ``-12``, ``0``; blank when not played."""
    if value is None:
        return ""
    return f"{value:+d}" if value else "0"
