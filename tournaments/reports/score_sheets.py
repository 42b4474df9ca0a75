"""Score sheets of a classic round: the paper a table keeps its game on, one landscape
A4 page per table.

At the top the championship, the round and the table, the two pairs and the game's
rules (target, deal limit and the extra deals of a level game, time limit, cap, doubles
allowed, variant). Then one line per deal the game can last (``GameRules.deal_lines``:
the deal limit plus the extra deals, 16 without a limit), with the columns of the
deal-by-deal entry: the deal, who chose trump (NS or EO), delegated, the trump (O C E B
botifarra), the doubles the championship allows (contro, recontro, Sant Vicenç), the
points the choosing side took, a revoke (by NS or EO), each side's score on the deal
and the running totals. At the foot the final score, the deals played, how the game
ended (the ends the championship has: ``ScoreSheets.ends``), and the signatures. The
words are the referee's game form's. A sheet whose lines do not fit one page goes on over the
next (at least :data:`MIN_ROW` points a line, room to write by hand).

``build.score_sheets`` makes the document; this module only draws it.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from engine.cards import SUIT_ORDER
from tournaments.reports import labels
from tournaments.reports.documents import Pairing, ScoreSheets
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD
from tournaments.reports.pages import GREY, LIGHT, MARGIN, SUIT_COLOURS, OnPage, new_canvas

WIDTH, HEIGHT = landscape(A4)
#: A deal's line: at most this tall, at least :data:`MIN_ROW` (else the sheet goes on
#: over another page).
MAX_ROW = 26.0
MIN_ROW = 17.0
HEADER_ROW = 26.0
#: The foot of the sheet: the final score, how it ended, the signatures.
FOOT = 74.0


def render_score_sheets(document: ScoreSheets, on_page: OnPage | None = None) -> bytes:
    """The PDF of the score sheets, one page per table (more for a long game), labels in
    the active language (``render.render`` sets the document's). ``on_page(done,
    total)`` after each page."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Fulls d'anotació · Ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer,
                   pagesize=landscape(A4))
    total = page_count(document)
    done = 0

    def page_done() -> None:
        nonlocal done
        done += 1
        if on_page is not None:
            on_page(done, max(total, done))

    draw_score_sheets(c, document, page_done)
    c.save()
    return buffer.getvalue()


def _columns(document: ScoreSheets) -> list[tuple[str, float, str]]:
    """``(label, width share, cell kind)`` of the deal lines, the doubles the
    championship allows only."""
    rules = document.rules
    ns, ew = labels.side("NS"), labels.side("EW")
    columns = [
        (_("Mà"), 0.6, "deal"),
        (_("Qui tria"), 1.2, "sides"),
        (_("Delegat"), 0.8, "check"),
        (_("Trumfo"), 3.4, "trump"),
    ]
    if rules.contro:
        columns.append((_("Contro"), 0.8, "check"))
    if rules.recontro:
        columns.append((_("Recontro"), 0.8, "check"))
    if rules.sant_vicenc:
        columns.append((_("Sant Vicenç"), 0.8, "check"))
    columns += [
        (_("Punts de qui tria"), 1.0, "blank"),
        (_("Renunci"), 1.2, "sides"),
        (_("Punts %(side)s") % {"side": ns}, 0.9, "blank"),
        (_("Punts %(side)s") % {"side": ew}, 0.9, "blank"),
        (_("Total %(side)s") % {"side": ns}, 0.9, "total"),
        (_("Total %(side)s") % {"side": ew}, 0.9, "total"),
    ]
    return columns


def _header_height(document: ScoreSheets) -> float:
    """The height above the grid: titles, pairs, rules."""
    return 20 + 8 + 2 * 22 + 6 + 14 * _rule_rows(document) + 8


def _rule_rows(document: ScoreSheets) -> int:
    return 2 if len(document.rules.lines) > 3 else 1


def rows_per_page(document: ScoreSheets) -> tuple[int, float]:
    """How many deal lines a page holds, and how tall each is: every line on one page
    when they fit at :data:`MIN_ROW` or more, else as many as fit at that height."""
    room = HEIGHT - 2 * MARGIN - _header_height(document) - HEADER_ROW - FOOT
    lines = max(document.rules.deal_lines, 1)
    if room / lines >= MIN_ROW:
        return lines, min(MAX_ROW, room / lines)
    # A page that goes on keeps its foot for the last page only: the room is the same,
    # so the count is a fixed number of MIN_ROW lines.
    return max(1, int(room // MIN_ROW)), MIN_ROW


def page_count(document: ScoreSheets) -> int:
    """Pages of the sheets: each table's lines over :func:`rows_per_page`."""
    per_page, _height = rows_per_page(document)
    return len(document.sheets) * -(-max(document.rules.deal_lines, 1) // per_page)


def draw_score_sheets(c: canvas.Canvas, document: ScoreSheets,
                      page_done: Callable[[], None]) -> None:
    """Draw the sheets on ``c``, A4 landscape, one table after another, calling
    ``page_done`` after each page."""
    c.setPageSize(landscape(A4))
    per_page, row_h = rows_per_page(document)
    lines = max(document.rules.deal_lines, 1)
    for sheet in document.sheets:
        first = 1
        while first <= lines:
            last = min(lines, first + per_page - 1)
            y = _draw_top(c, document, sheet, continued=first > 1)
            y = _draw_grid(c, document, first, last, y, row_h)
            if last == lines:
                _draw_foot(c, document, y)
            c.showPage()
            page_done()
            first = last + 1


def _draw_top(c: canvas.Canvas, document: ScoreSheets, sheet: Pairing, *,
              continued: bool) -> float:
    """Titles, pairs and rules; returns the y where the grid starts."""
    usable = WIDTH - 2 * MARGIN
    top = HEIGHT - MARGIN
    draw_fitted(c, document.header.championship, MARGIN, top - 20, usable * 0.6, 20,
                font=FONT_BOLD, size=14, max_lines=1)
    where = _("Full d'anotació · Ronda %(round)s · Taula %(table)s") % {
        "round": document.round, "table": sheet.table}
    if continued:
        where += " · " + _("continuació")
    draw_fitted(c, where, MARGIN + usable * 0.6, top - 20, usable * 0.4, 20,
                font=FONT_BOLD, size=14, align="right", max_lines=1)
    y = top - 28
    for side, pair, players in (("NS", sheet.ns_pair, sheet.ns_players),
                                ("EW", sheet.ew_pair, sheet.ew_players)):
        y -= 22
        draw_fitted(c, _("%(side)s: Parella %(pair)s") % {"side": labels.side(side),
                                                           "pair": pair},
                    MARGIN, y, 150, 22, font=FONT_BOLD, size=12, max_lines=1)
        draw_fitted(c, players, MARGIN + 150, y, usable - 150, 22, size=12, max_lines=1)
    y -= 6
    rules = document.rules.lines
    rows = _rule_rows(document)
    per_row = -(-len(rules) // rows)
    for row in range(rows):
        y -= 14
        draw_fitted(c, " · ".join(rules[row * per_row:(row + 1) * per_row]), MARGIN, y,
                    usable, 14, size=9.5, max_lines=1, colour=GREY)
    return y - 8


def _box(c: canvas.Canvas, x: float, y: float, size: float) -> None:
    c.rect(x, y, size, size, stroke=1, fill=0)


def _draw_grid(c: canvas.Canvas, document: ScoreSheets, first: int, last: int, y: float,
               row_h: float) -> float:
    """The header row and deal lines ``first``..``last``; returns the y below them."""
    usable = WIDTH - 2 * MARGIN
    columns = _columns(document)
    total_share = sum(share for _label, share, _kind in columns)
    widths = [usable * share / total_share for _label, share, _kind in columns]
    y -= HEADER_ROW
    c.setFillColor(LIGHT)
    c.rect(MARGIN, y, usable, HEADER_ROW, stroke=0, fill=1)
    c.setFillColor(black)
    x = MARGIN
    for (label, _share, _kind), w in zip(columns, widths, strict=True):
        draw_fitted(c, label, x, y, w, HEADER_ROW, font=FONT_BOLD, size=8.5, align="center")
        x += w
    box = min(11.0, row_h * 0.5)
    for deal in range(first, last + 1):
        y -= row_h
        x = MARGIN
        for (_label, _share, kind), w in zip(columns, widths, strict=True):
            c.setStrokeColor(GREY)
            if kind == "total":
                c.setFillColor(LIGHT)
                c.rect(x, y, w, row_h, stroke=1, fill=1)
                c.setFillColor(black)
            else:
                c.rect(x, y, w, row_h, stroke=1, fill=0)
            c.setStrokeColor(black)
            if kind == "deal":
                draw_fitted(c, str(deal), x, y, w, row_h, font=FONT_BOLD, size=12,
                            align="center", max_lines=1)
            elif kind == "check":
                _box(c, x + (w - box) / 2, y + (row_h - box) / 2, box)
            elif kind == "sides":
                _sides(c, x, y, w, row_h, box)
            elif kind == "trump":
                _trumps(c, x, y, w, row_h, box)
            x += w
    return y


def _sides(c: canvas.Canvas, x: float, y: float, w: float, h: float, box: float) -> None:
    """Two boxes to tick, NS and EO."""
    for i, side in enumerate(("NS", "EW")):
        bx = x + 4 + i * w / 2
        _box(c, bx, y + (h - box) / 2, box)
        c.setFont(FONT, 8)
        c.drawString(bx + box + 2, y + h / 2 - 3, labels.side(side))


def _trumps(c: canvas.Canvas, x: float, y: float, w: float, h: float, box: float) -> None:
    """A box per trump: the four suits in their colours, then botifarra."""
    options = [(labels.suit_name(s)[:3], SUIT_COLOURS[s]) for s in SUIT_ORDER]
    options.append((_("Botifarra")[:3] + ".", black))
    step = w / len(options)
    for i, (text, colour) in enumerate(options):
        bx = x + i * step + 2
        _box(c, bx, y + (h - box) / 2, box)
        c.setFillColor(colour)
        c.setFont(FONT_BOLD, 8)
        c.drawString(bx + box + 2, y + h / 2 - 2.5, text)
        c.setFillColor(black)


def _draw_foot(c: canvas.Canvas, document: ScoreSheets, y: float) -> None:
    """The final score, the deals played, how the game ended, the signatures."""
    usable = WIDTH - 2 * MARGIN
    ns, ew = labels.side("NS"), labels.side("EW")
    y -= 26
    blank = "________"
    final = " · ".join([f"{_('Resultat final')}: {ns} {blank}", f"{ew} {blank}",
                        f"{_('Mans jugades')}: {blank}"])
    draw_fitted(c, final, MARGIN, y, usable * 0.47, 20, font=FONT_BOLD, size=11,
                max_lines=1)
    ends = document.ends
    x = MARGIN + usable * 0.49
    draw_fitted(c, _("Com s'ha acabat") + ":", x, y, 90, 20, font=FONT_BOLD, size=10,
                max_lines=1)
    x += 92
    step = (MARGIN + usable - x) / max(len(ends), 1)
    for end in ends:
        _box(c, x, y + 5, 10)
        draw_fitted(c, end, x + 12, y, step - 16, 20, size=9, max_lines=1)
        x += step
    y -= 34
    signers = (_("Signatura %(side)s") % {"side": ns}, _("Signatura %(side)s") % {"side": ew},
               _("Àrbitre"))
    third = usable / 3
    for i, signer in enumerate(signers):
        left = MARGIN + i * third
        c.setStrokeColor(GREY)
        c.line(left + 4, y + 4, left + third - 12, y + 4)
        c.setStrokeColor(black)
        draw_fitted(c, signer, left, y - 12, third - 12, 14, size=9, max_lines=1,
                    colour=GREY)
