"""Board sheets: every suit of a deal at one size, a long suit wrapped onto the next
line rather than shrunk (a misread card spoils a board for every table)."""

from __future__ import annotations

from engine.cards import Card
from engine.deal import Deal
from engine.generate import generate_deal
from engine.seats import Seat
from tournaments.reports.board_sheets import deal_card_size, wrap_ranks
from tournaments.reports.fonts import FONT_BOLD, width

# A four-board page's hand box (points): what draw_deal gives each hand at 11 pt.
HAND_W, HAND_H = 117.0, 118.0


def test_a_long_suit_wraps_between_cards_and_every_line_fits() -> None:
    ranks = ["9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2"]
    lines = wrap_ranks(ranks, 11.0, 60.0)
    assert len(lines) > 1
    assert " ".join(lines).split() == ranks  # every card, in order, none cut
    assert all(width(line, FONT_BOLD, 11.0) <= 60.0 for line in lines)


def test_a_void_suit_has_no_line_and_a_short_one_has_one() -> None:
    assert wrap_ranks([], 11.0, 60.0) == []
    assert wrap_ranks(["9", "1"], 11.0, 60.0) == ["9 1"]


def test_ordinary_deals_print_at_the_full_size_on_a_four_board_page() -> None:
    secret = bytes(range(32))
    for board in range(1, 41):
        deal = generate_deal(secret, board)
        assert deal_card_size(deal, 11.0, HAND_W, HAND_H) == 11.0


def test_a_seven_card_suit_keeps_the_deal_size_and_wraps() -> None:
    # North holds seven oros; the rest dealt in order.
    deck = list(Card.parse_many(
        "9O 1O 12O 11O 10O 8O 7O 9C 1C 12C 11C 10C "
        "6O 5O 4O 3O 2O 8C 7C 6C 5C 4C 3C 2C "
        "9E 1E 12E 11E 10E 8E 7E 6E 5E 4E 3E 2E "
        "9B 1B 12B 11B 10B 8B 7B 6B 5B 4B 3B 2B"))
    deal = Deal.from_hands({Seat.N: deck[0:12], Seat.E: deck[12:24], Seat.S: deck[24:36],
                 Seat.W: deck[36:48]})
    assert deal_card_size(deal, 11.0, HAND_W, HAND_H) == 11.0
    oros = [str(c.rank) for c in deal[Seat.N] if c.suit.value == "O"]
    assert len(oros) == 7


def test_a_wrapped_suit_shares_its_cards_out_evenly_never_leaving_one_alone() -> None:
    ranks = ["9", "12", "11", "7", "3"]
    four = width("9 12 11 7", FONT_BOLD, 11.0)
    lines = wrap_ranks(ranks, 11.0, four + 0.5)  # room for four of them, not five
    assert lines == ["9 12 11", "7 3"]
    nine = ["9", "1", "12", "11", "10", "8", "7", "6", "5"]
    lines = wrap_ranks(nine, 11.0, width("9 1 12 11", FONT_BOLD, 11.0) + 0.5)
    assert [len(line.split()) for line in lines] == [3, 3, 3]  # not 4, 4, 1
    assert " ".join(lines).split() == nine
