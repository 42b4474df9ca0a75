"""How far a championship has got: results in against results expected.

The standings page, its live fragment, the hall screen, the API and the printed standings
all say "results: 5 of 8"; the count is written once, here. A round expects one result
per table seated in it and board of that round; a board that belongs to no single round
(an imported file whose board was played over several rounds, where no movement says
which tables were due) expects each result it has where it was played. Every result
counts, hidden boards' too: progress says how many are in, not what they are
(docs/decisions.md 16).

>>> board_rounds = {1: 1, 2: 1, 3: 2, 4: 2}
>>> tables_due = {1: 2, 2: 2}
>>> results = [(1, 1), (1, 1), (1, 1), (2, 2)]  # (round played, the board's round)
>>> p = count_progress(board_rounds=board_rounds, tables_due=tables_due, results=results)
>>> p, p.percent, p.complete
(Progress(results_in=4, results_expected=8), 50, False)
>>> count_progress(board_rounds=board_rounds, tables_due=tables_due, results=results,
...          round_only=2)
Progress(results_in=1, results_expected=4)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

#: One result as progress counts it: ``(round it was played in, the board's round)``,
#: the board's round ``None`` for a board of no single round.
ResultRounds = tuple[int, int | None]


def progress_percent(results_in: int, results_expected: int) -> int:
    """Results in as a whole percentage of those expected, rounded down and at most 100
    (a bar never shows 100 % before the last result); 0 when nothing is expected.

    >>> progress_percent(2, 3), progress_percent(0, 0), progress_percent(9, 8)
    (66, 0, 100)
    """
    if results_expected <= 0:
        return 0
    return min(100, 100 * results_in // results_expected)


@dataclass(frozen=True, slots=True)
class Progress:
    """Results in / results expected (tables seated x boards of their round)."""

    results_in: int
    results_expected: int

    @property
    def complete(self) -> bool:
        """Every expected result is in (and at least one was expected)."""
        return self.results_expected > 0 and self.results_in >= self.results_expected

    @property
    def percent(self) -> int:
        """:func:`progress_percent` of this progress, 0..100."""
        return progress_percent(self.results_in, self.results_expected)


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """One round: its :class:`Progress` numbers, and its boards complete (public, every
    table due has played them) out of its boards."""

    number: int
    results_in: int
    results_expected: int
    boards_complete: int
    boards: int

    @property
    def percent(self) -> int:
        """:func:`progress_percent` of the round, 0..100."""
        return progress_percent(self.results_in, self.results_expected)


def in_scope(round: int, *, through_round: int | None = None,
             round_only: int | None = None) -> bool:
    """Whether round ``round`` counts in standings over every round (neither given),
    rounds 1..``through_round`` or ``round_only`` alone (which wins when both are given).

    >>> [n for n in (1, 2, 3) if in_scope(n, through_round=2)], in_scope(3, round_only=3)
    ([1, 2], True)
    """
    if round_only is not None:
        return round == round_only
    if through_round is not None:
        return round <= through_round
    return True


def count_progress(
    *,
    board_rounds: Mapping[int, int | None],
    tables_due: Mapping[int, int],
    results: Iterable[ResultRounds],
    through_round: int | None = None,
    round_only: int | None = None,
) -> Progress:
    """Results in / expected of the rounds in scope (:func:`in_scope`).

    ``board_rounds``: ``{board: its round, or None}`` for every board; ``tables_due``:
    ``{round: tables seated}``; ``results``: every result as ``(round played, the board's
    round)``. Expected: tables seated x boards, summed over the rounds in scope, plus one
    for each result on a board of no single round. Pure: no I/O.
    """
    boards_of_round: dict[int, int] = {}
    for rnd in board_rounds.values():
        if rnd is not None:
            boards_of_round[rnd] = boards_of_round.get(rnd, 0) + 1
    expected = sum(
        tables * boards_of_round.get(number, 0)
        for number, tables in tables_due.items()
        if in_scope(number, through_round=through_round, round_only=round_only)
    )
    results_in = 0
    for played, board_round in results:
        if not in_scope(played, through_round=through_round, round_only=round_only):
            continue
        results_in += 1
        if board_round is None:
            expected += 1  # due where it was played
    return Progress(results_in, expected)


def rounds_progress(
    *,
    board_rounds: Mapping[int, int | None],
    tables_due: Mapping[int, int],
    results: Iterable[ResultRounds],
    public: Collection[int],
) -> list[RoundProgress]:
    """Every drawn round's progress (the rounds of ``tables_due``, in order), each
    counted as :func:`count_progress` with ``round_only``, with its boards and how many of
    them are in ``public`` (complete). Pure: no I/O.

    >>> [(p.number, p.results_in, p.results_expected, p.boards_complete, p.boards)
    ...  for p in rounds_progress(board_rounds={1: 1, 2: 1, 3: 2}, tables_due={1: 1, 2: 1},
    ...                           results=[(1, 1), (1, 1)], public={1, 2})]
    [(1, 2, 2, 2, 2), (2, 0, 1, 0, 1)]
    """
    boards_of: dict[int, list[int]] = {}
    for board, rnd in board_rounds.items():
        if rnd is not None:
            boards_of.setdefault(rnd, []).append(board)
    # One pass over the results (a hot path: every rebuild of the live standings),
    # counting what :func:`count_progress` with ``round_only`` counts.
    results_in: dict[int, int] = {}
    roundless: dict[int, int] = {}
    for played, board_round in results:
        results_in[played] = results_in.get(played, 0) + 1
        if board_round is None:
            roundless[played] = roundless.get(played, 0) + 1
    out: list[RoundProgress] = []
    for number in sorted(tables_due):
        boards = boards_of.get(number, [])
        out.append(RoundProgress(
            number=number,
            results_in=results_in.get(number, 0),
            results_expected=tables_due[number] * len(boards) + roundless.get(number, 0),
            boards_complete=sum(1 for b in boards if b in public),
            boards=len(boards),
        ))
    return out
