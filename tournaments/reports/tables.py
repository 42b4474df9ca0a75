"""Tables drawn straight on the canvas: columns sharing the width, a header repeated on
every page, page breaks, and a callback per finished page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib.colors import HexColor, black
from reportlab.pdfgen import canvas

from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD
from tournaments.reports.pages import LIGHT, MARGIN, PAGE_WIDTH


@dataclass(frozen=True, slots=True)
class Column:
    """A table column: ``share`` of the usable width, alignment, and whether the text
    may wrap on two lines (names) or must shrink on one (numbers)."""

    label: str
    share: float
    align: str = "left"
    lines: int = 1


class TableWriter:
    """Rows drawn straight on the canvas with a repeated header, page breaks and a
    callback per finished page. ``page_top`` draws the page's heading and returns the
    y where the table may start."""

    def __init__(
        self,
        c: canvas.Canvas,
        columns: Sequence[Column],
        *,
        page_top: Callable[[canvas.Canvas], float],
        row_height: float = 16.0,
        size: float = 9.0,
        left: float = MARGIN,
        right: float = PAGE_WIDTH - MARGIN,
        bottom: float = MARGIN,
        on_page_done: Callable[[], None] | None = None,
    ) -> None:
        self.c = c
        total_share = sum(col.share for col in columns)
        self.columns = list(columns)
        self.widths = [(right - left) * col.share / total_share for col in columns]
        self.left = left
        self.page_top = page_top
        self.row_height = row_height
        self.size = size
        self.bottom = bottom
        self.on_page_done = on_page_done
        self.y: float | None = None
        self.rows_on_page = 0

    def start_page(self) -> None:
        self.y = self.page_top(self.c)
        self.rows_on_page = 0
        self._header()

    def _header(self) -> None:
        assert self.y is not None
        h = self.row_height + 4
        self.y -= h
        self.c.setFillColor(LIGHT)
        self.c.rect(self.left, self.y, sum(self.widths), h, stroke=0, fill=1)
        self.c.setFillColor(black)
        x = self.left
        for col, w in zip(self.columns, self.widths, strict=True):
            draw_fitted(self.c, col.label, x, self.y, w, h, font=FONT_BOLD, size=self.size,
                        align=col.align, max_lines=2)
            x += w

    def space_left(self) -> float:
        return 0.0 if self.y is None else self.y - self.bottom

    def row(self, values: Sequence[str], *, bold: bool = False, shade: bool = False) -> None:
        if self.y is None or self.y - self.row_height < self.bottom:
            if self.y is not None:
                self.finish_page()
            self.start_page()
        assert self.y is not None
        self.y -= self.row_height
        if shade:
            self.c.setFillColor(HexColor("#f5f5f5"))
            self.c.rect(self.left, self.y, sum(self.widths), self.row_height, stroke=0, fill=1)
            self.c.setFillColor(black)
        x = self.left
        font = FONT_BOLD if bold else FONT
        for col, w, value in zip(self.columns, self.widths, values, strict=True):
            draw_fitted(self.c, value, x, self.y, w, self.row_height, font=font,
                        size=self.size, align=col.align, max_lines=col.lines)
            x += w
        self.c.setStrokeColor(LIGHT)
        self.c.line(self.left, self.y, self.left + sum(self.widths), self.y)
        self.c.setStrokeColor(black)
        self.rows_on_page += 1

    def finish_page(self) -> None:
        self.c.showPage()
        self.y = None
        if self.on_page_done is not None:
            self.on_page_done()
