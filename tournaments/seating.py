"""Reads of the movement: a round's seating (tables and the bye), where a pair sits in
each round, and the guide cards' rows. A constant number of queries each."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q

from tournaments.models import Board, Bye, Championship, Pair, Round, Seating


@dataclass(frozen=True)
class SeatRow:
    """One table of a round: its number and the NS and EW pairs."""

    table: int
    ns: Pair
    ew: Pair


@dataclass(frozen=True)
class RoundSeating:
    """A round's seating: ``tables`` by number, ``byes`` (pairs sitting out), the board
    numbers every table plays; ``drawn`` once it has a table or a bye."""

    round: Round
    tables: list[SeatRow]
    byes: list[Pair]
    boards: list[int]

    @property
    def drawn(self) -> bool:
        return bool(self.tables or self.byes)


def round_seating(round: Round) -> RoundSeating:
    """The seating of ``round`` (three queries)."""
    tables = [
        SeatRow(s.table.number, s.ns_pair, s.ew_pair)
        for s in Seating.objects.filter(round=round)
        .select_related("table", "ns_pair__player1", "ns_pair__player2", "ew_pair__player1",
                        "ew_pair__player2")
        .order_by("table__number")
    ]
    byes = [
        b.pair for b in Bye.objects.filter(round=round)
        .select_related("pair__player1", "pair__player2").order_by("pair__number")
    ]
    boards = list(Board.objects.filter(round=round).order_by("number")
                  .values_list("number", flat=True))
    return RoundSeating(round, tables, byes, boards)


@dataclass(frozen=True)
class PairSeat:
    """Where a pair sits in one round: ``table`` and ``direction`` (``"NS"``/``"EW"``)
    and the ``opponent`` number, or all ``None`` when it sits out (``bye``)."""

    round: int
    table: int | None = None
    direction: str | None = None
    opponent: int | None = None
    closed: bool = False

    @property
    def bye(self) -> bool:
        return self.table is None


def pair_seats(pair: Pair) -> list[PairSeat]:
    """Every drawn round of ``pair``, by round number (two queries)."""
    seats: list[PairSeat] = []
    for number, closed, table, ns, ew in (
        Seating.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair))
        .values_list("round__number", "round__closed_at", "table__number",
                     "ns_pair__number", "ew_pair__number")
    ):
        ns_side = ns == pair.number
        seats.append(PairSeat(number, table, "NS" if ns_side else "EW", ew if ns_side else ns,
                              closed is not None))
    for number, closed in Bye.objects.filter(pair=pair).values_list(
        "round__number", "round__closed_at"
    ):
        seats.append(PairSeat(number, closed=closed is not None))
    return sorted(seats, key=lambda s: s.round)


def next_seat(seats: list[PairSeat]) -> PairSeat | None:
    """The seat of the first drawn round still open (where the pair sits next, or now)."""
    return next((s for s in seats if not s.closed), None)


@dataclass(frozen=True)
class Guide:
    """The guide cards of a championship: ``tables`` (table -> its ``(round, NS, EW)``),
    ``pairs`` (pair -> ``PairSeat`` of each round), ``rounds`` (the drawn rounds)."""

    championship: Championship
    rounds: list[int]
    tables: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    pairs: dict[int, list[PairSeat]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)


def guide(championship: Championship) -> Guide:
    """Every drawn round's tables and byes, per table and per pair (three queries)."""
    tables: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    pairs: dict[int, list[PairSeat]] = defaultdict(list)
    rounds: set[int] = set()
    for number, table, ns, ew in (
        Seating.objects.filter(round__championship=championship)
        .order_by("round__number", "table__number")
        .values_list("round__number", "table__number", "ns_pair__number", "ew_pair__number")
    ):
        rounds.add(number)
        tables[table].append((number, ns, ew))
        pairs[ns].append(PairSeat(number, table, "NS", ew))
        pairs[ew].append(PairSeat(number, table, "EW", ns))
    for number, pair in Bye.objects.filter(round__championship=championship).values_list(
        "round__number", "pair__number"
    ):
        rounds.add(number)
        pairs[pair].append(PairSeat(number))
    names = {
        p.number: p.names
        for p in Pair.objects.filter(championship=championship)
        .select_related("player1", "player2")
    }
    return Guide(
        championship, sorted(rounds), dict(sorted(tables.items())),
        {p: sorted(seats, key=lambda s: s.round) for p, seats in sorted(pairs.items())},
        names,
    )
