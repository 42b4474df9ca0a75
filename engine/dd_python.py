"""The pure-Python double-dummy solver: the reference the compiled core is tested against,
and the fallback when ``engine._ddcore`` is not built.

Positions are given by seat index in play order (0 = N, 1 = W, 2 = S, 3 = E, as
``engine.seats.PLAY_ORDER``; NS are the even indices). Legal cards come from
:func:`engine.play.legal_cards`, so this solver follows exactly the rules the engine
applies. The public API, with validation, is in :mod:`engine.dd`.

Search: fail-soft alpha-beta over NS points (card points plus 1 per trick), with

- a transposition table at the start of each trick, keyed by the leader and the four
  remaining hands as bit masks, holding a lower and an upper bound;
- cutoffs from the points still to play (NS take between 0 and all of them);
- equivalent cards: of two cards of one suit in one hand, with no card between them left
  in play (in a hand or on the table) and the same points, only one is searched;
- move ordering: loads on a trick the side is winning, cheap winners, cheap discards.

Practical on endings (up to 6-7 tricks); a whole deal takes minutes, which is what the
compiled core is for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import DECK, TRICK_POINTS, Card, Suit
from engine.play import legal_cards, trick_winner
from engine.rules import Rules

_INF = 1000


def _bit(card: Card) -> int:
    return 1 << card.index


class PySolver:
    """One position's search state. ``hands[i]``: the remaining cards of play-order seat
    ``i``; ``leader``: index of the seat that led ``trick`` (the 0..3 cards already
    played to the current trick, leader first).

    The transposition table is kept between :meth:`value` calls on positions of the same
    deal, trump and rules (a :class:`PerfectBot` asking card after card reuses it).
    """

    def __init__(self, trump: Suit | None, rules: Rules) -> None:
        self.trump = trump
        self.rules = rules
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        self.hands: list[list[Card]] = [[], [], [], []]
        self.masks = [0, 0, 0, 0]
        self.leader = 0
        self.trick: list[Card] = []
        self.remaining = 0  # card points in hands and on the table + tricks still to finish

    # ----------------------------------------------------------------- set up
    def _load(self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card]) -> None:
        self.hands = [list(h) for h in hands]
        self.masks = [sum(_bit(c) for c in h) for h in hands]
        self.leader = leader
        self.trick = list(trick)
        cards_left = sum(len(h) for h in hands) + len(trick)
        self.remaining = (
            sum(c.points for h in hands for c in h)
            + sum(c.points for c in trick)
            + TRICK_POINTS * (cards_left // 4)
        )

    def value(self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card]) -> int:
        """NS points from the current trick on (the cards on the table included)."""
        self._load(hands, leader, trick)
        return self._search(-_INF, _INF)

    def best(
        self, hands: Sequence[Sequence[Card]], leader: int, trick: Sequence[Card]
    ) -> tuple[int, Card]:
        """(value, an optimal card for the seat to play)."""
        target = self.value(hands, leader, trick)
        player = (leader + len(trick)) % 4
        maximizing = player % 2 == 0
        for card in self._moves(player):
            if maximizing:
                achieved = self._after(card, target - 1, target) >= target
            else:
                achieved = self._after(card, target, target + 1) <= target
            if achieved:
                return target, card
        raise AssertionError("no move reaches the value")  # pragma: no cover

    # ----------------------------------------------------------------- search
    def _moves(self, player: int) -> list[Card]:
        """Legal cards of ``player``, one per class of equivalent cards, best guesses first."""
        hand = self.hands[player]
        legal = legal_cards(hand, self.trick, self.trump, self.rules)
        in_play = self.masks[0] | self.masks[1] | self.masks[2] | self.masks[3]
        for card in self.trick:
            in_play |= _bit(card)
        own = self.masks[player]
        legal_mask = sum(_bit(c) for c in legal)
        moves = []
        for card in legal:
            # Skip a card when the next higher card still in play of its suit is also in
            # this hand, legal and worth the same: the two play the same.
            index = card.index
            top = card.suit.index * 12
            higher = index - 1
            while higher >= top and not (in_play >> higher) & 1:
                higher -= 1
            if (
                higher >= top
                and (own >> higher) & 1
                and (legal_mask >> higher) & 1
                and _POINTS_BY_INDEX[higher] == card.points
            ):
                continue
            moves.append(card)
        moves.sort(key=self._order_key(player), reverse=True)
        return moves

    def _order_key(self, player: int) -> Callable[[Card], tuple[int, int, int]]:
        trick = self.trick
        trump = self.trump
        if not trick:
            return lambda c: (int(c.strength >= 9), -c.points, c.strength)
        win = trick_winner(trick, trump)
        side_winning = (len(trick) - win) % 2 == 0
        winner = trick[win]

        def key(card: Card) -> tuple[int, int, int]:
            beats = (card.suit is winner.suit and card.strength > winner.strength) or (
                trump is not None and card.suit is trump and winner.suit is not trump
            )
            if side_winning and not beats:
                return (2, card.points, -card.strength)
            if beats:
                return (1, card.points if len(trick) == 3 else -card.strength, 0)
            return (0, -card.points, -card.strength)

        return key

    def _after(self, card: Card, alpha: int, beta: int) -> int:
        """NS points from the current trick on after the seat to play plays ``card``."""
        player = (self.leader + len(self.trick)) % 4
        hand = self.hands[player]
        hand.remove(card)
        self.masks[player] ^= _bit(card)
        self.trick.append(card)
        if len(self.trick) == 4:
            trick = self.trick
            leader = self.leader
            winner = (leader + trick_winner(trick, self.trump)) % 4
            points = sum(c.points for c in trick) + TRICK_POINTS
            gain = points if winner % 2 == 0 else 0
            self.trick = []
            self.leader = winner
            self.remaining -= points
            value = gain + self._search(alpha - gain, beta - gain)
            self.remaining += points
            self.leader = leader
            self.trick = trick
        else:
            value = self._search(alpha, beta)
        self.trick.pop()
        self.masks[player] |= _bit(card)
        hand.append(card)
        return value

    def _search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        key = None
        if not self.trick:
            if not self.hands[self.leader]:
                return 0
            remaining = self.remaining
            if remaining <= alpha:
                return remaining
            if beta <= 0:
                return 0
            key = (self.leader, *self.masks)
            entry = self.tt.get(key)
            if entry is not None:
                low, high = entry
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha = max(alpha, low)
                beta = min(beta, high)
        alpha0, beta0 = alpha, beta
        player = (self.leader + len(self.trick)) % 4
        maximizing = player % 2 == 0
        best = -_INF if maximizing else _INF
        for card in self._moves(player):
            value = self._after(card, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            low, high = self.tt.get(key, (0, self.remaining))
            if best <= alpha0:
                high = min(high, best)
            elif best >= beta0:
                low = max(low, best)
            else:
                low = high = best
            self.tt[key] = (low, high)
        return best


_POINTS_BY_INDEX: tuple[int, ...] = tuple(card.points for card in DECK)
