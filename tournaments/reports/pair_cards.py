"""A classic championship's pair cards: one pair per page (continued when it does not
fit), a line per round with the table, the opponent, the score (the pair's points
first; the counted points in brackets when the cap cut them), the result, the running
wins and the rank after the round, the columns and words of the pair card page. With
``through_round`` rounds 1..N only.

``build.pair_cards`` makes the document from ``selectors.classic.pair_card``; this module
only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import PairCard, PairCards
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.pages import (
    GREY,
    MARGIN,
    PAGE_WIDTH,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)
from tournaments.reports.score_cards import card_page_top
from tournaments.reports.tables import Column, TableWriter

#: The line under the rounds saying what the bracketed points are.
NOTE_HEIGHT = 14.0


def render_pair_cards(document: PairCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the pair cards, one pair per page, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, estimated_total)``."""
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=_("%(championship)s · Fulls de puntuació") % {
                       "championship": header.championship},
                   numbered=True, footer=header.footer, note=header.missing)
    page_done = page_counter(on_page, max(1, len(document.cards)))
    if not document.cards:
        heading(c, header.championship, _("Full de puntuació"))
        c.showPage()
    for card in document.cards:
        _card(c, document, card, page_done)
    c.save()
    return buffer.getvalue()


def _card(c: canvas.Canvas, document: PairCards, card: PairCard,
          page_done: Callable[[], None]) -> None:
    page_top = card_page_top(document, card)

    writer = TableWriter(
        c,
        [
            Column(_("Ronda"), 0.7, "right"),
            Column(_("Taula"), 0.7, "right"),
            Column(_("Rival"), 3.0, "left", lines=2),
            Column(_("Punts"), 1.8, "center"),
            Column(_("Resultat"), 1.2, "left"),
            Column(_("Partides guanyades"), 1.2, "right"),
            Column(_("Posició"), 0.9, "right"),
        ],
        page_top=page_top,
        row_height=20.0,
        on_page_done=page_done,
    )
    writer.start_page()
    for i, line in enumerate(card.lines):
        rival = "—" if line.opponent is None else _("%(pair)s: %(players)s") % {
            "pair": line.opponent, "players": line.opponent_players}
        writer.row(
            [str(line.round), "—" if line.table is None else str(line.table), rival,
             line.score, line.result, line.wins_after, line.rank_after],
            shade=i % 2 == 1,
        )
    if document.cap_note:
        if writer.space_left() < NOTE_HEIGHT + 4:
            writer.finish_page()
            writer.start_page()
        top = writer.y if writer.y is not None else MARGIN + NOTE_HEIGHT
        draw_fitted(c, document.cap_note, MARGIN, top - NOTE_HEIGHT - 4,
                    PAGE_WIDTH - 2 * MARGIN, NOTE_HEIGHT, size=8.5, max_lines=1,
                    colour=GREY)
    writer.finish_page()
