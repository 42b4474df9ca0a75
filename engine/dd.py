"""Double-dummy analysis: what NS take with best play by all four players, cards visible.

The value of a position is the points NS take from the current trick on (card points
plus 1 per trick, as :mod:`engine.score` counts them; a whole deal totals 72) when every
player plays perfectly, NS trying to take as many as they can and EW as few. The legal
cards are those of :func:`engine.play.legal_cards` under the given :class:`Rules`
(obligada, lliure, carregar): docs/rules.md "Legal play".

A position is given by

- ``hands``: each :class:`Seat`'s remaining cards (a mapping with the four seats);
- ``trump``: a :class:`Suit`, or ``None`` for botifarra;
- ``leader``: the seat that leads the current trick;
- ``played_in_trick`` (keyword, default empty): the 0..3 cards already played to the
  current trick, leader first. The seats that played them hold one card fewer; the seat
  to play is the next one in play order (N -> W -> S -> E). Their points go to whoever
  wins the trick, so they count in the value.

At the start of a trick every hand holds the same number of cards, 1 to 12.

>>> from engine.cards import Card, Suit
>>> from engine.seats import Seat
>>> hands = {Seat.N: Card.parse_many("9O 2C"), Seat.W: Card.parse_many("1O 3C"),
...          Seat.S: Card.parse_many("12O 4C"), Seat.E: Card.parse_many("2O 5C")}
>>> double_dummy(hands, Suit.O, Seat.N)      # 9O takes 5+4+3 and 1; E's 5C the last trick
13
>>> str(best_card(hands, Suit.O, Seat.N))
'9O'
>>> double_dummy({Seat.N: [Card.parse("2C")], Seat.W: [Card.parse("3C")],
...               Seat.S: [Card.parse("4C")], Seat.E: [Card.parse("5C")]},
...              None, Seat.N, played_in_trick=())
0

Two solvers compute the same values: the compiled core ``engine._ddcore`` (C, built by
``pip install``; bit masks, a hashed transposition table, null-window searches) and the pure-Python
:mod:`engine.dd_python` (the reference, and the fallback when the core is not built,
practical on endings only). ``backend="c"`` or ``"python"`` picks one, as does the
environment variable ``BOTIFARRA_DD_BACKEND``; the default is the core when it is built.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.cards import DECK, HAND_POINTS, SUIT_ORDER, Card, Suit, format_cards, sort_hand
from engine.dd_python import PySolver
from engine.deal import Deal
from engine.errors import InvalidDealError
from engine.rules import CarregarScope, Rules, Variant
from engine.score import hand_score
from engine.seats import PLAY_ORDER, Seat, Side, seats_from

try:
    from engine import _ddcore
except ImportError:  # no compiler at install time: the pure-Python solver does the work
    _ddcore = None  # type: ignore[assignment]  # the module or nothing

_DEFAULT_RULES = Rules()

#: The environment variable that picks a solver: ``c``, ``python`` or ``auto``.
BACKEND_ENV = "BOTIFARRA_DD_BACKEND"
Backend = Literal["auto", "c", "python"]

#: The five declarations, in the order of a table: oros, copes, espases, bastos, botifarra.
DECLARATIONS: tuple[Suit | None, ...] = (*SUIT_ORDER, None)


class InvalidPositionError(InvalidDealError):
    """Hands, trick or declaration that are not a position of a hand: a seat missing, a
    card held twice, hands of different lengths, a trick of four cards..."""


def core_available() -> bool:
    """True when the compiled core ``engine._ddcore`` was built and imports."""
    return _ddcore is not None


def resolve_backend(backend: Backend | None = None) -> Literal["c", "python"]:
    """The solver a call will use: ``backend`` if given, else ``BOTIFARRA_DD_BACKEND``,
    else the compiled core when built. Raises :class:`ValueError` for an unknown name,
    or ``"c"`` asked for when the core is not built."""
    choice = backend or os.environ.get(BACKEND_ENV, "auto").strip().lower() or "auto"
    if choice not in ("auto", "c", "python"):
        raise ValueError(f"double-dummy backend {choice!r} is not one of auto, c, python")
    if choice == "auto":
        return "c" if _ddcore is not None else "python"
    if choice == "c" and _ddcore is None:
        raise ValueError("the compiled double-dummy core engine._ddcore is not built")
    return "c" if choice == "c" else "python"


# ------------------------------------------------------------------- validation
@dataclass(frozen=True, slots=True)
class _Position:
    hands: tuple[tuple[Card, ...], ...]  # by play-order index (N, W, S, E)
    leader: int
    trick: tuple[Card, ...]


def _position(
    hands: Mapping[Seat, Iterable[Card]],
    trump: Suit | None,
    leader: Seat,
    rules: Rules,
    played_in_trick: Sequence[Card],
) -> _Position:
    if not isinstance(hands, Mapping):
        raise InvalidPositionError("hands must map each seat (N, E, S, W) to its cards")
    missing = [str(seat) for seat in Seat if seat not in hands]
    extra = [repr(key) for key in hands if not isinstance(key, Seat)]
    if missing or extra:
        raise InvalidPositionError(
            "hands must map each seat to its cards: "
            + "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"not a seat: {', '.join(extra)}" if extra else "",
                )
                if part
            )
        )
    if trump is not None and not isinstance(trump, Suit):
        raise InvalidPositionError(f"trump {trump!r} is not a suit or None (botifarra)")
    if not isinstance(leader, Seat):
        raise InvalidPositionError(f"leader {leader!r} is not a seat")
    if not isinstance(rules, Rules):
        raise InvalidPositionError(f"rules {rules!r} is not a Rules")
    try:
        held = {seat: tuple(hands[seat]) for seat in Seat}
    except TypeError:
        raise InvalidPositionError("each seat's hand must be a collection of cards") from None
    trick = tuple(played_in_trick)
    for where, cards in [*((str(s), c) for s, c in held.items()), ("the trick", trick)]:
        for card in cards:
            if not isinstance(card, Card):
                raise InvalidPositionError(f"{card!r} in {where} is not a card")
    if len(trick) > 3:
        raise InvalidPositionError(
            f"at most 3 cards can be on the table before a play, got {len(trick)}"
        )
    seen: dict[Card, list[str]] = {}
    for seat in Seat:
        for card in held[seat]:
            seen.setdefault(card, []).append(str(seat))
    for card in trick:
        seen.setdefault(card, []).append("the trick")
    repeated = sorted((card for card, where in seen.items() if len(where) > 1),
                      key=lambda c: c.index)
    if repeated:
        raise InvalidPositionError(
            "card(s) held twice: "
            + "; ".join(f"{card} in {', '.join(seen[card])}" for card in repeated)
        )
    order = seats_from(leader)
    played = set(order[: len(trick)])
    # Seats that already played to the trick hold one card fewer.
    lengths = {seat: len(held[seat]) + (1 if seat in played else 0) for seat in Seat}
    tricks_left = lengths[leader]
    if len(set(lengths.values())) != 1 or not 1 <= tricks_left <= 12:
        counts = ", ".join(f"{seat} {len(held[seat])}" for seat in PLAY_ORDER)
        after = f" after {len(trick)} card(s) of the trick" if trick else ""
        raise InvalidPositionError(
            "each hand must hold the same number of cards, 1 to 12"
            f"{after} (those who played to the trick one fewer): {counts}"
        )
    return _Position(
        hands=tuple(sort_hand(held[seat]) for seat in PLAY_ORDER),
        leader=PLAY_ORDER.index(leader),
        trick=trick,
    )


# ------------------------------------------------------------------- backends
def _cbit(card: Card) -> int:
    """A card's bit in the core's masks: suit index x 12 + strength (11 = manilla)."""
    return card.suit.index * 12 + card.strength


_CARD_BY_CBIT: dict[int, Card] = {_cbit(card): card for card in DECK}


def _core_args(
    position: _Position, trump: Suit | None, rules: Rules
) -> tuple[tuple[int, int, int, int], int, tuple[int, ...], int, int]:
    masks = [sum(1 << _cbit(c) for c in hand) for hand in position.hands]
    return (
        (masks[0], masks[1], masks[2], masks[3]),
        position.leader,
        tuple(_cbit(c) for c in position.trick),
        _core_trump(trump),
        _core_flags(rules),
    )


def _core_trump(trump: Suit | None) -> int:
    return 4 if trump is None else trump.index


def _core_flags(rules: Rules) -> int:
    """Bit 0: lliure; bit 1: carregar; bit 2: carregar also when following suit."""
    return (
        (1 if rules.variant is Variant.LLIURE else 0)
        | (2 if rules.carregar else 0)
        | (4 if rules.carregar_scope is CarregarScope.ALWAYS else 0)
    )


_py_solvers: dict[tuple[Suit | None, Rules], PySolver] = {}
_PY_TT_LIMIT = 2_000_000


def _py_solver(trump: Suit | None, rules: Rules) -> PySolver:
    """A solver per declaration and rules, its transposition table kept between calls."""
    solver = _py_solvers.get((trump, rules))
    if solver is None or len(solver.tt) > _PY_TT_LIMIT:
        _py_solvers.clear()
        solver = _py_solvers[(trump, rules)] = PySolver(trump, rules)
    return solver


# ------------------------------------------------------------------- public API
def double_dummy(
    hands: Mapping[Seat, Iterable[Card]],
    trump: Suit | None,
    leader: Seat,
    rules: Rules = _DEFAULT_RULES,
    *,
    played_in_trick: Sequence[Card] = (),
    backend: Backend | None = None,
) -> int:
    """NS points (0..72) from the current trick on with perfect play by all four seats.

    Arguments: the module docstring. Raises :class:`InvalidPositionError` (an
    ``EngineError``, so a ``ValueError``) naming what is wrong with the position, and
    ``ValueError`` for an unknown ``backend``.
    """
    position = _position(hands, trump, leader, rules, played_in_trick)
    if resolve_backend(backend) == "c":
        return int(_ddcore.solve(*_core_args(position, trump, rules)))
    return _py_solver(trump, rules).value(position.hands, position.leader, position.trick)


def best_card(
    hands: Mapping[Seat, Iterable[Card]],
    trump: Suit | None,
    leader: Seat,
    rules: Rules = _DEFAULT_RULES,
    *,
    played_in_trick: Sequence[Card] = (),
    backend: Backend | None = None,
) -> Card:
    """An optimal card for the seat to play: the seat after the ``played_in_trick`` cards
    (the ``leader`` when the trick is empty). Playing it keeps :func:`double_dummy`'s value.

    When several cards are optimal one of them is returned, always the same for the same
    position and backend. Errors: as :func:`double_dummy`.
    """
    return best_play(
        hands, trump, leader, rules, played_in_trick=played_in_trick, backend=backend
    )[1]


def best_play(
    hands: Mapping[Seat, Iterable[Card]],
    trump: Suit | None,
    leader: Seat,
    rules: Rules = _DEFAULT_RULES,
    *,
    played_in_trick: Sequence[Card] = (),
    backend: Backend | None = None,
) -> tuple[int, Card]:
    """``(double_dummy value, best_card)`` of a position, in one search."""
    position = _position(hands, trump, leader, rules, played_in_trick)
    if resolve_backend(backend) == "c":
        value, bit = _ddcore.best(*_core_args(position, trump, rules))
        return int(value), _CARD_BY_CBIT[bit]
    return _py_solver(trump, rules).best(position.hands, position.leader, position.trick)


def dd_table(
    deal: Deal,
    dealer: Seat,
    rules: Rules = _DEFAULT_RULES,
    *,
    backend: Backend | None = None,
) -> dict[Suit | None, int]:
    """The double-dummy table of a board: for each declaration (each :class:`Suit`, and
    ``None`` for botifarra) the points NS take, 0..72, with perfect play.

    The dealer's side declares (whoever of the two names trump) and the dealer's
    right-hand player leads to the first trick, as in :class:`engine.hand.HandPlay`.
    A whole deal needs the compiled core (the pure-Python solver takes minutes per
    declaration). Raises :class:`InvalidPositionError` if ``deal`` is not a
    :class:`Deal` or ``dealer`` not a seat.
    """
    if not isinstance(deal, Deal):
        raise InvalidPositionError(f"{deal!r} is not a Deal")
    if not isinstance(dealer, Seat):
        raise InvalidPositionError(f"dealer {dealer!r} is not a seat")
    hands = deal.hands()
    return {
        trump: double_dummy(hands, trump, dealer.right, rules, backend=backend)
        for trump in DECLARATIONS
    }


@dataclass(frozen=True, slots=True)
class Par:
    """The declaration the declaring side should choose on a double-dummy table.

    ``trump``: a suit or ``None`` (botifarra); ``ns_points``: NS's points then (0..72);
    ``score``: the declaring side's hand score without doubles (``hand_score``,
    duplicate doubling: botifarra counts double).
    """

    trump: Suit | None
    ns_points: int
    score: int


def par(table: Mapping[Suit | None, int], dealer: Seat) -> Par:
    """The best declaration for the dealer's side on ``table`` (from :func:`dd_table`):
    the one with the highest hand score for that side, botifarra counting double
    (:func:`engine.score.hand_score`, no contro). On a tie, the most points for the
    declaring side, then the first in the order O, C, E, B, botifarra
    (docs/decisions.md, "Double-dummy analysis").

    Raises :class:`InvalidPositionError` for a table without the five declarations or
    with points outside 0..72.

    >>> from engine.cards import Suit
    >>> from engine.seats import Seat
    >>> par({Suit.O: 40, Suit.C: 30, Suit.E: 20, Suit.B: 33, None: 41}, Seat.N)
    Par(trump=None, ns_points=41, score=10)
    >>> par({Suit.O: 40, Suit.C: 30, Suit.E: 20, Suit.B: 33, None: 41}, Seat.E)
    Par(trump=<Suit.E: 'E'>, ns_points=20, score=16)
    """
    if not isinstance(dealer, Seat):
        raise InvalidPositionError(f"dealer {dealer!r} is not a seat")
    missing = [("botifarra" if t is None else str(t)) for t in DECLARATIONS if t not in table]
    if missing:
        raise InvalidPositionError(f"the table has no value for {', '.join(missing)}")
    side = dealer.side
    best: tuple[tuple[int, int, int], Par] | None = None
    for order, trump in enumerate(DECLARATIONS):
        ns = table[trump]
        if isinstance(ns, bool) or not isinstance(ns, int) or not 0 <= ns <= HAND_POINTS:
            raise InvalidPositionError(f"table value {ns!r} is not in 0..72")
        score = hand_score(ns, dealer_side=side, trump=trump)[side]
        taken = ns if side is Side.NS else HAND_POINTS - ns
        rank = (score, taken, -order)
        if best is None or rank > best[0]:
            best = (rank, Par(trump=trump, ns_points=ns, score=score))
    assert best is not None
    return best[1]


def describe(hands: Mapping[Seat, Iterable[Card]]) -> str:
    """``"N: 9O 2C / W: ... "``: a position's hands in play order, for messages and tests."""
    return " / ".join(f"{seat}: {format_cards(sort_hand(hands[seat]))}" for seat in PLAY_ORDER)
