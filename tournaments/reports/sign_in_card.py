"""A referee's sign-in card: one A4 page with the one-time sign-in link as a QR code
(reportlab's own ``reportlab.graphics.barcode.qr`` widget) and as text, for an organiser
who hands a referee a sheet of paper instead of a message. Pure: words in, PDF bytes out,
no ORM (docs/architecture.md "reports/")."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing

from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT_BOLD
from tournaments.reports.pages import MARGIN, PAGE_WIDTH, heading, new_canvas

#: The QR code's side on paper, in points (about 9 cm): a phone reads it from a metre.
QR_SIDE = 260.0


@dataclass(frozen=True, slots=True)
class SignInCard:
    """What the card prints, already in the reader's language: ``title`` (the
    championship), ``person`` (the user name and role), ``url`` (the link the code
    holds), ``lines`` (how to use it, how long it lasts)."""

    title: str
    person: str
    url: str
    lines: tuple[str, ...]


def render_sign_in_card(card: SignInCard) -> bytes:
    """The card as PDF bytes (one page)."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, title=card.title, numbered=False)
    y = heading(c, card.title, card.person)
    widget = QrCodeWidget(card.url, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(QR_SIDE, QR_SIDE,
                      transform=[QR_SIDE / (x1 - x0), 0, 0, QR_SIDE / (y1 - y0), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, c, (PAGE_WIDTH - QR_SIDE) / 2, y - QR_SIDE - 10)
    y -= QR_SIDE + 30
    usable = PAGE_WIDTH - 2 * MARGIN
    for line in card.lines:
        draw_fitted(c, line, MARGIN, y, usable, 40, size=11, max_lines=3)
        y -= 44
    draw_fitted(c, card.url, MARGIN, max(y, MARGIN + 20), usable, 30, font=FONT_BOLD,
                size=8, max_lines=2)
    c.showPage()
    c.save()
    return buffer.getvalue()
