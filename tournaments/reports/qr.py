"""A QR code drawn with reportlab from segno's module matrix (no image file), and the
absolute link of a table's own page that the table cards print in it."""

from __future__ import annotations

import segno
from django.conf import settings
from reportlab.lib.colors import black, white
from reportlab.pdfgen import canvas

#: Where a table's link points when neither TABLE_LINK_BASE_URL nor SITE_URL says.
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
#: The light border around the code, in modules (the standard asks for four).
QUIET_ZONE = 4


def base_url() -> str:
    """The site's address the tables' links start with: ``TABLE_LINK_BASE_URL``, else
    ``SITE_URL``, else the local default."""
    given = (getattr(settings, "TABLE_LINK_BASE_URL", "") or getattr(settings, "SITE_URL", "")
             or DEFAULT_BASE_URL)
    return str(given).rstrip("/")


def table_link(secret: str, base: str | None = None) -> str:
    """The absolute link of a table's page: ``<base>/t/<secret>/``."""
    return f"{(base or base_url()).rstrip('/')}/t/{secret}/"


def draw_qr(c: canvas.Canvas, text: str, x: float, y: float, size: float) -> None:
    """``text`` as a QR code (error correction M), its quiet zone included, in the
    square of side ``size`` whose lower left corner is (``x``, ``y``)."""
    code = segno.make(text, error="m", micro=False)
    rows = [list(row) for row in code.matrix]
    count = len(rows) + 2 * QUIET_ZONE
    module = size / count
    c.saveState()
    c.setFillColor(white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(black)
    for r, row in enumerate(rows):
        top = y + size - (r + QUIET_ZONE + 1) * module
        start: int | None = None
        for col, dark in enumerate([*row, 0]):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                # One rectangle per run of dark modules (a slight overlap: no hairlines).
                c.rect(x + (start + QUIET_ZONE) * module, top, (col - start) * module + 0.05,
                       module + 0.05, stroke=0, fill=1)
                start = None
    c.restoreState()
