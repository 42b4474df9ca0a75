"""Text that fits its box: it never overflows.

:func:`fit` shrinks the text, then wraps it, then (last resort, for a name longer than
two lines at the smallest size) cuts it with an ellipsis; :func:`draw_fitted` draws the
result in a box, vertically centred.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, black
from reportlab.pdfgen import canvas

from tournaments.reports.fonts import FONT, clean, width


def _wrap(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap; a word wider than the box is cut between characters."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if width(candidate, font, size) <= max_width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        while width(word, font, size) > max_width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and width(word[:cut], font, size) > max_width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines or [""]


def _ellipsize(text: str, font: str, size: float, max_width: float) -> str:
    if width(text, font, size) <= max_width:
        return text
    while text and width(text + "…", font, size) > max_width:
        text = text[:-1]
    return text + "…"


def fit(
    text: str,
    font: str,
    size: float,
    max_width: float,
    *,
    max_lines: int = 2,
    min_size: float = 6.0,
) -> tuple[list[str], float]:
    """Lines and font size so that ``text`` fits ``max_width`` points in ``max_lines``.

    Shrinks first (down to ``min_size``), then wraps, then cuts with an ellipsis.
    Every returned line is at most ``max_width`` wide at the returned size.
    """
    text = clean(text)
    if width(text, font, size) <= max_width:
        return [text], size
    needed = size * max_width / width(text, font, size)
    if needed >= max(min_size, size * 0.75):
        return [text], needed * 0.999
    current = size
    longest = max((width(word, font, 1.0) for word in text.split()), default=0.0)
    while current >= min_size:
        # Cutting a word in two is the last resort: shrink until every word fits whole.
        if longest * current <= max_width or current - 0.5 < min_size:
            lines = _wrap(text, font, current, max_width)
            if len(lines) <= max_lines:
                return lines, current
        current -= 0.5
    lines = _wrap(text, font, min_size, max_width)
    kept = lines[:max_lines]
    kept[-1] = _ellipsize(kept[-1] + " " + " ".join(lines[max_lines:]), font, min_size, max_width)
    return kept, min_size


def draw_fitted(
    c: canvas.Canvas,
    text: str,
    x: float,
    y: float,
    box_width: float,
    box_height: float,
    *,
    font: str = FONT,
    size: float = 9.0,
    align: str = "left",
    max_lines: int = 2,
    colour: Color = black,
) -> None:
    """Draw ``text`` inside the box whose lower-left corner is (x, y), vertically centred."""
    pad = 2.0
    lines, fsize = fit(
        text, font, size, box_width - 2 * pad, max_lines=max_lines, min_size=min(6.0, size)
    )
    while len(lines) * fsize * 1.15 > box_height and fsize > 4:
        fsize -= 0.5
        lines, fsize = fit(text, font, fsize, box_width - 2 * pad, max_lines=max_lines, min_size=4)
    leading = fsize * 1.15
    block = leading * len(lines)
    top = y + (box_height + block) / 2 - fsize * 0.95
    c.setFont(font, fsize)
    c.setFillColor(colour)
    for i, line in enumerate(lines):
        ly = top - i * leading
        if align == "right":
            c.drawRightString(x + box_width - pad, ly, line)
        elif align == "center":
            c.drawCentredString(x + box_width / 2, ly, line)
        else:
            c.drawString(x + pad, ly, line)
    c.setFillColor(black)
