"""A circuit's ranking on paper: the players' ranking, then the pairs', with the rules
in a sentence under the title and the championships counted. Pure: words in, PDF bytes
out, no ORM (docs/architecture.md "reports/"); ``reports.build_circuit`` builds the
document from ``selectors.circuits``'s read model, whose texts it prints as they are,
and the print job (``reports.services.print_job_run``) renders it."""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

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
from tournaments.reports.tables import Column, TableWriter

ROW_HEIGHT = 17.0
#: The rules' sentence under the title: up to three lines.
RULES_HEIGHT = 36.0
ROWS_PER_PAGE = 38  # an estimate for the progress bar only


@dataclass(frozen=True, slots=True)
class CircuitRankingRow:
    """One line as printed: ``rank`` ("—" when unranked), ``name``, ``points``,
    ``events`` ("3 (2)": played, counted in brackets when fewer), ``note``."""

    rank: str
    name: str
    points: str
    events: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class CircuitRankingTable:
    title: str
    rows: tuple[CircuitRankingRow, ...]


@dataclass(frozen=True, slots=True)
class CircuitRankingDocument:
    """The circuit's ``title``, ``subtitle`` (season, the championships counted, a
    provisional mark), ``rules`` (the sentence), ``footer`` and the ``tables``;
    ``language`` the one its labels are drawn in (empty: the active one)."""

    title: str
    subtitle: str
    rules: str
    footer: str
    tables: tuple[CircuitRankingTable, ...]
    language: str = ""


def render_circuit_ranking(document: CircuitRankingDocument,
                           on_page: OnPage | None = None) -> bytes:
    """The ranking as PDF bytes, one table after the other, each from a new page;
    ``on_page(done, estimated_total)`` after each page drawn."""
    if document.language:
        with translation.override(document.language):
            return _render(document, on_page)
    return _render(document, on_page)


def _render(document: CircuitRankingDocument, on_page: OnPage | None) -> bytes:
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=document.title, numbered=True, footer=document.footer)
    pages = sum(-(-max(len(t.rows), 1) // ROWS_PER_PAGE) for t in document.tables)
    page_done = page_counter(on_page, max(1, pages))
    for table in document.tables or (CircuitRankingTable(_("Rànquing"), ()),):

        def page_top(cv: canvas.Canvas, title: str = table.title) -> float:
            y = heading(cv, document.title, document.subtitle)
            y = heading(cv, title, "", top=y + 4)
            draw_fitted(cv, document.rules, MARGIN, y - RULES_HEIGHT,
                        PAGE_WIDTH - 2 * MARGIN, RULES_HEIGHT, size=8.5, max_lines=3,
                        colour=GREY)
            return y - RULES_HEIGHT - 4

        writer = TableWriter(
            c,
            [Column(_("Posició"), 0.7, "right"), Column(_("Nom"), 4.0, "left", lines=2),
             Column(_("Punts"), 1.0, "right"), Column(_("Proves"), 0.9, "right"),
             Column("", 1.6, "left")],
            page_top=page_top, row_height=ROW_HEIGHT, on_page_done=page_done,
        )
        writer.start_page()
        for i, row in enumerate(table.rows):
            writer.row([row.rank, row.name, row.points, row.events, row.note],
                       shade=i % 2 == 1)
        writer.finish_page()
    c.save()
    return buffer.getvalue()
