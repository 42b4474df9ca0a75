"""Travellers: every table's result on a board, with the deal (issue 5).

One board per page (continued on the next page when the tables do not fit): the deal
diagram at the top, then a row per table: pairs, trump, doubles, points taken, hand
scores and comparative points. ``build.py`` leaves out every board still hidden from the
public (issue 4's rule), so the renderer prints what it is given.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from tournaments.reports.board_sheets import draw_deal
from tournaments.reports.documents import Traveller, Travellers
from tournaments.reports.pdf import (
    MARGIN,
    PAGE_WIDTH,
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

DEAL_HEIGHT = 230.0


def render_travellers(document: Travellers, on_page: OnPage | None = None) -> bytes:
    """The PDF of the travellers, one board per page. ``on_page(done, estimated_total)``."""
    lang = Lang.of(document.header.language)
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=f"{header.championship} · {lang('traveller')}", lang=lang,
                   numbered=True, footer=header.championship)
    page_done = page_counter(on_page, max(1, len(document.travellers)))

    if not document.travellers:
        heading(c, header.championship, lang("hidden_note"), lang)
        c.showPage()
    for traveller in document.travellers:
        _traveller(c, document, traveller, lang, page_done)
    c.save()
    return buffer.getvalue()


def _traveller(
    c: canvas.Canvas, document: Travellers, traveller: Traveller, lang: Lang, page_done: object
) -> None:
    header = document.header
    title = (
        f"{lang('traveller')} · {lang('board')} {traveller.board} · "
        f"{lang('round')} {traveller.round}"
    )
    first = True

    def page_top(cv: canvas.Canvas) -> float:
        nonlocal first
        y = heading(cv, title, header.championship, lang)
        if first and traveller.deal is not None:
            first = False
            draw_deal(cv, traveller.deal, traveller.board,
                      (MARGIN + 40, y - DEAL_HEIGHT, PAGE_WIDTH - 2 * MARGIN - 80, DEAL_HEIGHT),
                      lang, card_size=10.5)
            return y - DEAL_HEIGHT - 10
        first = False
        return y

    ns, ew = lang.side("NS"), lang.side("EW")
    writer = TableWriter(
        c,
        [
            Column(lang("table"), 0.7, "right"),
            Column(ns, 0.6, "right"),
            Column(ew, 0.6, "right"),
            Column(lang("trump"), 1.3, "left"),
            Column(lang("doubles"), 1.0, "left"),
            Column(f"{lang('points')} {ns}", 0.8, "right"),
            Column(f"{lang('points')} {ew}", 0.8, "right"),
            Column(f"{lang('score')} {ns}", 0.9, "right"),
            Column(f"{lang('score')} {ew}", 0.9, "right"),
            Column(f"{lang('comparative')} {ns}", 1.1, "right"),
            Column(f"{lang('comparative')} {ew}", 1.1, "right"),
            Column("", 1.2, "left", lines=2),
        ],
        page_top=page_top,
        row_height=18.0,
        size=8.5,
        on_page_done=page_done,  # type: ignore[arg-type]
    )
    writer.start_page()
    for i, row in enumerate(traveller.rows):
        trump = lang.trump(row.trump)
        if row.delegated:
            trump += " (D)"
        writer.row(
            [
                str(row.table),
                str(row.ns_pair),
                str(row.ew_pair),
                trump,
                row.doubles,
                "" if row.ns_points_taken is None else str(row.ns_points_taken),
                "" if row.ew_points_taken is None else str(row.ew_points_taken),
                fmt_score(row.ns_score),
                fmt_score(row.ew_score),
                fmt_points(row.ns_comparative, lang),
                fmt_points(row.ew_comparative, lang),
                row.note,
            ],
            shade=i % 2 == 1,
        )
    writer.finish_page()
