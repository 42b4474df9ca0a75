"""Template filters for the double-dummy table on the traveller
(``selectors.DoubleDummy``); they write marks, the read model computes the numbers."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def dd_mark(difference: int | None) -> SafeString | str:
    """A result's mark against the double-dummy value of its declaration, in NS's
    points, from the traveller row's ``dd_difference`` (``DoubleDummy.difference``):
    ``+4`` (NS took more than perfect play gives them), ``−3`` (fewer), ``=`` (the
    same), with a title saying it in words. Empty for ``None`` (no table, an adjusted
    score, an infraction or a result without trump).
    """
    if difference is None:
        return ""
    if difference == 0:
        kind, text = "equal", "="
    elif difference > 0:
        kind, text = "above", f"+{difference}"
    else:
        kind, text = "below", f"\u2212{-difference}"
    title = _("Punts NS respecte a l'anàlisi a cartes vistes: %(difference)s") % {
        "difference": "0" if difference == 0 else text}
    return format_html(
        '<span class="dd-mark dd-{}" title="{}"><span aria-hidden="true">{}</span>'
        '<span class="sr-only">{}</span></span>',
        kind, title, text, title,
    )
