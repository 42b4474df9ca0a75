"""The fonts every PDF embeds, and what they can draw.

Bitstream Vera Sans and Sans Bold, shipped by the reportlab wheel itself in
``reportlab/fonts``, embedded (subset) in every PDF. They cover every Catalan and
Spanish character in its precomposed form (à è é í ï ò ó ú ü ç ñ and the middle dot of
l·l) but no combining accent, so a name must reach the renderer in Unicode NFC (every
way in composes it, ``scoring.text.normalise``; :func:`clean` does it again). The rare
ligature ``ŀ`` (U+0140) is not in them either, so :func:`clean` spells it ``l·`` as most
Catalan writing does.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "BDSans"
FONT_BOLD = "BDSans-Bold"

_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"
_registered = False


def register_fonts() -> None:
    """Register the embedded TTF fonts once per process."""
    global _registered
    if _registered:
        return
    pdfmetrics.registerFont(TTFont(FONT, str(_FONTS_DIR / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(_FONTS_DIR / "VeraBd.ttf")))
    _registered = True


def clean(text: str) -> str:
    """Text the embedded font can draw: composed to NFC (``u`` + U+0301 becomes ``ú``),
    ``ŀ``/``Ŀ`` spelled ``l·``/``L·``."""
    return unicodedata.normalize("NFC", text).replace("ŀ", "l·").replace("Ŀ", "L·")


def width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points (the embedded fonts registered on first use)."""
    if not _registered:
        register_fonts()
    return float(pdfmetrics.stringWidth(text, font, size))


def missing_glyphs(text: str, font: str = FONT) -> list[str]:
    """The characters of ``text`` that ``font`` has no glyph for (drawn as a box), each
    once, in order; spaces and line ends are never missing."""
    register_fonts()
    face = pdfmetrics.getFont(font)
    if not isinstance(face, TTFont):
        raise ValueError(f"{font} is not a TrueType font: its glyphs cannot be listed")
    glyphs = face.face.charToGlyph
    missing: list[str] = []
    for char in text:
        if char not in " \n" and ord(char) not in glyphs and char not in missing:
            missing.append(char)
    return missing
