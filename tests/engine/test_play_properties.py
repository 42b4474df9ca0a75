"""Hypothesis properties of legal play, trick winners, whole hands and the validator."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.bots import play_board
from engine.cards import DECK, Card, Suit
from engine.deal import Deal
from engine.hand import HandPlay
from engine.play import illegal_reason, legal_cards, trick_winner
from engine.record import validate_play_record
from engine.rules import Rules
from engine.seats import Seat

TRUMPS = st.sampled_from([*Suit, None])
RULES = st.sampled_from([
    Rules(),
    Rules(variant="lliure"),
    Rules(carregar=True, carregar_scope="void_only"),
    Rules(carregar=True, carregar_scope="always"),
    Rules(sant_vicenc_on_botifarra=True, barraca=True),
])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def shuffled_deal(seed: int) -> Deal:
    """A random deal from Python's PRNG (tests only; the real generator is engine.generate)."""
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


@st.composite
def hand_and_trick(draw: st.DrawFn) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    cards = draw(st.permutations(DECK))
    size = draw(st.integers(min_value=1, max_value=12))
    played = draw(st.integers(min_value=0, max_value=3))
    return tuple(cards[:size]), tuple(cards[size:size + played])


@settings(max_examples=200)
@given(hand_and_trick(), TRUMPS, RULES)
def test_a_legal_set_is_never_empty_and_is_a_subset_of_the_hand(
    hand_trick: tuple[tuple[Card, ...], tuple[Card, ...]], trump: Suit | None, rules: Rules
) -> None:
    hand, trick = hand_trick
    legal = legal_cards(hand, trick, trump, rules)
    assert legal
    assert legal <= set(hand)
    for card in hand:
        assert (illegal_reason(card, hand, trick, trump, rules) is None) == (card in legal)


@settings(max_examples=200)
@given(hand_and_trick(), TRUMPS)
def test_obligada_allows_no_more_than_lliure_except_loading(
    hand_trick: tuple[tuple[Card, ...], tuple[Card, ...]], trump: Suit | None
) -> None:
    hand, trick = hand_trick
    assert legal_cards(hand, trick, trump) <= legal_cards(
        hand, trick, trump, Rules(variant="lliure")
    )
    assert legal_cards(hand, trick, trump) <= legal_cards(
        hand, trick, trump, Rules(carregar=True, carregar_scope="always")
    )


@settings(max_examples=200)
@given(st.permutations(DECK), st.integers(min_value=1, max_value=4), TRUMPS)
def test_the_trick_winner_is_one_of_its_cards_and_nothing_beats_it(
    cards: list[Card], size: int, trump: Suit | None
) -> None:
    trick = cards[:size]
    index = trick_winner(trick, trump)
    assert 0 <= index < size
    winner = trick[index]
    trumps = [c for c in trick if c.suit is trump]
    expected_suit = trump if trumps else trick[0].suit
    assert winner.suit is expected_suit
    assert all(c.strength <= winner.strength for c in trick if c.suit is expected_suit)


@settings(max_examples=100)
@given(SEEDS, st.integers(min_value=1, max_value=32), RULES, st.sampled_from(["random",
                                                                             "sensible"]))
def test_a_bot_hand_totals_72_and_the_validator_accepts_it(
    seed: int, board: int, rules: Rules, bot: str
) -> None:
    deal = shuffled_deal(seed)
    played = play_board(deal, board, rules, seed=seed, bot=bot)
    assert played.ns_points + played.ew_points == 72
    assert sorted(played.cards, key=lambda c: c.index) == list(DECK)
    check = validate_play_record(
        deal, board, trump=played.trump, delegated=played.delegated, contro=played.contro,
        recontro=played.recontro, sant_vicenc=played.sant_vicenc, cards=played.cards,
        rules=rules,
    )
    assert check.is_valid
    assert (check.ns_points, check.ew_points) == (played.ns_points, played.ew_points)


@settings(max_examples=100)
@given(SEEDS, st.integers(min_value=1, max_value=32), RULES, st.data())
def test_the_validator_names_a_swapped_in_illegal_card(
    seed: int, board: int, rules: Rules, data: st.DataObject
) -> None:
    deal = shuffled_deal(seed)
    played = play_board(deal, board, rules, seed=seed, bot="random")
    # Replay and note each moment where the seat to play held a card it could not play.
    hand = HandPlay(deal, board, rules)
    if played.delegated:
        hand.delegate()
    hand.declare(played.trump)
    chances: list[tuple[int, Seat, Card]] = []
    for index, card in enumerate(played.cards):
        legal = hand.legal_cards()
        seat = hand.to_play
        chances += [(index, seat, c) for c in hand.hands[seat] if c not in legal]
        hand.play(card)
    assume(chances)
    index, seat, illegal = data.draw(st.sampled_from(chances))
    later = played.cards.index(illegal)
    assert later > index
    cards = list(played.cards)
    cards[index], cards[later] = cards[later], cards[index]
    check = validate_play_record(
        deal, board, trump=played.trump, delegated=played.delegated, contro=played.contro,
        recontro=played.recontro, sant_vicenc=played.sant_vicenc, cards=cards, rules=rules,
    )
    assert check.infraction is not None
    assert (check.infraction.index, check.infraction.card) == (index, illegal)
    assert check.infraction.seat is seat
    assert check.infraction.offending_side is seat.side
    assert check.infraction.reason
    assert check.points is None


@settings(max_examples=50)
@given(SEEDS, st.integers(min_value=1, max_value=48))
def test_undo_then_replaying_the_same_card_restores_the_state(seed: int, steps: int) -> None:
    deal = shuffled_deal(seed)
    played = play_board(deal, 1, seed=seed, bot="random")
    hand = HandPlay(deal, 1)
    if played.delegated:
        hand.delegate()
    hand.declare(played.trump)
    hand.play_many(played.cards[:steps])
    points, hands, tricks = hand.points(), hand.hands, hand.tricks
    hand.undo()
    assert len(hand.cards) == steps - 1
    hand.play(played.cards[steps - 1])
    assert (hand.points(), hand.hands, hand.tricks) == (points, hands, tricks)
