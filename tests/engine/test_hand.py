"""HandPlay: declaration, doubling, play, points and undo (docs/rules.md)."""

from __future__ import annotations

import pytest

from engine.cards import DECK, Card, Suit
from engine.deal import Deal
from engine.errors import IllegalPlayError
from engine.hand import HandPlay, Phase
from engine.play import IllegalCardError
from engine.rules import Rules
from engine.seats import Seat, Side

# N holds 9,10,5 of each suit; E 1,8,4; S 12,7,3; W 11,6,2 (board 1: N deals, W leads).
DEAL = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})


DEFAULT = Rules()


def declared(trump: Suit | None = Suit.O, board: int = 1, rules: Rules = DEFAULT) -> HandPlay:
    hand = HandPlay(DEAL, board, rules)
    hand.declare(trump)
    return hand


def play_out(hand: HandPlay) -> None:
    while not hand.is_over:
        hand.play(min(hand.legal_cards(), key=lambda c: c.index))


# ----------------------------------------------------------------- declaration
def test_dealer_declares_and_the_declaring_side_is_the_dealers() -> None:
    hand = HandPlay(DEAL, 2)
    assert hand.dealer is Seat.W
    assert hand.to_declare is Seat.W
    hand.declare(Suit.C)
    assert (hand.declarer, hand.trump, hand.declaring_side) == (Seat.W, Suit.C, Side.EW)
    assert hand.phase is Phase.DOUBLING
    assert hand.to_declare is None


def test_delegation_passes_the_declaration_to_the_partner() -> None:
    hand = HandPlay(DEAL, 1)
    hand.delegate()
    assert hand.to_declare is Seat.S
    hand.declare(None)
    assert hand.delegated
    assert hand.declarer is Seat.S
    assert hand.trump is None
    assert hand.is_botifarra


def test_a_second_delegation_is_refused() -> None:
    hand = HandPlay(DEAL, 1)
    hand.delegate()
    with pytest.raises(IllegalPlayError, match="no second delegation: S must name trump"):
        hand.delegate()


def test_trump_cannot_be_read_or_played_before_the_declaration() -> None:
    hand = HandPlay(DEAL, 1)
    with pytest.raises(IllegalPlayError, match="not been declared"):
        _ = hand.trump
    with pytest.raises(IllegalPlayError, match="not been declared"):
        hand.play(Card.parse("11O"))
    with pytest.raises(IllegalPlayError, match="not been declared"):
        hand.contro()
    assert hand.legal_cards() == frozenset()


def test_declaring_twice_is_refused() -> None:
    hand = declared()
    with pytest.raises(IllegalPlayError, match="already declared"):
        hand.declare(Suit.C)


# -------------------------------------------------------------------- doubling
def test_contro_recontro_sant_vicenc_in_order() -> None:
    hand = declared(Suit.O)
    hand.contro()
    hand.recontro(Seat.S)
    hand.sant_vicenc(Seat.E)
    assert (hand.contro_by, hand.recontro_by, hand.sant_vicenc_by) == (Seat.W, Seat.S, Seat.E)
    assert hand.contro_called and hand.recontro_called and hand.sant_vicenc_called


def test_contro_by_the_declaring_side_is_refused() -> None:
    hand = declared()
    with pytest.raises(IllegalPlayError, match="contro is called by EW, not by N"):
        hand.contro(Seat.N)


def test_recontro_without_contro_is_refused() -> None:
    hand = declared()
    with pytest.raises(IllegalPlayError, match="recontro needs a contro first"):
        hand.recontro()


def test_recontro_by_the_other_side_is_refused() -> None:
    hand = declared()
    hand.contro()
    with pytest.raises(IllegalPlayError, match="recontro is called by NS, not by E"):
        hand.recontro(Seat.E)


def test_contro_twice_is_refused() -> None:
    hand = declared()
    hand.contro(Seat.E)
    with pytest.raises(IllegalPlayError, match="already called"):
        hand.contro(Seat.W)


def test_sant_vicenc_without_recontro_is_refused() -> None:
    hand = declared()
    hand.contro()
    with pytest.raises(IllegalPlayError, match="needs a recontro first"):
        hand.sant_vicenc()


def test_sant_vicenc_on_botifarra_is_refused_by_default() -> None:
    hand = declared(None)
    hand.contro()
    hand.recontro()
    with pytest.raises(IllegalPlayError, match="not allowed on a botifarra hand"):
        hand.sant_vicenc()


def test_sant_vicenc_on_botifarra_is_accepted_when_the_rules_allow_it() -> None:
    hand = declared(None, rules=Rules(sant_vicenc_on_botifarra=True))
    hand.contro()
    hand.recontro()
    hand.sant_vicenc()
    assert hand.sant_vicenc_by is Seat.W


def test_sant_vicenc_is_refused_when_the_championship_bans_it() -> None:
    hand = declared(Suit.O, rules=Rules(sant_vicenc=False))
    hand.contro()
    hand.recontro()
    with pytest.raises(IllegalPlayError, match="not played in this championship"):
        hand.sant_vicenc()


def test_barraca_follows_sant_vicenc_only_when_the_rules_allow_it() -> None:
    hand = declared(Suit.O)
    hand.contro()
    hand.recontro()
    hand.sant_vicenc()
    with pytest.raises(IllegalPlayError, match="barraca is not played"):
        hand.barraca()
    with_barraca = declared(Suit.O, rules=Rules(barraca=True))
    with_barraca.contro()
    with_barraca.recontro()
    with pytest.raises(IllegalPlayError, match="needs a Sant Vicenç first"):
        with_barraca.barraca()
    with_barraca.sant_vicenc()
    with_barraca.barraca()
    assert with_barraca.barraca_by is Seat.S


def test_the_first_card_closes_the_doubling() -> None:
    hand = declared()
    hand.play(Card.parse("11O"))
    assert hand.phase is Phase.PLAY
    with pytest.raises(IllegalPlayError, match="play has started"):
        hand.contro()


def test_start_play_closes_the_doubling() -> None:
    hand = declared()
    hand.start_play()
    with pytest.raises(IllegalPlayError, match="play has started"):
        hand.contro()
    assert hand.to_play is Seat.W


# ------------------------------------------------------------------------ play
def test_play_goes_counter_clockwise_from_the_dealers_right() -> None:
    hand = declared(Suit.O)
    seats = []
    for card in Card.parse_many("11O 12O 1O 9O"):
        seats.append(hand.to_play)
        hand.play(card)
    assert seats == [Seat.W, Seat.S, Seat.E, Seat.N]
    (trick,) = hand.tricks
    assert trick.winner is Seat.N
    assert trick.points == 2 + 3 + 4 + 5 + 1
    assert hand.points() == {Side.NS: 15, Side.EW: 0}
    assert hand.to_play is Seat.N


def test_a_card_out_of_turn_is_refused() -> None:
    hand = declared()
    with pytest.raises(IllegalCardError, match="out of turn: 9O is in N's hand and W is to play"):
        hand.play(Card.parse("9O"))
    with pytest.raises(IllegalCardError, match="N may not play 9O: out of turn: W is to play"):
        hand.play(Card.parse("9O"), Seat.N)


def test_an_illegal_card_is_refused_with_its_reason() -> None:
    hand = declared(Suit.O)
    hand.play(Card.parse("11O"))
    with pytest.raises(IllegalCardError) as caught:
        hand.play(Card.parse("3O"))
    error = caught.value
    assert str(error) == "S may not play 3O: must beat 11O: holds 12O"
    assert (error.seat, error.card, error.reason) == (Seat.S, Card.parse("3O"),
                                                      "must beat 11O: holds 12O")
    assert hand.illegal_reason(Card.parse("3O")) == "must beat 11O: holds 12O"
    assert hand.cards == (Card.parse("11O"),)


def test_a_played_card_cannot_be_played_again() -> None:
    hand = declared(Suit.O)
    hand.play_many(Card.parse_many("11O 12O 1O 9O"))
    with pytest.raises(IllegalCardError, match="does not hold 12O"):
        hand.play(Card.parse("12O"))


def test_a_finished_hand_totals_72_and_refuses_more_cards() -> None:
    hand = declared(Suit.B)
    play_out(hand)
    assert hand.is_over
    assert len(hand.tricks) == 12
    assert len(hand.cards) == 48
    assert sum(hand.points().values()) == 72
    assert all(len(cards) == 0 for cards in hand.hands.values())
    assert hand.legal_cards() == frozenset()
    assert hand.current_trick is None
    with pytest.raises(IllegalPlayError, match="hand is over"):
        hand.play(Card.parse("9O"))
    with pytest.raises(IllegalPlayError, match="hand is over"):
        _ = hand.to_play


def test_hands_shrink_as_cards_are_played() -> None:
    hand = declared(Suit.O)
    hand.play(Card.parse("11O"))
    assert Card.parse("11O") not in hand.hands[Seat.W]
    assert len(hand.hands[Seat.W]) == 11
    assert len(hand.hands[Seat.N]) == 12


# ------------------------------------------------------------------------ undo
def test_undo_takes_back_the_last_card_and_its_trick() -> None:
    hand = declared(Suit.O)
    hand.play_many(Card.parse_many("11O 12O 1O 9O"))
    hand.undo()
    assert hand.tricks == ()
    assert hand.points() == {Side.NS: 0, Side.EW: 0}
    assert hand.to_play is Seat.N
    assert Card.parse("9O") in hand.hands[Seat.N]
    assert hand.legal_cards() == frozenset({Card.parse("9O")})
    hand.play(Card.parse("9O"))
    assert hand.tricks[0].winner is Seat.N


def test_undo_of_the_first_card_reopens_the_doubling() -> None:
    hand = declared(Suit.O)
    hand.play(Card.parse("11O"))
    hand.undo()
    assert hand.phase is Phase.DOUBLING
    hand.contro()
    assert hand.contro_called


def test_undo_takes_back_doubles_declaration_and_delegation() -> None:
    hand = HandPlay(DEAL, 1)
    hand.delegate()
    hand.declare(Suit.E)
    hand.contro()
    hand.undo()
    assert not hand.contro_called
    hand.undo()
    assert hand.phase is Phase.DECLARATION
    assert hand.to_declare is Seat.S
    hand.undo()
    assert hand.to_declare is Seat.N
    with pytest.raises(IllegalPlayError, match="nothing to undo"):
        hand.undo()


def test_undo_at_the_end_restores_the_last_trick() -> None:
    hand = declared(Suit.O)
    play_out(hand)
    points = hand.points()
    last = hand.cards[-1]
    hand.undo()
    assert not hand.is_over
    assert len(hand.tricks) == 11
    hand.play(last)
    assert hand.points() == points
