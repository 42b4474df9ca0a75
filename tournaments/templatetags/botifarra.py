"""Template filters for the field's words: suits with colours, sides, seats, points."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.models import Championship
from tournaments.numbers import average_out
from tournaments.selectors.formats import points_text

register = template.Library()


def _trump_names() -> dict[str, str]:
    return {
        "O": _("Oros"), "C": _("Copes"), "E": _("Espases"), "B": _("Bastos"),
        "botifarra": _("Botifarra"),
    }


@register.filter
def trump(code: Any) -> SafeString | str:
    """``"O"`` -> the suit's name in its colour (oros gold, copes red, espases blue,
    bastos green); ``"botifarra"`` -> Botifarra; empty -> a dash."""
    if not code:
        return "—"
    text = str(getattr(code, "value", code))
    return format_html(
        '<span class="suit suit-{}">{}</span>', text, _trump_names().get(text, text)
    )


@register.filter
def side(code: Any) -> str:
    """``"NS"``/``"EW"`` (or a Side) as the UI writes it: NS / EO in Catalan."""
    text = str(getattr(code, "value", code) or "")
    return {"NS": _("NS"), "EW": _("EO")}.get(text, text)


@register.filter
def seat(code: Any) -> str:
    """A seat letter as the UI writes it (W is O, Oest, in Catalan)."""
    text = str(getattr(code, "value", code) or "")
    return {"N": _("N"), "E": _("E"), "S": _("S"), "W": _("O")}.get(text, text)


@register.filter
def points(value: Fraction | None, championship: Championship) -> str:
    """Comparative points as the export writes them (docs/file-format.md "Export
    adds"), with the language's decimal separator: the read models' own text
    (``selectors.formats.points_text``)."""
    return points_text(value, championship.scoring_rules())


@register.filter
def average(value: Fraction | None) -> str:
    if value is None:
        return "—"
    return number_format(Decimal(str(average_out(Fraction(value)))))


@register.filter
def signed(value: int | None) -> str:
    """A hand score with its sign (+9, -12, 0)."""
    if value is None:
        return "—"
    return f"+{value}" if value > 0 else str(value)


@register.filter
def item(mapping: Any, key: Any) -> Any:
    """``mapping[key]``, or ``()`` when absent (``{% for n in byes|item:p.number %}``)."""
    try:
        return mapping[key]
    except (KeyError, TypeError, IndexError):
        return ()
