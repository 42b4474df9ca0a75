"""The referee's sheets: the current round, each table's boards and results, a result's history."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count

from engine.seats import Seat, dealer
from tournaments.models import (
    Board,
    Championship,
    Pair,
    Result,
    Round,
    Seating,
)

# --------------------------------------------------------------------------- referee


@dataclass(frozen=True)
class BoardSlot:
    """A board of the round at one table, its dealer and the result so far (or None)."""

    board: Board
    dealer: Seat
    result: Result | None


@dataclass(frozen=True)
class TableSheet:
    seating: Seating
    boards: list[BoardSlot]

    @property
    def done(self) -> int:
        return sum(slot.result is not None for slot in self.boards)


def current_round(championship: Championship) -> Round | None:
    """The first drawn round that is not closed, else the last drawn round, else None.
    In a classic championship, the first drawn round with a game still to enter comes
    first: a knockout seats its next round while the one before stays open."""
    rounds = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings"), games=Count("seatings__game"))
        .order_by("number")
    )
    drawn = [r for r in rounds if r.tables]
    if championship.is_classic:
        for r in drawn:
            if not r.is_closed and r.games < r.tables:
                return r
    for r in drawn:
        if not r.is_closed:
            return r
    return drawn[-1] if drawn else None


def referee_round(round: Round) -> list[TableSheet]:
    """Every table of ``round`` with the round's boards, their dealer and results so far
    (three queries)."""
    seatings = list(
        Seating.objects.filter(round=round)
        .select_related("table", "ns_pair__player1", "ns_pair__player2",
                        "ew_pair__player1", "ew_pair__player2")
        .order_by("table__number")
    )
    boards = list(Board.objects.filter(round=round).order_by("number"))
    results: dict[tuple[int, int], Result] = {
        (r.seating_id, r.board_id): r for r in Result.objects.filter(seating__round=round)
    }
    return [
        TableSheet(
            seating=s,
            boards=[BoardSlot(b, dealer(b.number), results.get((s.pk, b.pk))) for b in boards],
        )
        for s in seatings
    ]


def referee_table(seating: Seating) -> TableSheet:
    """One table's sheet: the round's boards with dealer and result (two queries)."""
    boards = list(Board.objects.filter(round_id=seating.round_id).order_by("number"))
    results = {r.board_id: r for r in Result.objects.filter(seating=seating)}
    return TableSheet(
        seating=seating,
        boards=[BoardSlot(b, dealer(b.number), results.get(b.pk)) for b in boards],
    )


def next_board_without_result(seating: Seating, after: int) -> int | None:
    """The number of the board this table still has no result on that the referee goes
    to after saving board ``after``: the first such board numbered above ``after``, else
    the first below it (a board skipped earlier); ``None`` when every board of the
    table's round has its result (one query)."""
    empty = list(
        Board.objects.filter(round_id=seating.round_id)
        .exclude(results__seating=seating)
        .order_by("number").values_list("number", flat=True)
    )
    later = [n for n in empty if n > after]
    earlier = [n for n in empty if n < after]
    found = later or earlier
    return found[0] if found else None


def result_history(result: Result) -> list[Any]:
    """The audit rows of one result, oldest first (one query)."""
    return list(result.audits.select_related("acting_user").order_by("at", "id"))


def pairs_by_number(championship: Championship) -> dict[int, Pair]:
    """``{number: Pair}`` with both players loaded (one query)."""
    return {
        p.number: p
        for p in Pair.objects.filter(championship=championship).select_related(
            "player1", "player2"
        )
    }


def results_by_table(round: Round) -> dict[int, list[Result]]:
    """``{table number: results}`` of one round (one query)."""
    out: dict[int, list[Result]] = defaultdict(list)
    for r in Result.objects.filter(seating__round=round).select_related("seating__table",
                                                                        "board"):
        out[r.seating.table.number].append(r)
    return dict(out)
