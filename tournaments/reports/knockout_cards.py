"""The cards of a knockout round's matches: one card per seated match, two to an A4
portrait page (cut along the dashed line).

A card says where (the championship's round and the table) and what match it is, in the
bracket's words ("Quarts de final, partida 3"); then the two pairs (NS first, number and
players) with a box for each pair's points and one to tick the winner; the deals
played; the game's rules, and what a level game does (a knockout game cannot end
level); the signatures. The deal by deal is kept on the round's score sheets.

``build_stages.knockout_cards`` makes the document from ``selectors.stages.
bracket_view`` and the round's seatings; this module only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.pdfgen import canvas

from tournaments.reports import labels
from tournaments.reports.documents import KnockoutCard, KnockoutCards
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT_BOLD
from tournaments.reports.pages import (
    GREY,
    LIGHT,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)
from tournaments.reports.qr import draw_qr

#: Cards on a page, one above the other.
PER_PAGE = 2
#: A pair's line on the card.
PAIR_ROW = 34.0
#: The side of a card's QR code (the table's link), in points.
QR_SIDE = 70.0


def page_count(document: KnockoutCards) -> int:
    """Pages of the cards: :data:`PER_PAGE` a page, one page saying so when none."""
    return max(1, -(-len(document.cards) // PER_PAGE))


def render_knockout_cards(document: KnockoutCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the cards, two a page, labels in the active language (``render.
    render`` sets the document's). ``on_page(done, total)`` after each page."""
    buffer = io.BytesIO()
    header = document.header
    c = new_canvas(buffer, title=_("%(championship)s · Fulls de les eliminatòries · Ronda "
                                   "%(round)s") % {"championship": header.championship,
                                                   "round": document.round},
                   numbered=True, footer=header.footer)
    page_done = page_counter(on_page, page_count(document))
    draw_knockout_cards(c, document, page_done)
    c.save()
    return buffer.getvalue()


def draw_knockout_cards(c: canvas.Canvas, document: KnockoutCards,
                        page_done: Callable[[], None]) -> None:
    """Draw the cards on ``c``, :data:`PER_PAGE` to a page, calling ``page_done`` after
    each page."""
    if not document.cards:
        heading(c, document.header.championship,
                _("Cap partida de les eliminatòries sortejada a la ronda %(round)s.")
                % {"round": document.round})
        c.showPage()
        page_done()
        return
    bottom_margin = MARGIN + 8  # the footer's lines
    height = (PAGE_HEIGHT - MARGIN - bottom_margin) / PER_PAGE
    for start in range(0, len(document.cards), PER_PAGE):
        for i, card in enumerate(document.cards[start:start + PER_PAGE]):
            top = PAGE_HEIGHT - MARGIN - i * height
            _card(c, document, card, top, height)
            if i + 1 < PER_PAGE:
                c.setDash(4, 3)
                c.setStrokeColor(GREY)
                c.line(MARGIN / 2, top - height, PAGE_WIDTH - MARGIN / 2, top - height)
                c.setDash()
                c.setStrokeColor(black)
        c.showPage()
        page_done()


def _card(c: canvas.Canvas, document: KnockoutCards, card: KnockoutCard, top: float,
          height: float) -> None:
    usable = PAGE_WIDTH - 2 * MARGIN
    y = top - 20
    draw_fitted(c, document.header.championship, MARGIN, y, usable * 0.55, 20,
                font=FONT_BOLD, size=11, max_lines=1, colour=GREY)
    draw_fitted(c, _("Ronda %(round)s · Taula %(table)s") % {"round": card.round,
                                                              "table": card.table},
                MARGIN + usable * 0.55, y, usable * 0.45, 20, font=FONT_BOLD, size=14,
                align="right", max_lines=1)
    y -= 30
    draw_fitted(c, card.title, MARGIN, y, usable, 30, font=FONT_BOLD, size=20,
                align="center", max_lines=1)
    # The pairs, their points and the winner.
    widths = [usable * 0.17, usable * 0.5, usable * 0.17, usable * 0.16]
    y -= 22
    c.setFillColor(LIGHT)
    c.rect(MARGIN, y, usable, 18, stroke=0, fill=1)
    c.setFillColor(black)
    x = MARGIN
    for label, w in zip((_("Parella"), _("Jugadors"), _("Punts"), _("Guanyador")), widths,
                        strict=True):
        draw_fitted(c, label, x, y, w, 18, font=FONT_BOLD, size=9, align="center",
                    max_lines=1)
        x += w
    for side, pair, players in (("NS", card.ns_pair, card.ns_players),
                                ("EW", card.ew_pair, card.ew_players)):
        y -= PAIR_ROW
        x = MARGIN
        c.setStrokeColor(GREY)
        for w in widths:
            c.rect(x, y, w, PAIR_ROW, stroke=1, fill=0)
            x += w
        c.setStrokeColor(black)
        draw_fitted(c, _("%(side)s: Parella %(pair)s") % {"side": labels.side(side),
                                                           "pair": pair},
                    MARGIN, y, widths[0], PAIR_ROW, font=FONT_BOLD, size=11, max_lines=2,
                    align="center")
        draw_fitted(c, players, MARGIN + widths[0], y, widths[1], PAIR_ROW, size=11,
                    max_lines=2)
        box = 16.0
        c.rect(MARGIN + sum(widths[:3]) + (widths[3] - box) / 2, y + (PAIR_ROW - box) / 2,
               box, box, stroke=1, fill=0)
    y -= 26
    blank = "________"
    draw_fitted(c, f"{_('Mans jugades')}: {blank}", MARGIN, y, usable, 20, font=FONT_BOLD,
                size=11, max_lines=1)
    if document.level:
        y -= 18
        draw_fitted(c, document.level, MARGIN, y, usable, 18, font=FONT_BOLD, size=10,
                    max_lines=2)
    # The rules on two lines, cut between rules.
    half = -(-len(document.rules) // 2)
    for part in (document.rules[:half], document.rules[half:]):
        if part:
            y -= 13
            draw_fitted(c, " · ".join(part), MARGIN, y, usable, 13, size=8.5,
                        max_lines=1, colour=GREY)
    # The signatures, at the card's foot.
    foot = top - height + 22
    if card.link:
        # The table's QR code above the signatures, at the right, its link under it.
        draw_qr(c, card.link, MARGIN + usable - QR_SIDE, foot + 34, QR_SIDE)
        draw_fitted(c, card.link, MARGIN + usable * 0.3, foot + 21, usable * 0.7, 11,
                    size=7, align="right", max_lines=1, colour=GREY)
    ns, ew = labels.side("NS"), labels.side("EW")
    signers = (_("Signatura %(side)s") % {"side": ns}, _("Signatura %(side)s") % {"side": ew},
               _("Àrbitre"))
    third = usable / 3
    for i, signer in enumerate(signers):
        left = MARGIN + i * third
        c.setStrokeColor(GREY)
        c.line(left + 4, foot + 12, left + third - 12, foot + 12)
        c.setStrokeColor(black)
        draw_fitted(c, signer, left, foot - 2, third - 12, 14, size=9, max_lines=1,
                    colour=GREY)
