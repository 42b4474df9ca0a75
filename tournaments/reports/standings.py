"""Standings: overall and after each round (issue 5; championship-json.md "standings").

Columns: rank, pair number, players, total, boards, average, percentage. The header
gives the championship, its date and venue and a rules summary; every page is numbered
"Pàgina x de y". Each table starts on a new page.
"""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas

from tournaments.reports.documents import Standings, StandingsTable
from tournaments.reports.pdf import (
    Column,
    Lang,
    OnPage,
    TableWriter,
    fmt_percent,
    fmt_points,
    heading,
    new_canvas,
    page_counter,
)

ROW_HEIGHT = 17.0
ROWS_PER_PAGE = 40  # an estimate for the progress bar only


def render_standings(document: Standings, on_page: OnPage | None = None) -> bytes:
    """The PDF of the standings tables, as bytes. ``on_page(done, estimated_total)``."""
    lang = Lang.of(document.header.language)
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=f"{header.championship} · {lang('standings')}", lang=lang,
                   numbered=True, footer=header.championship)
    pages = sum(-(-max(len(t.rows), 1) // ROWS_PER_PAGE) for t in document.tables)
    page_done = page_counter(on_page, max(1, pages))

    subtitle = " · ".join(part for part in (header.date, header.venue, header.rules_summary)
                          if part)
    if document.progress:
        subtitle += " · " + lang("progress", progress=document.progress)

    for table in document.tables or (StandingsTable(lang("standings"), None, ()),):
        title = _title(table, lang)

        def page_top(cv: canvas.Canvas, title: str = title) -> float:
            y = heading(cv, header.championship, subtitle, lang)
            return heading(cv, title, "", lang, top=y + 4)

        writer = TableWriter(
            c,
            [
                Column(lang("rank"), 0.7, "right"),
                Column(lang("pair"), 0.8, "right"),
                Column(lang("players"), 4.6, "left", lines=2),
                Column(lang("total"), 1.1, "right"),
                Column(lang("boards"), 0.8, "right"),
                Column(lang("average"), 1.0, "right"),
                Column(lang("percentage"), 0.9, "right"),
            ],
            page_top=page_top,
            row_height=ROW_HEIGHT,
            on_page_done=page_done,
        )
        writer.start_page()
        for i, row in enumerate(table.rows):
            writer.row(
                [
                    str(row.rank),
                    str(row.pair),
                    row.players,
                    fmt_points(row.total, lang),
                    str(row.boards),
                    fmt_points(row.average, lang),
                    fmt_percent(row.percentage, lang),
                ],
                shade=i % 2 == 1,
            )
        writer.finish_page()
    c.save()
    return buffer.getvalue()


def _title(table: StandingsTable, lang: Lang) -> str:
    if table.title:
        return table.title
    if table.through_round is None:
        return lang("standings_overall")
    return lang("standings_after", round=table.through_round)
