"""Reading the PDFs back (pypdf) and rendering pages to PNG for a person to look at."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

from pypdf import PdfReader

from tests.services import require

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "reports"


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in reader(data).pages]


def words(text: str) -> list[str]:
    return text.replace("\n", " ").split()


def text_outside_page(data: bytes) -> list[str]:
    """Texts whose start lies outside the page, or whose end passes the right edge
    (widths from the embedded font's metrics)."""
    from reportlab.pdfbase import pdfmetrics

    from tournaments.reports.pdf import FONT, FONT_BOLD, register_fonts

    register_fonts()
    bad: list[str] = []
    for number, page in enumerate(reader(data).pages, start=1):
        width = float(page.mediabox.width)
        height = float(page.mediabox.height)

        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float,
                  number: int = number, width: float = width, height: float = height) -> None:
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            base = str(font.get("/BaseFont", "")) if isinstance(font, dict) else ""
            face = FONT_BOLD if "Bold" in base or "Bd" in base else FONT
            scale = tm[0] * cm[0] if tm[0] * cm[0] else 1.0
            w = pdfmetrics.stringWidth(text.strip(), face, size * abs(scale))
            if x < -0.5 or y < -0.5 or y > height + 0.5 or x + w > width + 1.0:
                bad.append(f"page {number}: {text.strip()!r} at ({x:.0f}, {y:.0f}) w={w:.0f}")

        page.extract_text(visitor_text=visit)
    return bad


def save_png(data: bytes, name: str, *, page: int = 1) -> Path:
    """Render one page to test-artifacts/reports/NAME.png (pdftoppm, poppler-utils)."""
    tool = shutil.which("pdftoppm")
    require(tool is not None, "needs pdftoppm: apt-get install -y poppler-utils")
    assert tool is not None
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.write_bytes(data)
    subprocess.run(
        [tool, "-r", "70", "-png", "-singlefile", "-f", str(page), "-l", str(page), str(pdf),
         str(ARTIFACTS / name)],
        check=True,
    )
    png = ARTIFACTS / f"{name}.png"
    assert png.stat().st_size > 1000
    return png
