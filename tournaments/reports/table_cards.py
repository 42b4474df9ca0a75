"""Table cards: one big card per table of a round, to stand on the table so that the
pairs find their seats from across the room. A4 landscape, one card a page: the table's
number very large, then the NS and the EW pair (number large, players below) and the
boards played there. The whole card is readable at a few metres: the table number at
150 pt, the pairs at 40 pt. A classic championship's card has no boards: the game's
rules instead (target, deal and time limits, cap, doubles, variant), the number at
120 pt to leave them room.

``build.table_cards`` makes the document from the round's seating
(``selectors.seating.round_seating``); this module only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from tournaments.reports import labels
from tournaments.reports.documents import TableCard, TableCards
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT_BOLD
from tournaments.reports.pages import GREY, LIGHT, MARGIN, OnPage, new_canvas, page_counter
from tournaments.reports.qr import draw_qr

WIDTH, HEIGHT = landscape(A4)
#: Font sizes, in points: the table's number, the pairs' lines, the players' names.
NUMBER_SIZE = 150.0
PAIR_SIZE = 40.0
PLAYERS_SIZE = 22.0
#: A classic card's table number, and its rules' lines.
CLASSIC_NUMBER_SIZE = 120.0
RULES_SIZE = 16.0
#: The table's link under its QR code.
LINK_SIZE = 9.0


def render_table_cards(document: TableCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the table cards, one A4 landscape page per table, labels in the active
    language (``render.render`` sets the document's). ``on_page(done, total)``."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Rètols de taula · Ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer,
                   pagesize=landscape(A4))
    draw_table_cards(c, document, page_counter(on_page, len(document.cards)))
    c.save()
    return buffer.getvalue()


def draw_table_cards(c: canvas.Canvas, document: TableCards,
                     page_done: Callable[[], None]) -> None:
    """Draw the cards on ``c``, one A4 landscape page each, calling ``page_done`` after
    each page."""
    c.setPageSize(landscape(A4))
    for card in document.cards:
        _card(c, document, card)
        c.showPage()
        page_done()


def _card(c: canvas.Canvas, document: TableCards, card: TableCard) -> None:
    usable = WIDTH - 2 * MARGIN
    top = HEIGHT - MARGIN
    draw_fitted(c, document.header.championship, MARGIN, top - 24, usable * 0.7, 24,
                size=14, max_lines=1, colour=GREY)
    draw_fitted(c, _("Ronda %(n)s") % {"n": document.round}, MARGIN + usable * 0.7,
                top - 24, usable * 0.3, 24, font=FONT_BOLD, size=18, align="right",
                max_lines=1)
    number_size = NUMBER_SIZE if document.rules is None else CLASSIC_NUMBER_SIZE
    number_h = number_size * 1.2
    y = top - 30 - number_h
    number_w = usable
    if card.link:
        # The table's QR code at the right of its number, the link printed under it.
        qr_side = number_h - LINK_SIZE * 1.6
        draw_qr(c, card.link, MARGIN + usable - qr_side, y + LINK_SIZE * 1.6, qr_side)
        draw_fitted(c, card.link, MARGIN + usable * 0.4, y, usable * 0.6, LINK_SIZE * 1.5,
                    size=LINK_SIZE, align="right", max_lines=1)
        number_w = usable - qr_side - 12
    draw_fitted(c, _("Taula %(n)s") % {"n": card.table}, MARGIN, y, number_w, number_h,
                font=FONT_BOLD, size=number_size, align="center", max_lines=1)
    line_h = PAIR_SIZE * 1.3 + PLAYERS_SIZE * 1.4
    for side, pair, players in (("NS", card.ns_pair, card.ns_players),
                                ("EW", card.ew_pair, card.ew_players)):
        y -= line_h + 8
        c.setFillColor(LIGHT)
        c.roundRect(MARGIN, y, usable, line_h, 8, stroke=0, fill=1)
        c.setFillColor(black)
        draw_fitted(c, _("%(side)s: Parella %(pair)s") % {"side": labels.side(side),
                                                         "pair": pair},
                    MARGIN + 12, y + PLAYERS_SIZE * 1.4, usable - 24, PAIR_SIZE * 1.3,
                    font=FONT_BOLD, size=PAIR_SIZE, max_lines=1)
        draw_fitted(c, players, MARGIN + 12, y + 2, usable - 24, PLAYERS_SIZE * 1.4,
                    size=PLAYERS_SIZE, max_lines=1)
    if document.rules is not None:
        _rules(c, document.rules.lines, y - 8)
    if card.boards:
        y -= PAIR_SIZE * 1.4 + 6
        draw_fitted(c, _("Taulers %(boards)s") % {"boards": card.boards}, MARGIN, y, usable,
                    PAIR_SIZE * 1.3, font=FONT_BOLD, size=PAIR_SIZE * 0.8, align="center",
                    max_lines=1)


def _rules(c: canvas.Canvas, lines: tuple[str, ...], top: float) -> None:
    """A classic game's rules under the pairs, two columns of lines from ``top`` down to
    the footer, each fitted to its box."""
    usable = WIDTH - 2 * MARGIN
    per_column = -(-len(lines) // 2)
    line_h = min(RULES_SIZE * 1.4, (top - MARGIN - 14) / max(per_column, 1))
    for i, line in enumerate(lines):
        column, row = divmod(i, per_column)
        draw_fitted(c, line, MARGIN + column * usable / 2, top - (row + 1) * line_h,
                    usable / 2, line_h, size=RULES_SIZE, max_lines=1)
