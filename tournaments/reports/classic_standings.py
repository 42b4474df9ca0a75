"""A classic championship's standings: overall and after each round (docs/rules.md
"Classic championships").

Columns: rank, pair number, players (with the row's mark, as the duplicate standings:
"ret.", "descans", "entra a la ronda N"), games won (halves as ½), games played, points
for, points against, the difference, then the tiebreak columns in use (Buchholz, head
to head), with the standings page's words. Under the title, the ranking order in the
page's sentence, and the games in out of the games due ("Partides: 5 de 8"); the games
still missing are named at the foot of every page. Every value is the read model's text
(``selectors.classic``): nothing is computed here.
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import (
    ClassicStandingRow,
    ClassicStandings,
    ClassicStandingsTable,
)
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
from tournaments.reports.standings import row_mark
from tournaments.reports.tables import Column, TableWriter

ROW_HEIGHT = 17.0
#: The ranking order's two lines under the title.
ORDER_HEIGHT = 24.0
ROWS_PER_PAGE = 40  # an estimate for the progress bar only


def render_classic_standings(document: ClassicStandings, on_page: OnPage | None = None
                             ) -> bytes:
    """The PDF of the standings tables, labels in the active language (``render.render``
    sets the document's). ``on_page(done, estimated_total)``."""
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
        subtitle += " · " + games_progress(document.progress)
    for table in document.tables or (ClassicStandingsTable(None, ()),):
        title = _title(table)

        def page_top(cv: canvas.Canvas, title: str = title) -> float:
            y = heading(cv, header.championship, subtitle)
            y = heading(cv, title, "", top=y + 4)
            if not document.order:
                return y
            # The page's sentence is long: two lines under the title.
            draw_fitted(cv, document.order, MARGIN, y - ORDER_HEIGHT,
                        PAGE_WIDTH - 2 * MARGIN, ORDER_HEIGHT, size=8.5, max_lines=2,
                        colour=GREY)
            return y - ORDER_HEIGHT - 4

        extra = {"buchholz": Column("Buchholz", 1.1, "right"),
                 "head_to_head": Column(_("Enfrontament directe"), 1.1, "right")}
        writer = TableWriter(
            c,
            [
                Column(_("Posició"), 0.7, "right"),
                Column(_("Parella"), 0.7, "right"),
                Column(_("Jugadors"), 3.3, "left", lines=2),
                Column(_("Partides guanyades"), 1.2, "right"),
                Column(_("Jugades"), 1.0, "right"),
                Column(_("Punts a favor"), 1.0, "right"),
                Column(_("Punts en contra"), 1.1, "right"),
                Column(_("Diferència"), 1.2, "right"),
                *(extra[name] for name in document.columns),
            ],
            page_top=page_top,
            row_height=ROW_HEIGHT,
            on_page_done=page_done,
        )
        writer.start_page()
        for i, row in enumerate(table.rows):
            tiebreaks = {"buchholz": row.buchholz, "head_to_head": row.head_to_head}
            writer.row(
                ["—" if row.rank is None else str(row.rank), str(row.pair), _players(row),
                 row.wins, str(row.played), str(row.points_for), str(row.points_against),
                 row.difference, *(tiebreaks[name] for name in document.columns)],
                shade=i % 2 == 1,
            )
        writer.finish_page()
    c.save()
    return buffer.getvalue()


def _players(row: ClassicStandingRow) -> str:
    mark = row_mark(row.status, row.joins)
    return f"{row.players} ({mark})" if mark else row.players


def _title(table: ClassicStandingsTable) -> str:
    if table.through_round is None:
        return _("Classificació")
    return _("Classificació · després de la ronda %(n)s") % {"n": table.through_round}


def games_progress(progress: str) -> str:
    """"games in/games due" as the page writes it: "Partides: 5 de 8" (another text is
    printed as it is)."""
    done, slash, due = progress.partition("/")
    if not slash:
        return progress
    return _("Partides: %(done)s de %(due)s") % {"done": done, "due": due}
