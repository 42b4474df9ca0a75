"""Guide cards: where everyone goes, round by round. Table cards (one per table: the NS
and EW pair of each round, to leave on the table) and pair cards (one per pair: its
table and direction each round, "descansa" for a bye, to hand to the players).

The documents are plain frozen dataclasses, built in ``tournaments.reports.build``
(``build_guide_cards``, ``build_guide_card_set``) from ``tournaments.selectors.seating.guide``;
this module only draws them and never touches the ORM. Several cards share an A4 page,
each a framed box with its own small table. The print job ``guide-cards``
(``documents.Kind.GUIDE_CARDS``) prints both sets in one PDF, the table cards first
(:class:`GuideCardSet`).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.reports.documents import Header
from tournaments.reports.fonts import FONT, FONT_BOLD, clean
from tournaments.reports.pages import (
    GREY,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)

#: Cards per A4 page (two columns).
CARDS_PER_PAGE = 6


@dataclass(frozen=True, slots=True)
class GuideCard:
    """One card: its title ("Taula 3", "Parella 7"), a subtitle (the players' names or
    empty) and one line per round: (round, first cell, second cell)."""

    title: str
    subtitle: str
    columns: tuple[str, str, str]
    lines: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class GuideCards:
    """The table cards (``by == "table"``) or pair cards (``"pair"``) of a championship's
    drawn rounds."""

    header: Header
    by: str
    cards: tuple[GuideCard, ...]


@dataclass(frozen=True, slots=True)
class GuideCardSet:
    """The ``guide-cards`` print job: the table cards, then the pair cards, one PDF."""

    header: Header
    tables: GuideCards
    pairs: GuideCards


def _title(document: GuideCards) -> str:
    return _("Cartells de taula") if document.by == "table" else _("Cartells de parella")


def _pages(document: GuideCards) -> int:
    return max(1, -(-len(document.cards) // CARDS_PER_PAGE))


def render_guide_cards(document: GuideCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the guide cards, :data:`CARDS_PER_PAGE` to an A4 page, in the active
    language. ``on_page(done, estimated_total)`` after each page."""
    title = _title(document)
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=f"{document.header.championship} · {title}", numbered=True,
                   footer=document.header.footer)
    _draw(c, document, page_counter(on_page, _pages(document)))
    c.save()
    return buffer.getvalue()


def render_guide_card_set(document: GuideCardSet, on_page: OnPage | None = None) -> bytes:
    """The PDF of the ``guide-cards`` print job: the table cards, then the pair cards
    from a new page, in the active language (``render.render`` sets the document's).
    ``on_page(done, total)`` after each page."""
    buffer = io.BytesIO()
    title = _("Cartells de taula i de parella")
    c = new_canvas(buffer, title=f"{document.header.championship} · {title}", numbered=True,
                   footer=document.header.footer)
    page_done = page_counter(on_page, _pages(document.tables) + _pages(document.pairs))
    _draw(c, document.tables, page_done)
    _draw(c, document.pairs, page_done)
    c.save()
    return buffer.getvalue()


def _draw(c: canvas.Canvas, document: GuideCards, page_done: Callable[[], None]) -> None:
    """Draw ``document``'s pages on ``c`` (a page saying so when it has no card)."""
    title = _title(document)
    if not document.cards:
        heading(c, title, document.header.championship)
        c.drawString(MARGIN, PAGE_HEIGHT / 2, clean(_("Encara no hi ha cap ronda sortejada.")))
        c.showPage()
        page_done()
    for start in range(0, len(document.cards), CARDS_PER_PAGE):
        top = heading(c, title, document.header.championship)
        for k, card in enumerate(document.cards[start : start + CARDS_PER_PAGE]):
            _card(c, card, k, top)
        c.showPage()
        page_done()


def _card(c: canvas.Canvas, card: GuideCard, k: int, top: float) -> None:
    """Card ``k`` of its page, in a 2-column, 3-row grid below ``top``."""
    gap = 12.0
    width = (PAGE_WIDTH - 2 * MARGIN - gap) / 2
    height = (top - MARGIN - 2 * gap) / 3
    x = MARGIN + (k % 2) * (width + gap)
    y = top - (k // 2) * (height + gap)
    c.setStrokeColor(GREY)
    c.rect(x, y - height, width, height)
    c.setFont(FONT_BOLD, 14)
    c.drawString(x + 8, y - 20, clean(card.title))
    line_y = y - 34
    if card.subtitle:
        c.setFont(FONT, 8.5)
        c.drawString(x + 8, line_y, clean(card.subtitle)[:60])
        line_y -= 14
    size = 10.0 if len(card.lines) <= 12 else max(6.0, 10.0 * 12 / len(card.lines))
    step = min(14.0, (line_y - (y - height) - 8) / max(1, len(card.lines) + 1))
    cells = (x + 10, x + width * 0.35, x + width * 0.68)
    c.setFont(FONT_BOLD, size)
    for cell, text in zip(cells, card.columns, strict=True):
        c.drawString(cell, line_y, clean(text))
    c.setFont(FONT, size)
    for line in card.lines:
        line_y -= step
        for cell, text in zip(cells, line, strict=True):
            c.drawString(cell, line_y, clean(text))
