"""The knockout bracket on ONE page, A4 landscape, up to 64 pairs (6 rounds).

A column per round, titled ("Quarts de final") with the championship's round it is
played in; each match a box with its two pairs (number and short names) and each pair's
points once played, the winner in bold on a grey ground; a line joins each match to the
match its winner goes to; the champion at the right, the runner-up and the third under
it, and the third-place match under the final. A first-round bye shows its pair and
"descansa"; a pair not known yet is a blank line (to write in by hand). Above a box, when
there is room, its match number and table.

The page is shared by every size: the first round's matches split the height, so 64
pairs (32 first-round matches) print at about 6 pt and 16 pairs at 8 pt; every text is
fitted to its box (``fitting``), so no name runs out of it.

``build_stages.bracket`` makes the document from ``selectors.stages.bracket_view``;
this module only draws it.
"""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from tournaments.reports.documents import BracketBox, BracketDocument, BracketSide
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD
from tournaments.reports.pages import GREY, LIGHT, OnPage, new_canvas

WIDTH: float = landscape(A4)[0]
HEIGHT: float = landscape(A4)[1]
#: The page's side margins and its foot (the footer line is drawn below it).
SIDE = 24.0
FOOT = 30.0
#: The title line and the columns' titles.
TITLE_HEIGHT = 20.0
COLUMN_TITLE = 20.0
#: Between two columns: room for the joining lines.
GAP = 12.0
#: The largest box and text, for small brackets.
MAX_BOX = 30.0
MAX_SIZE = 8.5


def render_bracket(document: BracketDocument, on_page: OnPage | None = None) -> bytes:
    """The PDF of the bracket, one landscape page, labels in the active language
    (``render.render`` sets the document's). ``on_page(1, 1)`` once drawn."""
    buffer = io.BytesIO()
    header = document.header
    c = new_canvas(buffer, title=_("%(championship)s · Quadre de les eliminatòries") % {
                       "championship": header.championship},
                   numbered=False, footer=header.footer, note=header.missing,
                   pagesize=landscape(A4))
    draw_bracket(c, document)
    c.showPage()
    if on_page is not None:
        on_page(1, 1)
    c.save()
    return buffer.getvalue()


class Layout:
    """Where everything goes: ``rounds`` columns of matches and the champion's column;
    the first round's ``first`` matches split the height (``slot`` each)."""

    def __init__(self, rounds: int, first: int) -> None:
        self.rounds = max(rounds, 1)
        self.first = max(first, 1)
        self.top = HEIGHT - SIDE - TITLE_HEIGHT - COLUMN_TITLE
        self.bottom = FOOT
        self.slot = (self.top - self.bottom) / self.first
        self.box = min(MAX_BOX, self.slot - 1.5 if self.slot < 20 else self.slot * 0.8)
        columns = self.rounds + 1
        self.column = (WIDTH - 2 * SIDE - GAP * (columns - 1)) / columns
        self.size = min(MAX_SIZE, self.box / 2 * 0.85)

    def x(self, column: int) -> float:
        """The left edge of ``column`` (0: the first round; ``rounds``: the champion)."""
        return SIDE + column * (self.column + GAP)

    def centre(self, round_index: int, match_index: int) -> float:
        """The y of the middle of match ``match_index`` (0-based) of round
        ``round_index`` (0-based): in the middle of the two matches that feed it."""
        span = self.slot * (1 << round_index)
        return self.top - (match_index + 0.5) * span

    def room_above(self, round_index: int) -> float:
        """The free height above a box of the round (for its number and table)."""
        return (self.slot * (1 << round_index) - self.box) / 2


def draw_bracket(c: canvas.Canvas, document: BracketDocument) -> None:
    """Draw the bracket on ``c``'s page (A4 landscape), without ending the page."""
    c.setPageSize(landscape(A4))
    columns = document.columns
    first = len(columns[0].matches) if columns else 1
    layout = Layout(len(columns), first)
    usable = WIDTH - 2 * SIDE
    title_y = HEIGHT - SIDE - TITLE_HEIGHT
    draw_fitted(c, document.header.championship, SIDE, title_y, usable * 0.55,
                TITLE_HEIGHT, font=FONT_BOLD, size=13, max_lines=1)
    draw_fitted(c, document.stage, SIDE + usable * 0.55, title_y, usable * 0.45,
                TITLE_HEIGHT, font=FONT_BOLD, size=13, align="right", max_lines=1)
    for k, column in enumerate(columns):
        x = layout.x(k)
        y = title_y - COLUMN_TITLE
        draw_fitted(c, column.title, x, y + 8, layout.column, 12, font=FONT_BOLD, size=9,
                    align="center", max_lines=1)
        if column.round_number is not None:
            draw_fitted(c, _("Ronda %(n)s") % {"n": column.round_number}, x, y, layout.column,
                        9, size=7, align="center", max_lines=1, colour=GREY)
        for j, match in enumerate(column.matches):
            centre = layout.centre(k, j)
            _match(c, layout, match, x, centre, k)
            if k + 1 < len(columns):
                _join(c, layout, x + layout.column, centre, layout.centre(k + 1, j // 2))
    _champion(c, document, layout)
    if document.third_place is not None and columns:
        k = len(columns) - 1
        x = layout.x(k)
        final = layout.centre(k, 0)
        # Below the lower semifinal (a quarter of the height under the final), so no
        # joining line seems to lead into it.
        centre = max(layout.bottom + layout.box / 2 + 2,
                     final - 0.4 * (layout.top - layout.bottom))
        draw_fitted(c, _("Partida pel tercer lloc"), x, centre + layout.box / 2 + 1,
                    layout.column, 10, font=FONT_BOLD, size=min(8.0, layout.size + 1),
                    align="center", max_lines=1)
        _match(c, layout, document.third_place, x, centre, k, label=False)


def _match(c: canvas.Canvas, layout: Layout, match: BracketBox, x: float, centre: float,
           round_index: int, *, label: bool = True) -> None:
    """A match's box: two lines, the winner bold on grey; its number and table above
    when there is room."""
    box = layout.box
    line = box / 2
    bottom = centre - box / 2
    if label and layout.room_above(round_index) >= 7:
        text = _("Partida %(n)s") % {"n": match.number}
        if match.table is not None:
            text += " · " + _("Taula %(n)s") % {"n": match.table}
        draw_fitted(c, text, x, bottom + box, layout.column,
                    min(9.0, layout.room_above(round_index)), size=min(6.5, layout.size),
                    max_lines=1, colour=GREY)
    for i, side in enumerate((match.top, match.bottom)):
        y = bottom + line * (1 - i)
        won = side is not None and match.winner == side.pair and not match.bye
        if won:
            c.setFillColor(LIGHT)
            c.rect(x, y, layout.column, line, stroke=0, fill=1)
            c.setFillColor(black)
        _side(c, layout, side, x, y, line, bold=won, bye=match.bye)
    c.setStrokeColor(GREY if match.bye else black)
    c.setLineWidth(0.6)
    c.rect(x, bottom, layout.column, box, stroke=1, fill=0)
    c.setLineWidth(0.3)
    c.line(x, bottom + line, x + layout.column, bottom + line)
    c.setStrokeColor(black)
    c.setLineWidth(1)


def _side(c: canvas.Canvas, layout: Layout, side: BracketSide | None, x: float, y: float,
          line: float, *, bold: bool, bye: bool) -> None:
    """One pair's line: number, short names, points; "descansa" for a bye's empty
    place; blank for a pair not known yet."""
    size = layout.size
    font = FONT_BOLD if bold else FONT
    if side is None:
        if bye:
            draw_fitted(c, _("descansa"), x, y, layout.column, line, size=size,
                        max_lines=1, colour=GREY)
        return
    number_w = max(10.0, size * 2.3)
    points_w = max(12.0, size * 2.6) if side.points else 0.0
    colour = GREY if bye else black
    draw_fitted(c, str(side.pair), x, y, number_w, line, font=FONT_BOLD, size=size,
                align="right", max_lines=1, colour=colour)
    draw_fitted(c, side.name, x + number_w, y, layout.column - number_w - points_w, line,
                font=font, size=size, max_lines=1, colour=colour)
    if side.points:
        draw_fitted(c, side.points, x + layout.column - points_w, y, points_w, line,
                    font=font, size=size, align="right", max_lines=1)


def _join(c: canvas.Canvas, layout: Layout, right: float, y: float, next_y: float) -> None:
    """The line from a match's right edge to the left edge of the match it feeds."""
    middle = right + GAP / 2
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    path = c.beginPath()
    path.moveTo(right, y)
    path.lineTo(middle, y)
    path.lineTo(middle, next_y)
    path.lineTo(right + GAP, next_y)
    c.drawPath(path, stroke=1, fill=0)
    c.setStrokeColor(black)
    c.setLineWidth(1)


def _champion(c: canvas.Canvas, document: BracketDocument, layout: Layout) -> None:
    """The champion's column: the champion's box in line with the final, the
    runner-up and the third under it."""
    k = layout.rounds
    x = layout.x(k)
    final = layout.centre(k - 1, 0)
    c.setStrokeColor(GREY)
    c.setLineWidth(0.5)
    c.line(x - GAP, final, x, final)
    c.setStrokeColor(black)
    c.setLineWidth(1)
    title_y = HEIGHT - SIDE - TITLE_HEIGHT - COLUMN_TITLE
    draw_fitted(c, _("Campió"), x, title_y + 8, layout.column, 12, font=FONT_BOLD, size=9,
                align="center", max_lines=1)
    height = max(layout.box, 28.0)
    c.setLineWidth(1.2)
    c.rect(x, final - height / 2, layout.column, height, stroke=1, fill=0)
    c.setLineWidth(1)
    if document.champion:
        draw_fitted(c, document.champion, x, final - height / 2, layout.column, height,
                    font=FONT_BOLD, size=9, align="center", max_lines=2)
    y = final - height / 2 - 4
    for label, text in ((_("Subcampió"), document.runner_up),
                        (_("Tercer lloc"), document.third)):
        if not text:
            continue
        y -= 22
        draw_fitted(c, f"{label}: {text}", x, y, layout.column, 22, size=7.5, max_lines=2)
