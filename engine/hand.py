"""One hand of a board, from the declaration to the 12th trick (docs/rules.md "Dealing, trump,
doubling", "Legal play", "Cards and points").

:class:`HandPlay` is the mutable state, in the manner of python-chess's ``Board``: it
refuses anything the rules do not allow with an :class:`~engine.errors.IllegalPlayError`
that says why, and :meth:`HandPlay.undo` takes back the last action.

>>> from engine.cards import DECK, Card, Suit
>>> from engine.deal import Deal
>>> from engine.seats import Seat
>>> deal = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})
>>> hand = HandPlay(deal, board_number=1)
>>> hand.dealer, hand.to_declare
(<Seat.N: 'N'>, <Seat.N: 'N'>)
>>> hand.delegate(); hand.declare(Suit.O)
>>> hand.declarer, hand.trump
(<Seat.S: 'S'>, <Suit.O: 'O'>)
>>> hand.contro()
>>> hand.to_play, len(hand.legal_cards())
(<Seat.W: 'W'>, 12)
>>> hand.play(Card.parse("11O"))
>>> hand.to_play, [str(c) for c in hand.legal_cards()]
(<Seat.S: 'S'>, ['12O'])
>>> hand.play(Card.parse("3O"))
Traceback (most recent call last):
...
engine.play.IllegalCardError: S may not play 3O: must beat 11O: holds 12O
>>> while not hand.is_over:
...     hand.play(min(hand.legal_cards(), key=lambda c: c.index))
>>> sum(hand.points().values()), len(hand.tricks)
(72, 12)

Reading chosen (a question for the rules owner): ``barraca`` (docs/rules.md "Where sources
disagree", x16, off by default) is modelled as a fourth call, by the declaring side, after
a Sant Vicenç: the calls alternate sides and each doubles the previous one.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import TRICK_POINTS, Card, Suit, sort_hand
from engine.deal import Deal
from engine.errors import IllegalPlayError
from engine.play import IllegalCardError, illegal_reason, legal_cards, trick_winner
from engine.rules import Rules
from engine.seats import Seat, Side, dealer, seats_from

TRICKS_PER_HAND = 12


class Phase(enum.Enum):
    """Where a hand is: naming trump, doubling, playing cards, or over."""

    DECLARATION = "declaration"
    DOUBLING = "doubling"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: ``leader`` and the 0..4 ``cards`` played to it in order.

    ``winner`` is the seat that took it, ``None`` while it is not complete.
    """

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat | None = None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seat that played each card, in order."""
        return seats_from(self.leader)[: len(self.cards)]

    @property
    def points(self) -> int:
        """Card points plus 1 for a complete trick (0..21)."""
        bonus = TRICK_POINTS if len(self.cards) == 4 else 0
        return sum(card.points for card in self.cards) + bonus

    def __str__(self) -> str:
        return f"{self.leader}: {' '.join(str(c) for c in self.cards)}"


_DEFAULT_RULES = Rules()

_Action = tuple[str, object]


class HandPlay:
    """The state of one hand of board ``board_number`` dealt as ``deal``.

    Phases (:class:`Phase`), in order:

    1. declaration: the dealer calls :meth:`declare` (a suit, or ``None`` for botifarra) or
       :meth:`delegate`; after a delegation the dealer's partner must :meth:`declare`.
    2. doubling: :meth:`contro` (the other side), :meth:`recontro` (the declaring side,
       after a contro), :meth:`sant_vicenc` (the other side, after a recontro; per
       ``rules.sant_vicenc`` and ``rules.sant_vicenc_on_botifarra``), :meth:`barraca`
       (``rules.barraca`` only; see the module docstring). Each once. :meth:`start_play`, or
       simply playing the first card, closes the doubling.
    3. play: 12 tricks of 4 cards, :attr:`to_play` plays :meth:`legal_cards`.
    4. over: :meth:`points` gives the card and trick points per side (72 together).

    Every refusal raises :class:`~engine.errors.IllegalPlayError` (an illegal card raises
    its subclass :class:`~engine.play.IllegalCardError` with the seat, card and reason).
    """

    def __init__(self, deal: Deal, board_number: int, rules: Rules = _DEFAULT_RULES) -> None:
        self.deal = deal
        self.board_number = board_number
        self.rules = rules
        self.dealer: Seat = dealer(board_number)
        self.declaring_side: Side = self.dealer.side
        self._actions: list[_Action] = []
        self._reset()

    def _reset(self) -> None:
        self.phase = Phase.DECLARATION
        self.delegated = False
        self.declarer: Seat | None = None
        self._trump: Suit | None = None
        self.contro_by: Seat | None = None
        self.recontro_by: Seat | None = None
        self.sant_vicenc_by: Seat | None = None
        self.barraca_by: Seat | None = None
        self._hands: dict[Seat, list[Card]] = {seat: list(self.deal[seat]) for seat in Seat}
        self._tricks: list[Trick] = []
        self._leader: Seat = self.dealer.right
        self._current: list[Card] = []
        self._taken: dict[Side, int] = {Side.NS: 0, Side.EW: 0}

    # ----------------------------------------------------------------- state
    @property
    def trump(self) -> Suit | None:
        """The trump suit, ``None`` for botifarra. Raises before the declaration."""
        if self.declarer is None:
            raise IllegalPlayError("trump has not been declared yet")
        return self._trump

    @property
    def is_botifarra(self) -> bool:
        return self.declarer is not None and self._trump is None

    @property
    def contro_called(self) -> bool:
        return self.contro_by is not None

    @property
    def recontro_called(self) -> bool:
        return self.recontro_by is not None

    @property
    def sant_vicenc_called(self) -> bool:
        return self.sant_vicenc_by is not None

    @property
    def barraca_called(self) -> bool:
        return self.barraca_by is not None

    @property
    def to_declare(self) -> Seat | None:
        """Who must name trump now: the dealer, or the partner after a delegation."""
        if self.phase is not Phase.DECLARATION:
            return None
        return self.dealer.partner if self.delegated else self.dealer

    @property
    def to_play(self) -> Seat:
        """The seat that plays the next card. Raises when the hand is over."""
        if self.phase is Phase.OVER:
            raise IllegalPlayError("the hand is over: nobody is to play")
        return seats_from(self._leader)[len(self._current)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order (0..12)."""
        return tuple(self._tricks)

    @property
    def current_trick(self) -> Trick | None:
        """The trick being played (0..3 cards), ``None`` when the hand is over."""
        if self.phase is Phase.OVER:
            return None
        return Trick(self._leader, tuple(self._current))

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card played so far, in play order (0..48)."""
        played = [card for trick in self._tricks for card in trick.cards]
        return (*played, *self._current)

    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        """Each seat's remaining cards, in display order."""
        return {seat: sort_hand(cards) for seat, cards in self._hands.items()}

    def points(self) -> dict[Side, int]:
        """Card points plus 1 per trick taken by each side so far; 72 together at the end."""
        return dict(self._taken)

    def legal_cards(self) -> frozenset[Card]:
        """The cards :attr:`to_play` may play; empty before trump is named or when over."""
        if self.declarer is None or self.phase is Phase.OVER:
            return frozenset()
        seat = self.to_play
        return legal_cards(self._hands[seat], self._current, self._trump, self.rules)

    def illegal_reason(self, card: Card) -> str | None:
        """Why :attr:`to_play` may not play ``card`` now, ``None`` if it may."""
        if self.declarer is None:
            return "trump has not been declared yet"
        if self.phase is Phase.OVER:
            return "the hand is over"
        seat = self.to_play
        holder = self.deal.holder(card)
        if holder is not seat and card in self._hands[holder]:
            return f"{card} is in {holder}'s hand and {seat} is to play"
        return illegal_reason(card, self._hands[seat], self._current, self._trump, self.rules)

    # ----------------------------------------------------------- declaration
    def delegate(self) -> None:
        """The dealer passes the choice of trump to the partner (docs/rules.md). Once."""
        self._require(Phase.DECLARATION, "delegate")
        if self.delegated:
            raise IllegalPlayError(
                f"no second delegation: {self.dealer.partner} must name trump or botifarra"
            )
        self.delegated = True
        self._actions.append(("delegate", None))

    def declare(self, trump: Suit | None) -> None:
        """The dealer (or the partner after :meth:`delegate`) names trump; ``None`` is
        botifarra. Raises after the declaration."""
        self._require(Phase.DECLARATION, "declare")
        if trump is not None and not isinstance(trump, Suit):
            raise IllegalPlayError(f"{trump!r} is not a suit or None (botifarra)")
        self.declarer = self.dealer.partner if self.delegated else self.dealer
        self._trump = trump
        self.phase = Phase.DOUBLING
        self._actions.append(("declare", trump))

    # -------------------------------------------------------------- doubling
    def contro(self, by: Seat | None = None) -> None:
        """The side that did not declare doubles (x2). ``by``: the caller, checked if given."""
        self._double("contro", by, self.declaring_side.other)
        if self.contro_by is not None:
            raise IllegalPlayError("contro was already called")
        self.contro_by = by or self._default_caller(self.declaring_side.other)
        self._actions.append(("contro", self.contro_by))

    def recontro(self, by: Seat | None = None) -> None:
        """The declaring side doubles again after a contro (x4)."""
        self._double("recontro", by, self.declaring_side)
        if self.contro_by is None:
            raise IllegalPlayError("recontro needs a contro first")
        if self.recontro_by is not None:
            raise IllegalPlayError("recontro was already called")
        self.recontro_by = by or self._default_caller(self.declaring_side)
        self._actions.append(("recontro", self.recontro_by))

    def sant_vicenc(self, by: Seat | None = None) -> None:
        """The other side doubles again after a recontro (x8), when the rules allow it."""
        self._double("Sant Vicenç", by, self.declaring_side.other)
        if not self.rules.sant_vicenc:
            raise IllegalPlayError("Sant Vicenç is not played in this championship")
        if self._trump is None and not self.rules.sant_vicenc_on_botifarra:
            raise IllegalPlayError("Sant Vicenç is not allowed on a botifarra hand")
        if self.recontro_by is None:
            raise IllegalPlayError("Sant Vicenç needs a recontro first")
        if self.sant_vicenc_by is not None:
            raise IllegalPlayError("Sant Vicenç was already called")
        self.sant_vicenc_by = by or self._default_caller(self.declaring_side.other)
        self._actions.append(("sant_vicenc", self.sant_vicenc_by))

    def barraca(self, by: Seat | None = None) -> None:
        """The declaring side doubles again after a Sant Vicenç (x16), if ``rules.barraca``."""
        self._double("barraca", by, self.declaring_side)
        if not self.rules.barraca:
            raise IllegalPlayError("barraca is not played in this championship")
        if self.sant_vicenc_by is None:
            raise IllegalPlayError("barraca needs a Sant Vicenç first")
        if self.barraca_by is not None:
            raise IllegalPlayError("barraca was already called")
        self.barraca_by = by or self._default_caller(self.declaring_side)
        self._actions.append(("barraca", self.barraca_by))

    def start_play(self) -> None:
        """Close the doubling; the first leader may play."""
        self._require(Phase.DOUBLING, "start play")
        self.phase = Phase.PLAY
        self._actions.append(("start_play", None))

    # ------------------------------------------------------------------ play
    def play(self, card: Card, seat: Seat | None = None) -> None:
        """:attr:`to_play` plays ``card`` (``seat``, if given, must be :attr:`to_play`).

        Playing the first card closes the doubling. Raises
        :class:`~engine.play.IllegalCardError` (an ``IllegalPlayError``) naming the seat,
        the card and the rule, e.g. ``"S may not play 5O: must beat 11O: holds 12O"``.
        """
        if self.phase is Phase.DECLARATION:
            raise IllegalPlayError("trump has not been declared yet")
        if self.phase is Phase.OVER:
            raise IllegalPlayError("the hand is over")
        to_play = self.to_play
        if seat is not None and seat is not to_play:
            raise IllegalCardError(seat, card, f"out of turn: {to_play} is to play")
        hand = self._hands[to_play]
        if card not in hand:
            holder = self.deal.holder(card)
            reason = (
                f"out of turn: {card} is in {holder}'s hand and {to_play} is to play"
                if card in self._hands[holder]
                else f"does not hold {card}"
            )
            raise IllegalCardError(to_play, card, reason)
        if card not in legal_cards(hand, self._current, self._trump, self.rules):
            why = illegal_reason(card, hand, self._current, self._trump, self.rules)
            raise IllegalCardError(to_play, card, why or "not allowed")
        self.phase = Phase.PLAY
        hand.remove(card)
        self._current.append(card)
        self._actions.append(("play", card))
        if len(self._current) == 4:
            winner = seats_from(self._leader)[trick_winner(self._current, self._trump)]
            trick = Trick(self._leader, tuple(self._current), winner)
            self._tricks.append(trick)
            self._taken[winner.side] += trick.points
            self._leader = winner
            self._current = []
            if len(self._tricks) == TRICKS_PER_HAND:
                self.phase = Phase.OVER

    def play_many(self, cards: Iterable[Card]) -> None:
        """Play several cards in turn; stops at the first illegal one (raising)."""
        for card in cards:
            self.play(card)

    def undo(self) -> None:
        """Take back the last action: a card, ``start_play``, a double, the declaration or
        the delegation. Raises when there is nothing to undo."""
        if not self._actions:
            raise IllegalPlayError("nothing to undo")
        actions = self._actions[:-1]
        self._actions = []
        self._reset()
        for name, arg in actions:
            self._apply(name, arg)

    def _apply(self, name: str, arg: object) -> None:
        if name == "play":
            assert isinstance(arg, Card)
            self.play(arg)
        elif name == "declare":
            assert arg is None or isinstance(arg, Suit)
            self.declare(arg)
        elif name == "delegate":
            self.delegate()
        elif name == "start_play":
            self.start_play()
        else:
            assert isinstance(arg, Seat)
            getattr(self, name)(arg)

    # --------------------------------------------------------------- helpers
    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is phase:
            return
        if self.phase is Phase.DECLARATION:
            raise IllegalPlayError(f"cannot {what}: trump has not been declared yet")
        if self.phase is Phase.DOUBLING:
            raise IllegalPlayError(f"cannot {what}: trump is already declared")
        if self.phase is Phase.PLAY:
            raise IllegalPlayError(f"cannot {what}: play has started")
        raise IllegalPlayError(f"cannot {what}: the hand is over")

    def _double(self, name: str, by: Seat | None, side: Side) -> None:
        self._require(Phase.DOUBLING, f"call {name}")
        if by is not None and by.side is not side:
            raise IllegalPlayError(f"{name} is called by {side}, not by {by}")

    def _default_caller(self, side: Side) -> Seat:
        # The player of that side who plays first: the first leader, or the next seat.
        first = self.dealer.right
        return first if first.side is side else first.right

    def __repr__(self) -> str:
        trump = "?" if self.declarer is None else ("botifarra" if self._trump is None
                                                   else str(self._trump))
        return (
            f"<HandPlay board {self.board_number} dealer {self.dealer} trump {trump} "
            f"{self.phase.value} tricks {len(self._tricks)}>"
        )
