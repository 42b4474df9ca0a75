"""Bots that declare, double and play legal cards, and :func:`play_board` for demos.

Both bots are deterministic for a given ``seed`` (they never iterate over a set or use
the global random state). :class:`RandomBot` picks uniformly among the legal choices;
:class:`SensibleBot` plays like a careful beginner: it beats cheaply when it must, loads
points on a trick its partner is winning, leads from length, declares a long strong suit
(botifarra with manillas and aces in most suits, delegates a weak hand) and calls contro
with a strong hand. Each bot plays all four seats and only looks at the hand of the seat
to play, the cards on the table and the cards already played.

>>> from engine.cards import DECK
>>> from engine.deal import Deal
>>> from engine.seats import Seat
>>> deal = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})
>>> played = play_board(deal, 1, seed=7)
>>> len(played.cards), played.ns_points + played.ew_points
(48, 72)
>>> play_board(deal, 1, seed=7) == played
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.cards import SUIT_ORDER, Card, Suit
from engine.deal import Deal
from engine.hand import HandPlay
from engine.play import trick_winner
from engine.rules import Rules
from engine.seats import Seat, Side, seats_from

_DEFAULT_RULES = Rules()

#: What a bot may answer when asked to name trump: a suit, ``None`` (botifarra) or this.
DELEGATE: Literal["delegate"] = "delegate"
Declaration = Suit | None | Literal["delegate"]
#: The doubles in the order they may be called.
Double = Literal["contro", "recontro", "sant_vicenc"]


def _by_index(cards: Sequence[Card] | frozenset[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.index)


class RandomBot:
    """Uniformly random among the legal choices. Delegates a quarter of the time, calls
    contro one time in five, recontro one in ten, Sant Vicenç one in twenty."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def declaration(self, cards: Sequence[Card], *, may_delegate: bool) -> Declaration:
        if may_delegate and self.rng.random() < 0.25:
            return DELEGATE
        choices: list[Suit | None] = [*SUIT_ORDER, None]
        return self.rng.choice(choices)

    def wants_double(self, call: Double, cards: Sequence[Card], trump: Suit | None) -> bool:
        chance = {"contro": 0.2, "recontro": 0.1, "sant_vicenc": 0.05}[call]
        return self.rng.random() < chance

    def choose_card(self, hand: HandPlay) -> Card:
        return self.rng.choice(_by_index(hand.legal_cards()))


class SensibleBot:
    """Simple, cheap heuristics (no search); ``seed`` only breaks ties.

    Declaring: a suit scores 3 per card plus its card points; the best suit is named when it
    has 5+ cards, or 4+ with the manilla or the ace; botifarra with manillas in 3+ suits,
    or manilla and ace in 2 suits and 24+ card points; otherwise the dealer delegates and
    the partner names the best suit. Doubling: contro with 4+ trumps worth 9+ points or
    24+ card points in all (botifarra: two manillas and 22+ points); recontro and Sant
    Vicenç with 5+ trumps holding the manilla and the ace.
    """

    name = "sensible"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # ----------------------------------------------------------- declaration
    @staticmethod
    def _suit_value(cards: Sequence[Card], suit: Suit) -> int:
        held = [c for c in cards if c.suit is suit]
        return 3 * len(held) + sum(c.points for c in held)

    def declaration(self, cards: Sequence[Card], *, may_delegate: bool) -> Declaration:
        ranks = {suit: {c.rank for c in cards if c.suit is suit} for suit in SUIT_ORDER}
        manillas = [suit for suit in SUIT_ORDER if 9 in ranks[suit]]
        with_ace = [suit for suit in manillas if 1 in ranks[suit]]
        total = sum(c.points for c in cards)
        if len(manillas) >= 3 or (len(with_ace) >= 2 and total >= 24):
            return None
        values = {suit: self._suit_value(cards, suit) for suit in SUIT_ORDER}
        best = max(SUIT_ORDER, key=lambda s: (values[s], self.rng.random()))
        length = len(ranks[best])
        if length >= 5 or (length >= 4 and ranks[best] & {9, 1}):
            return best
        return DELEGATE if may_delegate else best

    def wants_double(self, call: Double, cards: Sequence[Card], trump: Suit | None) -> bool:
        total = sum(c.points for c in cards)
        if trump is None:
            manillas = sum(1 for c in cards if c.rank == 9)
            if call == "contro":
                return manillas >= 2 and total >= 22
            return manillas >= 3 and total >= 28
        trumps = [c for c in cards if c.suit is trump]
        trump_points = sum(c.points for c in trumps)
        if call == "contro":
            return (len(trumps) >= 4 and trump_points >= 9) or total >= 24
        ranks = {c.rank for c in trumps}
        return len(trumps) >= 5 and {9, 1} <= ranks

    # ------------------------------------------------------------------ play
    def choose_card(self, hand: HandPlay) -> Card:
        legal = _by_index(hand.legal_cards())
        if len(legal) == 1:
            return legal[0]
        trump = hand.trump
        seat = hand.to_play
        trick = hand.current_trick
        assert trick is not None
        if not trick.cards:
            return self._lead(hand, seat, legal, trump)
        table = trick.cards
        win_index = trick_winner(table, trump)
        winner_seat = trick.seats[win_index]
        if winner_seat is seat.partner:
            safe = len(table) == 3 or self._is_master(hand, table[win_index], trump)
            if safe:
                return max(legal, key=lambda c: (c.points, c.suit is not trump, -c.strength))
            return min(legal, key=_cheap(trump))
        beating = [c for c in legal if trick_winner((*table, c), trump) == len(table)]
        if beating:
            # Both variants force a beating card when there is one: beat cheaply.
            return min(beating, key=lambda c: (c.suit is trump, c.strength, c.points))
        return min(legal, key=_cheap(trump))

    def _lead(self, hand: HandPlay, seat: Seat, legal: list[Card], trump: Suit | None) -> Card:
        played = set(hand.cards)
        masters = [c for c in legal if c.suit is not trump and self._is_top(c, played)]
        if masters:
            return max(masters, key=lambda c: (c.points, self.rng.random()))
        by_suit: dict[Suit, list[Card]] = {}
        for card in legal:
            by_suit.setdefault(card.suit, []).append(card)
        longest = max(
            by_suit,
            key=lambda s: (s is not trump, len(by_suit[s]), -sum(c.points for c in by_suit[s])),
        )
        return min(by_suit[longest], key=lambda c: c.strength)

    @staticmethod
    def _is_top(card: Card, played: set[Card]) -> bool:
        """No higher card of its suit is still out."""
        return all(
            other.strength <= card.strength or other in played
            for other in _SUIT_CARDS[card.suit]
        )

    def _is_master(self, hand: HandPlay, card: Card, trump: Suit | None) -> bool:
        played = set(hand.cards)
        if not self._is_top(card, played):
            return False
        # A non-trump winner can still be trumped; accept that risk only in botifarra.
        return trump is None or card.suit is trump


def _cheap(trump: Suit | None) -> Callable[[Card], tuple[int, bool, int]]:
    """Sort key: the card that costs least to give away (points, then trumps last)."""

    def key(card: Card) -> tuple[int, bool, int]:
        return (card.points, card.suit is trump, card.strength)

    return key


_SUIT_CARDS: dict[Suit, tuple[Card, ...]] = {
    suit: tuple(Card(rank, suit) for rank in range(1, 13)) for suit in SUIT_ORDER
}


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand played by bots: the declaration, the doubles and the 48 cards in play order.

    ``ns_points + ew_points == 72`` (card points and 1 per trick).
    """

    trump: Suit | None
    delegated: bool
    contro: bool
    recontro: bool
    sant_vicenc: bool
    cards: tuple[Card, ...]
    ns_points: int
    ew_points: int


_BOTS: dict[str, type[RandomBot] | type[SensibleBot]] = {
    "random": RandomBot,
    "sensible": SensibleBot,
}


def play_board(
    deal: Deal,
    board_number: int,
    rules: Rules = _DEFAULT_RULES,
    *,
    seed: int,
    bot: str = "sensible",
) -> PlayedHand:
    """Play one whole hand of board ``board_number`` with four bots of kind ``bot``
    (``"sensible"`` or ``"random"``); the same arguments always give the same hand.

    Raises ``ValueError`` for an unknown ``bot``.
    """
    try:
        player = _BOTS[bot](seed)
    except KeyError:
        raise ValueError(f"bot {bot!r} is not one of {', '.join(_BOTS)}") from None
    hand = HandPlay(deal, board_number, rules)
    choice = player.declaration(deal[hand.dealer], may_delegate=True)
    if choice == DELEGATE:
        hand.delegate()
        choice = player.declaration(deal[hand.dealer.partner], may_delegate=False)
    trump: Suit | None = None if choice == DELEGATE else choice
    hand.declare(trump)
    _doubling(hand, player, trump)
    hand.start_play()
    while not hand.is_over:
        hand.play(player.choose_card(hand))
    points = hand.points()
    return PlayedHand(
        trump=trump,
        delegated=hand.delegated,
        contro=hand.contro_called,
        recontro=hand.recontro_called,
        sant_vicenc=hand.sant_vicenc_called,
        cards=hand.cards,
        ns_points=points[Side.NS],
        ew_points=points[Side.EW],
    )


def _doubling(hand: HandPlay, player: RandomBot | SensibleBot, trump: Suit | None) -> None:
    order = seats_from(hand.dealer.right)
    defenders = [s for s in order if s.side is not hand.declaring_side]
    declarers = [s for s in order if s.side is hand.declaring_side]
    if not _ask(hand, player, "contro", defenders, trump):
        return
    if not _ask(hand, player, "recontro", declarers, trump):
        return
    if hand.rules.sant_vicenc and (trump is not None or hand.rules.sant_vicenc_on_botifarra):
        _ask(hand, player, "sant_vicenc", defenders, trump)


def _ask(
    hand: HandPlay,
    player: RandomBot | SensibleBot,
    call: Double,
    seats: list[Seat],
    trump: Suit | None,
) -> bool:
    for seat in seats:
        if player.wants_double(call, hand.deal[seat], trump):
            getattr(hand, call)(seat)
            return True
    return False
