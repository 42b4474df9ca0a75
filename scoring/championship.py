"""A whole championship's scores and standings, full or incremental.

Source: docs/file-format.md ("Comparative points", "Export adds"). Everything is exact
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

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm

from scoring.comparative import (
    ResultScore,
    adjusted_points,
    check_result,
    regular_count,
    round_points,
    score_keyed,
)
from scoring.errors import ResultError
from scoring.model import Adjustment, Method, MissedBoards, Result, ScoringRules

Key = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings.

    ``total``: sum of the pair's (rounded) comparative points; ``boards``: boards it has a
    result on (played, adjusted or with an infraction); ``average``: total / boards, exact.
    ``rank``: 1 + the number of pairs ranked above (ties share a rank: 1, 2, 2, 4).

    Missed boards (a bye, rounds before a late pair joined; :class:`Absences`) follow
    ``rules.missed_boards`` (docs/decisions.md 14): ``per_board`` ranks by ``average``
    once some pair sat out a round (with no bye and no late entry, by total, as
    docs/file-format.md orders the standings); ``average``
    adds A = (bottom + top) / 2 (rounded as the rules say) to ``total`` for each of the
    ``missed`` boards, ranks by total, and ``average`` is total / (boards + missed).
    ``withdrawn`` pairs rank after every pair still in play. Only the rows
    :attr:`placed` (a score, not withdrawn) have a place to show (:attr:`place`).

    When :attr:`Absences.pairs` lists the registered pairs, every one of them has a row
    once the scope has a result (docs/decisions.md 56): ``bye``, it sat out the scope's
    last round with a bye; ``joins``, the round a late pair joins when that is after the
    scope's last round. A pair with no board and no missed board counted in the scope
    (a bye or a late entry under ``per_board``) has no score (:attr:`has_score` false;
    ``total`` and ``average`` 0) and ranks after every pair in play with a score,
    sharing its rank with the others alike.
    """

    rank: int
    pair: int
    total: Fraction
    boards: int
    average: Fraction
    missed: int = 0
    withdrawn: bool = False
    bye: bool = False
    joins: int | None = None

    @property
    def has_score(self) -> bool:
        """Whether any board counts for the pair in the scope (played or as A)."""
        return self.boards + self.missed > 0

    @property
    def placed(self) -> bool:
        """Whether the row has a place in the standings: it has a score in the scope and
        the pair is not withdrawn in it (docs/decisions.md 77). A pair that sat out or had
        not joined (no score) or that withdrew is listed, but it is not "last": the pages,
        the API and the PDF show no place for it. The pairs placed are ranked 1..k before
        every row not placed, so their ranks are the competition ranks among themselves.
        """
        return self.has_score and not self.withdrawn

    @property
    def place(self) -> int | None:
        """:attr:`rank` when the row is :attr:`placed`, else ``None`` (shown "—").
        :attr:`rank` itself stays a number for the file format's ``rank``.

        >>> Standing(3, 7, Fraction(5), 3, Fraction(5, 3)).place
        3
        >>> Standing(4, 8, Fraction(0), 0, Fraction(0), bye=True).place is None
        True
        >>> Standing(4, 9, Fraction(5), 3, Fraction(5, 3), withdrawn=True).place is None
        True
        """
        return self.rank if self.placed else None


@dataclass(frozen=True, slots=True)
class Absences:
    """The rounds pairs did not play although the championship counts them.

    ``sat_out``: pair -> rounds it sat out (a bye) or that were played before it joined
    (a late entry); a missed round counts as many boards as the round has with a result
    in the standings' scope. ``withdrawn``: pair -> the last round it played (it is
    listed as withdrawn; the rounds after it are not counted as missed).

    ``pairs``: every registered pair -> the round it joins (1 from the start); when
    given, the standings list every one of them (:class:`Standing`), else only the
    pairs with a board in scope. ``byes``: pair -> the rounds it sat out with a bye
    (a part of ``sat_out``), which marks its row.
    """

    sat_out: Mapping[int, frozenset[int]] = field(default_factory=dict)
    withdrawn: Mapping[int, int] = field(default_factory=dict)
    pairs: Mapping[int, int] = field(default_factory=dict)
    byes: Mapping[int, frozenset[int]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.sat_out or self.withdrawn)


def competition_ranks(keys: Sequence[Hashable]) -> list[int]:
    """The rank of each of ``keys``, sorted best first: 1 + the number of keys before
    the first equal one, so ties share a rank and the next rank skips ("1, 2, 2, 4",
    docs/file-format.md "Export adds").

    >>> competition_ranks([-5, -3, -3, -1]), competition_ranks([])
    ([1, 2, 2, 4], [])
    """
    ranks: list[int] = []
    previous: object = object()
    rank = 0
    for i, key in enumerate(keys):
        if i == 0 or key != previous:
            rank, previous = i + 1, key
        ranks.append(rank)
    return ranks


def percentage(average: Fraction, rules: ScoringRules) -> Fraction:
    """An average (comparative points per board) as a percentage of the scale, exact:
    the scale's bottom is 0 %, its top 100 %, so the average result is 50 % on any
    scale (docs/decisions.md 13). The standings page, the API's pages, the printed
    standings and ``python -m scoring --format table`` all print this number.

    >>> percentage(Fraction(3, 2), ScoringRules()), percentage(Fraction(2), ScoringRules())
    (Fraction(50, 1), Fraction(100, 1))
    >>> percentage(Fraction(60), ScoringRules.butinet())
    Fraction(60, 1)
    """
    return (average - rules.bottom) / (rules.top - rules.bottom) * 100


def ranks_by_average(absences: Absences | None) -> bool:
    """Whether ``per_board`` standings rank by average per board rather than by total:
    once some pair sat out a round (a bye, a late entry; docs/decisions.md 14). Under
    ``average`` the standings rank by total whatever this says. Without a bye or a late
    entry the file format's order holds: by total."""
    return absences is not None and bool(absences.sat_out)


class _Totals:
    """Each pair's total as an integer count of 1/``denominator`` and its boards played.

    Comparative points are Fractions whose denominators vary by board; keeping every total
    over one common denominator (grown by lcm when a new one appears) makes adding,
    subtracting and comparing totals plain integer arithmetic, still exact.
    """

    __slots__ = ("boards", "denominator", "units")

    def __init__(self) -> None:
        self.denominator = 1
        self.units: dict[int, int] = {}
        self.boards: dict[int, int] = {}

    def add(self, pair: int, value: Fraction, sign: int = 1) -> None:
        den = value.denominator
        if self.denominator % den:
            grown = lcm(self.denominator, den)
            factor = grown // self.denominator
            self.units = {p: u * factor for p, u in self.units.items()}
            self.denominator = grown
        played = self.boards.get(pair, 0) + sign
        if played:
            self.boards[pair] = played
            self.units[pair] = self.units.get(pair, 0) + sign * value.numerator * (
                self.denominator // den
            )
        else:
            self.boards.pop(pair, None)
            self.units.pop(pair, None)

    def standings(
        self,
        rules: ScoringRules | None = None,
        absences: Absences | None = None,
        missed: Mapping[int, int] | None = None,
        last_round: int | None = None,
    ) -> list[Standing]:
        """Ranked as :class:`Standing` says; ``missed``: pair -> boards missed in scope;
        ``last_round``: the scope's last round (marks a bye or a late entry). Equal keys
        share a rank; then by pair number."""
        units, den = self.units, self.denominator
        per_board = rules is None or rules.missed_boards is MissedBoards.PER_BOARD
        by_average = per_board and ranks_by_average(absences)
        missed = {} if per_board or missed is None else missed
        absences = absences or Absences()
        withdrawn, registered, byes = absences.withdrawn, absences.pairs, absences.byes
        filler = Fraction(0)
        if missed and rules is not None:
            filler = round_points(adjusted_points(rules, Adjustment.AVERAGE), rules.rounding)
        listed = set(units) | {p for p, count in missed.items() if count}
        if units or any(missed.values()):  # a scope with no result ranks nobody
            listed |= set(registered)
        rows: list[tuple[tuple[bool, bool, Fraction], Standing]] = []
        for pair in listed:
            played = self.boards.get(pair, 0)
            extra = missed.get(pair, 0)
            total = Fraction(units.get(pair, 0), den) + extra * filler
            average = total / (played + extra) if played + extra else Fraction(0)
            joins = registered.get(pair, 1)
            row = Standing(
                0, pair, total, played, average, extra, pair in withdrawn,
                bye=last_round is not None and last_round in byes.get(pair, ()),
                joins=joins if last_round is not None and joins > last_round else None,
            )
            key = (pair in withdrawn, not row.has_score, -(average if by_average else total))
            rows.append((key, row))
        rows.sort(key=lambda item: (item[0], item[1].pair))
        ranks = competition_ranks([key for key, _row in rows])
        return [
            Standing(rank, row.pair, row.total, row.boards, row.average, row.missed,
                     row.withdrawn, row.bye, row.joins)
            for rank, (_key, row) in zip(ranks, rows, strict=True)
        ]


class ChampionshipScore:
    """Scores of every result and the standings of one championship.

    Read API: :attr:`results` (``{(round, table, board): ResultScore}``), :meth:`result`,
    :meth:`standings`, :meth:`progressive_standings`, :attr:`rounds`.
    Raises :class:`ResultError` for a key given twice or a result that cannot be scored.
    """

    def __init__(
        self, rules: ScoringRules, results: Iterable[Result], absences: Absences | None = None
    ) -> None:
        self.rules = rules
        self.absences = absences or Absences()
        self._inputs: dict[Key, Result] = {}
        self._by_board: dict[int, dict[Key, Result]] = {}
        inputs, by_board = self._inputs, self._by_board
        for result in results:
            key = (result.round, result.table, result.board)  # Result.key, once
            if key in inputs:
                raise ResultError(f"result {key}: given twice (round, table, board)")
            inputs[key] = result
            board = by_board.get(key[2])
            if board is None:
                board = by_board[key[2]] = {}
            board[key] = result
        self._regular: dict[int, int] = {
            board: regular_count(rs.values()) for board, rs in self._by_board.items()
        }
        self._scores: dict[Key, ResultScore] = {}
        self._totals = _Totals()
        self._rescore_all(checked=False)

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
    def ranks_by_average(self) -> bool:
        """Whether the standings rank by average per board (``per_board`` once some pair
        missed a round), so that a page leads with the average; else by total."""
        return (self.rules.missed_boards is MissedBoards.PER_BOARD
                and ranks_by_average(self.absences))

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
        result in the range are left out, unless :attr:`Absences.pairs` lists them (then
        every registered pair has a row once the range has a result; :class:`Standing`).
        The range's last round (``through_round``, ``round_only``, else the last round
        with a result) marks a bye or a late entry; a withdrawn pair is marked in the
        overall standings, and in a range only when it withdrew before the range's end.
        Raises ``ValueError`` when both are given.
        """
        if through_round is not None and round_only is not None:
            raise ValueError("give through_round or round_only, not both")
        if through_round is None and round_only is None:
            last = max((key[0] for key in self._inputs), default=None)
            return self._totals.standings(self.rules, self.absences,
                                          self._missed(self._inputs), last)
        if round_only is not None:
            keys = [k for k in self._inputs if k[0] == round_only]
            last = round_only
        else:
            assert through_round is not None
            keys = [k for k in self._inputs if k[0] <= through_round]
            last = through_round
        # A pair that withdrew after this scope was still in play in it.
        absences = replace(self.absences, withdrawn={
            pair: after for pair, after in self.absences.withdrawn.items() if after < last})
        return self._sum(keys).standings(self.rules, absences, self._missed(keys), last)

    def _missed(self, keys: Iterable[Key]) -> dict[int, int]:
        """pair -> boards it missed among the rounds of ``keys`` (the boards with a
        result in each round), under the ``average`` rule; empty otherwise."""
        sat_out = self.absences.sat_out
        if not sat_out or self.rules.missed_boards is not MissedBoards.AVERAGE:
            return {}
        boards: dict[int, set[int]] = {}
        for key in keys:
            boards.setdefault(key[0], set()).add(key[2])
        return {
            pair: sum(len(boards.get(r, ())) for r in rounds)
            for pair, rounds in sat_out.items()
        }

    def progressive_standings(self) -> dict[int, list[Standing]]:
        """``{round: standings after that round}`` for every round with results."""
        return {n: self.standings(through_round=n) for n in self.rounds}

    # -- computing -------------------------------------------------------------------------

    def _most_for(self) -> int | None:
        return self.most_results if self.rules.method is Method.MATCHPOINTS else None

    def _rescore_all(self, *, checked: bool = True) -> None:
        """Score every board; ``checked``: every input already passed ``check_result``
        (true after the first scoring: :meth:`IncrementalScorer.set_result` checks each
        new result)."""
        most = self._most_for()
        scores: dict[Key, ResultScore] = {}
        for board_results in self._by_board.values():
            scores.update(score_keyed(self.rules, board_results, most_results=most,
                                      checked=checked))
        self._scores = scores
        self._totals = self._sum(self._inputs)

    def _sum(self, keys: Iterable[Key]) -> _Totals:
        totals = _Totals()
        inputs, scores = self._inputs, self._scores
        for key in keys:
            result, score = inputs[key], scores[key]
            totals.add(result.ns_pair, score.ns_comparative)
            totals.add(result.ew_pair, score.ew_comparative)
        return totals


def score_championship(
    rules: ScoringRules, results: Iterable[Result], absences: Absences | None = None
) -> ChampionshipScore:
    """Score a whole championship: every result's hand scores and comparative points, and
    the standings. ``results``: every table's result on every board, any order;
    ``absences``: byes, late entries and withdrawals (:class:`Absences`), ranked by
    ``rules.missed_boards``.

    Raises :class:`ResultError` for a (round, table, board) given twice or a result that
    cannot be scored (naming it). Source: docs/file-format.md.
    """
    return ChampionshipScore(rules, results, absences)


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
            score_keyed(self.rules, board, most_results=new_most or None, checked=True)
            self._set_board(number, board, regular)
            self._rescore_all()
            return
        most = new_most if self.rules.method is Method.MATCHPOINTS else None
        new_scores = score_keyed(self.rules, board, most_results=most, checked=True)
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
        self._totals.add(result.ns_pair, score.ns_comparative, sign)
        self._totals.add(result.ew_pair, score.ew_comparative, sign)
