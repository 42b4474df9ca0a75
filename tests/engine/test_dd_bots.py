"""PerfectBot: double-dummy play, legal at every card, ending on the solver's value."""

from __future__ import annotations

import random

import pytest

from engine import PerfectBot, double_dummy, play_board
from engine.bots import SensibleBot
from engine.cards import DECK, Suit
from engine.dd import core_available
from engine.deal import Deal
from engine.hand import HandPlay
from engine.seats import Seat, Side


def shuffled_deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


@pytest.mark.parametrize("backend", ["python", "c"])
@pytest.mark.parametrize("trump", [Suit.E, None])
def test_perfect_bots_finish_an_ending_on_its_double_dummy_value(
    backend: str, trump: Suit | None
) -> None:
    if backend == "c" and not core_available():
        pytest.skip("engine._ddcore is not built")
    deal = shuffled_deal(11)
    hand = HandPlay(deal, 2)
    hand.declare(trump)
    cheap = SensibleBot(5)
    for _ in range(8 * 4 + 2):  # eight tricks and two cards of the ninth
        hand.play(cheap.choose_card(hand))
    current = hand.current_trick
    assert current is not None and len(current.cards) == 2
    value = double_dummy(hand.hands, trump, current.leader, played_in_trick=current.cards,
                         backend=backend)  # type: ignore[arg-type]
    taken = hand.points()[Side.NS]
    bot = PerfectBot(0, backend=backend)  # type: ignore[arg-type]
    while not hand.is_over:
        hand.play(bot.choose_card(hand))  # HandPlay refuses an illegal card
    assert hand.points()[Side.NS] == taken + value


@pytest.mark.skipif(not core_available(), reason="engine._ddcore is not built")
def test_play_board_with_perfect_bots_is_deterministic_and_totals_72(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BOTIFARRA_DD_BACKEND", "c")  # a whole hand: the core, always
    deal = shuffled_deal(3)
    first = play_board(deal, 1, seed=1, bot="perfect")
    assert play_board(deal, 1, seed=1, bot="perfect") == first
    assert first.ns_points + first.ew_points == 72
    assert first.ns_points == double_dummy(deal.hands(), first.trump, Seat.W)
