"""Cards: notation (docs/file-format.md "Cards"), points and trick order (docs/rules.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    CARD_POINTS,
    DECK,
    HAND_POINTS,
    SUIT_ORDER,
    TRICK_ORDER,
    Card,
    Suit,
    format_cards,
    sort_hand,
)
from engine.errors import EngineError, NotationError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("9O", 9, Suit.O),
        ("1c", 1, Suit.C),
        ("12E", 12, Suit.E),
        ("10b", 10, Suit.B),
        ("  11O\t", 11, Suit.O),
        ("\n2B ", 2, Suit.B),
    ],
)
def test_card_parse_is_case_insensitive_and_ignores_surrounding_spaces(
    text: str, rank: int, suit: Suit
) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    "text", ["13O", "0C", "9X", "O9", "", "   ", "9", "O", "09O", "9 O", "+9O", "٩O", "¹O", "1.0O"]
)
def test_card_parse_rejects_bad_text_and_names_it(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Card.parse(text)
    assert repr(text) in str(caught.value)


def test_card_parse_rejects_what_is_not_text() -> None:
    with pytest.raises(NotationError, match="9 is not a card"):
        Card.parse(9)  # type: ignore[arg-type]


def test_notation_errors_are_value_errors() -> None:
    assert issubclass(NotationError, EngineError)
    assert issubclass(NotationError, ValueError)


def test_card_constructor_rejects_a_rank_outside_1_to_12() -> None:
    with pytest.raises(NotationError, match="13 is not a rank"):
        Card(13, Suit.O)


def test_card_formats_upper_case_rank_then_suit() -> None:
    assert [str(Card.parse(t)) for t in ("9o", "12e", "1c")] == ["9O", "12E", "1C"]
    assert repr(Card.parse("10b")) == "Card.parse('10B')"


@given(st.sampled_from(DECK), st.booleans())
def test_card_text_round_trips(card: Card, lower: bool) -> None:
    text = str(card).lower() if lower else str(card)
    assert Card.parse(f" {text} ") is card


def test_parse_many_accepts_spaces_commas_and_iterables() -> None:
    expected = (Card(9, Suit.O), Card(1, Suit.C), Card(2, Suit.B))
    assert Card.parse_many("9O, 1C 2b") == expected
    assert Card.parse_many(["9O", "1C", "2B"]) == expected
    assert Card.parse_many("") == ()


def test_parse_many_names_the_bad_card() -> None:
    with pytest.raises(NotationError, match="'13O'"):
        Card.parse_many("9O 13O 2B")


def test_suit_parse_and_names() -> None:
    assert Suit.parse(" e ") is Suit.E
    assert [s.catalan_name for s in SUIT_ORDER] == ["oros", "copes", "espases", "bastos"]
    with pytest.raises(NotationError, match="'X' is not a suit"):
        Suit.parse("X")


def test_deck_holds_48_distinct_cards_in_index_order() -> None:
    assert len(DECK) == 48
    assert len(set(DECK)) == 48
    assert [card.index for card in DECK] == list(range(48))
    assert format_cards(DECK[:12]) == "9O 1O 12O 11O 10O 8O 7O 6O 5O 4O 3O 2O"
    assert str(DECK[12]) == "9C"
    assert str(DECK[47]) == "2B"


def test_card_points_are_9_5_1_4_12_3_11_2_10_1_others_0() -> None:
    points = {rank: Card(rank, Suit.O).points for rank in range(1, 13)}
    assert points == {1: 4, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 5, 10: 1, 11: 2, 12: 3}
    assert CARD_POINTS == {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
    assert [c.is_point_card for c in Card.parse_many("9O 1O 12O 11O 10O 8O 2O")] == [
        True,
        True,
        True,
        True,
        True,
        False,
        False,
    ]


def test_each_suit_holds_15_card_points_and_the_deck_60() -> None:
    for suit in SUIT_ORDER:
        assert sum(card.points for card in DECK if card.suit is suit) == 15
    assert sum(card.points for card in DECK) == 60
    # 60 card points + 1 per trick, 12 tricks.
    assert HAND_POINTS == 72


def test_trick_order_is_9_1_12_11_10_8_down_to_2() -> None:
    assert TRICK_ORDER == (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
    strengths = [Card(rank, Suit.C).strength for rank in TRICK_ORDER]
    assert strengths == list(range(11, -1, -1))


@pytest.mark.parametrize(
    ("higher", "lower"),
    [("9C", "1C"), ("1C", "12C"), ("12C", "11C"), ("11C", "10C"), ("10C", "8C"), ("3C", "2C")],
)
def test_beats_follows_trick_order_within_a_suit(higher: str, lower: str) -> None:
    assert Card.parse(higher).beats(Card.parse(lower))
    assert not Card.parse(lower).beats(Card.parse(higher))


def test_a_card_never_beats_another_suit_or_itself() -> None:
    assert not Card.parse("9O").beats(Card.parse("2C"))
    assert not Card.parse("2C").beats(Card.parse("9O"))
    assert not Card.parse("5E").beats(Card.parse("5E"))


def test_cards_sort_by_suit_then_trick_strength() -> None:
    cards = Card.parse_many("2C 9C 1C 3O 2B")
    assert format_cards(sorted(cards, reverse=True)) == "3O 9C 1C 2C 2B"
    assert format_cards(sort_hand(cards)) == "3O 9C 1C 2C 2B"
    assert format_cards(sort_hand(Card.parse_many("10B 9B 1E 8O 12O"))) == "12O 8O 1E 9B 10B"
