"""The compiled core against the engine: the same legal cards as engine.play.legal_cards
on random positions (hypothesis), the same values as the pure-Python solver on many
endings, and a whole deal played card by card by best_card keeps the table's value."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, Card, Suit
from engine.dd import (
    DECLARATIONS,
    _cbit,
    _core_flags,
    _core_trump,
    best_play,
    core_available,
    dd_table,
    double_dummy,
)
from engine.deal import Deal
from engine.hand import HandPlay
from engine.play import legal_cards, trick_winner
from engine.rules import Rules
from engine.seats import Seat, Side, seats_from

if not core_available():
    if os.environ.get("CI") == "true":
        raise AssertionError("engine._ddcore is not built (pip install -e . builds it)")
    pytest.skip("engine._ddcore is not built", allow_module_level=True)

from engine import _ddcore  # imported once the skip above has not happened

ALL_RULES = [
    Rules(),
    Rules(variant="lliure"),
    Rules(carregar=True),
    Rules(carregar=True, carregar_scope="always"),
    Rules(variant="lliure", carregar=True, carregar_scope="always"),
]


@settings(max_examples=3000, deadline=None)
@given(
    cards=st.permutations(DECK),
    size=st.integers(min_value=1, max_value=12),
    on_table=st.integers(min_value=0, max_value=3),
    trump=st.sampled_from(DECLARATIONS),
    rules=st.sampled_from(ALL_RULES),
)
def test_the_core_allows_exactly_the_engines_legal_cards(
    cards: list[Card], size: int, on_table: int, trump: Suit | None, rules: Rules
) -> None:
    """Slow by design: 3,000 random positions, so that each rule set and trump meets the
    rare cases (a void, a card that cannot beat) many times."""
    hand = cards[:size]
    trick = cards[size:size + on_table]
    expected = legal_cards(hand, trick, trump, rules)
    mask = _ddcore.legal(
        sum(1 << _cbit(c) for c in hand), [_cbit(c) for c in trick], _core_trump(trump),
        _core_flags(rules),
    )
    assert {c for c in DECK if mask >> _cbit(c) & 1} == expected


def shuffled_deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


def ending(
    seed: int, tricks: int, trump: Suit | None, rules: Rules, on_table: int
) -> tuple[dict[Seat, tuple[Card, ...]], Seat, tuple[Card, ...]]:
    """A position reached by random legal play of a random deal: ``tricks`` tricks to go
    and ``on_table`` cards of the current one played."""
    rng = random.Random(seed)
    hand = HandPlay(shuffled_deal(seed), 1 + seed % 4, rules)
    hand.declare(trump)
    for _ in range((12 - tricks) * 4 + on_table):
        hand.play(rng.choice(sorted(hand.legal_cards(), key=lambda c: c.index)))
    current = hand.current_trick
    assert current is not None
    return hand.hands, current.leader, current.cards


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant.value}-{r.carregar}-"
                         f"{r.carregar_scope.value}")
def test_core_and_python_solver_agree_on_many_endings(rules: Rules) -> None:
    for seed in range(40):
        trump = DECLARATIONS[seed % 5]
        tricks = 3 + seed % 3  # 3 to 5 tricks, with 0..3 cards of the first on the table
        hands, leader, trick = ending(seed, tricks, trump, rules, seed % 4)
        c_value, c_card = best_play(hands, trump, leader, rules, played_in_trick=trick,
                                    backend="c")
        py_value = double_dummy(hands, trump, leader, rules, played_in_trick=trick,
                                backend="python")
        assert c_value == py_value, (seed, trump, hands, leader, trick)
        # The core's card keeps the value, by the Python solver's count.
        seat = leader
        for _ in trick:
            seat = seat.right
        rest = {s: [c for c in cards if c != c_card] for s, cards in hands.items()}
        played = [*trick, c_card]
        if len(played) < 4:
            after = double_dummy(rest, trump, leader, rules, played_in_trick=played,
                                 backend="python")
        else:
            winner = seats_from(leader)[trick_winner(played, trump)]
            gain = sum(c.points for c in played) + 1 if winner.side is Side.NS else 0
            after = gain + (double_dummy(rest, trump, winner, rules, backend="python")
                            if rest[winner] else 0)
        assert after == c_value, (seed, c_card)


def test_a_deal_played_by_best_card_takes_exactly_the_tables_value() -> None:
    deal = shuffled_deal(2024)
    table = dd_table(deal, Seat.N)
    assert set(table) == set(DECLARATIONS)
    assert all(0 <= v <= 72 for v in table.values())
    for trump in (Suit.C, None):
        hand = HandPlay(deal, 1)  # board 1: N deals, W leads
        hand.declare(trump)
        while not hand.is_over:
            current = hand.current_trick
            assert current is not None
            value, card = best_play(hand.hands, trump, current.leader,
                                    played_in_trick=current.cards)
            # Points NS took in the finished tricks plus the value from here: constant.
            assert hand.points()[Side.NS] + value == table[trump]
            hand.play(card)
        assert hand.points()[Side.NS] == table[trump]


def cashing_positions(rules: Rules, count: int) -> list[tuple[dict[Seat, tuple[Card, ...]],
                                                             Seat, Suit | None]]:
    """Trick starts where the leader holds the top card in play of a plain suit and
    another seat a point card of it: the sure-points bound counts the cards the other
    seats must follow with when the leader cashes (the bound fires there)."""
    found = []
    for seed in range(1000, 3000):
        trump = DECLARATIONS[seed % 5]
        hands, leader, _ = ending(seed, 4 + seed % 2, trump, rules, 0)
        in_play = [c for cards in hands.values() for c in cards]
        for suit in Suit:
            if suit is trump:
                continue
            of_suit = [c for c in in_play if c.suit is suit]
            if not of_suit:
                continue
            top = max(of_suit, key=lambda c: c.strength)
            others = [c for seat, cards in hands.items() if seat is not leader
                      for c in cards if c.suit is suit and c.is_point_card]
            if top in hands[leader] and others:
                found.append((hands, leader, trump))
                break
        if len(found) == count:
            return found
    raise AssertionError("too few positions")


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.variant.value}-{r.carregar}-"
                         f"{r.carregar_scope.value}")
def test_the_cashing_bound_keeps_the_values(rules: Rules) -> None:
    for hands, leader, trump in cashing_positions(rules, 12):
        assert (double_dummy(hands, trump, leader, rules, backend="c")
                == double_dummy(hands, trump, leader, rules, backend="python")), (hands, leader)
