"""Standings: overall and after each round (docs/rules.md "Standings").

Columns: rank, pair number, players (with the row's mark: "ret.", "descans", "entra a
la ronda N"), total, boards, average, percentage; when the rows rank by average, the
average comes first: rank, pair, players, average, total, boards, percentage. Each
number column has the same decimals down it (the page's texts; a document built by hand
is written the same way). The header
gives the championship, its date and venue and a rules summary; every page is numbered
"Pàgina x de y". Each table starts on a new page: the overall standings titled
"Classificació", then one per round titled "Classificació · després de la ronda N", as
the standings page writes them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import StandingRow, Standings, StandingsTable
from tournaments.reports.formats import fmt_percent
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

        total = Column(_("Total"), 1.1, "right")
        boards = Column(_("Taulers"), 0.8, "right")
        average = Column(_("Mitjana"), 1.0, "right")
        numbers = [average, total, boards] if table.by_average else [total, boards, average]
        writer = TableWriter(
            c,
            [
                Column(_("Posició"), 0.7, "right"),
                Column(_("Parella"), 0.8, "right"),
                Column(_("Jugadors"), 4.6, "left", lines=2),
                *numbers,
                Column("%", 0.9, "right"),
            ],
            page_top=page_top,
            row_height=ROW_HEIGHT,
            on_page_done=page_done,
        )
        writer.start_page()
        totals = _texts([r.total_text for r in table.rows], [r.total for r in table.rows])
        averages = _texts([r.average_text for r in table.rows],
                          [r.average for r in table.rows])
        for i, (row, total_text, average_text) in enumerate(
                zip(table.rows, totals, averages, strict=True)):
            percent = row.percentage_text or (
                "—" if row.percentage is None else fmt_percent(row.percentage))
            cells = ([average_text, total_text, str(row.boards)] if table.by_average
                     else [total_text, str(row.boards), average_text])
            writer.row(
                ["—" if row.rank is None else str(row.rank), str(row.pair), _players(row),
                 *cells, percent],
                shade=i % 2 == 1,
            )
        writer.finish_page()
    c.save()
    return buffer.getvalue()


#: Decimals at most of a column written here (a document built by hand), as the
#: standings page writes them (``selectors.formats.MAX_DECIMALS``).
MAX_DECIMALS = 2


def _texts(texts: Sequence[str], values: Sequence[float | None]) -> list[str]:
    """The column's texts as the document carries them; when it carries none (a
    document built by hand), its numbers with the same decimals down the column (as
    many as the value that needs most, at most :data:`MAX_DECIMALS`), ``—`` for none."""
    if all(texts):
        return list(texts)
    exact = [None if v is None else Decimal(repr(v)) for v in values]
    places = min(MAX_DECIMALS, max(
        (max(0, -int(v.normalize().as_tuple().exponent)) for v in exact if v is not None),
        default=0))
    quantum = Decimal(1).scaleb(-places)
    return ["—" if v is None else str(number_format(
        v.quantize(quantum, rounding=ROUND_HALF_UP), decimal_pos=places)) for v in exact]


def _players(row: StandingRow) -> str:
    """The players' names with the row's mark."""
    mark = row_mark(row.status, row.joins)
    return f"{row.players} ({mark})" if mark else row.players


def row_mark(status: str, joins: int | None) -> str | None:
    """A standings row's mark in the active language, by its ``status``: "ret."
    (withdrawn), "descans" (bye), "entra a la ronda N" (late); ``None`` while playing."""
    if status == "late":
        return _("entra a la ronda %(n)s") % {"n": joins}
    return {"withdrawn": _("ret."), "bye": _("descans")}.get(status)


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
