"""Score cards: one pair's boards with opponents, direction, result, comparative points
and the running total (issue 5). One pair per page (continued when it does not fit);
with ``through_round`` only the boards of rounds 1..N (the rounds the standings after
round N count).
``build.py`` leaves out the boards still hidden from the public (issue 4's rule)."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from tournaments.reports.documents import ScoreCard, ScoreCards
from tournaments.reports.pdf import (
    Column,
    Lang,
    OnPage,
    TableWriter,
    fmt_points,
    fmt_score,
    heading,
    new_canvas,
    page_counter,
)


def render_score_cards(document: ScoreCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the score cards, one pair per page. ``on_page(done, estimated_total)``."""
    lang = Lang.of(document.header.language)
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=f"{header.championship} · {lang('score_card')}", lang=lang,
                   numbered=True, footer=header.championship)
    page_done = page_counter(on_page, max(1, len(document.cards)))

    if not document.cards:
        heading(c, header.championship, lang("score_card"), lang)
        c.showPage()
    for card in document.cards:
        _card(c, document, card, lang, page_done)
    c.save()
    return buffer.getvalue()


def _card(c: canvas.Canvas, document: ScoreCards, card: ScoreCard, lang: Lang,
          page_done: object) -> None:
    title = f"{lang('score_card')} · {lang('pair')} {card.pair}: {card.players}"

    def page_top(cv: canvas.Canvas) -> float:
        subtitle = document.header.championship
        if document.through_round:
            subtitle += " · " + lang("through_round", round=document.through_round)
        if document.header.rules_summary:
            subtitle += " · " + document.header.rules_summary
        return heading(cv, title, subtitle, lang)

    writer = TableWriter(
        c,
        [
            Column(lang("round"), 0.7, "right"),
            Column(lang("board"), 0.8, "right"),
            Column(lang("direction"), 0.6, "center"),
            Column(lang("opponents"), 3.0, "left", lines=2),
            Column(lang("result"), 1.6, "left"),
            Column(lang("score"), 0.9, "right"),
            Column(lang("comparative"), 1.3, "right"),
            Column(lang("running_total"), 1.1, "right"),
        ],
        page_top=page_top,
        row_height=20.0,
        on_page_done=page_done,  # type: ignore[arg-type]
    )
    writer.start_page()
    for i, row in enumerate(card.rows):
        writer.row(
            [
                str(row.round),
                str(row.board),
                lang.side(row.direction),
                f"{row.opponents}: {row.opponent_players}",
                row.result,
                fmt_score(row.score),
                fmt_points(row.comparative, lang),
                fmt_points(row.running_total, lang),
            ],
            shade=i % 2 == 1,
        )
    writer.row(["", "", "", "", lang("total"), "", "", fmt_points(card.total, lang)],
               bold=True)
    writer.finish_page()
