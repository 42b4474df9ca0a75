"""A circuit's season rankings (docs/circuits.md): each championship's final places
turned into points, the best of them summed, players and pairs ranked. Pure Python.

An event (:class:`Event`) is one championship of the circuit: its ranked pairs, each
with its place, its two persons (any hashable keys, the persons' ids in the app),
its percentage or games won, and the field (the number of ranked pairs). The rules
(:class:`CircuitRules`) say how a place becomes points:

- ``place_table``: the table's points for the place (1st, 2nd, ...), 0 beyond it;
- ``field_formula``: ``field - place + 1`` (the last pair scores 1, the winner as many
  points as there were pairs);
- ``percentage``: the pair's percentage (a classic event: the percentage of its games
  won, ``100 x wins / played``);
- ``wins``: the games won (a half for a level game); a duplicate event has no games won
  and gives 0.

Pairs that share a place (a tie the championship did not break) share the points of
the places they cover, averaged: two pairs 3rd of a table ``100, 85, 75, 68`` score
``(75 + 68) / 2 = 71.5`` each (docs/decisions.md).

Each player of a pair gets the pair's points (:func:`player_ranking`); the pair ranking
(:func:`pair_ranking`) is by the same two persons together. A player's best
``best_of`` results count (all when ``None``); a player needs ``min_events`` events to
be ranked, and those with fewer are listed after the ranked ones, unranked. Equal
points are broken by ``tiebreaks`` in order (:class:`Tiebreak`); rows still equal
share the rank (1, 2, 2, 4).

>>> rules = CircuitRules(points=PointsKind.PLACE_TABLE, table=(10, 6, 4), best_of=2)
>>> events = [
...     Event("a", field=3, pairs=(EventPair(1, (1, 2)), EventPair(2, (3, 4)),
...                                EventPair(3, (5, 6)))),
...     Event("b", field=2, pairs=(EventPair(1, (3, 4)), EventPair(2, (1, 5)))),
...     Event("c", field=2, pairs=(EventPair(1, (1, 6)), EventPair(2, (3, 2)))),
... ]
>>> for row in player_ranking(events, rules):
...     print(row.rank, row.key, row.points, [(e.event, int(e.points), e.counted)
...                                           for e in row.events])
1 1 20 [('a', 10, True), ('b', 6, False), ('c', 10, True)]
2 3 16 [('a', 6, True), ('b', 10, True), ('c', 6, False)]
3 2 16 [('a', 10, True), ('c', 6, True)]
3 4 16 [('a', 6, True), ('b', 10, True)]
5 6 14 [('a', 4, True), ('c', 10, True)]
6 5 10 [('a', 4, True), ('b', 6, True)]

Person 3 is ahead of persons 2 and 4 on equal points by ``more_events``; 2 and 4 are
equal on ``best_result`` too (10, then 6), so they share 3rd place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

__all__ = [
    "DEFAULT_TABLE",
    "CircuitRules",
    "Event",
    "EventPair",
    "EventResult",
    "PointsKind",
    "RankRow",
    "Tiebreak",
    "event_points",
    "pair_ranking",
    "player_ranking",
]

#: Points: whole numbers as ``int`` (most are, and ``int`` sums and compares many times
#: faster than ``Fraction``), a shared place's average or a percentage as ``Fraction``.
Points = int | Fraction

#: The place table offered by default: 1st 100, 2nd 85, 3rd 75, then fewer down to 1.
DEFAULT_TABLE: tuple[int, ...] = (100, 85, 75, 68, 62, 57, 53, 50, 47, 44, 41, 38, 35, 32,
                                  30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 1)


class PointsKind(StrEnum):
    """How a final place becomes points (the module's docstring says each)."""

    PLACE_TABLE = "place_table"
    FIELD_FORMULA = "field_formula"
    PERCENTAGE = "percentage"
    WINS = "wins"


class Tiebreak(StrEnum):
    """What breaks equal points, in the circuit's order.

    - ``more_events``: more events played (counted or not);
    - ``best_result``: the better best counted result, then the better second one, and
      so on (a missing result is 0);
    - ``best_place``: the better best place in any event;
    - ``last_event``: more points in the circuit's latest event, then in the one before,
      and so on (an event not played is 0).
    """

    MORE_EVENTS = "more_events"
    BEST_RESULT = "best_result"
    BEST_PLACE = "best_place"
    LAST_EVENT = "last_event"


class EventPair(NamedTuple):
    """One ranked pair of an event: its ``place`` (1 the winner; pairs that tied share
    it), its two ``persons`` and, when known, its ``percentage`` (0..100) and ``wins``
    (games won) and ``played`` (games played). A named tuple, as :class:`EventResult`:
    a season has thousands."""

    place: int
    persons: tuple[Hashable, Hashable]
    percentage: Points | None = None
    wins: Points | None = None
    played: int | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One championship of the circuit: ``key`` (its slug), ``pairs`` ranked, ``field``
    (the number of ranked pairs; :func:`event_points`' formula reads it),
    ``provisional`` (still being played: its places may change). Events are given in
    date order."""

    key: str
    field: int
    pairs: tuple[EventPair, ...]
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class CircuitRules:
    """The circuit's rules: ``points`` (:class:`PointsKind`), ``table`` (the points of
    1st, 2nd... for ``place_table``), ``best_of`` (results that count; ``None``: all),
    ``min_events`` (events needed to be ranked), ``tiebreaks`` (in order)."""

    points: PointsKind = PointsKind.PLACE_TABLE
    table: tuple[int | Fraction, ...] = DEFAULT_TABLE
    best_of: int | None = None
    min_events: int = 1
    tiebreaks: tuple[Tiebreak, ...] = (Tiebreak.MORE_EVENTS, Tiebreak.BEST_RESULT)

    def __post_init__(self) -> None:
        if self.best_of is not None and self.best_of < 1:
            raise ValueError(f"best_of must be at least 1, not {self.best_of}")
        if self.min_events < 0:
            raise ValueError(f"min_events must not be negative, not {self.min_events}")
        if any(Fraction(p) < 0 for p in self.table):
            raise ValueError("the place table's points must not be negative")


class EventResult(NamedTuple):
    """A row's result in one event: its ``place``, its ``points``, whether they
    ``counted`` in the total (else ``why``: ``not_best``, a better ``best_of``
    results counted instead), ``provisional`` (the event is still being played). A
    named tuple: a season makes tens of thousands, and a tuple is made several times
    faster than a frozen dataclass."""

    event: str
    place: int
    points: Points
    counted: bool
    why: str = ""
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class RankRow:
    """One line of a ranking: ``key`` (a person, or a pair of persons in sorted
    order), ``rank`` (``None`` when unranked: ``why`` is then ``min_events``),
    ``points`` (the counted results' sum), ``events`` (every event played, in date
    order)."""

    key: Any
    rank: int | None
    points: Points
    events: tuple[EventResult, ...] = field(default=())
    why: str = ""

    @property
    def played(self) -> int:
        return len(self.events)

    @property
    def ranked(self) -> bool:
        return self.rank is not None


# --------------------------------------------------------------------------- points


def _whole(value: Points) -> Points:
    """``value`` as an ``int`` when it is whole."""
    # ``type() is``: ``isinstance`` goes through the numbers ABCs, and this runs for
    # every pair of every championship.
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


def _place_points(place: int, rules: CircuitRules, field_size: int) -> Points:
    if rules.points is PointsKind.PLACE_TABLE:
        return _whole(rules.table[place - 1]) if 1 <= place <= len(rules.table) else 0
    return max(0, field_size - place + 1)


def event_points(event: Event, rules: CircuitRules) -> tuple[Points, ...]:
    """The points of each of ``event.pairs``, in their order.

    >>> rules = CircuitRules(table=(100, 85, 75, 68))
    >>> pairs = tuple(EventPair(p, (i, -i)) for i, p in enumerate((1, 2, 3, 3, 5)))
    >>> [str(p) for p in event_points(Event("x", 5, pairs), rules)]
    ['100', '85', '143/2', '143/2', '0']
    >>> formula = CircuitRules(points=PointsKind.FIELD_FORMULA)
    >>> [str(p) for p in event_points(Event("x", 5, pairs), formula)]
    ['5', '4', '5/2', '5/2', '1']
    """
    kind = rules.points
    if kind is PointsKind.PERCENTAGE:
        return tuple(_percentage(p) for p in event.pairs)
    if kind is PointsKind.WINS:
        return tuple(_whole(p.wins) if p.wins is not None else 0 for p in event.pairs)
    sharing: dict[int, int] = defaultdict(int)
    for p in event.pairs:
        sharing[p.place] += 1
    shared: dict[int, Points] = {}
    for place, count in sharing.items():
        if count == 1:  # nearly every place: no generator, no Fraction
            shared[place] = _place_points(place, rules, event.field)
            continue
        covered = sum(_place_points(place + k, rules, event.field) for k in range(count))
        shared[place] = _whole(Fraction(covered) / count)
    return tuple(shared[p.place] for p in event.pairs)


def _percentage(pair: EventPair) -> Points:
    if pair.percentage is not None:
        return _whole(Fraction(pair.percentage))
    if pair.wins is not None and pair.played:
        return _whole(100 * Fraction(pair.wins) / pair.played)
    return 0


# -------------------------------------------------------------------------- ranking


def _pair_key(persons: tuple[Hashable, Hashable]) -> tuple[Any, ...]:
    return tuple(sorted(persons, key=repr))


def player_ranking(events: Sequence[Event], rules: CircuitRules) -> tuple[RankRow, ...]:
    """Every person who played, ranked: each gets the points of the pairs they played
    in. A person twice in one event (two records merged) keeps the better result."""
    def keys(pair: EventPair) -> Iterable[Any]:
        return dict.fromkeys(pair.persons)
    return _ranking(events, rules, keys)


def pair_ranking(events: Sequence[Event], rules: CircuitRules) -> tuple[RankRow, ...]:
    """Every pair of persons who played together, ranked (``key``: the two persons in
    a fixed order, whichever sat first).

    >>> rules = CircuitRules(points=PointsKind.FIELD_FORMULA)
    >>> one = Event("a", 2, (EventPair(1, (1, 2)), EventPair(2, (3, 4))))
    >>> two = Event("b", 2, (EventPair(1, (4, 3)), EventPair(2, (2, 1))))
    >>> [(r.rank, r.key, int(r.points)) for r in pair_ranking([one, two], rules)]
    [(1, (1, 2), 3), (1, (3, 4), 3)]
    """
    return _ranking(events, rules, lambda pair: (_pair_key(pair.persons),))


def _ranking(events: Sequence[Event], rules: CircuitRules,
             keys_of: Any) -> tuple[RankRow, ...]:
    # key -> {event index: (points, place)}: plain tuples, the results made once per row.
    results: dict[Any, dict[int, tuple[Points, int]]] = defaultdict(dict)
    for index, event in enumerate(events):
        for pair, points in zip(event.pairs, event_points(event, rules), strict=True):
            for key in keys_of(pair):
                by_event = results[key]
                held = by_event.get(index)
                if held is None or (points, -pair.place) > (held[0], -held[1]):
                    by_event[index] = (points, pair.place)
    rows = [_row(key, by_event, rules, events) for key, by_event in results.items()]
    ranked = [r for r in rows if r.played >= rules.min_events]
    unranked = [r for r in rows if r.played < rules.min_events]
    depth = max((r.played for r in rows), default=0)
    keys = {id(r): _tie_key(r, rules, depth, len(events)) for r in ranked}
    ranked.sort(key=lambda r: (keys[id(r)], repr(r.key)))
    out: list[RankRow] = []
    previous: tuple[Any, ...] | None = None
    rank = 0
    for position, row in enumerate(ranked, start=1):
        compared = keys[id(row)]
        if compared != previous:
            rank = position
            previous = compared
        out.append(RankRow(row.key, rank, row.points, row.events))
    unranked.sort(key=lambda r: (-r.points, -r.played, repr(r.key)))
    out.extend(RankRow(r.key, None, r.points, r.events, why="min_events") for r in unranked)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Row:
    key: Any
    points: Points
    events: tuple[EventResult, ...]
    indexes: tuple[int, ...]

    @property
    def played(self) -> int:
        return len(self.events)


def _row(key: Any, by_event: dict[int, tuple[Points, int]], rules: CircuitRules,
         events: Sequence[Event]) -> _Row:
    order = sorted(by_event)
    best = sorted(order, key=lambda i: (-by_event[i][0], i))
    kept = set(best if rules.best_of is None else best[:rules.best_of])
    results = tuple(
        EventResult(events[i].key, by_event[i][1], by_event[i][0], counted=i in kept,
                    why="" if i in kept else "not_best", provisional=events[i].provisional)
        for i in order)
    points: Points = sum(by_event[i][0] for i in kept)
    return _Row(key, _whole(points), results, tuple(order))


def _tie_key(row: _Row, rules: CircuitRules, depth: int, count: int) -> tuple[Any, ...]:
    parts: list[Any] = [-row.points]
    for tiebreak in rules.tiebreaks:
        if tiebreak is Tiebreak.MORE_EVENTS:
            parts.append(-row.played)
        elif tiebreak is Tiebreak.BEST_RESULT:
            counted = sorted(-e.points for e in row.events if e.counted)
            parts.append(tuple(counted) + (0,) * (depth - len(counted)))
        elif tiebreak is Tiebreak.BEST_PLACE:
            parts.append(min(e.place for e in row.events))
        elif tiebreak is Tiebreak.LAST_EVENT:
            by_index = dict(zip(row.indexes, row.events, strict=True))
            parts.append(tuple(-by_index[i].points if i in by_index else 0
                               for i in reversed(range(count))))
    return tuple(parts)
