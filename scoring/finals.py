"""Finals by standings (duplicate): each final's boards compared among its own tables,
and each final's standings with the carry-over from the qualifying stage. Pure Python,
no Django.

Source: docs/rules.md "Finals by standings (duplicate)"; docs/decisions.md ("Finals:
each final compared on its own, the carry-over"). The steps:

1. :func:`split_results` gives each final the results of its tables (a table belongs
   to the final of its NS pair; a table of two pairs of no final is left out).
2. :func:`score_finals` scores each final as a championship of its own over the
   finals' rounds (``scoring.score_championship``): a board is compared only among the
   tables of that final, even when every final plays the same boards, and Neuberg's E
   under matchpoints is the final's own.
3. :func:`stage_scores` turns a scoring's standings into one score a pair per stage:
   its total; when the standings rank by average per board (``per_board`` once some
   pair missed a round), its average times the most boards any pair counts, so that a
   bye costs nothing and the scores keep the standings' order.
4. :func:`carried`: what a pair brings from the qualifying stage: nothing (``none``),
   its qualifying score (``all``) or ``percent`` per cent of it (``percent``), exact.
5. A final's total is its finals score plus what it carried; the final ranks by total,
   best first (a withdrawn pair last); level totals share a place and are listed by
   the better qualifying score, then by pair number.

>>> from scoring.model import Result, Trump
>>> from scoring.stages import Group
>>> results = [  # board 5 played by final A at table 1 and by final B at table 2
...     Result(3, 1, 5, ns_pair=1, ew_pair=2, trump=Trump.O, ns_points_taken=40),
...     Result(3, 2, 5, ns_pair=3, ew_pair=4, trump=Trump.O, ns_points_taken=30),
... ]
>>> finals = score_finals(ScoringRules(), [Group("A", (1, 2)), Group("B", (3, 4))],
...                       results, {1: Fraction(3), 2: Fraction(5), 3: 0, 4: 0},
...                       carry_over="all")
>>> [(f.name, [(r.rank, r.pair, str(r.total)) for r in f.rows]) for f in finals]
[('A', [(1, 2, '13/2'), (2, 1, '9/2')]), ('B', [(1, 3, '3/2'), (1, 4, '3/2')])]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.championship import (
    Absences,
    ChampionshipScore,
    competition_ranks,
    score_championship,
)
from scoring.errors import ScoringError
from scoring.model import Result, ScoringRules
from scoring.stages import Group


class FinalsError(ScoringError):
    """Finals that cannot be scored: an unknown carry-over, a percentage out of 0..100,
    a pair in two finals."""


class CarryOver(enum.Enum):
    """What a pair of a final brings from the qualifying stage."""

    NONE = "none"
    ALL = "all"
    PERCENT = "percent"


def carried(qualifying: Fraction | int, carry_over: CarryOver | str, percent: int = 0
            ) -> Fraction:
    """The part of the qualifying score ``qualifying`` a pair carries into its final:
    0 (``none``), all of it (``all``) or ``percent`` per cent of it (``percent``),
    exact. Raises :class:`FinalsError` for an unknown rule or a percentage out of
    0..100.

    >>> [str(carried(Fraction(27, 2), rule, 50)) for rule in ("none", "all", "percent")]
    ['0', '27/2', '27/4']
    """
    try:
        rule = CarryOver(carry_over)
    except ValueError:
        raise FinalsError(f"carry-over {carry_over!r} is not one of none, all, percent"
                          ) from None
    if isinstance(percent, bool) or not isinstance(percent, int) or not 0 <= percent <= 100:
        raise FinalsError(f"carry-over percentage {percent!r} is not between 0 and 100")
    if rule is CarryOver.NONE:
        return Fraction(0)
    if rule is CarryOver.ALL:
        return Fraction(qualifying)
    return Fraction(qualifying) * percent / 100


def stage_scores(score: ChampionshipScore, **scope: int | None) -> dict[int, Fraction]:
    """``{pair: score}`` of every pair ranked by ``score.standings(**scope)``: its
    total, or, when those standings rank by average per board, its average times the
    most boards (played and counted as average) any pair has in them. A pair with no
    board scores 0.

    >>> from scoring.model import Result, Trump
    >>> s = score_championship(ScoringRules(), [
    ...     Result(1, 1, 1, ns_pair=1, ew_pair=2, trump=Trump.O, ns_points_taken=40),
    ...     Result(1, 2, 1, ns_pair=3, ew_pair=4, trump=Trump.O, ns_points_taken=30)])
    >>> sorted((p, str(v)) for p, v in stage_scores(s).items())
    [(1, '2'), (2, '1'), (3, '1'), (4, '2')]
    """
    rows = score.standings(**scope)
    if not score.ranks_by_average:
        return {s.pair: s.total for s in rows}
    most = max((s.boards + s.missed for s in rows), default=0)
    return {s.pair: s.average * most for s in rows}


def restrict_absences(absences: Absences | None, *, pairs: Iterable[int] | None = None,
                      rounds: Iterable[int]) -> Absences:
    """``absences`` as seen by a scoring of ``rounds`` alone among ``pairs`` (``None``:
    every pair): rounds sat out outside ``rounds`` are dropped, and every pair kept is
    registered from the start (a final lists each of its pairs)."""
    source = absences or Absences()
    kept_rounds = frozenset(rounds)
    wanted = None if pairs is None else set(pairs)

    def keep(pair: int) -> bool:
        return wanted is None or pair in wanted

    sat_out = {p: r & kept_rounds for p, r in source.sat_out.items() if keep(p)}
    byes = {p: r & kept_rounds for p, r in source.byes.items() if keep(p)}
    registered = wanted if wanted is not None else set(source.pairs)
    return Absences(
        {p: r for p, r in sat_out.items() if r},
        {p: after for p, after in source.withdrawn.items() if keep(p)},
        dict.fromkeys(sorted(registered), 1),
        {p: r for p, r in byes.items() if r},
    )


@dataclass(frozen=True, slots=True)
class FinalRow:
    """One pair of a final: ``qualifying``, its qualifying score (:func:`stage_scores`);
    ``carried``, the part of it brought in (:func:`carried`); ``finals``, its score
    over the finals' rounds, compared within the final; ``total`` = ``carried`` +
    ``finals``; ``boards``, boards it has a result on in the final; ``rank``, 1 + the
    pairs of the final with a better total (a withdrawn pair after them all)."""

    rank: int
    pair: int
    qualifying: Fraction
    carried: Fraction
    finals: Fraction
    total: Fraction
    boards: int
    withdrawn: bool = False

    @property
    def place(self) -> int | None:
        """:attr:`rank`, or ``None`` for a withdrawn pair (shown "—")."""
        return None if self.withdrawn else self.rank


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One final scored: its ``name`` and ``pairs``, the scoring of its own results
    (``score``: each result's comparative points within the final) and its ``rows``
    ranked."""

    name: str
    pairs: tuple[int, ...]
    score: ChampionshipScore
    rows: tuple[FinalRow, ...]


def split_results(finals: Sequence[Group], results: Iterable[Result]
                  ) -> dict[str, list[Result]]:
    """``{final name: its results}``: a result goes to the final of its NS pair (else
    of its EW pair); a result between two pairs of no final is left out. Raises
    :class:`FinalsError` for a pair listed in two finals."""
    final_of: dict[int, str] = {}
    for final in finals:
        for pair in final.pairs:
            if pair in final_of:
                raise FinalsError(f"pair {pair} is in final {final_of[pair]} and {final.name}")
            final_of[pair] = final.name
    out: dict[str, list[Result]] = {final.name: [] for final in finals}
    for result in results:
        name = final_of.get(result.ns_pair) or final_of.get(result.ew_pair)
        if name is not None:
            out[name].append(result)
    return out


def score_finals(
    rules: ScoringRules, finals: Sequence[Group], results: Iterable[Result],
    qualifying: Mapping[int, Fraction | int], *, carry_over: CarryOver | str,
    percent: int = 0, absences: Absences | None = None,
) -> list[FinalScore]:
    """Every final scored and ranked (see the module's steps). ``results``: the
    results of the finals' rounds only; ``qualifying``: ``{pair: qualifying score}``
    (:func:`stage_scores` of the qualifying rounds; a pair missing scores 0);
    ``absences``: the championship's, restricted here to each final's pairs and the
    rounds of ``results`` (a bye in the final is then ranked as ``rules`` says).
    Raises :class:`FinalsError`, or ``scoring.ResultError`` for a result that cannot be
    scored."""
    listed = list(results)
    rounds = {r.round for r in listed}
    by_final = split_results(finals, listed)
    out: list[FinalScore] = []
    for final in finals:
        own = restrict_absences(absences, pairs=final.pairs, rounds=rounds)
        score = score_championship(rules, by_final[final.name], own)
        played = {s.pair: s.boards for s in score.standings()}
        finals_score = stage_scores(score)
        rows: list[FinalRow] = []
        for pair in final.pairs:
            brought = Fraction(qualifying.get(pair, 0))
            carry = carried(brought, carry_over, percent)
            made = finals_score.get(pair, Fraction(0))
            rows.append(FinalRow(0, pair, brought, carry, made, carry + made,
                                 played.get(pair, 0), pair in own.withdrawn))
        rows.sort(key=lambda r: (r.withdrawn, -r.total, -r.qualifying, r.pair))
        ranks = competition_ranks([(r.withdrawn, -r.total) for r in rows])
        out.append(FinalScore(final.name, tuple(final.pairs), score, tuple(
            FinalRow(rank, r.pair, r.qualifying, r.carried, r.finals, r.total, r.boards,
                     r.withdrawn)
            for rank, r in zip(ranks, rows, strict=True))))
    return out
