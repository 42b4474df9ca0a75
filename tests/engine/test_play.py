"""Legal play and trick winners: every example of docs/rules.md, in both variants."""

from __future__ import annotations

import pytest

from engine.cards import Card, Suit
from engine.play import illegal_reason, legal_cards, trick_winner
from engine.rules import Rules

OBLIGADA = Rules()
LLIURE = Rules(variant="lliure")

# (number, trump, trick, hand, obligada, lliure): docs/rules.md "Examples", checked by hand:
# 1  2nd player, opponent leads 5C: 1C 12C beat it (rule 3); lliure must beat too.
# 2  opponent's 9C cannot be beaten: the lowest copa, 2C (rule 3); lliure any copa.
# 3  void in copes, opponent winning: any trump beats, 3O 12O (rule 4); lliure trumps too.
# 4  partner's 9C wins: point copes 1C 12C or the lowest, 3C (rule 1); lliure any copa.
# 6  opponent trumped with 3O: no copa beats, the lowest copa 7C (rule 3); lliure any copa.
# 7  void, opponent's 11O wins: only 12O over-trumps (rule 4); lliure the same.
# 10 trump E, partner's 9E wins: 1E (points) or the lowest 3E (rule 1); lliure any espasa.
# 11 trump B, opponent's 12C wins: 9C 1C beat it (rule 3); lliure the same.
EXAMPLES = [
    (1, Suit.O, "5C", "1C 12C 3C 9E 2B", "1C 12C", "1C 12C"),
    (2, Suit.O, "9C", "1C 4C 2C 9O", "2C", "1C 4C 2C"),
    (3, Suit.O, "1C", "3O 12O 9E 2B", "3O 12O", "3O 12O"),
    (4, Suit.O, "9C 4C", "1C 12C 7C 3C 2O", "1C 12C 3C", "1C 12C 7C 3C"),
    (6, Suit.O, "1C 4C 3O", "9C 7C 12O 2E", "7C", "9C 7C"),
    (7, Suit.O, "1C 4C 11O", "5O 12O 2E 10B", "12O", "12O"),
    (10, Suit.E, "5E 9E 2E", "1E 7E 3E 4C", "1E 3E", "1E 7E 3E"),
    (11, Suit.B, "4C 12C", "9C 1C 11C 2C", "9C 1C", "9C 1C"),
]


def cards(text: str) -> frozenset[Card]:
    return frozenset(Card.parse_many(text))


@pytest.mark.parametrize(
    ("number", "trump", "trick", "hand", "expected"),
    [(n, t, tr, h, ob) for n, t, tr, h, ob, _ in EXAMPLES],
    ids=[f"example-{e[0]}" for e in EXAMPLES],
)
def test_obligada_matches_the_public_examples(
    number: int, trump: Suit, trick: str, hand: str, expected: str
) -> None:
    assert legal_cards(Card.parse_many(hand), Card.parse_many(trick), trump) == cards(expected)


@pytest.mark.parametrize(
    ("number", "trump", "trick", "hand", "expected"),
    [(n, t, tr, h, ll) for n, t, tr, h, _, ll in EXAMPLES],
    ids=[f"example-{e[0]}" for e in EXAMPLES],
)
def test_lliure_matches_the_public_examples(
    number: int, trump: Suit, trick: str, hand: str, expected: str
) -> None:
    legal = legal_cards(Card.parse_many(hand), Card.parse_many(trick), trump, LLIURE)
    assert legal == cards(expected)


def test_carregar_always_lets_the_second_player_load_a_point_card_of_the_suit_led() -> None:
    rules = Rules(carregar=True, carregar_scope="always")
    legal = legal_cards(Card.parse_many("1C 4C 2C 9O"), Card.parse_many("9C"), Suit.O, rules)
    assert legal == cards("1C 2C")


def test_carregar_void_only_keeps_the_lowest_when_holding_the_suit_led() -> None:
    rules = Rules(carregar=True, carregar_scope="void_only")
    legal = legal_cards(Card.parse_many("1C 4C 2C 9O"), Card.parse_many("9C"), Suit.O, rules)
    assert legal == cards("2C")


@pytest.mark.parametrize("scope", ["void_only", "always"])
def test_carregar_lets_a_void_second_player_without_trumps_load_any_point_card(
    scope: str,
) -> None:
    hand = Card.parse_many("1E 4E 12B 3B")
    rules = Rules(carregar=True, carregar_scope=scope)
    assert legal_cards(hand, Card.parse_many("9C"), Suit.O) == cards("4E 3B")
    assert legal_cards(hand, Card.parse_many("9C"), Suit.O, rules) == cards("1E 4E 12B 3B")


def test_carregar_does_not_excuse_a_void_second_player_who_can_trump() -> None:
    rules = Rules(carregar=True, carregar_scope="always")
    legal = legal_cards(Card.parse_many("1E 2O"), Card.parse_many("9C"), Suit.O, rules)
    assert legal == cards("2O")


def test_carregar_applies_only_to_the_second_player() -> None:
    rules = Rules(carregar=True, carregar_scope="always")
    # Fourth player, opponent (third) winning with 9C: the lowest copes only.
    legal = legal_cards(Card.parse_many("1C 4C 2C"), Card.parse_many("5C 3C 9C"), Suit.O, rules)
    assert legal == cards("2C")


def test_leader_may_play_any_card() -> None:
    hand = Card.parse_many("9O 2C 3E 4B")
    assert legal_cards(hand, (), Suit.O) == frozenset(hand)
    assert legal_cards(hand, (), None, LLIURE) == frozenset(hand)


def test_partner_winning_and_void_allows_point_cards_and_the_lowest_of_each_suit() -> None:
    # Obligada rule 2: partner (leader) winning with 9C, third player void in copes.
    hand = Card.parse_many("1O 6O 5O 11E 8E 7B 4B")
    legal = legal_cards(hand, Card.parse_many("9C 3C"), Suit.O)
    assert legal == cards("1O 5O 11E 8E 4B")


def test_opponent_overtrumped_and_void_allows_the_lowest_of_each_suit() -> None:
    # Obligada rule 4: 9O cannot be beaten, so no trump is forced.
    hand = Card.parse_many("3O 2O 12E 7E 5B")
    legal = legal_cards(hand, Card.parse_many("4C 9O"), Suit.O)
    assert legal == cards("2O 7E 5B")


def test_botifarra_void_player_plays_the_lowest_of_a_suit() -> None:
    hand = Card.parse_many("1O 3O 12E 7E")
    assert legal_cards(hand, Card.parse_many("4C"), None) == cards("3O 7E")
    assert legal_cards(hand, Card.parse_many("4C"), None, LLIURE) == frozenset(hand)


def test_lliure_void_must_overtrump_when_it_can() -> None:
    hand = Card.parse_many("3O 12O 2E")
    assert legal_cards(hand, Card.parse_many("1C 4C 11O"), Suit.O, LLIURE) == cards("12O")


def test_lliure_partner_winning_and_void_allows_any_card() -> None:
    hand = Card.parse_many("3O 12O 2E")
    assert legal_cards(hand, Card.parse_many("9C 4C"), Suit.O, LLIURE) == frozenset(hand)


def test_legal_cards_refuses_a_full_trick() -> None:
    with pytest.raises(ValueError, match="at most 3"):
        legal_cards(Card.parse_many("2O"), Card.parse_many("1C 4C 11O 3C"), Suit.O)


# Trick winners: docs/rules.md "Who wins a trick".
@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("5C 9C 1C 2C", Suit.O, 1),
        ("5C 9C 2O 3O", Suit.O, 3),
        ("5C 9E 1E 12E", Suit.O, 0),
        ("5C 9E 1E 12E", None, 0),
        ("5C 9E 6C 12E", None, 2),
        ("2O 9C 1C 12C", Suit.O, 0),
        ("12B 11B 10B 9B", Suit.B, 3),
        ("4C", Suit.O, 0),
    ],
)
def test_trick_winner(trick: str, trump: Suit | None, winner: int) -> None:
    assert trick_winner(Card.parse_many(trick), trump) == winner


def test_a_card_of_another_non_trump_suit_never_wins() -> None:
    assert trick_winner(Card.parse_many("2C 9E 9B 9O"), Suit.O) == 3
    assert trick_winner(Card.parse_many("2C 9E 9B 9O"), None) == 0


def test_trick_winner_refuses_an_empty_trick() -> None:
    with pytest.raises(ValueError, match="empty"):
        trick_winner((), Suit.O)


# Reasons
@pytest.mark.parametrize(
    ("card", "hand", "trick", "trump", "rules", "reason"),
    [
        ("5O", "5O 12O 2E 10B", "1C 4C 11O", Suit.O, OBLIGADA, "must beat 11O: holds 12O"),
        ("9O", "1C 4C 2C 9O", "9C", Suit.O, OBLIGADA, "must follow copes: holds 1C 4C 2C"),
        ("9O", "2C 9O", "9C", Suit.O, LLIURE, "must follow copes: holds 2C"),
        ("3C", "1C 12C 3C 9E 2B", "5C", Suit.O, OBLIGADA, "must beat 5C: holds 1C 12C"),
        ("4C", "1C 4C 2C 9O", "9C", Suit.O, OBLIGADA,
         "cannot beat 9C: must play the lowest copes, 2C"),
        ("9C", "9C 7C 12O 2E", "1C 4C 3O", Suit.O, OBLIGADA,
         "cannot beat 3O: must play the lowest copes, 7C"),
        ("7C", "1C 12C 7C 3C 2O", "9C 4C", Suit.O, OBLIGADA,
         "partner is winning: play a point card of copes or the lowest, 3C"),
        ("6O", "1O 6O 5O 11E 8E", "9C 3C", Suit.O, OBLIGADA,
         "partner is winning: play a point card or the lowest of a suit: 1O 5O 11E 8E"),
        ("3O", "3O 2O 12E 7E", "4C 9O", Suit.O, OBLIGADA,
         "cannot beat 9O: must play the lowest card of a suit: 2O 7E"),
        ("8O", "5O 12O 2E", "1C 4C 11O", Suit.O, OBLIGADA, "does not hold 8O"),
    ],
)
def test_illegal_reason_names_the_obligation_and_the_cards(
    card: str, hand: str, trick: str, trump: Suit, rules: Rules, reason: str
) -> None:
    got = illegal_reason(
        Card.parse(card), Card.parse_many(hand), Card.parse_many(trick), trump, rules
    )
    assert got == reason


def test_illegal_reason_mentions_loading_when_carregar_allows_it() -> None:
    rules = Rules(carregar=True, carregar_scope="always")
    hand = Card.parse_many("1C 4C 2C 9O")
    reason = illegal_reason(Card.parse("4C"), hand, Card.parse_many("9C"), Suit.O, rules)
    assert reason == "cannot beat 9C: play the lowest copes or load a point card: 1C 2C"
    void = Card.parse_many("1E 4E 12B 3B 5B")
    reason = illegal_reason(Card.parse("5B"), void, Card.parse_many("9C"), Suit.O, rules)
    assert reason == (
        "cannot beat 9C: must play the lowest card of a suit or load a point card: 1E 4E 12B 3B"
    )


def test_illegal_reason_is_none_for_a_legal_card() -> None:
    hand = Card.parse_many("5O 12O 2E 10B")
    assert illegal_reason(Card.parse("12O"), hand, Card.parse_many("1C 4C 11O"), Suit.O) is None
