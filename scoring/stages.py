"""Stages: a championship as a sequence of groups, a qualification and a knockout
bracket. Pure Python, no Django.

Source: docs/rules.md "Stages (groups, second chance, knockout)". The steps:

1. :func:`split_groups` deals the pairs into groups ("A", "B", ...) by the seeding
   list, by snake from an earlier stage's standings, or at random from a seed; group
   sizes differ by at most one.
2. :func:`group_schedule` gives a group's rounds: an all-play-all (a "lligueta") by
   :func:`scoring.movement.draw_round_robin`; :func:`stage_round` puts every group's
   tables of one round together, numbered through the hall.
3. :func:`group_standings` ranks a group by :func:`scoring.classic.classic_standings`
   over the games among its pairs.
4. :func:`qualify` takes the first ``per_group`` of each group and the best
   ``best_of_rest`` of the others (the second chance, "repesca"), in seed order.
5. :func:`seed_bracket` places the qualified pairs in a knockout bracket (1 and 2 can
   meet only in the final; byes to the top seeds); :func:`advance` records winners;
   :func:`match_winner` decides a best-of-three (or best-of-any odd number) match.

For duplicate, :func:`split_finals` cuts the standings into an A final, a B final, ...

>>> [g.pairs for g in split_groups(range(1, 9), 2, method="snake")]
[(1, 4, 5, 8), (2, 3, 6, 7)]
>>> [(m.top, m.bottom) for m in seed_bracket([11, 12, 13, 14, 15]).rounds[0]]
[(11, None), (14, 15), (13, None), (12, None)]
>>> match_winner([7, 9, 7], best_of=3)
7
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.classic import ClassicRules, ClassicStanding, PlayedGame, classic_standings
from scoring.errors import ScoringError
from scoring.movement import Draw, Movement, Table, draw_round_robin, round_robin_rounds

# ----------------------------------------------------------------------------- errors


class StageError(ScoringError):
    """Base class of the errors of this module (a ``ValueError``)."""


class GroupSplitError(StageError):
    """Pairs that cannot be split as asked: too few pairs, a pair twice, a ranking that
    leaves a pair out, an unknown method, a random split without a seed."""


class QualifyError(StageError):
    """A qualification that cannot be made: a negative count, a group with fewer placed
    pairs than ``per_group``, fewer eligible pairs in the rest than ``best_of_rest``."""


class BracketError(StageError):
    """A bracket or match that cannot be made or advanced: fewer than 2 pairs, a pair
    twice, a winner that is not in its match, a match not ready, an even best-of."""


# ----------------------------------------------------------------------------- groups


class SplitMethod(enum.Enum):
    """How pairs are dealt into groups."""

    SEEDING = "seeding"  # the seeding list dealt 1..g, g+1..2g, ...
    SNAKE = "snake"  # standings dealt 1..g, 2g..g+1, 2g+1..3g, ...
    RANDOM = "random"  # a seeded shuffle, then dealt as the seeding list


SPLIT_METHOD_CHOICES = tuple(m.value for m in SplitMethod)


@dataclass(frozen=True, slots=True)
class Group:
    """A group: its ``name`` ("A", "B", ...) and its ``pairs`` in the order dealt (the
    group's first seed first)."""

    name: str
    pairs: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.pairs)


def group_name(index: int) -> str:
    """The name of the group at 0-based ``index``: "A".."Z", then "AA", "AB", ...

    >>> [group_name(k) for k in (0, 1, 25, 26, 27)]
    ['A', 'B', 'Z', 'AA', 'AB']
    """
    if index < 0:
        raise GroupSplitError(f"group index {index} must be 0 or more")
    name = ""
    k = index + 1
    while k:
        k, rest = divmod(k - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _check_pairs(pairs: Iterable[int], error: type[StageError]) -> list[int]:
    listed = list(pairs)
    for p in listed:
        if not isinstance(p, int) or isinstance(p, bool) or p < 1:
            raise error(f"pair {p!r} is not a pair number (1 or more)")
    if len(set(listed)) != len(listed):
        twice = sorted({p for p in listed if listed.count(p) > 1})
        raise error(f"pairs {twice} appear more than once")
    return listed


def split_groups(
    pairs: Iterable[int],
    groups: int,
    *,
    method: SplitMethod | str,
    seed: int | None = None,
    ranking: Sequence[int] | None = None,
) -> list[Group]:
    """Deal ``pairs`` into ``groups`` groups named "A", "B", ...

    - ``seeding``: the pairs in seeding order (``ranking`` when given, else the order
      of ``pairs``), one per group in turn: 1..g to A..G, then g+1..2g to A..G again.
    - ``snake``: the pairs in ranking order (``ranking``, an earlier stage's standings,
      best first; else the order of ``pairs``), one per group with the direction turning
      each row: 1..g to A..G, then 2g..g+1 to A..G (so g+1 joins the last group), and
      so on; each group's total strength is then as even as dealing allows.
    - ``random``: the pairs sorted, shuffled by ``random.Random(seed)``, then dealt as
      ``seeding``; the same pairs and seed give the same groups. ``seed`` is required,
      ``ranking`` refused.

    ``ranking`` must hold every pair of ``pairs``; its other numbers (pairs gone since
    that ranking) are skipped. Every pair lands in exactly one group; sizes differ by at
    most one, the larger groups where the deal ends (the first groups, or in a snake's
    backward row the last ones); each group has at least 2 pairs.

    Raises :class:`GroupSplitError` for bad input.
    """
    try:
        how = SplitMethod(method)
    except ValueError:
        raise GroupSplitError(
            f"method {method!r} is not one of {', '.join(SPLIT_METHOD_CHOICES)}"
        ) from None
    field_ = _check_pairs(pairs, GroupSplitError)
    if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
        raise GroupSplitError(f"groups {groups!r} must be 1 or more")
    if len(field_) < 2 * groups:
        raise GroupSplitError(
            f"{len(field_)} pairs cannot make {groups} groups of at least 2 pairs"
        )
    if how is SplitMethod.RANDOM:
        if seed is None:
            raise GroupSplitError("a random split needs a seed")
        if ranking is not None:
            raise GroupSplitError("a random split takes no ranking")
        order = sorted(field_)
        random.Random(seed).shuffle(order)
    elif ranking is not None:
        ranked = _check_pairs(ranking, GroupSplitError)
        missing = sorted(set(field_) - set(ranked))
        if missing:
            raise GroupSplitError(f"the ranking leaves out pairs {missing}")
        members = set(field_)
        order = [p for p in ranked if p in members]
    else:
        order = field_
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for k, pair in enumerate(order):
        row, column = divmod(k, groups)
        if how is SplitMethod.SNAKE and row % 2 == 1:
            column = groups - 1 - column
        dealt[column].append(pair)
    return [Group(group_name(k), tuple(members_)) for k, members_ in enumerate(dealt)]


def split_finals(ranking: Sequence[int], sizes: Sequence[int]) -> list[Group]:
    """Finals by standings (a duplicate championship's A and B finals): the first
    ``sizes[0]`` pairs of ``ranking`` (best first) play final "A", the next ``sizes[1]``
    final "B", and so on. The sizes must add up to the pairs ranked (the caller leaves
    out the pairs that play no final), each 2 or more. Raises :class:`GroupSplitError`.

    >>> [(g.name, g.pairs) for g in split_finals([7, 3, 9, 1, 4], [3, 2])]
    [('A', (7, 3, 9)), ('B', (1, 4))]
    """
    order = _check_pairs(ranking, GroupSplitError)
    listed = list(sizes)
    if not listed or any(
        not isinstance(n, int) or isinstance(n, bool) or n < 2 for n in listed
    ):
        raise GroupSplitError(f"final sizes {listed} must each be 2 or more")
    if sum(listed) != len(order):
        raise GroupSplitError(
            f"final sizes {listed} add up to {sum(listed)}, not the {len(order)} pairs ranked"
        )
    out: list[Group] = []
    start = 0
    for k, n in enumerate(listed):
        out.append(Group(group_name(k), tuple(order[start : start + n])))
        start += n
    return out


# --------------------------------------------------------------------------- schedule


def group_schedule(group: Group, *, absent: Iterable[int] = ()) -> tuple[Draw, ...]:
    """Every round of the group's all-play-all (:func:`scoring.movement.draw_round_robin`
    over the group's pairs): each pair meets every other once; n-1 rounds for n even, n
    rounds with one bye each for n odd. Tables are numbered within the group.
    ``absent``: pairs withdrawn since the split; their opponents sit out instead."""
    total = round_robin_rounds(group.size)
    gone = tuple(absent)
    return tuple(
        draw_round_robin(group.pairs, round=r, absent=gone) for r in range(1, total + 1)
    )


def stage_rounds(groups: Sequence[Group]) -> int:
    """How many rounds the group stage lasts: the largest group's all-play-all."""
    return max((round_robin_rounds(g.size) for g in groups), default=0)


def stage_round(
    groups: Sequence[Group], round: int, *, absent: Iterable[int] = ()
) -> Draw:
    """Round ``round`` of every group at once: group A's tables first, then B's, ...,
    numbered 1, 2, ... through the hall; the byes of every group together (sorted). A
    group whose all-play-all is over by then (a smaller group) has no table and no bye.
    ``absent``: as :func:`group_schedule`. Raises :class:`StageError` for a round
    outside 1..:func:`stage_rounds`."""
    gone = tuple(absent)
    total = stage_rounds(groups)
    if not 1 <= round <= total:
        raise StageError(f"the group stage has rounds 1 to {total}, not {round}")
    tables: list[Table] = []
    byes: list[int] = []
    for g in groups:
        if round > round_robin_rounds(g.size):
            continue
        draw = draw_round_robin(g.pairs, round=round, absent=gone)
        for t in draw.tables:
            tables.append(Table(len(tables) + 1, t.ns, t.ew))
        byes.extend(draw.byes)
    return Draw(round, tuple(tables), tuple(sorted(byes)), (), Movement.ROUND_ROBIN, None)


# -------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class GroupStanding:
    """A group's standings: the ``group``, its ``rows`` (as
    :func:`scoring.classic.classic_standings` ranks them) and the ``rules`` that ranked
    them (a bye's wins and points are needed to compare groups)."""

    group: Group
    rows: tuple[ClassicStanding, ...]
    rules: ClassicRules = field(default_factory=ClassicRules)

    def placed(self) -> list[ClassicStanding]:
        """The rows with a place (a game or a bye, not withdrawn), in rank order."""
        return [r for r in self.rows if r.placed]


def group_standings(
    group: Group,
    games: Iterable[PlayedGame],
    rules: ClassicRules,
    *,
    byes: Iterable[tuple[int, int]] = (),
    withdrawn: Iterable[int] = (),
    through_round: int | None = None,
) -> GroupStanding:
    """The group's standings over the games among its pairs (a game with a pair of
    another group is left out) and its pairs' byes, ranked by the rules' tiebreaks (the
    group's own difference is ``difference``)."""
    members = set(group.pairs)
    own = [g for g in games if g.ns_pair in members and g.ew_pair in members]
    rows = classic_standings(
        own, rules, pairs=group.pairs,
        byes=[(r, p) for r, p in byes if p in members],
        withdrawn=[p for p in withdrawn if p in members],
        through_round=through_round,
    )
    return GroupStanding(group, tuple(rows), rules)


# ---------------------------------------------------------------------- qualification


class RestRule(enum.Enum):
    """How the pairs not qualified by place are compared for the second chance."""

    BEST_PLACED = "best_placed"  # place in group first, then the record
    BEST_RECORD = "best_record"  # the record only, whatever the place


REST_RULE_CHOICES = tuple(r.value for r in RestRule)


@dataclass(frozen=True, slots=True)
class Qualified:
    """A pair through to the next stage: its ``group`` name, its ``place_in_group``
    (1 first) and ``how``: ``"group"`` (by place) or ``"second_chance"``."""

    pair: int
    group: str
    place_in_group: int
    how: str


@dataclass(frozen=True, slots=True)
class _Record:
    """A row as groups are compared: wins, difference and points for, either totals or
    per game played at a table (when the groups differ in size)."""

    row: ClassicStanding
    group: str
    group_index: int
    place: int
    wins: Fraction
    difference: Fraction
    points_for: Fraction
    table_wins: Fraction


def _records(standing: GroupStanding, index: int, per_game: bool) -> list[_Record]:
    rules = standing.rules
    out: list[_Record] = []
    for place, row in enumerate(standing.placed(), start=1):
        bye_wins = row.byes * rules.bye_wins
        table_wins = row.wins - bye_wins
        if per_game:
            played = row.played or 1
            bye_diff = row.byes * (rules.bye_points_for - rules.bye_points_against)
            wins = Fraction(table_wins, played)
            difference = Fraction(row.difference - bye_diff, played)
            points_for = Fraction(row.points_for - row.byes * rules.bye_points_for, played)
        else:
            wins, difference, points_for = (
                row.wins, Fraction(row.difference), Fraction(row.points_for)
            )
        out.append(_Record(row, standing.group.name, index, place, wins, difference,
                           points_for, table_wins))
    return out


def _by_record(r: _Record) -> tuple[Fraction, Fraction, Fraction, int]:
    return (-r.wins, -r.difference, -r.points_for, r.group_index)


def qualify(
    groups_standings: Sequence[GroupStanding],
    *,
    per_group: int,
    best_of_rest: int,
    rest_rule: RestRule | str = RestRule.BEST_PLACED,
    exclude_zero_wins: bool = True,
) -> list[Qualified]:
    """The pairs through to the next stage, in seed order (best first).

    Rules:

    - **By place.** The first ``per_group`` placed pairs of each group (in the group's
      rank order; a tie its tiebreaks leave is broken by the standings' order, the lower
      pair number first) qualify, ``how="group"``. A withdrawn pair or one with no game
      has no place and cannot qualify.
    - **Second chance.** Of the other placed pairs (the rest), the best
      ``best_of_rest`` qualify, ``how="second_chance"``. With ``exclude_zero_wins`` a
      pair that won no game at a table (a bye's win does not count) is not eligible.
      ``best_placed``: the rest ranked by place in group (every group's next place
      before the one after), then by wins, then difference, then points for;
      ``best_record``: by wins, difference, points for only.
    - **Groups of different sizes.** When the groups do not all have the same number of
      pairs, wins, difference and points for are compared per game played at a table
      (byes left out, as only odd groups have them); otherwise as totals, as the group
      standings count them.
    - **Still level.** The group listed first (A before B) goes first.
    - **Seed order.** The pairs qualified by place come first, place by place (every
      group winner, then every second, ...), each place ranked among itself as the rest
      is (wins, difference, points for, then group order); then the second-chance pairs
      in their order.

    Raises :class:`QualifyError` for a negative count, nobody to qualify, a group with
    fewer placed pairs than ``per_group``, fewer eligible pairs than ``best_of_rest``.
    """
    for name, value in (("per_group", per_group), ("best_of_rest", best_of_rest)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise QualifyError(f"{name} {value!r} must be 0 or more")
    if per_group + best_of_rest == 0:
        raise QualifyError("per_group and best_of_rest are both 0: nobody qualifies")
    try:
        rule = RestRule(rest_rule)
    except ValueError:
        raise QualifyError(
            f"rest_rule {rest_rule!r} is not one of {', '.join(REST_RULE_CHOICES)}"
        ) from None
    if not groups_standings:
        raise QualifyError("no group to qualify from")
    per_game = len({s.group.size for s in groups_standings}) > 1
    direct: list[_Record] = []
    rest: list[_Record] = []
    for index, standing in enumerate(groups_standings):
        records = _records(standing, index, per_game)
        if len(records) < per_group:
            raise QualifyError(
                f"group {standing.group.name} has {len(records)} placed pairs, "
                f"fewer than per_group {per_group}"
            )
        direct.extend(records[:per_group])
        rest.extend(records[per_group:])
    eligible = [r for r in rest if not (exclude_zero_wins and r.table_wins <= 0)]
    if len(eligible) < best_of_rest:
        raise QualifyError(
            f"only {len(eligible)} pairs are eligible for the second chance, "
            f"fewer than best_of_rest {best_of_rest}"
        )
    if rule is RestRule.BEST_PLACED:
        eligible.sort(key=lambda r: (r.place, *_by_record(r)))
    else:
        eligible.sort(key=_by_record)
    direct.sort(key=lambda r: (r.place, *_by_record(r)))
    return [
        Qualified(r.row.pair, r.group, r.place, "group") for r in direct
    ] + [
        Qualified(r.row.pair, r.group, r.place, "second_chance")
        for r in eligible[:best_of_rest]
    ]


# ---------------------------------------------------------------------------- bracket


def bracket_size(pairs: int) -> int:
    """The bracket's places: the smallest power of two at least ``pairs``."""
    size = 1
    while size < pairs:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` places (a power of two) top to bottom, the
    first round's matches two by two. Seed s meets seed size+1-s in the first round and
    the halves are built so that, were the better seed always to win, round k's matches
    would hold seeds whose sum is 2^(rounds-k+1)+1 (1 and 2 can meet only in the final, 1..4
    only in the semifinals).

    >>> seed_positions(8)
    [1, 8, 4, 5, 3, 6, 2, 7]
    """
    if size < 1 or size & (size - 1):
        raise BracketError(f"a bracket's size {size} must be a power of two")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for k, s in enumerate(order)
                 for x in ((s, n + 1 - s) if k % 2 == 0 else (n + 1 - s, s))]
    # Within a first-round match the better seed on top (the halves are unchanged).
    return [x for k in range(0, size, 2) for x in sorted(order[k : k + 2])]


#: A match's key: (round, number), both from 1; the third-place match is the last
#: round's number 2.
MatchKey = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a bracket. ``top`` / ``bottom``: the pairs (in the first round the
    better seed on top; ``None``: a bye in the first round, not yet known later);
    ``top_seed`` / ``bottom_seed``: their seeds in the bracket; ``winner``: ``None``
    until decided (a bye's match is decided at once: its pair goes through)."""

    round: int
    number: int
    top: int | None
    bottom: int | None
    winner: int | None = None
    third_place: bool = False

    @property
    def key(self) -> MatchKey:
        return (self.round, self.number)

    @property
    def pairs(self) -> tuple[int, ...]:
        return tuple(p for p in (self.top, self.bottom) if p is not None)

    @property
    def ready(self) -> bool:
        """Both pairs known and no winner yet: the match can be played."""
        return self.top is not None and self.bottom is not None and self.winner is None

    @property
    def loser(self) -> int | None:
        if self.winner is None or len(self.pairs) < 2:
            return None
        return self.bottom if self.winner == self.top else self.top


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout bracket: ``positions`` (round 1's places top to bottom, a pair or
    ``None`` for a bye), the ``winners`` recorded by match key, and whether the semifinal
    losers play a ``third_place`` match. Its :attr:`rounds` are computed: a match's
    pairs are the winners of the two matches that feed it (round r's match k is fed by
    round r-1's matches 2k-1 and 2k)."""

    positions: tuple[int | None, ...]
    winners: Mapping[MatchKey, int] = field(default_factory=dict)
    third_place: bool = False

    @property
    def round_count(self) -> int:
        return (len(self.positions) - 1).bit_length()

    @property
    def rounds(self) -> tuple[tuple[Match, ...], ...]:
        """Every round's matches, the first round first, the final last (with the
        third-place match after it)."""
        out: list[tuple[Match, ...]] = []
        slots: list[int | None] = list(self.positions)
        first = True
        semis: tuple[Match, ...] = ()
        for r in range(1, self.round_count + 1):
            matches: list[Match] = []
            for k in range(len(slots) // 2):
                top, bottom = slots[2 * k], slots[2 * k + 1]
                winner: int | None = self.winners.get((r, k + 1))
                if first and (top is None or bottom is None):
                    winner = top if bottom is None else bottom
                matches.append(Match(r, k + 1, top, bottom, winner))
            if r == self.round_count and self.third_place and len(semis) == 2:
                a, b = semis[0].loser, semis[1].loser
                matches.append(Match(r, 2, a, b, self.winners.get((r, 2)), third_place=True))
            out.append(tuple(matches))
            semis = tuple(m for m in matches if not m.third_place)
            slots = [m.winner for m in semis]
            first = False
        return tuple(out)

    def matches(self) -> list[Match]:
        return [m for round_ in self.rounds for m in round_]

    def match(self, key: MatchKey) -> Match:
        for m in self.matches():
            if m.key == key:
                return m
        raise BracketError(f"the bracket has no match {key}")

    def ready(self) -> list[Match]:
        """The matches that can be played now (both pairs known, no winner)."""
        return [m for m in self.matches() if m.ready]

    @property
    def final(self) -> Match:
        return self.rounds[-1][0]

    @property
    def champion(self) -> int | None:
        return self.final.winner

    @property
    def third(self) -> int | None:
        """The third-place match's winner (``None`` without one or before it)."""
        last = self.rounds[-1]
        return last[1].winner if len(last) > 1 else None


def seed_bracket(
    qualified_in_seed_order: Sequence[int] | Sequence[Qualified], *, third_place: bool = False,
    avoid_same_group: bool = False,
) -> Bracket:
    """The bracket of the pairs in seed order (best first; :func:`qualify`'s list or
    pair numbers): :func:`seed_positions` of the next power of two, the seeds past the
    number of pairs left empty, so the byes go to the top seeds (seed 1 first) and no
    two byes meet. ``third_place``: the semifinal losers play for third (4 pairs or
    more).

    ``avoid_same_group`` (with :class:`Qualified` pairs): a first-round match of two
    pairs of one group swaps its lower seed with the lower seed of the match whose lower
    seed is nearest (the worse one first when two are as near) and where the swap makes
    no such match; the upper seeds, and so the byes and the halves of the top seeds,
    stay. A meeting no swap avoids stays. Raises :class:`BracketError` for fewer than 2
    pairs or a pair twice."""
    pairs = [q.pair if isinstance(q, Qualified) else q for q in qualified_in_seed_order]
    groups = {q.pair: q.group for q in qualified_in_seed_order if isinstance(q, Qualified)}
    _check_pairs(pairs, BracketError)
    if len(pairs) < 2:
        raise BracketError(f"a bracket needs at least 2 pairs, not {len(pairs)}")
    if third_place and len(pairs) < 4:
        raise BracketError("a third-place match needs at least 4 pairs")
    size = bracket_size(len(pairs))
    seeds: list[int | None] = [s if s <= len(pairs) else None for s in seed_positions(size)]
    if avoid_same_group:
        if len(groups) != len(pairs):
            raise BracketError("avoid_same_group needs every pair's group (Qualified)")
        _keep_groups_apart(seeds, {k: groups[p] for k, p in enumerate(pairs, start=1)})
    positions = tuple(None if s is None else pairs[s - 1] for s in seeds)
    return Bracket(positions, {}, third_place)


def _keep_groups_apart(seeds: list[int | None], group_of: Mapping[int, str]) -> None:
    """Swap lower seeds (odd places) between first-round matches so that no match holds
    two pairs of one group, where a swap allows it (see :func:`seed_bracket`)."""

    def clash(top: int | None, bottom: int | None) -> bool:
        return top is not None and bottom is not None and group_of[top] == group_of[bottom]

    matches = sorted(range(0, len(seeds), 2), key=lambda i: seeds[i] or len(seeds) + 1)
    for i in matches:
        bottom = seeds[i + 1]
        if bottom is None or not clash(seeds[i], bottom):
            continue
        others = [j for j in matches if j != i and seeds[j + 1] is not None]
        others.sort(key=lambda j: (abs((seeds[j + 1] or 0) - bottom), -(seeds[j + 1] or 0)))
        for j in others:
            if not clash(seeds[i], seeds[j + 1]) and not clash(seeds[j], bottom):
                seeds[i + 1], seeds[j + 1] = seeds[j + 1], bottom
                break


def advance(bracket: Bracket, winners: Mapping[MatchKey, int]) -> Bracket:
    """The bracket with ``winners`` (match key -> winning pair) recorded: each later
    match whose two feeding matches have a winner gets its pairs. Winners are applied
    round by round, so one call may record a whole round and the next one's. A winner
    already recorded may be changed, unless a later match's recorded winner is then no
    longer one of its pairs.

    Raises :class:`BracketError` for an unknown match, a match whose pairs are not
    both known, a winner not in its match, or a change that leaves a later winner out
    of its match.
    """
    recorded: dict[MatchKey, int] = dict(bracket.winners)
    pending = dict(winners)
    for key in pending:
        if not (isinstance(key, tuple) and len(key) == 2):
            raise BracketError(f"match key {key!r} must be (round, number)")
    valid = {m.key for m in bracket.matches()}
    for key in pending:
        if key not in valid:
            raise BracketError(f"the bracket has no match {key}")
    for key in sorted(pending):
        current = Bracket(bracket.positions, recorded, bracket.third_place).match(key)
        winner = pending[key]
        if current.top is None or current.bottom is None:
            if key[0] == 1 and winner in current.pairs:
                continue  # a bye: its pair goes through already
            raise BracketError(f"match {key} does not have both its pairs yet")
        if winner not in current.pairs:
            raise BracketError(
                f"pair {winner!r} is not in match {key} ({current.top} v {current.bottom})"
            )
        recorded[key] = winner
    result = Bracket(bracket.positions, recorded, bracket.third_place)
    for m in result.matches():
        kept = recorded.get(m.key)
        if kept is not None and kept not in m.pairs:
            raise BracketError(
                f"match {m.key} has winner {kept}, no longer one of its pairs"
            )
    return result


def match_winner(games: Sequence[int], best_of: int = 3) -> int | None:
    """The winner of a match of ``best_of`` games (odd) from each game's winning pair in
    order: the first pair to win ``best_of // 2 + 1`` games; ``None`` while undecided.

    Raises :class:`BracketError` for an even or non-positive ``best_of``, more than two
    pairs named, or a game after the match was decided.

    >>> match_winner([4, 8], best_of=3) is None
    True
    """
    if not isinstance(best_of, int) or isinstance(best_of, bool) or best_of < 1 \
            or best_of % 2 == 0:
        raise BracketError(f"best_of {best_of!r} must be an odd number, 1 or more")
    needed = best_of // 2 + 1
    if len({*games}) > 2:
        raise BracketError(f"a match has two pairs; the games name {sorted(set(games))}")
    won: dict[int, int] = {}
    for k, pair in enumerate(games, start=1):
        if any(w >= needed for w in won.values()):
            raise BracketError(f"game {k} was played after the match was decided")
        won[pair] = won.get(pair, 0) + 1
    for pair, count in won.items():
        if count >= needed:
            return pair
    return None


def play_bracket(
    bracket: Bracket, games: Mapping[int, Iterable[PlayedGame]]
) -> tuple[Bracket, dict[MatchKey, PlayedGame]]:
    """``bracket`` advanced by the knockout's games, and each played match's game.

    ``games``: the games of each knockout round (1 first, the championship's rounds of
    the stage in order). A match's game is the game of its round whose two pairs are
    the match's pairs; its winner is the pair with more points as entered (a knockout
    game is never level: the referee enters it after the extra deals; the standings'
    cap does not count here). A level game, or one that matches no match, decides
    nothing. Round by round, so a round's winners seat the next round's matches.
    """
    by_round = {k: {frozenset((g.ns_pair, g.ew_pair)): g for g in listed}
                for k, listed in games.items()}
    played: dict[MatchKey, PlayedGame] = {}
    for k in range(1, bracket.round_count + 1):
        for m in bracket.rounds[k - 1]:
            if m.top is None or m.bottom is None:
                continue
            game = by_round.get(k, {}).get(frozenset((m.top, m.bottom)))
            if game is None:
                continue
            played[m.key] = game
            ns, ew = game.game.ns_points, game.game.ew_points
            if ns != ew:
                winner = game.ns_pair if ns > ew else game.ew_pair
                bracket = advance(bracket, {m.key: winner})
    return bracket, played
