"""Standings: overall, per round, after each round, with the progress of results in / expected."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import scoring
from scoring.progress import Progress, count_progress
from tournaments.models import (
    Championship,
    Pair,
)
from tournaments.selectors.results import ScoredChampionship, scored_championship

# --------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``total``/``average`` in comparative points (Fraction)."""

    rank: int
    pair: Pair
    total: Fraction
    boards: int
    average: Fraction
    missed: int = 0  # boards scored as average (A) under that missed-board rule
    withdrawn: bool = False

    @property
    def number(self) -> int:
        return self.pair.number


@dataclass(frozen=True)
class StandingsView:
    """Standings of a championship: ``rows`` ranked, ``progress`` of the results in scope,
    ``rounds``: round numbers that have tables (for per-round links)."""

    championship: Championship
    rows: list[StandingRow]
    progress: Progress
    rounds: list[int]
    through_round: int | None = None
    round_only: int | None = None


def _rows(standings: Iterable[scoring.Standing], pairs: dict[int, Pair]) -> list[StandingRow]:
    return [
        StandingRow(s.rank, pairs[s.pair], s.total, s.boards, s.average, s.missed, s.withdrawn)
        for s in standings
        if s.pair in pairs
    ]


def _pairs(championship: Championship) -> dict[int, Pair]:
    return {
        p.number: p
        for p in Pair.objects.filter(championship=championship).select_related(
            "player1", "player2"
        )
    }


def progress_of(scored: ScoredChampionship, *, through_round: int | None = None,
                round_only: int | None = None) -> Progress:
    """Results in / results expected of the rounds in scope (all, 1..``through_round``
    or ``round_only``): the tables seated in each round times its boards, plus each
    result on an imported board of no single round (due where it was played). Every
    result counts, hidden boards' too: it says how many are in, not what they are. No
    query (``scored`` holds the rows)."""
    seen = scored.visibility
    return count_progress(
        board_rounds=seen.board_rounds, tables_due=seen.tables_due,
        results=[(r.round, r.board_round) for r in scored.all_results],
        through_round=through_round, round_only=round_only,
    )


def standings(
    championship: Championship,
    *,
    through_round: int | None = None,
    round_only: int | None = None,
    for_public: bool = False,
) -> StandingsView:
    """Overall standings, standings after round ``through_round`` (rounds 1..n) or of
    ``round_only`` alone, with progress (results in / expected in that scope).

    ``for_public=True`` (the public, a plain referee, printed standings): the rows count
    only the boards public now (:func:`scored_championship`), so saving a result on a
    hidden board changes no public total, board count, average or rank; the progress
    still counts every result (it says how many are in, not what they are).

    Four queries, whatever the size: results, boards, tables per round, pairs.
    Comparative points are those of the whole championship
    (``scoring.ChampionshipScore.standings``). Raises ``ValueError`` when both are given.
    """
    scored = scored_championship(championship, public_only=for_public)
    pairs = _pairs(championship)
    rows = _rows(
        scored.score.standings(through_round=through_round, round_only=round_only), pairs
    )
    seen = scored.visibility
    return StandingsView(
        championship=championship,
        rows=rows,
        progress=progress_of(scored, through_round=through_round, round_only=round_only),
        rounds=sorted(seen.tables_due),
        through_round=through_round,
        round_only=round_only,
    )


def standings_after_each_round(
    championship: Championship, *, for_public: bool = False
) -> dict[int, list[StandingRow]]:
    """``{round: standings over rounds 1..round}`` for every round with results (four
    queries; ``for_public`` counts only the public boards, as :func:`standings` does)."""
    scored = scored_championship(championship, public_only=for_public)
    pairs = _pairs(championship)
    return {n: _rows(rows, pairs) for n, rows in scored.score.progressive_standings().items()}
