"""Bots: legal, deterministic per seed, sensible where a player would be, and varied from
table to table like real players (SensibleBot's per-seat styles)."""

from __future__ import annotations

import random

import pytest

from engine.bots import (
    DELEGATE,
    STEADY,
    PlayedHand,
    RandomBot,
    SensibleBot,
    Style,
    play_board,
)
from engine.cards import DECK, Card, Suit
from engine.deal import Deal
from engine.generate import generate_deal
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
    assert SensibleBot(1, style=STEADY).choose_card(hand) == Card.parse("3C")


def test_sensible_bot_beats_with_the_cheapest_card_that_beats() -> None:
    # W 2B, S 3B, E 8B: N (9B 10B 5B) must beat 8B and picks the cheaper 10B over 9B.
    hand = hand_at(Suit.O, "2B 3B 8B")
    assert SensibleBot(1, style=STEADY).choose_card(hand) == Card.parse("10B")


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
    assert SensibleBot(1, style=STEADY).choose_card(hand) == Card.parse("1C")


def test_sensible_bot_plays_low_when_it_cannot_beat() -> None:
    # W 11C, S 12C, E 1C, N 9C; N leads 10C, the master. W (6C 2C) cannot beat; lliure
    # allows either copa and the bot keeps the higher one.
    hand = HandPlay(DEAL, 1, Rules(variant="lliure"))
    hand.declare(Suit.O)
    hand.play_many(Card.parse_many("11C 12C 1C 9C 10C"))
    assert hand.legal_cards() == frozenset(Card.parse_many("6C 2C"))
    assert SensibleBot(1, style=STEADY).choose_card(hand) == Card.parse("2C")


def test_sensible_bot_leads_a_master_card_with_points() -> None:
    # N wins the first trick with 9C; N's masters outside trump: 10C, 9E, 9B.
    hand = hand_at(Suit.O, "11C 12C 1C 9C")
    assert hand.to_play is Seat.N
    assert SensibleBot(1, style=STEADY).choose_card(hand) in {Card.parse("9E"), Card.parse("9B")}


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
    assert SensibleBot(1, style=STEADY).choose_card(hand) == Card.parse("4C")


# ------------------------------------------------------------ styles and variety
SECRET = bytes(range(32))


def test_sensible_bot_declares_a_long_strong_suit_in_every_style() -> None:
    cards = Card.parse_many("9E 1E 12E 7E 5E 3C 2C 8O 4O 6B 5B 4B")
    for seed in range(20):
        bot = SensibleBot(seed)
        assert {bot.declaration(cards, may_delegate=True, seat=seat) for seat in Seat} == {Suit.E}


def test_a_marginal_suit_is_declared_by_a_bold_player_and_delegated_by_a_cautious_one() -> None:
    # Four espases with the ace (3 x 4 + 4 = 16 against 17 - 3 x boldness).
    cards = Card.parse_many("1E 7E 5E 3E 8O 4O 2O 6C 5C 4B 3B 2B")
    bold = SensibleBot(1, style=Style(boldness=1.0))
    cautious = SensibleBot(1, style=Style(boldness=-1.0))
    assert bold.declaration(cards, may_delegate=True, seat=Seat.N) is Suit.E
    assert cautious.declaration(cards, may_delegate=True, seat=Seat.N) == DELEGATE
    assert cautious.declaration(cards, may_delegate=False, seat=Seat.N) is Suit.E


def test_a_marginal_contro_is_called_by_a_bold_player_only() -> None:
    # 23 card points, three small trumps: contro from 24 - 3 x boldness points.
    cards = Card.parse_many("9C 1C 12C 9E 1E 11B 3O 2O 4O 5B 6B 7E")
    assert SensibleBot(1, style=Style(boldness=1.0)).wants_double(
        "contro", cards, Suit.O, seat=Seat.E
    )
    assert not SensibleBot(1, style=Style(boldness=-1.0)).wants_double(
        "contro", cards, Suit.O, seat=Seat.E
    )


def test_made_to_choose_a_flat_hand_with_manillas_names_botifarra() -> None:
    cards = Card.parse_many("9O 12O 4O 9C 11C 5C 1E 3E 2E 12B 5B 4B")
    bot = SensibleBot(1, style=STEADY)
    assert bot.declaration(cards, may_delegate=True) == DELEGATE
    assert bot.declaration(cards, may_delegate=False) is None


def test_each_seat_gets_a_style_drawn_from_the_seed() -> None:
    first = SensibleBot(5).styles
    assert SensibleBot(5).styles == first
    assert SensibleBot(6).styles != first
    assert len(set(first.values())) == 4
    for style in first.values():
        assert -1.0 <= style.boldness <= 1.0
        assert 0.02 <= style.slip <= 0.12
        assert 2.5 <= style.length_weight <= 3.5
    assert SensibleBot(5, style=STEADY).styles == dict.fromkeys(Seat, STEADY)


def test_a_slip_is_another_legal_card_never_a_manilla_or_an_ace_for_a_cheap_card() -> None:
    always = SensibleBot(3, style=Style(slip=1.0))
    steady = SensibleBot(3, style=STEADY)
    choices = slips = 0
    for seed in range(20):
        hand = HandPlay(shuffled_deal(seed), seed + 1)
        hand.declare([*Suit, None][seed % 5])
        while not hand.is_over:
            legal = hand.legal_cards()
            best = steady.choose_card(hand)
            card = always.choose_card(hand)
            assert card in legal
            if len(legal) > 1:
                choices += 1
                slips += card != best
                if best.points <= 1:
                    assert card.rank not in (9, 1)
            hand.play(best)
    assert slips > choices // 2


def test_a_slip_can_play_another_low_card() -> None:
    # As in test_sensible_bot_plays_low_when_it_cannot_beat: W keeps 6C instead of 2C.
    hand = HandPlay(DEAL, 1, Rules(variant="lliure"))
    hand.declare(Suit.O)
    hand.play_many(Card.parse_many("11C 12C 1C 9C 10C"))
    assert SensibleBot(1, style=Style(slip=1.0)).choose_card(hand) == Card.parse("6C")


def test_drawn_styles_still_beat_cheaply_nearly_always() -> None:
    hand = hand_at(Suit.O, "2C")
    cards = [SensibleBot(seed).choose_card(hand) for seed in range(100)]
    assert cards.count(Card.parse("3C")) >= 85
    assert set(cards) <= {Card.parse("3C"), Card.parse("7C")}


def test_the_tables_of_one_board_get_varied_results() -> None:
    # The demo's seeds: round x 10000 + table x 100 + board, 12 tables.
    for board in range(1, 9):
        deal = generate_deal(SECRET, board)
        results = {
            (hand.trump, hand.contro, hand.ns_points)
            for hand in (
                play_board(deal, board, seed=10_000 + table * 100 + board)
                for table in range(1, 13)
            )
        }
        assert len(results) >= 4, board


def test_one_seed_gives_the_same_hand_and_styles_on_every_board() -> None:
    for board in range(1, 5):
        deal = generate_deal(SECRET, board)
        first = play_board(deal, board, seed=20_304)
        assert play_board(deal, board, seed=20_304) == first
        assert play_board(deal, board, seed=20_305) != first


def test_sensible_bots_beat_random_bots_playing_each_deal_both_ways() -> None:
    margins = []
    for seed in range(40):
        deal = shuffled_deal(1000 + seed)
        as_ns = play_board(deal, seed + 1, seed=seed, bot="sensible", ew_bot="random")
        as_ew = play_board(deal, seed + 1, seed=seed, bot="random", ew_bot="sensible")
        margins.append(as_ns.ns_points - as_ew.ns_points)
    assert sum(margins) / len(margins) > 6  # the sensible side takes 39+ of 72 on average
    assert sum(margin > 0 for margin in margins) >= 28


def test_play_board_refuses_an_unknown_ew_bot() -> None:
    with pytest.raises(ValueError, match="bot 'clever' is not one of random, sensible"):
        play_board(DEAL, 1, seed=1, ew_bot="clever")
