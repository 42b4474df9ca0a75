"""The page: A4, margins, colours, the canvas with its "Pàgina x de y" footer, the
heading every page repeats, and the progress callback per page drawn.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import Color, HexColor, black
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from engine.cards import Suit
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD, clean, register_fonts
from tournaments.reports.labels import page_of

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 36.0  # points (1/72 inch): half an inch

#: Called after each page is drawn with (pages done, pages in all).
OnPage = Callable[[int, int], None]

SUIT_COLOURS: dict[Suit, Color] = {
    Suit.O: HexColor("#9a6a00"),  # oros: gold, dark enough to read on paper
    Suit.C: HexColor("#b3261e"),  # copes: red
    Suit.E: HexColor("#1f4e9c"),  # espases: blue
    Suit.B: HexColor("#2e6b30"),  # bastos: green
}
GREY = HexColor("#666666")
LIGHT = HexColor("#e8e8e8")


def draw_footer(c: canvas.Canvas, footer: str, note: str) -> None:
    """``footer`` (``Header.footer``: when made, results version, championship) on the
    left of the page's foot and ``note`` (``Header.missing``) on a line above it."""
    c.setFont(FONT, 8)
    c.setFillColor(GREY)
    if footer:
        c.drawString(MARGIN, MARGIN / 2, clean(footer)[:120])
    if note:
        c.drawString(MARGIN, MARGIN / 2 + 10, clean(note)[:160])
    c.setFillColor(black)


class StampedCanvas(canvas.Canvas):
    """A canvas that writes ``footer`` and ``note`` (see :func:`draw_footer`) at the foot
    of every page, for documents without page numbers."""

    def __init__(self, *args: Any, footer: str = "", note: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._footer = footer
        self._note = note

    def showPage(self) -> None:  # reportlab's name
        draw_footer(self, self._footer, self._note)
        super().showPage()


class NumberedCanvas(canvas.Canvas):
    """A canvas that writes "Pàgina x de y" (in the active language) at the foot of
    every page once y is known, and ``footer`` on the left (``note`` above it)."""

    def __init__(self, *args: Any, footer: str = "", note: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []
        self._footer = footer
        self._note = note

    def showPage(self) -> None:  # reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]  # reportlab's own, not in its stubs

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont(FONT, 8)
            self.setFillColor(GREY)
            self.drawRightString(
                PAGE_WIDTH - MARGIN, MARGIN / 2, page_of(self._pageNumber, total)  # type: ignore[attr-defined]  # as above
            )
            draw_footer(self, self._footer, self._note)
            super().showPage()
        super().save()


def new_canvas(buffer: io.BytesIO, *, title: str, numbered: bool, footer: str = "",
               note: str = "", pagesize: tuple[float, float] = A4) -> canvas.Canvas:
    """A canvas (A4 unless ``pagesize``) with the fonts registered and the document's
    title set; ``footer`` and ``note`` at the foot of every page (:func:`draw_footer`)."""
    register_fonts()
    c: canvas.Canvas
    if numbered:
        c = NumberedCanvas(buffer, pagesize=pagesize, footer=footer, note=note,
                           pageCompression=1, initialFontName=FONT)
    else:
        c = StampedCanvas(buffer, pagesize=pagesize, footer=footer, note=note,
                          pageCompression=1, initialFontName=FONT)
    c.setTitle(clean(title))
    c.setAuthor("Botifarra Duplicate")
    c.setCreator("Botifarra Duplicate")
    return c


def page_counter(on_page: OnPage | None, estimate: int) -> Callable[[], None]:
    """A callback to call after each page drawn: it reports ``(pages done, estimated
    total)`` to ``on_page``, the total growing when the document runs past the estimate."""
    done = 0

    def page_done() -> None:
        nonlocal done
        done += 1
        if on_page is not None:
            on_page(done, max(estimate, done + 1))

    return page_done


def heading(c: canvas.Canvas, title: str, subtitle: str, *, top: float | None = None) -> float:
    """The page heading: title and subtitle, fitted to the width. Returns the y below it."""
    y = (PAGE_HEIGHT - MARGIN) if top is None else top
    usable = PAGE_WIDTH - 2 * MARGIN
    draw_fitted(c, title, MARGIN, y - 22, usable, 22, font=FONT_BOLD, size=15, max_lines=1)
    if subtitle:
        draw_fitted(c, subtitle, MARGIN, y - 38, usable, 15, size=9.5, max_lines=1, colour=GREY)
        return y - 46
    return y - 30
