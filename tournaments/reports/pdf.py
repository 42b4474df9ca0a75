"""What every renderer shares, one module per concept; this module gathers their names
for the callers that import them from one place.

- ``fonts``: the embedded TTF fonts, what they can draw (``clean``, ``missing_glyphs``)
  and text widths;
- ``fitting``: text that fits its box (``fit``, ``draw_fitted``);
- ``pages``: A4, margins, colours, the numbered canvas, the heading, page progress;
- ``tables``: ``Column`` and ``TableWriter``;
- ``formats``: points, percentages and hand scores as the web writes them;
- ``labels``: suits, seats, sides and trumps through gettext.
"""

from __future__ import annotations

from tournaments.reports.fitting import draw_fitted, fit
from tournaments.reports.fonts import (
    FONT,
    FONT_BOLD,
    clean,
    missing_glyphs,
    register_fonts,
    width,
)
from tournaments.reports.formats import fmt_percent, fmt_points, fmt_score
from tournaments.reports.pages import (
    GREY,
    LIGHT,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    SUIT_COLOURS,
    NumberedCanvas,
    OnPage,
    heading,
    new_canvas,
    page_counter,
)
from tournaments.reports.tables import Column, TableWriter

__all__ = [
    "FONT", "FONT_BOLD", "GREY", "LIGHT", "MARGIN", "PAGE_HEIGHT", "PAGE_WIDTH",
    "SUIT_COLOURS", "Column", "NumberedCanvas", "OnPage", "TableWriter", "clean",
    "draw_fitted", "fit", "fmt_percent", "fmt_points", "fmt_score", "heading",
    "missing_glyphs", "new_canvas", "page_counter", "register_fonts", "width",
]
