"""Score cards: one pair's boards with opponents, direction, result, comparative points
and the running total. One pair per page (continued when it does not fit);
with ``through_round`` only the boards of rounds 1..N (the rounds the standings after
round N count).
``build.py`` leaves out the boards still hidden from the public (docs/decisions.md 16)."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports import labels
from tournaments.reports.documents import PairCard, PairCards, ScoreCard, ScoreCards
from tournaments.reports.formats import fmt_points, fmt_score
from tournaments.reports.pages import OnPage, heading, new_canvas, page_counter
from tournaments.reports.tables import Column, TableWriter


def render_score_cards(document: ScoreCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the score cards, one pair per page, labels in the active language
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


def card_page_top(document: ScoreCards | PairCards, card: ScoreCard | PairCard
                  ) -> Callable[[canvas.Canvas], float]:
    """The heading of each page of a pair's card (duplicate or classic): the pair and
    its players, the championship, the scope and the rules."""
    title = _("Full de puntuació · Parella %(pair)s: %(players)s") % {
        "pair": card.pair, "players": card.players}

    def page_top(cv: canvas.Canvas) -> float:
        subtitle = document.header.championship
        if document.through_round:
            subtitle += " · " + _("després de la ronda %(n)s") % {"n": document.through_round}
        if document.header.rules_summary:
            subtitle += " · " + document.header.rules_summary
        return heading(cv, title, subtitle)

    return page_top


def _card(c: canvas.Canvas, document: ScoreCards, card: ScoreCard, page_done: object
          ) -> None:
    page_top = card_page_top(document, card)

    writer = TableWriter(
        c,
        [
            Column(_("Ronda"), 0.7, "right"),
            Column(_("Tauler"), 0.8, "right"),
            Column(_("Línia"), 0.9, "center"),
            Column(_("Rival"), 2.7, "left", lines=2),
            Column(_("Joc"), 1.6, "left"),
            Column(_("Resultat"), 0.9, "right"),
            Column(_("Comparatiu"), 1.3, "right"),
            Column(_("Acumulat"), 1.1, "right"),
        ],
        page_top=page_top,
        row_height=20.0,
        on_page_done=page_done,  # type: ignore[arg-type]  # reportlab calls it with the canvas
    )
    writer.start_page()
    for i, row in enumerate(card.rows):
        writer.row(
            [
                str(row.round),
                str(row.board),
                labels.side(row.direction),
                _("%(pair)s: %(players)s") % {"pair": row.opponents,
                                              "players": row.opponent_players},
                row.result,
                fmt_score(row.score),
                row.comparative_text or fmt_points(row.comparative),
                row.running_total_text or fmt_points(row.running_total),
            ],
            shade=i % 2 == 1,
        )
    writer.row(["", "", "", "", _("Total"), "", "", card.total_text or fmt_points(card.total)],
               bold=True)
    writer.finish_page()
