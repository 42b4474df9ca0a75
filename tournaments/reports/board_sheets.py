"""Board sheets: the four hands of each board, to make up the physical deals.

Each board is a compass diagram: North at the top, South at the bottom, West on the left,
East on the right; every hand lists its suits in O C E B order (docs/file-format.md), each suit
by name and colour, the ranks high to low (the engine's display order). The dealer and
the first leader (the dealer's right-hand player, docs/rules.md "Seats, dealer and boards") are
marked on their hands and in the centre. Cards are printed at 22 pt on a one-board page
and 11 pt on a four-board page, so a seat's cards read at arm's length; every suit of
the deal prints at that one size, and a suit too long for its line wraps onto the next
(:func:`wrap_ranks`); only a deal whose wrapped hands would not fit their space prints
a little smaller, all four hands alike (:func:`deal_card_size`).

Copies (one per table) are grouped by board: all copies of board 1, then board 2...,
so the person making up the deals handles one board at a time. (Spec question: the
issue does not say the order; grouping by board is the usual practice when making up
duplicate deals.)
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

from django.utils.translation import gettext as _
from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from engine.cards import STRENGTH, SUIT_ORDER, Card
from engine.deal import Deal
from engine.seats import Seat, dealer, first_leader
from tournaments.reports import labels
from tournaments.reports.documents import BoardSheet, BoardSheets
from tournaments.reports.fitting import draw_fitted
from tournaments.reports.fonts import FONT, FONT_BOLD, width
from tournaments.reports.pages import (
    GREY,
    MARGIN,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    SUIT_COLOURS,
    OnPage,
    new_canvas,
)

DEALER_FILL = HexColor("#222222")
LEADER_FILL = HexColor("#ffe08a")
#: Centre square: seat letters are ``LETTER`` x its side; a marker disc of radius
#: ``DISC`` x the letter is centred ``INSET`` x the letter from the square's edge.
LETTER = 0.16
DISC = 0.7
INSET = 0.95
#: Least gap between the board number and the W/E marker discs, x the letter size.
NUMBER_GAP = 0.35


def page_count(document: BoardSheets) -> int:
    """Pages the sheets take: boards x copies, divided by boards per page, rounded up."""
    sheets = len(document.boards) * document.copies
    return -(-sheets // document.per_page)


def _sheets(document: BoardSheets) -> Iterator[tuple[BoardSheet, int]]:
    for board in document.boards:
        for copy in range(1, document.copies + 1):
            yield board, copy


def render_board_sheets(document: BoardSheets, on_page: OnPage | None = None) -> bytes:
    """The PDF of the board sheets, as bytes, labels in the active language
    (``render.render`` sets the document's). ``on_page(done, total)`` after each page."""
    buffer = io.BytesIO()
    title = _("%(championship)s · Fulls de mans · Ronda %(round)s") % {
        "championship": document.header.championship, "round": document.round}
    c = new_canvas(buffer, title=title, numbered=False, footer=document.header.footer)
    total = page_count(document)
    done = 0

    def page_done() -> None:
        nonlocal done
        done += 1
        if on_page is not None:
            on_page(done, total)

    draw_board_sheets(c, document, page_done)
    c.save()
    return buffer.getvalue()


def draw_board_sheets(c: canvas.Canvas, document: BoardSheets,
                      page_done: Callable[[], None]) -> None:
    """Draw the sheets' pages (A4 portrait) on ``c``, calling ``page_done`` after each."""
    c.setPageSize(A4)
    items = list(_sheets(document))
    if document.per_page == 1:
        box = (MARGIN, MARGIN, PAGE_WIDTH - 2 * MARGIN, PAGE_HEIGHT - 2 * MARGIN)
        for sheet, copy in items:
            _draw_board(c, document, sheet, copy, box, large=True)
            c.showPage()
            page_done()
    else:
        half_w = (PAGE_WIDTH - 2 * MARGIN) / 2
        half_h = (PAGE_HEIGHT - 2 * MARGIN) / 2
        boxes = [
            (MARGIN, MARGIN + half_h, half_w, half_h),
            (MARGIN + half_w, MARGIN + half_h, half_w, half_h),
            (MARGIN, MARGIN, half_w, half_h),
            (MARGIN + half_w, MARGIN, half_w, half_h),
        ]
        for start in range(0, len(items), 4):
            for (sheet, copy), box in zip(items[start : start + 4], boxes, strict=False):
                _draw_board(c, document, sheet, copy, box, large=False)
            _cut_marks(c, half_w, half_h)
            c.showPage()
            page_done()


def _cut_marks(c: canvas.Canvas, half_w: float, half_h: float) -> None:
    c.setStrokeColor(GREY)
    c.setDash(3, 3)
    c.line(MARGIN + half_w, MARGIN / 2, MARGIN + half_w, PAGE_HEIGHT - MARGIN / 2)
    c.line(MARGIN / 2, MARGIN + half_h, PAGE_WIDTH - MARGIN / 2, MARGIN + half_h)
    c.setDash()
    c.setStrokeColor(black)


def _draw_board(
    c: canvas.Canvas,
    document: BoardSheets,
    sheet: BoardSheet,
    copy: int,
    box: tuple[float, float, float, float],
    *,
    large: bool,
) -> None:
    x0, y0, w, h = box
    pad = 0.0 if large else 6.0
    x0, y0, w, h = x0 + pad, y0 + pad, w - 2 * pad, h - 2 * pad
    card_size = 22.0 if large else 11.0
    title_size = 16.0 if large else 10.0

    # Heading: championship, then round, board and copy in bold.
    top = y0 + h
    draw_fitted(c, document.header.championship, x0, top - title_size * 1.4, w,
                title_size * 1.4, font=FONT_BOLD, size=title_size, max_lines=1)
    line = _("Ronda %(round)s  ·  Tauler %(board)s") % {"round": sheet.round,
                                                         "board": sheet.board}
    if document.copies > 1:
        line += "  ·  " + _("Còpia %(copy)s de %(copies)s") % {"copy": copy,
                                                              "copies": document.copies}
    big = title_size * 1.5
    draw_fitted(c, line, x0, top - title_size * 1.4 - big * 1.3, w, big * 1.3,
                font=FONT_BOLD, size=big, max_lines=1)
    marks = _("Reparteix: %(dealer)s   ·   Sortida: %(leader)s") % {
        "dealer": labels.seat_name(sheet.dealer), "leader": labels.seat_name(sheet.first_leader)}
    mark_size = title_size * 0.8
    y_marks = top - title_size * 1.4 - big * 1.3 - mark_size * 1.6
    draw_fitted(c, marks, x0, y_marks, w, mark_size * 1.6, size=mark_size, max_lines=1,
                colour=GREY)
    area_top = y_marks - (12 if large else 4)
    area_bottom = y0

    draw_deal(c, sheet.deal, sheet.board, (x0, area_bottom, w, area_top - area_bottom),
              card_size=card_size, large=large)


def draw_deal(
    c: canvas.Canvas,
    deal: Deal,
    board: int,
    box: tuple[float, float, float, float],
    *,
    card_size: float,
    large: bool = False,
) -> None:
    """The compass diagram of ``deal`` inside ``box`` (x, y of the lower-left corner,
    width, height in points): N top, S bottom, W left, E right, the board number in a
    centre square, the dealer and first leader of ``board`` marked (docs/rules.md)."""
    x0, y0, w, h = box
    marks = (dealer(board), first_leader(board))
    band = h / 3
    centre_w = w * (0.2 if large else 0.15)
    side_w = (w - centre_w) / 2
    # One width for the four hands, so that the same suit length prints at one size.
    hand_w = side_w
    positions = {
        Seat.N: (x0 + (w - hand_w) / 2, y0 + 2 * band, hand_w, band),
        Seat.W: (x0, y0 + band, side_w, band),
        Seat.E: (x0 + side_w + centre_w, y0 + band, side_w, band),
        Seat.S: (x0 + (w - hand_w) / 2, y0, hand_w, band),
    }
    card_size = deal_card_size(deal, card_size, hand_w, band)
    for seat, hand_box in positions.items():
        _draw_hand(c, marks, seat, deal[seat], hand_box, card_size)
    _draw_centre(c, board, marks, (x0 + side_w, y0 + band, centre_w, band), large)


def _badge(c: canvas.Canvas, text: str, x: float, y: float, size: float, *, dark: bool) -> float:
    """A rounded label at (x, y) baseline; returns its width."""
    bw = width(text, FONT_BOLD, size) + size
    c.setFillColor(DEALER_FILL if dark else LEADER_FILL)
    c.roundRect(x, y - size * 0.3, bw, size * 1.3, size * 0.3, stroke=0, fill=1)
    c.setFillColor(white if dark else black)
    c.setFont(FONT_BOLD, size)
    c.drawString(x + size / 2, y, text)
    c.setFillColor(black)
    return bw


def _draw_hand(
    c: canvas.Canvas,
    marks: tuple[Seat, Seat],
    seat: Seat,
    cards: tuple[Card, ...],
    box: tuple[float, float, float, float],
    card_size: float,
) -> None:
    x, y, w, h = box
    line_h = card_size * 1.45
    seat_size = card_size * 0.8
    label_w = _label_width(card_size)
    wrapped = {
        suit: wrap_ranks([str(card.rank) for card in cards if card.suit is suit],
                         card_size, w - label_w - 4)
        for suit in SUIT_ORDER
    }
    block_h = seat_size * 1.8 + sum(max(1, len(lines)) for lines in wrapped.values()) * line_h
    top = y + (h + block_h) / 2

    # Seat name with the dealer / first-leader badges.
    c.setFont(FONT_BOLD, seat_size)
    name = labels.seat_name(seat).upper()
    c.drawString(x + 2, top - seat_size, name)
    bx = x + 2 + width(name, FONT_BOLD, seat_size) + seat_size * 0.6
    badge_size = seat_size * 0.75
    if seat is marks[0]:
        bx += _badge(c, _("Reparteix"), bx, top - seat_size, badge_size, dark=True) + 4
    if seat is marks[1]:
        _badge(c, _("Sortida"), bx, top - seat_size, badge_size, dark=False)

    label_size = card_size * 0.62
    y_line = top - seat_size * 1.8
    for suit in SUIT_ORDER:
        baseline = y_line - card_size
        c.setFillColor(SUIT_COLOURS[suit])
        c.setFont(FONT_BOLD, label_size)
        c.drawString(x + 2, baseline + (card_size - label_size) * 0.35, labels.suit_name(suit))
        c.setFillColor(black)
        # Every card at the deal's one size: a long suit wraps, it never shrinks.
        c.setFont(FONT_BOLD, card_size)
        for line in wrapped[suit] or ["—"]:
            c.drawString(x + 2 + label_w, y_line - card_size, line)
            y_line -= line_h


def _label_width(card_size: float) -> float:
    """Width of the suit-name column of a hand at ``card_size``."""
    label_size = card_size * 0.62
    return max(width(labels.suit_name(s), FONT_BOLD, label_size) for s in SUIT_ORDER) \
        + card_size * 0.5


def wrap_ranks(ranks: list[str], size: float, available: float) -> list[str]:
    """The ranks of one suit as lines of at most ``available`` points at ``size`` (bold),
    in order, split between cards (a rank is never cut); ``[]`` for a void suit, and a
    rank wider than the line alone on its line. As few lines as fit, their cards shared
    out evenly (the first lines take one more): a five-card suit that does not fit on
    one line prints as 3 and 2, never as 4 and a lone card, which a player making up
    the deal can take for another suit's line."""
    lines: list[str] = []
    for rank in ranks:
        candidate = f"{lines[-1]} {rank}" if lines else rank
        if lines and width(candidate, FONT_BOLD, size) <= available:
            lines[-1] = candidate
        else:
            lines.append(rank)
    if len(lines) < 2:
        return lines
    count, extra = divmod(len(ranks), len(lines))
    even: list[str] = []
    start = 0
    for index in range(len(lines)):
        end = start + count + (1 if index < extra else 0)
        even.append(" ".join(ranks[start:end]))
        start = end
    if all(width(line, FONT_BOLD, size) <= available for line in even):
        return even
    return lines


def deal_card_size(deal: Deal, card_size: float, hand_w: float, hand_h: float) -> float:
    """The one card size of a deal's four hands: ``card_size`` when every hand, its long
    suits wrapped (:func:`wrap_ranks`), fits its ``hand_w`` x ``hand_h`` box, else the
    largest size (in 5 % steps, at least 60 % of ``card_size``) at which they all do."""
    size = card_size
    while size > card_size * 0.6:
        line_h = size * 1.45
        available = hand_w - _label_width(size) - 4
        fits = all(
            size * 0.8 * 1.8 + line_h * sum(
                max(1, len(wrap_ranks([str(c.rank) for c in deal[seat] if c.suit is suit],
                                      size, available)))
                for suit in SUIT_ORDER
            ) <= hand_h
            for seat in Seat
        )
        if fits:
            return size
        size *= 0.95
    return size


def _widest_ranks(count: int) -> str:
    """The widest line ``count`` cards of one suit can print: the widest rank labels
    (10, 11, 12 before the one-digit ranks) joined by spaces."""
    labels = sorted((str(rank) for rank in STRENGTH),
                    key=lambda text: -width(text, FONT_BOLD, 1.0))
    return " ".join(labels[:count])


def suit_size(count: int, card_size: float, available: float) -> float:
    """Font size (points) of a suit of ``count`` cards in a line ``available`` points
    wide: ``card_size`` when any ``count`` cards fit at that size, else the size at which
    the widest ``count`` cards fit. It depends on the length alone, never on which
    cards, so that every 6-card suit of a sheet prints at one size (only lengths that
    may not fit shrink)."""
    needed = width(_widest_ranks(max(count, 1)), FONT_BOLD, card_size)
    return card_size if needed <= available else card_size * available / needed * 0.999


def centre_number_size(board: int, side: float) -> float:
    """Font size of the board number in a centre square of ``side`` points: 0.3 x the
    side, shrunk so that the number keeps ``NUMBER_GAP`` letters clear of the W and E
    marker discs (board 20 has East's dealer disc right of it)."""
    letter = side * LETTER
    disc_edge = letter * (INSET + DISC)  # from the square's edge to the disc's inner edge
    room = side - 2 * (disc_edge + letter * NUMBER_GAP)
    return min(side * 0.3, room / width(str(board), FONT_BOLD, 1.0))


def _draw_centre(
    c: canvas.Canvas,
    board: int,
    marks: tuple[Seat, Seat],
    box: tuple[float, float, float, float],
    large: bool,
) -> None:
    """A square with the seat letters on its edges, the board number in the middle and
    the dealer's letter on a dark disc."""
    x, y, w, h = box
    side = min(w, h) * 0.9
    sx = x + (w - side) / 2
    sy = y + (h - side) / 2
    c.setStrokeColor(black)
    c.setLineWidth(1.2 if large else 0.8)
    c.rect(sx, sy, side, side, stroke=1, fill=0)
    c.setLineWidth(1)
    letter = side * LETTER
    spots = {
        Seat.N: (sx + side / 2, sy + side - letter * 1.2),
        Seat.S: (sx + side / 2, sy + letter * 0.35),
        Seat.W: (sx + letter * INSET, sy + side / 2 - letter * 0.35),
        Seat.E: (sx + side - letter * INSET, sy + side / 2 - letter * 0.35),
    }
    for seat, (cx, cy) in spots.items():
        if seat is marks[0]:
            c.setFillColor(DEALER_FILL)
            c.circle(cx, cy + letter * 0.35, letter * DISC, stroke=0, fill=1)
            c.setFillColor(white)
        elif seat is marks[1]:
            c.setFillColor(LEADER_FILL)
            c.circle(cx, cy + letter * 0.35, letter * DISC, stroke=0, fill=1)
            c.setFillColor(black)
        c.setFont(FONT_BOLD, letter)
        c.drawCentredString(cx, cy, labels.seat_letter(seat))
        c.setFillColor(black)
    number = centre_number_size(board, side)
    c.setFont(FONT_BOLD, number)
    c.drawCentredString(sx + side / 2, sy + side / 2 - number * 0.35, str(board))
    c.setFont(FONT, max(letter * 0.5, 5))
    c.setFillColor(GREY)
    c.drawCentredString(sx + side / 2, sy + side / 2 - side * 0.105 - letter * 0.75,
                        _("Tauler"))
    c.setFillColor(black)
