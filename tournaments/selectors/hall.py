"""The hall screen: the public standings, the round being played and the latest complete
board, as one read model (the projector's page and its live fragment render it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.progress import RoundProgress
from tournaments.models import Championship
from tournaments.selectors.boards import Traveller, traveller
from tournaments.selectors.results import ScoredChampionship, scored_or_new
from tournaments.selectors.standings import Standings, standings


@dataclass(frozen=True, slots=True)
class Hall:
    """What the hall screen shows: ``standings``, the public overall standings;
    ``current``, the round being played (:func:`current_progress`); ``latest``, the
    traveller of the latest complete board (``None``: none yet)."""

    standings: Standings
    current: RoundProgress | None
    latest: Traveller | None


def latest_complete_board(scored: ScoredChampionship) -> int | None:
    """The public board whose last result came in last (highest result id), or None."""
    latest: dict[int, int] = {}
    for r in scored.all_results:
        if scored.visibility.is_public(r.board):
            latest[r.board] = max(latest.get(r.board, 0), r.id)
    return max(latest, key=lambda b: latest[b]) if latest else None


def current_progress(progress: Sequence[RoundProgress]) -> RoundProgress | None:
    """The first round still missing results, else the last drawn round."""
    for p in progress:
        if p.results_in < p.results_expected:
            return p
    return progress[-1] if progress else None


def hall(championship: Championship, *, scored: ScoredChampionship | None = None) -> Hall:
    """The hall screen of ``championship``, public boards only (docs/decisions.md 16):
    :func:`standings` and :func:`traveller` of the latest complete board from one
    scoring. Nine queries at most (the scoring, four, when ``scored`` is not given; the
    pair names twice; the board and its tables due)."""
    scored = scored_or_new(championship, public_only=True, scored=scored)
    view = standings(championship, for_public=True, scored=scored)
    board = latest_complete_board(scored)
    return Hall(
        standings=view,
        current=current_progress(view.round_progress),
        latest=None if board is None else traveller(championship, board, for_public=True,
                                                    scored=scored),
    )
