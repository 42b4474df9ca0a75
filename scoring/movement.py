"""Movements: who sits where in each round, and which boards a round plays. Pure Python.

A *field* is the pair numbers that play a round (withdrawn pairs and pairs that have not
joined yet are left out by the caller). A draw seats them two by two at numbered tables,
NS and EW; with an odd field one pair sits out the round (a *bye*). Three methods
(docs/decisions.md 14):

- ``random``: a seeded shuffle, the same tables for the same seed and field. Among
  :data:`DRAW_TRIES` shuffles the first without a rematch wins; when none has it, a
  matching over the pairs that have not met yet looks ahead instead of failing; only
  when no rematch-free draw exists at all does the draw hold rematches (listed in
  :attr:`Draw.rematches`, the fewest possible). Directions balance over the rounds as in
  the Swiss.
- ``swiss``: round 1 as ``random``; then pairs of similar standing meet, by a
  maximum-weight matching (networkx, ``maxcardinality=True``) whose weight prefers small
  rank differences and forbids a rematch whenever a complete matching without one exists.
  Directions balance over the rounds.
- ``round-robin`` (all-play-all): the circle method, n-1 rounds for n even, n rounds with
  one bye each for n odd; every pair meets every other pair once. Directions balance.

Byes: a pair sits out only when no pair with fewer byes can (:func:`bye_candidates`).

Boards: round r of ``b`` boards per round plays boards ``(r-1)*b+1 .. r*b``
(:func:`round_boards`), every table of a round the same boards.

>>> d = draw_random([1, 2, 3, 4, 5], round=1, seed=7)
>>> len(d.tables), len(d.byes)
(2, 1)
>>> sorted([t.ns for t in d.tables] + [t.ew for t in d.tables] + list(d.byes))
[1, 2, 3, 4, 5]
>>> [(t.ns, t.ew) for t in draw_round_robin([1, 2, 3, 4], round=1).tables]
[(1, 4), (2, 3)]
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

#: How many seeded shuffles the random draw tries before it looks ahead by a matching.
DRAW_TRIES = 200
#: The Swiss matching first links each pair to the pairs this many places above and
#: below it in the standings, then widens to the next size, then to every pair, while
#: that leaves someone unmatched (a small graph keeps 200 pairs well under a second).
SWISS_WINDOWS = (4, 16)
#: The node that stands for "sits out" in a matching (pair numbers start at 1).
_BYE = 0


class Movement(enum.Enum):
    """How a round's tables are drawn."""

    RANDOM = "random"
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


class MovementError(ValueError):
    """A draw that cannot be made (e.g. an all-play-all round past the last one)."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its number and the NS and EW pair numbers."""

    number: int
    ns: int
    ew: int

    @property
    def pairs(self) -> frozenset[int]:
        return frozenset((self.ns, self.ew))


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's seating: ``tables`` by number, ``byes`` (pairs sitting out, sorted),
    ``rematches`` (pairs of pair numbers, lower first, that met in an earlier round)."""

    round: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    rematches: tuple[tuple[int, int], ...] = ()
    movement: Movement = Movement.RANDOM
    seed: int | None = None

    @property
    def seated(self) -> list[int]:
        """Every seated pair number, table by table, NS first."""
        return [p for t in self.tables for p in (t.ns, t.ew)]


@dataclass(frozen=True, slots=True)
class History:
    """What earlier rounds did, as a draw needs it: ``met`` (pairs that have met),
    ``byes`` (pair -> rounds sat out), ``balance`` (pair -> NS rounds minus EW rounds),
    ``last_ns`` (pair -> whether it sat NS in its last round at a table)."""

    met: frozenset[frozenset[int]] = frozenset()
    byes: Mapping[int, int] = field(default_factory=dict)
    balance: Mapping[int, int] = field(default_factory=dict)
    last_ns: Mapping[int, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, draws: Iterable[Draw]) -> History:
        """The history of ``draws`` (earlier rounds, any order; applied by round)."""
        met: set[frozenset[int]] = set()
        byes: Counter[int] = Counter()
        balance: Counter[int] = Counter()
        last_ns: dict[int, bool] = {}
        for d in sorted(draws, key=lambda d: d.round):
            for t in d.tables:
                met.add(t.pairs)
                balance[t.ns] += 1
                balance[t.ew] -= 1
                last_ns[t.ns], last_ns[t.ew] = True, False
            byes.update(d.byes)
        return cls(frozenset(met), dict(byes), dict(balance), last_ns)


def round_boards(round: int, boards_per_round: int) -> range:
    """The board numbers round ``round`` plays: ``(round-1)*b+1 .. round*b``.

    >>> list(round_boards(2, 3))
    [4, 5, 6]

    Raises ``ValueError`` when ``round`` or ``boards_per_round`` is below 1.
    """
    if round < 1 or boards_per_round < 1:
        raise ValueError(f"round {round} and boards per round {boards_per_round} must be >= 1")
    return range((round - 1) * boards_per_round + 1, round * boards_per_round + 1)


def bye_candidates(field: Iterable[int], history: History) -> list[int]:
    """The pairs that may sit out next, ascending: those with the fewest byes so far,
    so no pair sits out twice while another has not sat out."""
    pairs = sorted(field)
    if not pairs:
        return []
    fewest = min(history.byes.get(p, 0) for p in pairs)
    return [p for p in pairs if history.byes.get(p, 0) == fewest]


def _rematches(tables: Iterable[Table], met: frozenset[frozenset[int]]) -> tuple[
    tuple[int, int], ...
]:
    return tuple(
        sorted((min(t.ns, t.ew), max(t.ns, t.ew)) for t in tables if t.pairs in met)
    )


def _check_field(field: Sequence[int]) -> list[int]:
    pairs = list(field)
    if len(set(pairs)) != len(pairs):
        raise MovementError("a pair appears twice in the field")
    if any(p < 1 for p in pairs):
        raise MovementError("pair numbers start at 1")
    if len(pairs) < 2:
        raise MovementError(f"a draw needs at least 2 pairs, the field has {len(pairs)}")
    return sorted(pairs)


# ------------------------------------------------------------------------------ random


def draw_random(
    field: Sequence[int], *, round: int, seed: int, history: History | None = None
) -> Draw:
    """A seeded random draw of ``field`` for round ``round``.

    With an even field the tables are those of the first of :data:`DRAW_TRIES` shuffles
    (``random.Random(seed)`` of the sorted numbers) without a rematch, consecutive pairs
    at tables 1, 2, ... . With an odd field the bye is drawn first, among
    :func:`bye_candidates`. When no shuffle avoids every rematch, a matching over the
    pairs that have not met (a bye node joined to the candidates) finds a rematch-free
    draw if one exists, else the draw with the fewest rematches, listed in the result.
    Directions balance over the rounds as in :func:`draw_swiss`: at each table the pair
    that sat NS less often sits NS, then the one that sat EW last, else the shuffle's
    first (so round 1 seats each table's first-drawn pair NS).

    Same field, history and seed: same draw. Raises :class:`MovementError` for fewer
    than 2 pairs or a repeated number.
    """
    pairs = _check_field(field)
    history = history or History()
    rng = random.Random(seed)
    bye: list[int] = []
    rest = pairs
    if len(pairs) % 2:
        candidates = bye_candidates(pairs, history)
        bye = [rng.choice(candidates)]
        rest = [p for p in pairs if p != bye[0]]
    best: list[int] = []
    best_repeats = len(rest) + 1
    for _try in range(DRAW_TRIES):
        order = rest[:]
        rng.shuffle(order)
        order = _facing(order, history)
        repeats = sum(frozenset(order[i : i + 2]) in history.met for i in range(0, len(order), 2))
        if repeats < best_repeats:
            best, best_repeats = order, repeats
        if repeats == 0:
            break
    if best_repeats:
        best, bye = _random_matching(pairs, history, rng)
    # Directions as the Swiss seats them (:func:`_directions`); with equal balances and
    # no last-round hint the shuffle's order stands, so round 1 is the shuffle itself.
    tables = tuple(
        Table(i // 2 + 1, *_directions(best[i], best[i + 1], history))
        for i in range(0, len(best), 2)
    )
    return Draw(
        round, tables, tuple(bye), _rematches(tables, history.met), Movement.RANDOM, seed
    )


def _sign(pair: int, history: History) -> int:
    """1 when ``pair`` sat NS more often than EW, -1 when EW more often, else 0."""
    balance = history.balance.get(pair, 0)
    return (balance > 0) - (balance < 0)


def _clash(a: int, b: int, history: History) -> bool:
    """Whether ``a`` and ``b`` lean the same way (both sat NS more often, or both EW):
    one of them must then move further from even."""
    return _sign(a, history) * _sign(b, history) == 1


def _facing(order: list[int], history: History) -> list[int]:
    """``order`` (a shuffle) regrouped into couples that can balance their directions:
    pairs that sat NS more often face pairs that sat EW more often, in shuffled order;
    the ones left over face pairs with even directions; the even ones left face each
    other, and only then two that lean the same way. With no history (round 1) the
    order is unchanged. Each couple is two consecutive places of the list returned."""
    if not history.balance:
        return order
    groups: dict[int, list[int]] = {1: [], -1: [], 0: []}
    for pair in order:
        groups[_sign(pair, history)].append(pair)
    ns_more, ew_more, even = groups[1], groups[-1], groups[0]
    couples = list(zip(ns_more, ew_more, strict=False))
    common = len(couples)
    left = ns_more[common:] + ew_more[common:]
    couples += zip(left, even, strict=False)
    rest = even[len(left):] + left[len(even):]
    couples += [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
    # The couples in the order their first pair was drawn: table numbers stay random.
    drawn = {pair: i for i, pair in enumerate(order)}
    couples.sort(key=lambda c: min(drawn[c[0]], drawn[c[1]]))
    return [pair for couple in couples for pair in couple]


def _random_matching(
    pairs: list[int], history: History, rng: random.Random
) -> tuple[list[int], list[int]]:
    """A seeded matching with the fewest rematches, then the fewest couples leaning the
    same way (:func:`_clash`): ``(seat order, byes)``."""
    candidates = set(bye_candidates(pairs, history)) if len(pairs) % 2 else set()
    nodes = pairs[:]
    rng.shuffle(nodes)
    graph: nx.Graph[int] = nx.Graph()
    if candidates:
        graph.add_node(_BYE)
    graph.add_nodes_from(nodes)
    # A meeting of two pairs leaning the same way weighs one less: among the matchings
    # of most meetings (maxcardinality), the fewest such couples.
    edges = [
        (a, b, 1 if _clash(a, b, history) else 2)
        for i, a in enumerate(nodes) for b in nodes[i + 1 :]
        if frozenset((a, b)) not in history.met
    ]
    edges += [(_BYE, c, 2) for c in nodes if c in candidates]
    rng.shuffle(edges)
    graph.add_weighted_edges_from(edges)
    matching = _matching(graph)
    if len(matching) * 2 < graph.number_of_nodes():
        # No rematch-free draw: every meeting allowed, a rematch worth less than any
        # number of couples leaning the same way.
        big = 2 * (len(nodes) + 1)
        for i, a in enumerate(nodes):
            for b in nodes[i + 1 :]:
                new = frozenset((a, b)) not in history.met
                graph.add_edge(a, b, weight=(2 if new else 1) * big
                               + (0 if _clash(a, b, history) else 1))
        for c in candidates:
            graph.add_edge(_BYE, c, weight=2 * big + 1)
        matching = _matching(graph)
    order: list[int] = []
    bye: list[int] = []
    couples = sorted((tuple(sorted(m)) for m in matching), key=lambda m: nodes.index(m[-1]))
    for a, b in couples:
        if a == _BYE:
            bye.append(b)
        else:
            order.extend((a, b) if rng.random() < 0.5 else (b, a))
    return order, bye


def _matching(graph: nx.Graph[int]) -> set[tuple[int, int]]:
    found: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return found


# ------------------------------------------------------------------------------- swiss


def draw_swiss(
    field: Sequence[int], *, round: int, seed: int, ranks: Mapping[int, int],
    history: History | None = None,
) -> Draw:
    """A Swiss draw: pairs of similar standing meet, without a rematch while a complete
    matching without one exists.

    ``ranks``: pair -> rank in the standings so far (1 best; ties share a rank; a pair
    missing from it ranks below every ranked pair). With no history (round 1) the draw
    is :func:`draw_random`. Otherwise a maximum-weight matching with
    ``maxcardinality=True`` over the pairs: a meeting weighs more the closer the two
    ranks (``n^2 - (rank difference)^2``); with an odd field a bye node is linked to the
    :func:`bye_candidates`, the lower-ranked the heavier (by more than any sum of rank
    differences: the lowest-ranked candidate sits out whenever a matching allows it).
    The graph first links each pair to its nearest pairs in the standings that it has
    not met (:data:`SWISS_WINDOWS` places either side), then
    every pair it has not met; only when neither gives a complete matching do rematches
    enter, each weighing less than any set of new meetings (so the fewest rematches,
    listed in the result). Ties in rank are broken by ``seed``.

    Table 1 holds the best-ranked pair; at each table the pair that sat NS less often
    sits NS (then the one that sat EW last, then the better-ranked). Same field,
    history, ranks and seed: same draw. Raises :class:`MovementError` as
    :func:`draw_random`.
    """
    pairs = _check_field(field)
    history = history or History()
    if not history.met and not history.byes:
        draw = draw_random(pairs, round=round, seed=seed, history=history)
        return Draw(round, draw.tables, draw.byes, draw.rematches, Movement.SWISS, seed)
    rng = random.Random(seed)
    worst = max(ranks.values(), default=0) + 1
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    tiebreak = {p: i for i, p in enumerate(shuffled)}
    order = sorted(pairs, key=lambda p: (ranks.get(p, worst), tiebreak[p]))
    position = {p: i for i, p in enumerate(order)}
    rank = {p: ranks.get(p, worst) for p in pairs}
    n = len(order)
    base = n * n
    candidates = bye_candidates(pairs, history) if n % 2 else []
    # Candidates from the bottom of the standings up: the lowest-ranked sits out.
    from_bottom = sorted(candidates, key=lambda p: -position[p])

    def meeting(a: int, b: int) -> int:
        return base - (rank[a] - rank[b]) ** 2

    def bye_weight(k: int) -> int:
        # One step up the standings costs more than any sum of rank differences, so
        # the lowest-ranked candidate sits out unless that leaves no complete matching.
        return base + (len(from_bottom) - k) * n**3

    matching: set[tuple[int, int]] = set()
    for window in (*SWISS_WINDOWS, n):
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(order):
            for b in order[i + 1 : i + 1 + window]:
                if frozenset((a, b)) not in history.met:
                    graph.add_edge(a, b, weight=meeting(a, b))
        for k, c in enumerate(from_bottom[: window + 1]):
            graph.add_edge(_BYE, c, weight=bye_weight(k))
        matching = _matching(graph)
        if len(matching) * 2 >= n + (1 if candidates else 0):
            break
    else:
        # Rematches cannot be avoided: each new meeting outweighs any sum of closeness.
        big = base * (n + 1)
        graph = nx.Graph()
        graph.add_nodes_from(order)
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                new = frozenset((a, b)) not in history.met
                graph.add_edge(a, b, weight=meeting(a, b) + (big if new else 0))
        for k, c in enumerate(from_bottom):
            graph.add_edge(_BYE, c, weight=bye_weight(k) + big)
        matching = _matching(graph)
    byes = sorted(b for a, b in map(sorted, matching) if a == _BYE)
    couples = [tuple(sorted(m, key=position.__getitem__)) for m in matching if _BYE not in m]
    couples.sort(key=lambda c: position[c[0]])
    tables = tuple(
        Table(k, *_directions(a, b, history)) for k, (a, b) in enumerate(couples, start=1)
    )
    return Draw(
        round, tables, tuple(byes), _rematches(tables, history.met), Movement.SWISS, seed
    )


def _directions(better: int, other: int, history: History) -> tuple[int, int]:
    """(NS, EW): the pair that sat NS less often sits NS, then the one that sat EW
    last, then ``better``."""
    bal_a, bal_b = history.balance.get(better, 0), history.balance.get(other, 0)
    if bal_a != bal_b:
        return (better, other) if bal_a < bal_b else (other, better)
    last_a, last_b = history.last_ns.get(better), history.last_ns.get(other)
    if last_a is True and last_b is not True:
        return other, better
    return better, other


# ------------------------------------------------------------------------- round robin


def round_robin_rounds(pairs: int) -> int:
    """How many rounds an all-play-all of ``pairs`` pairs has: n-1 for n even, n odd."""
    return pairs - 1 if pairs % 2 == 0 else pairs


def draw_round_robin(
    field: Sequence[int], *, round: int, absent: Iterable[int] = ()
) -> Draw:
    """Round ``round`` of the all-play-all of ``field`` (the pairs of the whole
    schedule), by the circle method: the pairs in ascending order around a circle (a
    "bye" place added for an odd field), the first fixed, the others turning one place a
    round; table k seats the k-th place against its mirror. Over all its rounds every
    pair meets every other once. Directions: the fixed pair sits NS in odd rounds, EW in
    even ones; elsewhere the upper place sits NS, so each pair's NS and EW rounds differ
    by at most one over the schedule.

    ``absent``: pairs of the schedule that no longer play (withdrawn): their opponents
    of this round sit out. Raises :class:`MovementError` for a round outside
    1..:func:`round_robin_rounds`.
    """
    pairs = _check_field(field)
    total = round_robin_rounds(len(pairs))
    if not 1 <= round <= total:
        raise MovementError(
            f"an all-play-all of {len(pairs)} pairs has rounds 1 to {total}, not {round}"
        )
    gone = set(absent)
    tables: list[Table] = []
    byes: list[int] = []
    for k, (top, bottom) in enumerate(_circle(pairs, round)):
        if _BYE in (top, bottom):
            byes.append(top or bottom)
            continue
        # The fixed pair (table 0) changes direction every round; at the other
        # tables the upper place sits NS. Each pair's NS and EW rounds then differ by
        # at most one over the schedule.
        ns_first = round % 2 == 1 if k == 0 else True
        ns, ew = (top, bottom) if ns_first else (bottom, top)
        tables.append(Table(len(tables) + 1, ns, ew))
    kept: list[Table] = []
    for t in tables:
        if t.ns in gone and t.ew in gone:
            continue
        if t.ns in gone or t.ew in gone:
            byes.append(t.ew if t.ns in gone else t.ns)
            continue
        kept.append(Table(len(kept) + 1, t.ns, t.ew))
    final = tuple(sorted(p for p in byes if p not in gone))
    return Draw(round, tuple(kept), final, (), Movement.ROUND_ROBIN, None)


def _circle(pairs: Sequence[int], round: int) -> list[tuple[int, int]]:
    """The meetings of ``round`` (1-based) by the circle method (``_BYE`` for odd)."""
    places = list(pairs) + ([_BYE] if len(pairs) % 2 else [])
    n = len(places)
    shift = (round - 1) % (n - 1)
    turning = places[1:]
    turning = turning[-shift:] + turning[:-shift] if shift else turning
    circle = [places[0], *turning]
    return [(circle[k], circle[n - 1 - k]) for k in range(n // 2)]


# ---------------------------------------------------------------------------- checking


class Problem(enum.Enum):
    """What makes a round's seating invalid (:func:`check_draw`)."""

    SAME_PAIR = "same_pair"  # a table with one pair on both sides
    PAIR_TWICE = "pair_twice"  # a pair at two tables, or seated and sitting out
    TABLE_TWICE = "table_twice"  # one table number used twice
    NOT_IN_FIELD = "not_in_field"  # a withdrawn, late or unknown pair seated


@dataclass(frozen=True, slots=True)
class DrawCheck:
    """The check of a round's seating before it starts.

    ``problems``: ``(Problem, pair or table number)``, any makes the seating invalid;
    ``rematches``: meetings already played (lower pair first); ``byes``: the pairs of
    the field neither seated nor listed, together with the listed byes (sorted)."""

    problems: tuple[tuple[Problem, int], ...]
    rematches: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_draw(
    tables: Iterable[Table], *, field: Iterable[int], byes: Iterable[int] = (),
    history: History | None = None,
) -> DrawCheck:
    """Check a seating (drawn or typed by hand): no table twice, two different pairs
    at each table, no pair twice in the round, only pairs of ``field`` seated; list the
    rematches (against ``history``) and the byes (pairs of the field not seated).

    >>> check_draw([Table(1, 1, 2), Table(2, 2, 3)], field=[1, 2, 3, 4]).problems
    ((<Problem.PAIR_TWICE: 'pair_twice'>, 2),)
    """
    history = history or History()
    members = set(field)
    problems: list[tuple[Problem, int]] = []
    seen_tables: set[int] = set()
    seen: Counter[int] = Counter()
    listed = list(tables)
    for t in listed:
        if t.number in seen_tables:
            problems.append((Problem.TABLE_TWICE, t.number))
        seen_tables.add(t.number)
        if t.ns == t.ew:
            problems.append((Problem.SAME_PAIR, t.number))
            seen[t.ns] += 1
        else:
            seen.update((t.ns, t.ew))
    bye_list = list(byes)
    seen.update(bye_list)
    problems.extend((Problem.PAIR_TWICE, p) for p in sorted(seen) if seen[p] > 1)
    problems.extend((Problem.NOT_IN_FIELD, p) for p in sorted(seen) if p not in members)
    sitting_out = sorted(set(bye_list) | (members - set(seen)))
    return DrawCheck(
        tuple(problems), _rematches((t for t in listed if t.ns != t.ew), history.met),
        tuple(sitting_out),
    )


def draw(
    movement: Movement | str, field: Sequence[int], *, round: int, seed: int,
    history: History | None = None, ranks: Mapping[int, int] | None = None,
    schedule: Sequence[int] | None = None, absent: Iterable[int] = (),
) -> Draw:
    """Draw round ``round`` by ``movement``: :func:`draw_random`, :func:`draw_swiss`
    (with ``ranks``) or :func:`draw_round_robin` (over ``schedule``, the pairs of the
    whole all-play-all, default ``field``; ``absent`` and the pairs of the schedule
    missing from ``field`` sit out their meetings). Raises :class:`MovementError`."""
    movement = Movement(movement)
    if movement is Movement.SWISS:
        return draw_swiss(field, round=round, seed=seed, ranks=ranks or {}, history=history)
    if movement is Movement.ROUND_ROBIN:
        full = list(schedule) if schedule is not None else list(field)
        extra = set(field) - set(full)
        if extra:
            raise MovementError(
                f"pairs {sorted(extra)} joined after the all-play-all was drawn"
            )
        gone = set(absent) | (set(full) - set(field))
        return draw_round_robin(full, round=round, absent=gone)
    return draw_random(field, round=round, seed=seed, history=history)
