"""A whole championship's scores and standings, full or incremental.

Source: championship-json.md ("Comparative points", "Export adds"). Everything is exact
(``Fraction``); the same results in any order give the same numbers.

>>> from scoring.model import Result, Trump
>>> results = [
...     Result(1, 1, 1, ns_pair=1, ew_pair=2, trump=Trump.O, ns_points_taken=40),
...     Result(1, 2, 1, ns_pair=3, ew_pair=4, trump=Trump.O, ns_points_taken=30),
... ]
>>> scores = score_championship(ScoringRules(), results)
>>> scores.result((1, 1, 1))
ResultScore(ns_score=4, ew_score=-4, ns_comparative=Fraction(2, 1), ew_comparative=Fraction(1, 1))
>>> [(s.rank, s.pair, str(s.total)) for s in scores.standings()]
[(1, 1, '2'), (1, 4, '2'), (3, 2, '1'), (3, 3, '1')]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from scoring.comparative import ResultScore, check_result, regular_count, score_board
from scoring.errors import ResultError
from scoring.model import Method, Result, ScoringRules

Key = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    ``total``: sum of the pair's (rounded) comparative points; ``boards``: boards it has a
    result on (played, adjusted or with an infraction); ``average``: total / boards, exact.
    ``rank``: 1 + the number of pairs with a higher total (ties share a rank: 1, 2, 2, 4).
    """

    rank: int
    pair: int
    total: Fraction
    boards: int
    average: Fraction


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """Sum of Fractions, adding numerators per denominator first (a handful of distinct
    denominators on a championship), so it is fast and exact."""
    buckets: defaultdict[int, int] = defaultdict(int)
    for value in values:
        buckets[value.denominator] += value.numerator
    return sum((Fraction(n, d) for d, n in buckets.items()), Fraction(0))


def rank_standings(totals: Mapping[int, Fraction], boards: Mapping[int, int]) -> list[Standing]:
    """Standings from each pair's total and boards: by total, highest first, then by pair
    number; equal totals share a rank (1, 2, 2, 4)."""
    ordered = sorted(totals, key=lambda pair: (-totals[pair], pair))
    out: list[Standing] = []
    for i, pair in enumerate(ordered):
        total = totals[pair]
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        played = boards[pair]
        out.append(Standing(rank, pair, total, played, total / played if played else total))
    return out


class ChampionshipScore:
    """Scores of every result and the standings of one championship.

    Read API: :attr:`results` (``{(round, table, board): ResultScore}``), :meth:`result`,
    :meth:`standings`, :meth:`progressive_standings`, :attr:`rounds`.
    Raises :class:`ResultError` for a key given twice or a result that cannot be scored.
    """

    def __init__(self, rules: ScoringRules, results: Iterable[Result]) -> None:
        self.rules = rules
        self._inputs: dict[Key, Result] = {}
        self._by_board: dict[int, dict[Key, Result]] = {}
        for result in results:
            if result.key in self._inputs:
                raise ResultError(f"result {result.key}: given twice (round, table, board)")
            check_result(result)
            self._inputs[result.key] = result
            self._by_board.setdefault(result.board, {})[result.key] = result
        self._regular: dict[int, int] = {
            board: regular_count(rs.values()) for board, rs in self._by_board.items()
        }
        self._scores: dict[Key, ResultScore] = {}
        self._totals: dict[int, Fraction] = {}
        self._boards_played: dict[int, int] = {}
        self._rescore_all()

    # -- reading ---------------------------------------------------------------------------

    @property
    def results(self) -> dict[Key, ResultScore]:
        """``{(round, table, board): ResultScore}`` for every result (do not modify)."""
        return self._scores

    def result(self, key: Key) -> ResultScore:
        """The score of the result at (round, table, board); ``KeyError`` when absent."""
        return self._scores[key]

    @property
    def inputs(self) -> Mapping[Key, Result]:
        """The results being scored, by (round, table, board)."""
        return self._inputs

    @property
    def rounds(self) -> list[int]:
        """Round numbers with at least one result, ascending."""
        return sorted({key[0] for key in self._inputs})

    @property
    def most_results(self) -> int:
        """E: the most regular results of any board (Neuberg's formula), 0 when none."""
        return max(self._regular.values(), default=0)

    def standings(
        self, *, through_round: int | None = None, round_only: int | None = None
    ) -> list[Standing]:
        """The standings (see :class:`Standing`) over all results, over rounds 1 up to
        ``through_round`` (progressive), or over ``round_only`` alone.

        Comparative points are always those of the whole championship (a board is compared
        with every table that played it); only the results summed change. Pairs with no
        result in the range are left out. Raises ``ValueError`` when both are given.
        """
        if through_round is not None and round_only is not None:
            raise ValueError("give through_round or round_only, not both")
        if through_round is None and round_only is None:
            return rank_standings(self._totals, self._boards_played)
        if round_only is not None:
            keys = [k for k in self._inputs if k[0] == round_only]
        else:
            assert through_round is not None
            keys = [k for k in self._inputs if k[0] <= through_round]
        totals, boards = self._sum(keys)
        return rank_standings(totals, boards)

    def progressive_standings(self) -> dict[int, list[Standing]]:
        """``{round: standings after that round}`` for every round with results."""
        return {n: self.standings(through_round=n) for n in self.rounds}

    # -- computing -------------------------------------------------------------------------

    def _most_for(self) -> int | None:
        return self.most_results if self.rules.method is Method.MATCHPOINTS else None

    def _rescore_all(self) -> None:
        most = self._most_for()
        scores: dict[Key, ResultScore] = {}
        for board_results in self._by_board.values():
            scores.update(score_board(self.rules, board_results.values(), most_results=most))
        self._scores = scores
        self._totals, self._boards_played = self._sum(self._inputs)

    def _sum(self, keys: Iterable[Key]) -> tuple[dict[int, Fraction], dict[int, int]]:
        buckets: defaultdict[int, defaultdict[int, int]] = defaultdict(lambda: defaultdict(int))
        boards: defaultdict[int, int] = defaultdict(int)
        for key in keys:
            result, score = self._inputs[key], self._scores[key]
            for pair, value in (
                (result.ns_pair, score.ns_comparative),
                (result.ew_pair, score.ew_comparative),
            ):
                buckets[pair][value.denominator] += value.numerator
                boards[pair] += 1
        totals = {
            pair: sum((Fraction(n, d) for d, n in by_den.items()), Fraction(0))
            for pair, by_den in buckets.items()
        }
        return totals, dict(boards)


def score_championship(rules: ScoringRules, results: Iterable[Result]) -> ChampionshipScore:
    """Score a whole championship: every result's hand scores and comparative points, and
    the standings. ``results``: every table's result on every board, any order.

    Raises :class:`ResultError` for a (round, table, board) given twice or a result that
    cannot be scored (naming it). Source: championship-json.md.
    """
    return ChampionshipScore(rules, results)


class IncrementalScorer(ChampionshipScore):
    """A championship's scores kept up to date as results are typed in.

    :meth:`set_result` / :meth:`remove_result` recompute only that board's comparative
    points and the totals of the pairs on it. With ``matchpoints``, when the change alters
    E (the most regular results of any board, Neuberg's formula) every board is rescored,
    since every board's scaling depends on E. The numbers always equal a full rescore.
    """

    def set_result(self, result: Result) -> None:
        """Add or replace the result at ``result.key``; raises :class:`ResultError` (the
        scores are unchanged then)."""
        check_result(result)
        board = dict(self._by_board.get(result.board, {}))
        board[result.key] = result
        self._replace_board(result.board, board)

    def remove_result(self, key: Key) -> None:
        """Remove the result at (round, table, board); ``KeyError`` when absent."""
        if key not in self._inputs:
            raise KeyError(key)
        board = dict(self._by_board[key[2]])
        del board[key]
        self._replace_board(key[2], board)

    def _replace_board(self, number: int, board: dict[Key, Result]) -> None:
        old_most = self.most_results
        regular = dict(self._regular)
        if board:
            regular[number] = regular_count(board.values())
        else:
            regular.pop(number, None)
        new_most = max(regular.values(), default=0)
        if self.rules.method is Method.MATCHPOINTS and new_most != old_most:
            # Every board's Neuberg scaling changes: validate this board, then rescore all.
            score_board(self.rules, board.values(), most_results=new_most or None)
            self._set_board(number, board, regular)
            self._rescore_all()
            return
        most = new_most if self.rules.method is Method.MATCHPOINTS else None
        new_scores = score_board(self.rules, board.values(), most_results=most)
        old_board = self._by_board.get(number, {})
        for key, result in old_board.items():
            self._add(result, self._scores.pop(key), -1)
        for key, result in board.items():
            score = new_scores[key]
            self._scores[key] = score
            self._add(result, score, 1)
        self._set_board(number, board, regular)

    def _set_board(self, number: int, board: dict[Key, Result], regular: dict[int, int]) -> None:
        for key in self._by_board.get(number, {}):
            del self._inputs[key]
        self._inputs.update(board)
        if board:
            self._by_board[number] = board
        else:
            self._by_board.pop(number, None)
        self._regular = regular

    def _add(self, result: Result, score: ResultScore, sign: int) -> None:
        for pair, value in (
            (result.ns_pair, score.ns_comparative),
            (result.ew_pair, score.ew_comparative),
        ):
            played = self._boards_played.get(pair, 0) + sign
            if played:
                self._boards_played[pair] = played
                self._totals[pair] = self._totals.get(pair, Fraction(0)) + sign * value
            else:
                self._boards_played.pop(pair, None)
                self._totals.pop(pair, None)
