"""Deals: validation, JSON and compact forms (docs/file-format.md "Deals")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import DECK, Card, format_cards
from engine.deal import Deal
from engine.errors import InvalidDealError, NotationError
from engine.seats import Seat

# docs/file-format.md's example: North holds 9-1-12 of oros, 8-3 of copes,
# 11-10-4-2 of espases and 7-6-5 of bastos. The other hands complete it.
EXAMPLE_NORTH = "9O 1O 12O 8C 3C 11E 10E 4E 2E 7B 6B 5B"
EXAMPLE_COMPACT = (
    "N:9,1,12.8,3.11,10,4,2.7,6,5 "
    "W:11,10,8.9,1,12.9,1.12,11,10,8 "
    "S:7,6,5,4.11,10,7,6.12,8,7.9 "
    "E:3,2.5,4,2.6,5,3.1,4,3,2"
)


def split_deck(order: list[Card] | tuple[Card, ...]) -> dict[Seat, tuple[Card, ...]]:
    """Hands N, E, S, W from twelve consecutive cards each."""
    return {seat: tuple(order[i * 12 : (i + 1) * 12]) for i, seat in enumerate(Seat)}


def example_deal() -> Deal:
    return Deal.from_compact(EXAMPLE_COMPACT)


deals = st.permutations(DECK).map(lambda order: Deal.from_hands(split_deck(order)))


# -- building and reading ----------------------------------------------------------------


def test_from_hands_sorts_each_hand_into_display_order() -> None:
    hands = split_deck(DECK)
    hands[Seat.N] = tuple(reversed(hands[Seat.N]))
    deal = Deal.from_hands(hands)
    assert format_cards(deal[Seat.N]) == "9O 1O 12O 11O 10O 8O 7O 6O 5O 4O 3O 2O"
    assert deal.north == deal[Seat.N]
    assert format_cards(deal[Seat.W][:2]) == "9B 1B"


def test_hands_and_holder() -> None:
    deal = example_deal()
    assert format_cards(deal[Seat.N]) == EXAMPLE_NORTH
    assert set(deal.hands()) == set(Seat)
    assert deal.holder(Card.parse("9C")) is Seat.W
    assert deal.holder(Card.parse("2B")) is Seat.E
    assert deal.holder(Card.parse("9B")) is Seat.S


# -- validation ----------------------------------------------------------------------------


def test_a_repeated_card_is_named_with_the_seats_holding_it() -> None:
    hands = split_deck(DECK)
    hands[Seat.W] = (Card.parse("9O"), *hands[Seat.W][1:])  # 9O twice, 9B gone
    with pytest.raises(InvalidDealError, match=r"repeated card\(s\): 9O held by N, W"):
        Deal.from_hands(hands)


def test_a_missing_card_is_named() -> None:
    hands = split_deck(DECK)
    hands[Seat.E] = hands[Seat.E][:11]
    with pytest.raises(InvalidDealError, match=r"missing card\(s\): 2C$"):
        Deal.from_hands(hands)


def test_a_seat_with_the_wrong_number_of_cards_is_named_with_its_count() -> None:
    hands = split_deck(DECK)
    hands[Seat.N] = (*hands[Seat.N], hands[Seat.S][0])
    hands[Seat.S] = hands[Seat.S][1:]
    with pytest.raises(InvalidDealError, match="each seat must hold 12 cards: N has 13, S has 11"):
        Deal.from_hands(hands)


def test_a_seat_left_out_of_the_hands_is_a_missing_dozen() -> None:
    hands = split_deck(DECK)
    del hands[Seat.E]
    with pytest.raises(InvalidDealError, match=r"missing card.*9C 1C 12C"):
        Deal.from_hands(hands)


# -- JSON -----------------------------------------------------------------------------------


def test_to_json_lists_the_four_seats_in_display_order() -> None:
    data = example_deal().to_json()
    assert list(data) == ["N", "E", "S", "W"]
    assert data["N"] == EXAMPLE_NORTH.split()
    assert json.loads(json.dumps(data)) == data


def test_from_json_accepts_any_case_and_order_of_cards() -> None:
    data = example_deal().to_json()
    data["N"] = [text.lower() for text in reversed(data["N"])]
    assert Deal.from_json(data) == example_deal()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a deal must be an object with the seats N, E, S and W"),
        ({"N": [], "E": [], "S": [], "W": [], "X": []}, r"unknown seat\(s\) X"),
        ({"N": [], "E": [], "S": []}, "seat W is missing"),
        ({"N": "9O 1O", "E": [], "S": [], "W": []}, "seat N: a hand must be a list of cards"),
        ({"N": 7, "E": [], "S": [], "W": []}, "seat N: a hand must be a list of cards"),
    ],
)
def test_from_json_says_what_is_wrong_with_the_shape(data: Any, message: str) -> None:
    with pytest.raises(InvalidDealError, match=message):
        Deal.from_json(data)


def test_from_json_names_the_seat_and_the_bad_card() -> None:
    data = example_deal().to_json()
    data["S"][3] = "13E"
    with pytest.raises(NotationError, match="seat S: '13E' is not a card"):
        Deal.from_json(data)


def test_from_json_reports_a_repeated_card() -> None:
    data = example_deal().to_json()
    data["E"][0] = data["N"][0]
    with pytest.raises(InvalidDealError, match="9O held by N, E"):
        Deal.from_json(data)


# -- compact ------------------------------------------------------------------------------


def test_compact_form_of_the_notation_example() -> None:
    deal = example_deal()
    assert deal.to_compact(1) == EXAMPLE_COMPACT
    assert deal.to_compact(1).startswith("N:9,1,12.8,3.11,10,4,2.7,6,5 W:")


def test_compact_form_starts_with_the_dealer_of_the_board() -> None:
    deal = example_deal()
    assert [deal.to_compact(board).split()[0][0] for board in (1, 2, 3, 4, 5)] == list("NWSEN")
    assert deal.to_compact(3).split() == [
        "S:7,6,5,4.11,10,7,6.12,8,7.9",
        "E:3,2.5,4,2.6,5,3.1,4,3,2",
        "N:9,1,12.8,3.11,10,4,2.7,6,5",
        "W:11,10,8.9,1,12.9,1.12,11,10,8",
    ]


def test_compact_form_leaves_an_empty_suit_empty() -> None:
    deal = Deal.from_hands(split_deck(DECK))
    assert deal.to_compact(1).split()[0] == "N:9,1,12,11,10,8,7,6,5,4,3,2..."
    assert Deal.from_compact(deal.to_compact(1)) == deal


def test_from_compact_accepts_hands_in_any_seat_order_and_catalan_west() -> None:
    parts = EXAMPLE_COMPACT.split()
    reordered = " ".join([parts[3], parts[1].replace("W:", "O:"), parts[0], parts[2]])
    assert Deal.from_compact(reordered) == example_deal()


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("N:9,1,12.8,3.11,10,4,2.7,6,5", NotationError, "four hands, found 1"),
        (EXAMPLE_COMPACT.replace("W:", "W"), NotationError, "a hand starts with its seat"),
        (EXAMPLE_COMPACT.replace(".7,6,5", ",7,6,5"), NotationError, "four suits .* found 3"),
        (EXAMPLE_COMPACT.replace("N:9,1,12", "N:9,13,12"), NotationError, "'13' is not a rank"),
        (EXAMPLE_COMPACT.replace("W:", "N:"), InvalidDealError, "seat N appears twice"),
        (EXAMPLE_COMPACT.replace("E:3,2", "E:3,9"), InvalidDealError, "9O held by N, E"),
        (EXAMPLE_COMPACT.replace("E:", "Q:"), NotationError, "'Q' is not a seat"),
    ],
)
def test_from_compact_says_what_is_wrong(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Deal.from_compact(text)


# -- round trips (Hypothesis) ---------------------------------------------------------------


@given(deals)
def test_json_round_trip(deal: Deal) -> None:
    assert Deal.from_json(json.loads(json.dumps(deal.to_json()))) == deal


@given(deals, st.integers(min_value=1, max_value=1000))
def test_compact_round_trip_for_any_board(deal: Deal, board: int) -> None:
    text = deal.to_compact(board)
    assert Deal.from_compact(text) == deal
    assert len(text.split()) == 4


@given(deals)
def test_every_deal_holds_each_card_once_and_twelve_per_seat(deal: Deal) -> None:
    cards = [card for seat in Seat for card in deal[seat]]
    assert sorted(cards, key=lambda c: c.index) == list(DECK)
    assert all(len(deal[seat]) == 12 for seat in Seat)
    assert all(deal.holder(card) is seat for seat in Seat for card in deal[seat])


def test_repeated_cards_are_listed_in_display_order() -> None:
    data = example_deal().to_json()
    data["W"] = ["5B", "9O", "8C", *data["W"][3:]]  # N's 9O, 8C and 5B twice
    with pytest.raises(InvalidDealError) as caught:
        Deal.from_json(data)
    assert (
        str(caught.value) == "repeated card(s): 9O held by N, W; 8C held by N, W; 5B held by N, W"
    )
