"""The live public pages' reads: the read models of :mod:`.standings` and :mod:`.boards`
built from one scoring per results version, shared by the fragments this process
rebuilds (the standings, the hall, the travellers and pair cards polled after a change
score the championship once), and the pair card's rank chart.

Everything here reads :func:`tournaments.selectors.scored_championship` (results as
tuples) and pair names as tuples, never a model instance per row, in a constant number
of queries; :mod:`tournaments.live` renders and caches it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Championship
from tournaments.selectors import results as results_reads
from tournaments.selectors.boards import ScoreCard, Traveller, score_card, traveller
from tournaments.selectors.finals import FinalsView, finals_stage, finals_view
from tournaments.selectors.formats import MAX_DECIMALS, column
from tournaments.selectors.hall import Hall, current_progress, hall, latest_complete_board
from tournaments.selectors.names import short_name
from tournaments.selectors.standings import PairName, Standings, pair_names, standings

__all__ = [
    "MAX_DECIMALS",
    "PairName",
    "column",
    "current_progress",
    "find_pairs",
    "forget_scored",
    "latest_complete_board",
    "live_card",
    "live_finals",
    "live_hall",
    "live_standings",
    "live_traveller",
    "pair_names",
    "rank_chart",
    "scored_for_version",
    "short_name",
]


# --------------------------------------------------------------------------- scoring

#: ``{(championship id, public only): (its creation, version, time.monotonic(), scored)}``:
#: the latest scored championship of each, shared by the fragments this process rebuilds
#: for the same version within ``LIVE_STALE_SECONDS`` (the standings, the hall, the
#: travellers and pair cards polled after a change score the championship once).
_SCORED: dict[tuple[int, bool], tuple[Any, int, float, results_reads.ScoredChampionship]] = {}


def scored_for_version(championship: Championship, *, public_only: bool
                       ) -> results_reads.ScoredChampionship:
    """:func:`tournaments.selectors.scored_championship` of the championship's version,
    computed once per version and ``LIVE_STALE_SECONDS`` by this process (0: every
    time). Every write bumps the version (docs/decisions.md 36), so a kept scoring is
    never older than the version it is kept for."""
    keep = float(getattr(settings, "LIVE_STALE_SECONDS", 0) or 0)
    if keep <= 0:
        return results_reads.scored_championship(championship, public_only=public_only)
    key = (championship.pk, public_only)
    now = time.monotonic()
    kept = _SCORED.get(key)
    if (kept is not None and kept[0] == championship.created_at
            and kept[1] == championship.results_version and now - kept[2] < keep):
        return kept[3]
    result = results_reads.scored_championship(championship, public_only=public_only)
    if len(_SCORED) > 64:
        _SCORED.clear()
    _SCORED[key] = (championship.created_at, championship.results_version, now, result)
    return result


def forget_scored() -> None:
    """Forget the scorings this process keeps (benchmarks and tests)."""
    _SCORED.clear()


# --------------------------------------------------------------------------- read models


def live_standings(
    championship: Championship, *, round_only: int | None = None,
    through_round: int | None = None,
) -> Standings:
    """:func:`tournaments.selectors.standings` of the public (every reader sees the
    public boards only, docs/decisions.md 16) from this version's scoring. Five
    queries when the scoring is not kept: results, boards, tables per round, absences,
    pair names."""
    return standings(championship, round_only=round_only, through_round=through_round,
                     for_public=True,
                     scored=scored_for_version(championship, public_only=True))


def live_finals(championship: Championship) -> FinalsView | None:
    """:func:`tournaments.selectors.finals.finals_view` of the public from this
    version's scoring (``None``: no finals started; one query then)."""
    stage = finals_stage(championship)
    if stage is None:
        return None
    return finals_view(championship, for_public=True, stage=stage,
                       scored=scored_for_version(championship, public_only=True))


def live_traveller(championship: Championship, number: int, *, for_public: bool
                   ) -> Traveller | None:
    """:func:`tournaments.selectors.traveller` from this version's scoring (``None``:
    no such board). Seven queries when the scoring is not kept."""
    return traveller(championship, number, for_public=for_public,
                     scored=scored_for_version(championship, public_only=for_public))


def live_hall(championship: Championship) -> Hall:
    """:func:`tournaments.selectors.hall` from this version's public scoring."""
    return hall(championship, scored=scored_for_version(championship, public_only=True))


def live_card(championship: Championship, number: int, *, for_public: bool
              ) -> ScoreCard | None:
    """:func:`tournaments.selectors.score_card` from this version's scoring (``None``:
    no such pair). Five queries when the scoring is not kept."""
    return score_card(championship, number, for_public=for_public,
                      scored=scored_for_version(championship, public_only=for_public))


# --------------------------------------------------------------------------- pair card


def rank_chart(ranks: Sequence[tuple[int, int]], field_size: int, label: str) -> SafeString:
    """A small SVG line chart of the rank after each round (rank 1 at the top), drawn on
    the server: ``ranks`` as ``[(round, rank)]``. Only numbers and the escaped ``label``
    go into it."""
    if not ranks:
        return mark_safe("")
    width, height, pad = 320, 140, 28
    top = max(field_size, max(r for _n, r in ranks), 2)
    count = max(len(ranks) - 1, 1)

    def x(i: int) -> float:
        return pad + i * (width - 2 * pad) / count if len(ranks) > 1 else width / 2

    def y(rank: int) -> float:
        return 16 + (rank - 1) * (height - 40) / (top - 1)

    points = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (_n, r) in enumerate(ranks))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="4"/>'
        f'<text x="{x(i):.1f}" y="{y(r) - 8:.1f}" class="rank">{r}</text>'
        f'<text x="{x(i):.1f}" y="{height - 6}" class="round">R{n}</text>'
        for i, (n, r) in enumerate(ranks)
    )
    svg = (
        f'<svg class="rank-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(label)}</title>'
        f'<line x1="{pad}" y1="16" x2="{width - pad}" y2="16" class="top"/>'
        f'<polyline points="{points}"/>{dots}</svg>'
    )
    return mark_safe(svg)  # noqa: S308 - numbers and an escaped label only


# --------------------------------------------------------------------------- find my pair

#: At most this many characters of a "find my pair" query are looked at.
FIND_MAX = 100


def find_pairs(championship: Championship, query: str) -> tuple[PairName, ...]:
    """The pairs "find my pair" finds for ``query`` (:meth:`PairName.matches`: the
    number, or words each in either player's name in any order, case and accents
    ignored), by number.
    One query."""
    query = query[:FIND_MAX]
    return tuple(p for _n, p in sorted(pair_names(championship).items()) if p.matches(query))
