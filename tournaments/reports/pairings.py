"""A classic round's pairings, for the wall: A4 portrait, the round in large letters,
then one line per table (the table's number, the NS pair and the EW pair, number and
players, at 16 pt so they are read from a step away), then the pairs that sit the round
out. Continued on more pages when the tables do not fit.

``build.pairings`` makes the document from ``selectors.classic.round_games``; this
module only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from tournaments.reports.documents import Pairings
from tournaments.reports.pages import OnPage, heading, new_canvas, page_counter
from tournaments.reports.tables import Column, TableWriter

#: The lines' text size and height, in points: two lines of a long name fit.
SIZE = 16.0
ROW_HEIGHT = 42.0
ROWS_PER_PAGE = 15  # an estimate for the progress bar only


def render_pairings(document: Pairings, on_page: OnPage | None = None) -> bytes:
    """The PDF of the pairings, labels in the active language (``render.render`` sets
    the document's). ``on_page(done, estimated_total)`` after each page."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Aparellaments de la ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=True, footer=document.header.footer)
    draw_pairings(c, document, page_counter(on_page, page_count(document)))
    c.save()
    return buffer.getvalue()


def page_count(document: Pairings) -> int:
    """Pages of the pairings, estimated: the lines over :data:`ROWS_PER_PAGE`."""
    return max(1, -(-(len(document.tables) + len(document.byes)) // ROWS_PER_PAGE))


def draw_pairings(c: canvas.Canvas, document: Pairings, page_done: Callable[[], None]
                  ) -> None:
    """Draw the pairings on ``c`` (A4 portrait), calling ``page_done`` after each page."""
    c.setPageSize(A4)
    header = document.header
    subtitle = " · ".join(part for part in (header.date, header.venue, header.rules_summary)
                          if part)

    def page_top(cv: canvas.Canvas) -> float:
        y = heading(cv, header.championship, subtitle)
        return heading(cv, _("Aparellaments de la ronda %(round)s") % {
            "round": document.round}, "", top=y + 4)

    writer = TableWriter(
        c,
        [Column(_("Taula"), 0.8, "center"),
         Column(_("Parella NS"), 3.0, "left", lines=2),
         Column(_("Parella EO"), 3.0, "left", lines=2)],
        page_top=page_top, row_height=ROW_HEIGHT, size=SIZE, on_page_done=page_done,
    )
    writer.start_page()
    for i, table in enumerate(document.tables):
        writer.row([str(table.table), _pair(table.ns_pair, table.ns_players),
                    _pair(table.ew_pair, table.ew_players)], shade=i % 2 == 1)
    for bye in document.byes:
        writer.row(["—", _pair(bye.pair, bye.players), _("descansa")], bold=True)
    writer.finish_page()


def _pair(number: int, players: str) -> str:
    return _("%(pair)s: %(players)s") % {"pair": number, "players": players}
