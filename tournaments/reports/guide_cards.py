"""Guide cards: where everyone goes, round by round. Table cards (one per table: the NS
and EW pair of each round, to leave on the table) and pair cards (one per pair: its
table and direction each round, "descansa" for a bye, to hand to the players).

The documents are plain frozen dataclasses built by :func:`build_guide_cards` from
``tournaments.seating.guide`` (the only ORM read); the renderer never touches the ORM.
Several cards share an A4 page, each a framed box with its own small table.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfgen import canvas

from tournaments.models import Championship
from tournaments.reports import labels
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
from tournaments.seating import guide

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


def build_guide_cards(championship: Championship, *, by: str) -> GuideCards:
    """The guide cards of every drawn round, per table (``by="table"``) or per pair
    (``"pair"``), labels in the active language. Raises ``ValueError`` for another
    ``by``."""
    if by not in ("table", "pair"):
        raise ValueError(f"guide cards are by table or by pair, not {by!r}")
    seen = guide(championship)
    header = Header(
        championship=championship.name,
        date=championship.date.isoformat() if championship.date else "",
        venue=championship.venue,
    )
    cards: list[GuideCard] = []
    if by == "table":
        for table, rows in seen.tables.items():
            cards.append(GuideCard(
                _("Taula %(n)s") % {"n": table}, "",
                (_("Ronda"), _("Parella NS"), _("Parella EO")),
                tuple((str(r), str(ns), str(ew)) for r, ns, ew in rows),
            ))
    else:
        for pair, seats in seen.pairs.items():
            cards.append(GuideCard(
                _("Parella %(n)s") % {"n": pair}, seen.names.get(pair, ""),
                (_("Ronda"), _("Taula"), _("Línia")),
                tuple(
                    (str(s.round), "—", _("descansa")) if s.bye
                    else (str(s.round), str(s.table), labels.side(s.direction or ""))
                    for s in seats
                ),
            ))
    return GuideCards(header=header, by=by, cards=tuple(cards))


def render_guide_cards(document: GuideCards, on_page: OnPage | None = None) -> bytes:
    """The PDF of the guide cards, :data:`CARDS_PER_PAGE` to an A4 page, in the active
    language. ``on_page(done, estimated_total)`` after each page."""
    title = _("Cartells de taula") if document.by == "table" else _("Cartells de parella")
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=f"{document.header.championship} · {title}", numbered=True,
                   footer=document.header.championship)
    pages = max(1, -(-len(document.cards) // CARDS_PER_PAGE))
    page_done = page_counter(on_page, pages)
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
    c.save()
    return buffer.getvalue()


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
