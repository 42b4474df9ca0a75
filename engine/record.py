"""Check a recorded hand card by card (docs/rules.md "Legal play", "Hand score": infraction).

A play record is what a table reports: the declaration, the doubles and the 48 cards in
play order. :func:`validate_play_record` replays it on a :class:`~engine.hand.HandPlay`
and returns either the points each side took or the first illegal card.

>>> from engine.cards import DECK, Card, Suit
>>> from engine.deal import Deal
>>> from engine.seats import Seat
>>> deal = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})
>>> check = validate_play_record(deal, 1, trump=Suit.O, delegated=False, contro=False,
...     recontro=False, sant_vicenc=False, cards=Card.parse_many("11O 3O"))
>>> check.is_valid, check.infraction.index, check.infraction.seat, check.infraction.reason
(False, 1, <Seat.S: 'S'>, 'must beat 11O: holds 12O')
>>> check.infraction.offending_side
<Side.NS: 'NS'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.deal import Deal
from engine.errors import IllegalPlayError, InvalidResultError
from engine.hand import HandPlay
from engine.play import IllegalCardError
from engine.rules import Rules
from engine.seats import Seat, Side

HAND_CARDS = 48
_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Infraction:
    """The first illegal card of a record: ``cards[index]`` (0..47) played by ``seat``.

    ``reason`` says which rule it broke (as :func:`engine.play.illegal_reason`, or
    ``"out of turn: ..."`` when the card belongs to a seat whose turn it was not, in which
    case ``seat`` is the seat that held it). ``offending_side`` is ``seat``'s side.
    """

    index: int
    seat: Seat
    card: Card
    reason: str

    @property
    def offending_side(self) -> Side:
        return self.seat.side

    def __str__(self) -> str:
        return f"card {self.index + 1} ({self.card}) by {self.seat}: {self.reason}"


@dataclass(frozen=True, slots=True)
class PlayRecordCheck:
    """The outcome of :func:`validate_play_record`.

    Valid: ``ns_points`` + ``ew_points`` == 72 (card points and 1 per trick) and
    ``infraction`` is ``None``. Invalid: ``infraction`` names the first illegal card and
    the points are ``None`` (a classic game or a duplicate championship then scores the
    infraction, not the points: docs/rules.md "Infractions").
    """

    ns_points: int | None
    ew_points: int | None
    infraction: Infraction | None

    @property
    def is_valid(self) -> bool:
        return self.infraction is None

    @property
    def points(self) -> dict[Side, int] | None:
        if self.ns_points is None or self.ew_points is None:
            return None
        return {Side.NS: self.ns_points, Side.EW: self.ew_points}

    @property
    def offending_side(self) -> Side | None:
        return None if self.infraction is None else self.infraction.offending_side


def validate_play_record(
    deal: Deal,
    board_number: int,
    *,
    trump: Suit | None,
    delegated: bool,
    contro: bool,
    recontro: bool,
    sant_vicenc: bool,
    cards: Sequence[Card],
    rules: Rules = _DEFAULT_RULES,
    barraca: bool = False,
) -> PlayRecordCheck:
    """Replay a recorded hand of board ``board_number`` and check every card.

    ``trump``: the suit named, ``None`` for botifarra; ``delegated``: the dealer's partner
    named it; ``contro``/``recontro``/``sant_vicenc``/``barraca``: the doubles called;
    ``cards``: the cards in play order, 48 for a finished hand (fewer when play stopped at
    an infraction). The seat of each card follows from the deal and the turn.

    Returns a :class:`PlayRecordCheck` with the points of each side (0..72, 72 together),
    or the first illegal card with its index, seat, reason and offending side.

    Raises :class:`~engine.errors.InvalidResultError` for a record that no play can
    produce, which is a clerical error rather than an infraction: doubles out of order
    (recontro without contro...) or not allowed by ``rules`` (Sant Vicenç on a botifarra
    hand...), a card played twice, all cards legal but fewer or more than 48.
    """
    hand = HandPlay(deal, board_number, rules)
    try:
        if delegated:
            hand.delegate()
        hand.declare(trump)
        if contro:
            hand.contro()
        if recontro:
            hand.recontro()
        if sant_vicenc:
            hand.sant_vicenc()
        if barraca:
            hand.barraca()
        hand.start_play()
    except IllegalPlayError as exc:
        raise InvalidResultError(f"board {board_number}: {exc}") from None

    seen: set[Card] = set()
    for index, card in enumerate(cards):
        if not isinstance(card, Card):
            raise InvalidResultError(f"card {index + 1}: {card!r} is not a Card")
        if card in seen:
            raise InvalidResultError(f"card {index + 1}: {card} was already played")
        seen.add(card)
        if hand.is_over:
            raise InvalidResultError(
                f"board {board_number}: {len(cards)} cards recorded, a hand has {HAND_CARDS}"
            )
        seat = hand.to_play
        holder = deal.holder(card)
        if holder is not seat:
            reason = f"out of turn: {seat} was to play"
            return PlayRecordCheck(None, None, Infraction(index, holder, card, reason))
        try:
            hand.play(card)
        except IllegalCardError as exc:
            return PlayRecordCheck(None, None, Infraction(index, seat, card, exc.reason))
    if not hand.is_over:
        raise InvalidResultError(
            f"board {board_number}: {len(cards)} cards recorded, a hand has {HAND_CARDS}"
        )
    points = hand.points()
    return PlayRecordCheck(points[Side.NS], points[Side.EW], None)
