"""Bots that declare, double and play legal cards, and :func:`play_board` for demos.

Both bots are deterministic for a given ``seed`` (they never iterate over a set or use
the global random state). :class:`RandomBot` picks uniformly among the legal choices;
:class:`SensibleBot` plays like a careful beginner: it beats cheaply when it must, loads
points on a trick its partner is winning, leads from length, declares a long strong suit
(botifarra with manillas and aces in most suits, delegates a weak hand) and calls contro
with a strong hand. Each bot plays all four seats and only looks at the hand of the seat
to play, the cards on the table and the cards already played.

Like players of different strength and style at the tables of a duplicate board, each
seat of a SensibleBot gets a :class:`Style` drawn from the seed: a risk appetite that
shifts the declaration, botifarra and contro thresholds (a marginal hand is declared at
one table and delegated at another), a preference for long or strong trumps, and a small
chance (2-12 % per real choice) of a plausible but not best legal card. Measured with
``benchmarks/bench_play.py --variety`` (200 boards x 12 tables, the demo's seeds; plain
heuristics in brackets): distinct (trump, doubles, NS points) results per board median
7, min 1, max 11 (median 1); botifarra 5.4 %, delegated 28 %, contro 13 %, recontro
0.4 % of hands; 1.0 ms a hand; against RandomBot, each deal played both ways, the
sensible side takes 40.8 of 72 on average (40.9) and more than the random side on 78 %
of deals (80 %).

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
from engine.dd import Backend, best_card
from engine.deal import Deal
from engine.errors import IllegalPlayError
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

    def declaration(
        self, cards: Sequence[Card], *, may_delegate: bool, seat: Seat | None = None
    ) -> Declaration:
        if may_delegate and self.rng.random() < 0.25:
            return DELEGATE
        choices: list[Suit | None] = [*SUIT_ORDER, None]
        return self.rng.choice(choices)

    def wants_double(
        self, call: Double, cards: Sequence[Card], trump: Suit | None, *, seat: Seat | None = None
    ) -> bool:
        chance = {"contro": 0.2, "recontro": 0.1, "sant_vicenc": 0.05}[call]
        return self.rng.random() < chance

    def choose_card(self, hand: HandPlay) -> Card:
        return self.rng.choice(_by_index(hand.legal_cards()))


@dataclass(frozen=True, slots=True)
class Style:
    """How one seat of a :class:`SensibleBot` plays: the differences between the tables of
    a duplicate board come from these.

    ``boldness`` in [-1, 1] (cautious .. bold) shifts the thresholds to declare a suit,
    botifarra and contro; ``slip`` in [0, 1] is the chance, at each real choice of card, of
    a plausible but not best legal card (another low card, a smaller load, a dearer card
    that beats; never a manilla or an ace thrown away; 1 slips at every choice);
    ``length_weight`` (points per card when ranking the suits for trump, 3 for a neutral
    player) makes one player prefer the longer suit and another the stronger one.
    """

    boldness: float = 0.0
    slip: float = 0.0
    length_weight: float = 3.0

    @classmethod
    def draw(cls, rng: random.Random) -> Style:
        """A style drawn from ``rng``: boldness uniform in [-1, 1], slip in [0.02, 0.12],
        length weight in [2.5, 3.5]."""
        return cls(
            boldness=rng.uniform(-1.0, 1.0),
            slip=rng.uniform(0.02, 0.12),
            length_weight=rng.uniform(2.5, 3.5),
        )


#: A neutral player that never slips: the plain heuristics, for tests and analysis.
STEADY = Style()


class SensibleBot:
    """Simple, cheap heuristics (no search), each seat with its own :class:`Style` drawn
    from ``seed`` (or ``style`` for all four seats); the same seed always plays the same.

    Declaring (``b`` = boldness): the best suit by ``length_weight`` per card plus its card
    points is named when it has 6+ cards, or 4+ cards and ``3 x cards + its points`` reaches
    ``17 - 3b`` (five small cards are named only by a bold player, four cards with the
    manilla and something more by all but the most cautious); botifarra with manillas in
    3+ suits and ``21 - 4b`` card points, manilla and ace in 2 suits and ``22 - 4b`` points,
    or 2 manillas, no suit longer than 4 and ``25 - 5b`` points; otherwise the dealer
    delegates and the partner names the best suit, or botifarra with no suit longer than
    3, two manillas and ``20 - 3b`` points. Doubling: contro with 4+ trumps worth
    ``9 - 2b`` points or ``24 - 3b`` card points in all (botifarra: two manillas and
    ``22 - 3b`` points); recontro and Sant Vicenç with 5+ trumps holding the manilla and
    the ace (4+ for a bold player, b > 0.6).

    Declaration and doubling methods take the ``seat`` asking; without one they use
    :data:`STEADY`. How varied the tables get: the module docstring.
    """

    name = "sensible"

    def __init__(self, seed: int, *, style: Style | None = None) -> None:
        self.rng = random.Random(seed)
        self.styles: dict[Seat, Style] = {
            seat: style if style is not None else Style.draw(self.rng) for seat in Seat
        }

    def _style(self, seat: Seat | None) -> Style:
        return STEADY if seat is None else self.styles[seat]

    # ----------------------------------------------------------- declaration
    def declaration(
        self, cards: Sequence[Card], *, may_delegate: bool, seat: Seat | None = None
    ) -> Declaration:
        style = self._style(seat)
        bold = style.boldness
        ranks = {suit: {c.rank for c in cards if c.suit is suit} for suit in SUIT_ORDER}
        points = {suit: sum(c.points for c in cards if c.suit is suit) for suit in SUIT_ORDER}
        manillas = [suit for suit in SUIT_ORDER if 9 in ranks[suit]]
        with_ace = [suit for suit in manillas if 1 in ranks[suit]]
        total = sum(points.values())
        longest = max(len(r) for r in ranks.values())
        if (
            (len(manillas) >= 3 and total >= 21 - 4 * bold)
            or (len(with_ace) >= 2 and total >= 22 - 4 * bold)
            or (len(manillas) >= 2 and longest <= 4 and total >= 25 - 5 * bold)
        ):
            return None
        best = max(
            SUIT_ORDER,
            key=lambda s: (style.length_weight * len(ranks[s]) + points[s], self.rng.random()),
        )
        length = len(ranks[best])
        if length >= 6 or (length >= 4 and 3 * length + points[best] >= 17 - 3 * bold):
            return best
        if may_delegate:
            return DELEGATE
        if length <= 3 and len(manillas) >= 2 and total >= 20 - 3 * bold:
            return None  # a flat hand with manillas, made to choose: botifarra
        return best

    def wants_double(
        self, call: Double, cards: Sequence[Card], trump: Suit | None, *, seat: Seat | None = None
    ) -> bool:
        bold = self._style(seat).boldness
        total = sum(c.points for c in cards)
        if trump is None:
            manillas = sum(1 for c in cards if c.rank == 9)
            if call == "contro":
                return manillas >= 2 and total >= 22 - 3 * bold
            return manillas >= 3 and total >= 28 - 3 * bold
        trumps = [c for c in cards if c.suit is trump]
        trump_points = sum(c.points for c in trumps)
        if call == "contro":
            return (len(trumps) >= 4 and trump_points >= 9 - 2 * bold) or total >= 24 - 3 * bold
        ranks = {c.rank for c in trumps}
        return len(trumps) >= (4 if bold > 0.6 else 5) and {9, 1} <= ranks

    # ------------------------------------------------------------------ play
    def choose_card(self, hand: HandPlay) -> Card:
        """The best card by the heuristics, or with the seat's ``slip`` chance a plausible
        other legal card: never a manilla or an ace, at most 2 card points more than the
        best card."""
        legal = _by_index(hand.legal_cards())
        if len(legal) == 1:
            return legal[0]
        best = self._best_card(hand, legal)
        slip = self.styles[hand.to_play].slip
        if slip and self.rng.random() < slip:
            others = [
                c for c in legal
                if c != best and c.rank not in (9, 1) and c.points <= best.points + 2
            ]
            if others:
                return self.rng.choice(others)
        return best

    def _best_card(self, hand: HandPlay, legal: list[Card]) -> Card:
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


class PerfectBot(SensibleBot):
    """Plays double-dummy optimal cards (:func:`engine.dd.best_card`: every hand seen,
    every seat perfect), for analysis and tests; declares and doubles like a
    :class:`SensibleBot` with the :data:`STEADY` style. A hand played by four of them
    ends with NS holding the double-dummy value of the declaration. Whole hands need the
    compiled core (``engine._ddcore``); ``backend`` as in :func:`engine.dd.double_dummy`.

    >>> from engine.cards import DECK
    >>> from engine.deal import Deal
    >>> from engine.seats import Seat
    >>> deal = Deal.from_hands({seat: DECK[i::4] for i, seat in enumerate(Seat)})
    >>> from engine.dd import double_dummy
    >>> hand = HandPlay(deal, 1)
    >>> hand.declare(Suit.O)
    >>> for _ in range(36):                      # 9 tricks of cheap play, then perfect
    ...     hand.play(min(hand.legal_cards(), key=lambda c: c.index))
    >>> value = double_dummy(hand.hands, Suit.O, hand.tricks[-1].winner)
    >>> taken, bot = hand.points()[Side.NS], PerfectBot(0)
    >>> while not hand.is_over:
    ...     hand.play(bot.choose_card(hand))
    >>> hand.points()[Side.NS] == taken + value, value
    (True, 14)
    """

    name = "perfect"

    def __init__(self, seed: int, *, backend: Backend | None = None) -> None:
        super().__init__(seed, style=STEADY)
        self.backend = backend

    def choose_card(self, hand: HandPlay) -> Card:
        current = hand.current_trick
        if current is None or hand.declarer is None:
            raise IllegalPlayError("no card to choose: the hand is over or not declared")
        return best_card(
            hand.hands,
            hand.trump,
            current.leader,
            hand.rules,
            played_in_trick=current.cards,
            backend=self.backend,
        )


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
    "perfect": PerfectBot,
}


def play_board(
    deal: Deal,
    board_number: int,
    rules: Rules = _DEFAULT_RULES,
    *,
    seed: int,
    bot: str = "sensible",
    ew_bot: str | None = None,
) -> PlayedHand:
    """Play one whole hand of board ``board_number`` with bots of kind ``bot``
    (``"sensible"``, ``"random"``, or ``"perfect"``: double-dummy play, for analysis) in
    all four seats, or in N and S only when ``ew_bot``
    names the kind for E and W (to compare the bots); the same arguments always give the
    same hand.

    Raises ``ValueError`` for an unknown ``bot`` or ``ew_bot``.
    """
    ns_player = _make_bot(bot, seed)
    ew_player = ns_player if ew_bot is None else _make_bot(ew_bot, seed + _EW_SEED_OFFSET)
    players = {Side.NS: ns_player, Side.EW: ew_player}
    hand = HandPlay(deal, board_number, rules)
    declarer = hand.dealer
    choice = players[declarer.side].declaration(deal[declarer], may_delegate=True, seat=declarer)
    if choice == DELEGATE:
        hand.delegate()
        declarer = declarer.partner
        choice = players[declarer.side].declaration(
            deal[declarer], may_delegate=False, seat=declarer
        )
    trump: Suit | None = None if choice == DELEGATE else choice
    hand.declare(trump)
    _doubling(hand, players, trump)
    hand.start_play()
    while not hand.is_over:
        hand.play(players[hand.to_play.side].choose_card(hand))
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


_EW_SEED_OFFSET = 7_919_000
Bot = RandomBot | SensibleBot


def _make_bot(kind: str, seed: int) -> Bot:
    try:
        return _BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"bot {kind!r} is not one of {', '.join(_BOTS)}") from None


def _doubling(hand: HandPlay, players: dict[Side, Bot], trump: Suit | None) -> None:
    order = seats_from(hand.dealer.right)
    defenders = [s for s in order if s.side is not hand.declaring_side]
    declarers = [s for s in order if s.side is hand.declaring_side]
    if not _ask(hand, players, "contro", defenders, trump):
        return
    if not _ask(hand, players, "recontro", declarers, trump):
        return
    if hand.rules.sant_vicenc and (trump is not None or hand.rules.sant_vicenc_on_botifarra):
        _ask(hand, players, "sant_vicenc", defenders, trump)


def _ask(
    hand: HandPlay,
    players: dict[Side, Bot],
    call: Double,
    seats: list[Seat],
    trump: Suit | None,
) -> bool:
    for seat in seats:
        if players[seat.side].wants_double(call, hand.deal[seat], trump, seat=seat):
            getattr(hand, call)(seat)
            return True
    return False
