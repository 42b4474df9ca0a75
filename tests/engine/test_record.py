"""validate_play_record: replaying a recorded hand, first illegal card, clerical errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.bots import play_board
from engine.cards import DECK, Card, Suit
from engine.deal import Deal
from engine.errors import InvalidResultError
from engine.hand import HandPlay
from engine.record import validate_play_record
from engine.rules import Rules
from engine.seats import Seat, Side

# N holds 9,10,5 of each suit; E 1,8,4; S 12,7,3; W 11,6,2 (board 1: N deals, W leads).
DEAL = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})
UNDOUBLED: dict[str, Any] = {
    "delegated": False, "contro": False, "recontro": False, "sant_vicenc": False,
}


def shuffled_deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


def test_a_legal_record_gives_each_sides_points() -> None:
    played = play_board(DEAL, 1, seed=3)
    check = validate_play_record(
        DEAL, 1, trump=played.trump, delegated=played.delegated, contro=played.contro,
        recontro=played.recontro, sant_vicenc=played.sant_vicenc, cards=played.cards,
    )
    assert check.is_valid
    assert check.infraction is None
    assert check.offending_side is None
    assert (check.ns_points, check.ew_points) == (played.ns_points, played.ew_points)
    assert check.points == {Side.NS: played.ns_points, Side.EW: played.ew_points}
    assert played.ns_points + played.ew_points == 72


def test_the_first_illegal_card_is_named_with_index_seat_reason_and_side() -> None:
    cards = Card.parse_many("11O 3O 1O 9O")
    check = validate_play_record(DEAL, 1, trump=Suit.O, cards=cards, **UNDOUBLED)
    assert not check.is_valid
    assert check.points is None
    infraction = check.infraction
    assert infraction is not None
    assert (infraction.index, infraction.seat, infraction.card) == (1, Seat.S, Card.parse("3O"))
    assert infraction.reason == "must beat 11O: holds 12O"
    assert infraction.offending_side is Side.NS
    assert check.offending_side is Side.NS
    assert str(infraction) == "card 2 (3O) by S: must beat 11O: holds 12O"


def test_a_card_out_of_turn_is_an_infraction_of_the_seat_that_held_it() -> None:
    check = validate_play_record(
        DEAL, 1, trump=Suit.O, cards=Card.parse_many("11O 1O"), **UNDOUBLED
    )
    infraction = check.infraction
    assert infraction is not None
    assert (infraction.index, infraction.seat, infraction.reason) == (
        1, Seat.E, "out of turn: S was to play"
    )
    assert infraction.offending_side is Side.EW


def test_the_rules_variant_decides_what_is_illegal() -> None:
    # W 11C, S 12C, E 1C, N 9C: N wins and leads 10C; W holds 6C 2C and cannot beat.
    cards = Card.parse_many("11C 12C 1C 9C 10C 6C")
    obligada = validate_play_record(DEAL, 1, trump=Suit.O, cards=cards, **UNDOUBLED)
    assert obligada.infraction is not None
    assert (obligada.infraction.index, obligada.infraction.seat) == (5, Seat.W)
    assert obligada.infraction.reason == "cannot beat 10C: must play the lowest copes, 2C"
    # Under lliure every card is legal: the record is only incomplete.
    with pytest.raises(InvalidResultError, match="6 cards recorded"):
        validate_play_record(
            DEAL, 1, trump=Suit.O, cards=cards, rules=Rules(variant="lliure"), **UNDOUBLED
        )


def test_random_lliure_play_is_caught_by_obligada() -> None:
    deal = shuffled_deal(11)
    found = None
    for seed in range(50):
        played = play_board(deal, 1, Rules(variant="lliure"), seed=seed, bot="random")
        record: dict[str, Any] = {
            "trump": played.trump, "delegated": played.delegated, "contro": played.contro,
            "recontro": played.recontro, "sant_vicenc": played.sant_vicenc,
            "cards": played.cards,
        }
        assert validate_play_record(deal, 1, rules=Rules(variant="lliure"), **record).is_valid
        strict = validate_play_record(deal, 1, **record)
        if not strict.is_valid:
            found = strict
            break
    assert found is not None
    assert found.infraction is not None
    assert found.ns_points is None


def test_recontro_without_contro_is_a_clerical_error() -> None:
    with pytest.raises(InvalidResultError, match="recontro needs a contro first"):
        validate_play_record(
            DEAL, 1, trump=Suit.O, delegated=False, contro=False, recontro=True,
            sant_vicenc=False, cards=(),
        )


def test_sant_vicenc_on_botifarra_is_a_clerical_error_by_default() -> None:
    with pytest.raises(InvalidResultError, match="botifarra"):
        validate_play_record(
            DEAL, 1, trump=None, delegated=False, contro=True, recontro=True,
            sant_vicenc=True, cards=(),
        )


def test_a_short_record_with_only_legal_cards_is_a_clerical_error() -> None:
    played = play_board(DEAL, 1, seed=1)
    with pytest.raises(InvalidResultError, match="47 cards recorded, a hand has 48"):
        validate_play_record(
            DEAL, 1, trump=played.trump, delegated=played.delegated, contro=played.contro,
            recontro=played.recontro, sant_vicenc=played.sant_vicenc, cards=played.cards[:-1],
        )


def test_a_card_played_twice_is_a_clerical_error() -> None:
    with pytest.raises(InvalidResultError, match="card 5: 11O was already played"):
        validate_play_record(
            DEAL, 1, trump=Suit.O, cards=Card.parse_many("11O 12O 1O 9O 11O"), **UNDOUBLED
        )


def test_delegation_and_doubles_are_replayed() -> None:
    hand = HandPlay(DEAL, 1)
    hand.delegate()
    hand.declare(Suit.C)
    hand.contro(Seat.E)
    hand.recontro(Seat.N)
    hand.sant_vicenc(Seat.W)
    while not hand.is_over:
        hand.play(min(hand.legal_cards(), key=lambda c: c.index))
    check = validate_play_record(
        DEAL, 1, trump=Suit.C, delegated=True, contro=True, recontro=True, sant_vicenc=True,
        cards=hand.cards,
    )
    assert check.points == hand.points()
    assert sum(hand.points().values()) == 72


def test_ns_deals_on_board_one_and_ew_on_board_two() -> None:
    deal = shuffled_deal(2)
    for board in (1, 2, 3, 4):
        played = play_board(deal, board, seed=board)
        check = validate_play_record(
            deal, board, trump=played.trump, delegated=played.delegated, contro=played.contro,
            recontro=played.recontro, sant_vicenc=played.sant_vicenc, cards=played.cards,
        )
        assert (check.ns_points, check.ew_points) == (played.ns_points, played.ew_points)
