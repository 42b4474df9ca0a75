"""Bots: legal, deterministic per seed, and sensible where the brief says so."""

from __future__ import annotations

import random

import pytest

from engine.bots import DELEGATE, PlayedHand, RandomBot, SensibleBot, play_board
from engine.cards import DECK, Card, Suit
from engine.deal import Deal
from engine.hand import HandPlay
from engine.rules import Rules
from engine.seats import Seat

# N holds 9,10,5 of each suit; E 1,8,4; S 12,7,3; W 11,6,2 (board 1: N deals, W leads).
DEAL = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})


def shuffled_deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


def hand_at(trump: Suit | None, cards: str) -> HandPlay:
    """A hand of DEAL, board 1, after ``cards`` were played."""
    hand = HandPlay(DEAL, 1)
    hand.declare(trump)
    hand.play_many(Card.parse_many(cards))
    return hand


@pytest.mark.parametrize("bot", ["sensible", "random"])
def test_play_board_is_deterministic_for_a_seed(bot: str) -> None:
    deal = shuffled_deal(4)
    first = play_board(deal, 3, seed=42, bot=bot)
    assert play_board(deal, 3, seed=42, bot=bot) == first
    assert isinstance(first, PlayedHand)
    assert len(first.cards) == 48
    assert set(first.cards) == set(DECK)
    assert first.ns_points + first.ew_points == 72


def test_random_bot_games_differ_between_seeds() -> None:
    deal = shuffled_deal(4)
    games = {play_board(deal, 1, seed=seed, bot="random").cards for seed in range(5)}
    assert len(games) > 1


def test_play_board_refuses_an_unknown_bot() -> None:
    with pytest.raises(ValueError, match="bot 'clever' is not one of random, sensible"):
        play_board(DEAL, 1, seed=1, bot="clever")


def test_play_board_follows_the_rules_given() -> None:
    rules = Rules(sant_vicenc=False)
    for seed in range(40):
        played = play_board(shuffled_deal(seed), seed + 1, rules, seed=seed, bot="random")
        assert not played.sant_vicenc
        assert not played.recontro or played.contro


# ----------------------------------------------------------------- declaring
def test_sensible_bot_declares_a_long_strong_suit() -> None:
    cards = Card.parse_many("9E 1E 12E 7E 5E 3C 2C 8O 4O 6B 5B 4B")
    assert SensibleBot(1).declaration(cards, may_delegate=True) is Suit.E


def test_sensible_bot_declares_botifarra_with_manillas_and_aces_in_most_suits() -> None:
    cards = Card.parse_many("9O 1O 4O 9C 1C 5C 9E 3E 2E 6B 5B 4B")
    assert SensibleBot(1).declaration(cards, may_delegate=True) is None


def test_sensible_bot_delegates_a_weak_hand_and_declares_when_it_must() -> None:
    cards = Card.parse_many("8O 4O 2O 7C 5C 3C 6E 4E 2E 8B 5B 3B")
    bot = SensibleBot(1)
    assert bot.declaration(cards, may_delegate=True) == DELEGATE
    assert isinstance(bot.declaration(cards, may_delegate=False), Suit)


def test_sensible_bot_calls_contro_with_a_strong_hand_only() -> None:
    strong = Card.parse_many("9O 1O 12O 4O 9C 1C 3C 9E 2E 6B 5B 4B")
    weak = Card.parse_many("8O 4O 2O 7C 5C 3C 6E 4E 2E 8B 5B 3B")
    bot = SensibleBot(1)
    assert bot.wants_double("contro", strong, Suit.O)
    assert not bot.wants_double("contro", weak, Suit.O)


def test_random_bot_declares_only_suits_botifarra_or_delegate() -> None:
    bot = RandomBot(3)
    choices = {bot.declaration(DEAL[Seat.N], may_delegate=True) for _ in range(100)}
    assert choices <= {*Suit, None, DELEGATE}
    assert DELEGATE in choices
    assert all(bot.declaration(DEAL[Seat.N], may_delegate=False) != DELEGATE
               for _ in range(50))


# -------------------------------------------------------------------- playing
def test_sensible_bot_beats_cheaply() -> None:
    # W leads 2C; S (12C 7C 3C) may play any of them: the cheapest that beats is 3C.
    hand = hand_at(Suit.O, "2C")
    assert SensibleBot(1).choose_card(hand) == Card.parse("3C")


def test_sensible_bot_beats_with_the_cheapest_card_that_beats() -> None:
    # W 2B, S 3B, E 8B: N (9B 10B 5B) must beat 8B and picks the cheaper 10B over 9B.
    hand = hand_at(Suit.O, "2B 3B 8B")
    assert SensibleBot(1).choose_card(hand) == Card.parse("10B")


def test_sensible_bot_loads_points_on_a_partners_winning_trick() -> None:
    deal = Deal.from_hands({
        Seat.N: Card.parse_many("1C 12C 2C 9O 1O 12O 11O 10O 8O 7O 6O 5O"),
        Seat.S: Card.parse_many("9C 11C 10C 4O 3O 2O 9B 1B 12B 11B 10B 8B"),
        Seat.W: Card.parse_many("4C 8C 7C 6C 5C 3C 7B 6B 5B 4B 3B 2B"),
        Seat.E: [card for card in DECK if card.suit is Suit.E],
    })
    hand = HandPlay(deal, 1)
    hand.declare(Suit.O)
    hand.play_many(Card.parse_many("4C 9C 2E"))
    # N is last and partner S wins with the manilla: N loads the ace (4 points).
    assert hand.legal_cards() == frozenset(Card.parse_many("1C 12C 2C"))
    assert SensibleBot(1).choose_card(hand) == Card.parse("1C")


def test_sensible_bot_plays_low_when_it_cannot_beat() -> None:
    # W 11C, S 12C, E 1C, N 9C; N leads 10C, the master. W (6C 2C) cannot beat; lliure
    # allows either copa and the bot keeps the higher one.
    hand = HandPlay(DEAL, 1, Rules(variant="lliure"))
    hand.declare(Suit.O)
    hand.play_many(Card.parse_many("11C 12C 1C 9C 10C"))
    assert hand.legal_cards() == frozenset(Card.parse_many("6C 2C"))
    assert SensibleBot(1).choose_card(hand) == Card.parse("2C")


def test_sensible_bot_leads_a_master_card_with_points() -> None:
    # N wins the first trick with 9C; N's masters outside trump: 10C, 9E, 9B.
    hand = hand_at(Suit.O, "11C 12C 1C 9C")
    assert hand.to_play is Seat.N
    assert SensibleBot(1).choose_card(hand) in {Card.parse("9E"), Card.parse("9B")}


def test_sensible_bot_leads_from_length_without_a_master() -> None:
    west = Card.parse_many("8C 7C 6C 5C 4C 12E 11E 12B 11B 10B 3O 2O")
    rest = [card for card in DECK if card not in west]
    deal = Deal.from_hands(
        {Seat.W: west, Seat.N: rest[:12], Seat.E: rest[12:24], Seat.S: rest[24:]}
    )
    hand = HandPlay(deal, 1)
    hand.declare(Suit.O)
    # W leads, holds no master card: the lowest card of the longest suit, copes.
    assert hand.to_play is Seat.W
    assert SensibleBot(1).choose_card(hand) == Card.parse("4C")
