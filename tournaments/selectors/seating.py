"""The seating: who sits where in each round, as one read model the round's seating page,
the API's rounds, the printed guide cards and the pair card's next seat render.

A round's :class:`RoundSeating` (its tables with both pairs, the pairs sitting out, its
boards) and a pair's :class:`PairSeat` of each round are plain values (pairs as
:class:`.standings.PairName`), read as tuples in a constant number of queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Board, Bye, Championship, Round, Seating
from tournaments.selectors.standings import (
    PAIR_NAME_COLUMNS,
    PairName,
    merged_aliases,
    pair_name,
)

# --------------------------------------------------------------------------- rounds


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One table of a round: its number and the NS and EW pairs."""

    table: int
    ns: PairName
    ew: PairName

    @property
    def pairs(self) -> tuple[PairName, PairName]:
        """NS, then EW."""
        return (self.ns, self.ew)


@dataclass(frozen=True, slots=True)
class RoundSeating:
    """A round's seating: ``tables`` by number, ``byes`` (the pairs sitting out, by
    number), ``boards`` (the board numbers every table plays), ``closed``, and
    ``movement`` (how it was drawn: ``random``, ``swiss``, ``round-robin``; empty before
    the draw or for a seating typed in)."""

    round: int
    closed: bool
    movement: str
    tables: tuple[SeatRow, ...]
    byes: tuple[PairName, ...]
    boards: tuple[int, ...]

    @property
    def drawn(self) -> bool:
        """Once it has a table or a bye."""
        return bool(self.tables or self.byes)


#: A seating row read as a tuple: round id, table, then the NS pair's and the EW pair's
#: :data:`.standings.PAIR_NAME_COLUMNS`.
_SEAT_COLUMNS = (
    "round_id", "table__number",
    *(f"ns_pair__{c}" for c in PAIR_NAME_COLUMNS),
    *(f"ew_pair__{c}" for c in PAIR_NAME_COLUMNS),
)
_BYE_COLUMNS = ("round_id", *(f"pair__{c}" for c in PAIR_NAME_COLUMNS))
_N = len(PAIR_NAME_COLUMNS)


def _seatings(rounds: Sequence[tuple[int, int, bool, str]], seat_filter: Q,
              round_filter: Q) -> list[RoundSeating]:
    """The seating of ``rounds`` (``(id, number, closed, movement)``, in order): three
    queries (tables with both pairs' names, byes with the pair's names, boards)."""
    tables: dict[int, list[SeatRow]] = {}
    seat_rows = list(Seating.objects.filter(seat_filter).order_by("table__number")
                     .values_list(*_SEAT_COLUMNS))
    aliases = merged_aliases(seat_rows, (2, 2 + _N))
    for row in seat_rows:
        tables.setdefault(row[0], []).append(
            SeatRow(row[1], pair_name(row[2:2 + _N], aliases),
                    pair_name(row[2 + _N:2 + 2 * _N], aliases)))
    byes: dict[int, list[PairName]] = {}
    bye_rows = list(Bye.objects.filter(round_filter).order_by("pair__number")
                    .values_list(*_BYE_COLUMNS))
    bye_aliases = merged_aliases(bye_rows, (1,))
    for row in bye_rows:
        byes.setdefault(row[0], []).append(pair_name(row[1:1 + _N], bye_aliases))
    boards: dict[int, list[int]] = {}
    for round_id, number in (Board.objects.filter(round_filter).order_by("number")
                             .values_list("round_id", "number")):
        boards.setdefault(round_id, []).append(number)
    return [
        RoundSeating(number, closed, movement, tuple(tables.get(pk, ())),
                     tuple(byes.get(pk, ())), tuple(boards.get(pk, ())))
        for pk, number, closed, movement in rounds
    ]


def seating_plan(championship: Championship) -> tuple[RoundSeating, ...]:
    """Every round's :class:`RoundSeating`, by round number (four queries, whatever the
    number of rounds, tables or pairs)."""
    rounds = [
        (pk, number, closed_at is not None, movement)
        for pk, number, closed_at, movement in Round.objects.filter(championship=championship)
        .order_by("number").values_list("pk", "number", "closed_at", "movement")
    ]
    return tuple(_seatings(rounds, Q(round__championship=championship),
                           Q(round__championship=championship)))


def round_seating(round: Round) -> RoundSeating:
    """The :class:`RoundSeating` of ``round`` (three queries)."""
    (seated,) = _seatings(
        [(round.pk, round.number, round.is_closed, round.movement)],
        Q(round=round), Q(round=round),
    )
    return seated


# --------------------------------------------------------------------------- pairs


@dataclass(frozen=True, slots=True)
class PairSeat:
    """Where a pair sits in one round: ``table`` and ``direction`` (``"NS"``/``"EW"``)
    and the ``opponent`` number, or all ``None`` when it sits out (``bye``);
    ``closed``: the round is closed."""

    round: int
    table: int | None = None
    direction: str | None = None
    opponent: int | None = None
    closed: bool = False

    @property
    def bye(self) -> bool:
        return self.table is None


def _seat(number: int, round: int, closed: bool, table: int | None = None,
          ns: int | None = None, ew: int | None = None) -> PairSeat:
    """Pair ``number``'s seat in ``round``: at ``table`` between ``ns`` and ``ew``, or a
    bye (``table`` ``None``)."""
    if table is None:
        return PairSeat(round, closed=closed)
    ns_side = ns == number
    return PairSeat(round, table, "NS" if ns_side else "EW", ew if ns_side else ns, closed)


def pair_seats(championship: Championship, number: int) -> list[PairSeat]:
    """Pair ``number``'s seat in every drawn round, by round number (two queries: its
    tables, its byes), as :func:`guide` reads them from the whole plan."""
    seats = [
        _seat(number, rnd, closed is not None, table, ns, ew)
        for rnd, closed, table, ns, ew in (
            Seating.objects.filter(round__championship=championship)
            .filter(Q(ns_pair__number=number) | Q(ew_pair__number=number))
            .values_list("round__number", "round__closed_at", "table__number",
                         "ns_pair__number", "ew_pair__number")
        )
    ]
    seats += [
        _seat(number, rnd, closed is not None)
        for rnd, closed in Bye.objects.filter(round__championship=championship,
                                              pair__number=number)
        .values_list("round__number", "round__closed_at")
    ]
    return sorted(seats, key=lambda s: s.round)


def next_seat(seats: Iterable[PairSeat]) -> PairSeat | None:
    """The seat of the first drawn round still open (where the pair sits next, or now)."""
    return next((s for s in seats if not s.closed), None)


# --------------------------------------------------------------------------- guide


@dataclass(frozen=True, slots=True)
class Guide:
    """The guide cards' rows, from the :func:`seating_plan`: ``rounds``, the drawn
    rounds; ``tables``, table -> its ``(round, NS, EW)`` of each round; ``pairs``, pair
    -> its :class:`PairSeat` of each round; ``names``, pair -> its players."""

    rounds: tuple[int, ...]
    tables: dict[int, list[tuple[int, int, int]]]
    pairs: dict[int, list[PairSeat]]
    names: dict[int, str]


def guide(championship: Championship) -> Guide:
    """Every drawn round's tables and byes, per table and per pair (four queries, the
    :func:`seating_plan`'s)."""
    tables: dict[int, list[tuple[int, int, int]]] = {}
    pairs: dict[int, list[PairSeat]] = {}
    names: dict[int, str] = {}
    drawn: list[int] = []
    for rnd in seating_plan(championship):
        if rnd.drawn:
            drawn.append(rnd.round)
        for row in rnd.tables:
            tables.setdefault(row.table, []).append((rnd.round, row.ns.number, row.ew.number))
            for pair in (row.ns, row.ew):
                names[pair.number] = pair.names
                pairs.setdefault(pair.number, []).append(_seat(
                    pair.number, rnd.round, rnd.closed, row.table, row.ns.number,
                    row.ew.number))
        for pair in rnd.byes:
            names[pair.number] = pair.names
            pairs.setdefault(pair.number, []).append(_seat(pair.number, rnd.round, rnd.closed))
    return Guide(tuple(drawn), dict(sorted(tables.items())),
                 {number: seats for number, seats in sorted(pairs.items())}, names)


def byes_by_pair(championship: Championship) -> dict[int, tuple[int, ...]]:
    """``{pair number: the rounds it sits out}`` (a bye: docs/decisions.md 14), for the
    pairs that sit out any round. One query."""
    byes: dict[int, list[int]] = {}
    rows = Bye.objects.filter(round__championship=championship).order_by("round__number")
    for pair, rnd in rows.values_list("pair__number", "round__number"):
        byes.setdefault(pair, []).append(rnd)
    return {pair: tuple(rounds) for pair, rounds in byes.items()}
