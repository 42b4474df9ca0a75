"""A duplicate championship's finals by standings read once: each final (A, B, ...) with
its pairs ranked by their finals score plus what they carried from the qualifying
stage. The one read model the standings page renders for the finals and the finals'
draw ranks by; the numbers come from ``scoring.finals``.

The qualifying score is that of the rounds before the finals stage, scored on their own
(``scoring.finals.stage_scores``); the finals score is that of the finals' rounds, each
final compared among its own tables (``scoring.finals.score_finals``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import scoring
from scoring import finals as pure
from scoring.stages import Group
from tournaments.models import Championship, Round, Stage
from tournaments.selectors.formats import column
from tournaments.selectors.results import ScoredChampionship, absences, scored_or_new
from tournaments.selectors.standings import PairName, pair_names


@dataclass(frozen=True, slots=True)
class FinalRowView:
    """One pair of a final: the exact numbers (``scoring.finals.FinalRow``) and their
    texts, each column written with the same decimals (``*_text``)."""

    rank: int | None
    pair: PairName
    qualifying: Fraction
    carried: Fraction
    finals: Fraction
    total: Fraction
    boards: int
    withdrawn: bool
    qualifying_text: str
    carried_text: str
    finals_text: str
    total_text: str

    @property
    def rank_text(self) -> str:
        return "—" if self.rank is None else str(self.rank)


@dataclass(frozen=True, slots=True)
class FinalView:
    """One final: its ``name`` ("A") and its ``rows`` ranked."""

    name: str
    rows: tuple[FinalRowView, ...]


@dataclass(frozen=True, slots=True)
class FinalsView:
    """The finals stage once started: ``finals`` in order (A first); ``carry_over``
    (``none``, ``all``, ``percent``) and ``carry_over_percent``; ``qualifying_rounds``
    and ``finals_rounds``, the championship's round numbers of each part;
    ``outside``, the pairs that play no final (they play no finals round)."""

    label: str
    finals: tuple[FinalView, ...]
    carry_over: str
    carry_over_percent: int
    qualifying_rounds: tuple[int, ...]
    finals_rounds: tuple[int, ...]
    outside: tuple[PairName, ...]

    @property
    def last_qualifying_round(self) -> int | None:
        return self.qualifying_rounds[-1] if self.qualifying_rounds else None

    def ranks(self, name: str) -> dict[int, int]:
        """``{pair: rank}`` in final ``name`` (the withdrawn left out)."""
        return {row.pair.number: row.rank for final in self.finals if final.name == name
                for row in final.rows if row.rank is not None}


def finals_stage(championship: Championship) -> Stage | None:
    """The championship's finals stage once started (its finals fixed), else ``None``."""
    stage = (Stage.objects.filter(championship=championship, kind=Stage.Kind.FINALS)
             .order_by("number").first())
    if stage is None or not stage.is_started or not stage.group_list():
        return None
    return stage


def finals_scored(
    championship: Championship, stage: Stage, scored: ScoredChampionship,
) -> tuple[list[pure.FinalScore], tuple[int, ...], tuple[int, ...]]:
    """Each final of ``stage`` scored from ``scored``'s results (``scoring.finals``),
    with the qualifying and the finals round numbers. Two queries (the rounds, the
    absences)."""
    rounds = list(Round.objects.filter(championship=championship).order_by("number")
                  .values_list("number", "stage_id"))
    finals_rounds = tuple(n for n, stage_id in rounds if stage_id == stage.pk)
    first = min(finals_rounds, default=0)
    qualifying_rounds = tuple(n for n, _stage in rounds if n < first)
    rules = championship.scoring_rules()
    missing = absences(championship)
    before = [r.to_scoring() for r in scored.results if r.round < first]
    qualifying = pure.stage_scores(scoring.score_championship(
        rules, before, pure.restrict_absences(missing, rounds=qualifying_rounds)))
    in_finals = set(finals_rounds)
    finals = [Group(str(g["name"]), tuple(int(p) for p in g["pairs"]))
              for g in stage.group_list()]
    scored_finals = pure.score_finals(
        rules, finals, [r.to_scoring() for r in scored.results if r.round in in_finals],
        qualifying, carry_over=stage.carry_over, percent=stage.carry_over_percent,
        absences=missing,
    )
    return scored_finals, qualifying_rounds, finals_rounds


def finals_view(
    championship: Championship, *, for_public: bool = False,
    scored: ScoredChampionship | None = None, stage: Stage | None = None,
) -> FinalsView | None:
    """The finals' standings (see :class:`FinalsView`), ``None`` before the finals
    stage starts or without one. ``for_public``: only the public boards count, as in
    ``selectors.standings``; ``scored``: the championship already scored that way;
    ``stage``: its finals stage already read (:func:`finals_stage`). A few queries,
    whatever the size."""
    stage = stage or finals_stage(championship)
    if stage is None:
        return None
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    scored_finals, qualifying_rounds, finals_rounds = finals_scored(championship, stage,
                                                                    scored)
    names = pair_names(championship)
    rules = championship.scoring_rules()
    views = []
    for final in scored_finals:
        kept = [r for r in final.rows if r.pair in names]
        texts = [column([getattr(r, name) for r in kept], rules)
                 for name in ("qualifying", "carried", "finals", "total")]
        views.append(FinalView(final.name, tuple(
            FinalRowView(r.place, names[r.pair], r.qualifying, r.carried, r.finals, r.total,
                         r.boards, r.withdrawn, q, c, f, t)
            for r, q, c, f, t in zip(kept, *texts, strict=True))))
    playing = {p for final in scored_finals for p in final.pairs}
    return FinalsView(
        label=stage.label, finals=tuple(views), carry_over=stage.carry_over,
        carry_over_percent=stage.carry_over_percent,
        qualifying_rounds=qualifying_rounds, finals_rounds=finals_rounds,
        outside=tuple(names[p] for p in sorted(names) if p not in playing),
    )
