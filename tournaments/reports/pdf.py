"""What every renderer shares: embedded fonts, labels per language, text that fits, tables.

Fonts: Bitstream Vera (Sans and Sans Bold), shipped by the reportlab wheel itself in
``reportlab/fonts``, embedded (subset) in every PDF. It covers every Catalan character
(à è é í ï ò ó ú ü ç and the middle dot of l·l); the rare ligature ``ŀ`` (U+0140) is not
in it, so :func:`clean` spells it ``l·`` as most Catalan writing does.

Text never overflows its box: :func:`fit` shrinks it, then wraps it, then (last resort,
for a name longer than two lines at the smallest size) cuts it with an ellipsis.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import reportlab
from reportlab.lib.colors import Color, HexColor, black
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from engine.cards import Suit
from engine.seats import Seat

FONT = "BDSans"
FONT_BOLD = "BDSans-Bold"
PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 36.0  # points (1/72 inch): half an inch

#: Called after each page is drawn with (pages done, pages in all).
OnPage = Callable[[int, int], None]

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


SUIT_COLOURS: dict[Suit, Color] = {
    Suit.O: HexColor("#9a6a00"),  # oros: gold, dark enough to read on paper
    Suit.C: HexColor("#b3261e"),  # copes: red
    Suit.E: HexColor("#1f4e9c"),  # espases: blue
    Suit.B: HexColor("#2e6b30"),  # bastos: green
}
GREY = HexColor("#666666")
LIGHT = HexColor("#e8e8e8")

_COMMON_CA = {
    "round": "Ronda",
    "board": "Tauler",
    "boards": "Taulers",
    "table": "Taula",
    "dealer": "Reparteix",
    "leader": "Surt",
    "copy": "Còpia",
    "page": "Pàgina {page} de {pages}",
    "board_sheets": "Fulls de mans",
    "entry_form": "Acta de taula",
    "standings": "Classificació",
    "standings_overall": "Classificació general",
    "standings_after": "Classificació després de la ronda {round}",
    "through_round": "fins a la ronda {round}",
    "traveller": "Full de recorregut",
    "score_card": "Full de puntuació",
    "rank": "Lloc",
    "pair": "Parella",
    "players": "Jugadors",
    "total": "Total",
    "average": "Mitjana",
    "percentage": "%",
    "trump": "Trumfo",
    "delegated": "Delegat",
    "doubles": "Contro",
    "contro": "Contro",
    "recontro": "Recontro",
    "sant_vicenc": "St. Vicenç",
    "points": "Punts",
    "score": "Resultat",
    "comparative": "Comparatiu",
    "running_total": "Acumulat",
    "infraction": "Infracció",
    "signatures": "Signatures",
    "opponents": "Contraris",
    "direction": "Lloc",
    "result": "Joc",
    "botifarra": "Botifarra",
    "bot_short": "Bot.",
    "adjusted": "ajustat",
    "hidden_note": "Els taulers encara ocults al públic no s'imprimeixen.",
    "progress": "Resultats: {progress}",
    "referee": "Àrbitre",
    "none": "Cap",
}
LABELS: dict[str, dict[str, str]] = {
    "ca": _COMMON_CA,
    "es": _COMMON_CA
    | {
        "round": "Ronda",
        "board": "Tablero",
        "boards": "Tableros",
        "table": "Mesa",
        "dealer": "Reparte",
        "leader": "Sale",
        "copy": "Copia",
        "page": "Página {page} de {pages}",
        "board_sheets": "Hojas de manos",
        "entry_form": "Acta de mesa",
        "standings": "Clasificación",
        "standings_overall": "Clasificación general",
        "standings_after": "Clasificación tras la ronda {round}",
        "through_round": "hasta la ronda {round}",
        "traveller": "Hoja de recorrido",
        "score_card": "Hoja de puntuación",
        "rank": "Puesto",
        "pair": "Pareja",
        "players": "Jugadores",
        "average": "Media",
        "trump": "Triunfo",
        "delegated": "Delegado",
        "points": "Puntos",
        "score": "Resultado",
        "comparative": "Comparativo",
        "running_total": "Acumulado",
        "infraction": "Infracción",
        "signatures": "Firmas",
        "opponents": "Rivales",
        "direction": "Lugar",
        "result": "Juego",
        "adjusted": "ajustado",
        "hidden_note": "Los tableros aún ocultos al público no se imprimen.",
        "progress": "Resultados: {progress}",
        "referee": "Árbitro",
        "none": "Ninguna",
    },
    "en": _COMMON_CA
    | {
        "round": "Round",
        "board": "Board",
        "boards": "Boards",
        "table": "Table",
        "dealer": "Dealer",
        "leader": "Leads",
        "copy": "Copy",
        "page": "Page {page} of {pages}",
        "board_sheets": "Board sheets",
        "entry_form": "Table entry form",
        "standings": "Standings",
        "standings_overall": "Overall standings",
        "standings_after": "Standings after round {round}",
        "through_round": "through round {round}",
        "traveller": "Traveller",
        "score_card": "Score card",
        "rank": "Rank",
        "pair": "Pair",
        "players": "Players",
        "average": "Average",
        "trump": "Trump",
        "delegated": "Delegated",
        "points": "Points",
        "score": "Score",
        "comparative": "Comparative",
        "running_total": "Running total",
        "infraction": "Infraction",
        "signatures": "Signatures",
        "opponents": "Opponents",
        "direction": "Direction",
        "result": "Result",
        "adjusted": "adjusted",
        "hidden_note": "Boards still hidden from the public are not printed.",
        "progress": "Results: {progress}",
        "referee": "Referee",
        "none": "None",
    },
}
SUIT_NAMES: dict[str, dict[Suit, str]] = {
    "ca": {Suit.O: "Oros", Suit.C: "Copes", Suit.E: "Espases", Suit.B: "Bastos"},
    "es": {Suit.O: "Oros", Suit.C: "Copas", Suit.E: "Espadas", Suit.B: "Bastos"},
    "en": {Suit.O: "Coins", Suit.C: "Cups", Suit.E: "Swords", Suit.B: "Batons"},
}
SEAT_NAMES: dict[str, dict[Seat, str]] = {
    "ca": {Seat.N: "Nord", Seat.E: "Est", Seat.S: "Sud", Seat.W: "Oest"},
    "es": {Seat.N: "Norte", Seat.E: "Este", Seat.S: "Sur", Seat.W: "Oeste"},
    "en": {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"},
}
SEAT_LETTERS: dict[str, dict[Seat, str]] = {
    "ca": {Seat.N: "N", Seat.E: "E", Seat.S: "S", Seat.W: "O"},
    "es": {Seat.N: "N", Seat.E: "E", Seat.S: "S", Seat.W: "O"},
    "en": {Seat.N: "N", Seat.E: "E", Seat.S: "S", Seat.W: "W"},
}


@dataclass(frozen=True, slots=True)
class Lang:
    """Labels of one language (``ca`` when the code is unknown)."""

    code: str

    @classmethod
    def of(cls, code: str) -> Lang:
        short = (code or "ca").split("-")[0].lower()
        return cls(short if short in LABELS else "ca")

    def __call__(self, key: str, **kwargs: Any) -> str:
        text = LABELS[self.code][key]
        return text.format(**kwargs) if kwargs else text

    def suit(self, suit: Suit) -> str:
        return SUIT_NAMES[self.code][suit]

    def seat(self, seat: Seat) -> str:
        return SEAT_NAMES[self.code][seat]

    def seat_letter(self, seat: Seat) -> str:
        return SEAT_LETTERS[self.code][seat]

    def side(self, side: str) -> str:
        """``NS``/``EW`` as printed: ``EO`` in Catalan and Spanish (STYLE.md)."""
        return "EO" if side == "EW" and self.code in ("ca", "es") else side

    def trump(self, trump: str) -> str:
        if trump == "botifarra":
            return self("botifarra")
        if trump in ("O", "C", "E", "B"):
            return self.suit(Suit(trump))
        return trump


def clean(text: str) -> str:
    """Text the embedded font can draw: ``ŀ``/``Ŀ`` become ``l·``/``L·``."""
    return text.replace("ŀ", "l·").replace("Ŀ", "L·")


def width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points (the embedded fonts registered on first use)."""
    if not _registered:
        register_fonts()
    return float(pdfmetrics.stringWidth(text, font, size))


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


class NumberedCanvas(canvas.Canvas):
    """A canvas that writes "Page x of y" at the foot of every page once y is known."""

    def __init__(self, *args: Any, lang: Lang, footer: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []
        self._lang = lang
        self._footer = footer

    def showPage(self) -> None:  # reportlab's name
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self.setFont(FONT, 8)
            self.setFillColor(GREY)
            self.drawRightString(
                PAGE_WIDTH - MARGIN,
                MARGIN / 2,
                self._lang("page", page=self._pageNumber, pages=total),
            )
            if self._footer:
                self.drawString(MARGIN, MARGIN / 2, clean(self._footer)[:120])
            self.setFillColor(black)
            super().showPage()
        super().save()


def new_canvas(buffer: io.BytesIO, *, title: str, lang: Lang, numbered: bool, footer: str = ""
               ) -> canvas.Canvas:
    """An A4 canvas with the fonts registered and the document's title set."""
    register_fonts()
    c: canvas.Canvas
    if numbered:
        c = NumberedCanvas(buffer, pagesize=A4, lang=lang, footer=footer, pageCompression=1,
                           initialFontName=FONT)
    else:
        c = canvas.Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT)
    c.setTitle(clean(title))
    c.setAuthor("Botifarra Duplicate")
    c.setCreator("Botifarra Duplicate")
    return c


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


def heading(c: canvas.Canvas, title: str, subtitle: str, lang: Lang, *, top: float | None = None
            ) -> float:
    """The page heading: title and subtitle, fitted to the width. Returns the y below it."""
    y = (PAGE_HEIGHT - MARGIN) if top is None else top
    usable = PAGE_WIDTH - 2 * MARGIN
    draw_fitted(c, title, MARGIN, y - 22, usable, 22, font=FONT_BOLD, size=15, max_lines=1)
    if subtitle:
        draw_fitted(c, subtitle, MARGIN, y - 38, usable, 15, size=9.5, max_lines=1, colour=GREY)
        return y - 46
    return y - 30


#: Decimal separator per language, as Django's formats write it on the web (ca, es: comma).
DECIMAL_SEPARATORS = {"ca": ",", "es": ",", "en": "."}


def fmt_points(value: float | None, lang: Lang) -> str:
    """Comparative points, totals and averages as the web shows them: the value the
    export writes (``tournaments.numbers``: an ``int`` when whole, else at most 4
    decimals) with the language's decimal separator, ``1,5682`` in Catalan and
    Spanish, ``1.5682`` in English; blank for ``None``. A float with more than 4
    decimals (a document not built by ``build``) is rounded half up to 4.

    >>> fmt_points(1.5682, Lang.of("ca")), fmt_points(3, Lang.of("en"))
    ('1,5682', '3')
    """
    if value is None:
        return ""
    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    exponent = number.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        number = number.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    return _localise(format(number, "f"), lang)


def fmt_percent(value: float, lang: Lang) -> str:
    """A percentage with one decimal and the language's separator: ``56,3``."""
    return _localise(f"{value:.1f}", lang)


def _localise(text: str, lang: Lang) -> str:
    return text.replace(".", DECIMAL_SEPARATORS.get(lang.code, "."))


def fmt_score(value: int | None) -> str:
    """A signed hand score: ``+9``, ``-12``, ``0``; blank when not played."""
    if value is None:
        return ""
    return f"{value:+d}" if value else "0"
