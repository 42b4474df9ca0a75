"""Standings: overall and after each round (docs/rules.md "Standings").

Columns: rank, pair number, players, total, boards, average, percentage. The header
gives the championship, its date and venue and a rules summary; every page is numbered
"Pàgina x de y". Each table starts on a new page: the overall standings titled
"Classificació", then one per round titled "Classificació · després de la ronda N", as
the standings page writes them.
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import Standings, StandingsTable
from tournaments.reports.formats import fmt_percent, fmt_points
from tournaments.reports.pages import OnPage, heading, new_canvas, page_counter
from tournaments.reports.tables import Column, TableWriter

ROW_HEIGHT = 17.0
ROWS_PER_PAGE = 40  # an estimate for the progress bar only


def render_standings(document: Standings, on_page: OnPage | None = None) -> bytes:
    """The PDF of the standings tables, as bytes, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, estimated_total)``."""
    header = document.header
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=_("%(championship)s · Classificació") % {
                       "championship": header.championship},
                   numbered=True, footer=header.footer, note=header.missing)
    pages = sum(-(-max(len(t.rows), 1) // ROWS_PER_PAGE) for t in document.tables)
    page_done = page_counter(on_page, max(1, pages))

    subtitle = " · ".join(part for part in (header.date, header.venue, header.rules_summary)
                          if part)
    if document.progress:
        subtitle += " · " + _progress(document.progress)

    for table in document.tables or (StandingsTable(_("Classificació"), None, ()),):
        title = _title(table)

        def page_top(cv: canvas.Canvas, title: str = title) -> float:
            y = heading(cv, header.championship, subtitle)
            return heading(cv, title, "", top=y + 4)

        writer = TableWriter(
            c,
            [
                Column(_("Posició"), 0.7, "right"),
                Column(_("Parella"), 0.8, "right"),
                Column(_("Jugadors"), 4.6, "left", lines=2),
                Column(_("Total"), 1.1, "right"),
                Column(_("Taulers"), 0.8, "right"),
                Column(_("Mitjana"), 1.0, "right"),
                Column("%", 0.9, "right"),
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
                    row.total_text or fmt_points(row.total),
                    str(row.boards),
                    row.average_text or fmt_points(row.average),
                    row.percentage_text or fmt_percent(row.percentage),
                ],
                shade=i % 2 == 1,
            )
        writer.finish_page()
    c.save()
    return buffer.getvalue()


def _title(table: StandingsTable) -> str:
    if table.title:
        return table.title
    if table.through_round is None:
        return _("Classificació")
    return _("Classificació · després de la ronda %(n)s") % {"n": table.through_round}


def _progress(progress: str) -> str:
    """"results in/results expected" as the standings page writes it: "Resultats: 5 de
    8" (another text is printed as it is)."""
    done, slash, due = progress.partition("/")
    if not slash:
        return progress
    return _("Resultats: %(done)s de %(due)s") % {"done": done, "due": due}
