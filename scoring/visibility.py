"""Which boards the public may see: the one rule every public number follows.

Duplicate play keeps a board secret while some table still has to play it: a player who
saw its traveller could learn the cards before sitting down. So a board's deal, its
results and every number that depends on them (standings, score cards, travellers, their
PDFs, the API) are public only once the board is *complete*:

- every table due to play it in its round (the tables seated in that round) has a
  result on it; a round with no table seated has no complete board;
- a board that belongs to no single round (an imported file whose board was played in
  several rounds, where no movement says which tables were due) is complete once it has a
  result;
- every board is public once the championship is finished.

The rule is the program's reading of duplicate practice (docs/decisions.md, "board
visibility"); the web app and ``python -m scoring --public`` both call
:func:`public_boards`, so the public standings page and the scorer agree.

>>> sorted(public_boards(finished=False, board_rounds={1: 1, 2: 1, 3: None},
...                      tables_due={1: 2}, results_per_board={1: 2, 2: 1, 3: 1}))
[1, 3]
>>> sorted(public_boards(finished=True, board_rounds={1: 1, 2: 1},
...                      tables_due={1: 2}, results_per_board={}))
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def board_is_complete(
    *, round: int | None, tables_due: Mapping[int, int], results: int
) -> bool:
    """Whether a board of ``round`` (``None``: no single round) with ``results`` results is
    complete: every table seated in its round has played it (``tables_due``: ``{round:
    tables seated}``)."""
    if round is None:
        return results > 0
    due = tables_due.get(round, 0)
    return due > 0 and results >= due


def public_boards(
    *,
    finished: bool,
    board_rounds: Mapping[int, int | None],
    tables_due: Mapping[int, int],
    results_per_board: Mapping[int, int],
) -> frozenset[int]:
    """The boards the public may see.

    ``board_rounds``: ``{board key: round number, or None for a board of no single
    round}`` for every board of the championship (keys are board numbers or ids, as the
    caller likes); ``tables_due``: ``{round number: tables seated}``;
    ``results_per_board``: ``{board key: results entered}``; ``finished``: the
    championship is over (every board public). Returns a subset of ``board_rounds``'
    keys. Pure: no I/O.
    """
    if finished:
        return frozenset(board_rounds)
    return frozenset(
        board
        for board, round in board_rounds.items()
        if board_is_complete(
            round=round, tables_due=tables_due, results=results_per_board.get(board, 0)
        )
    )


def count_by(keys: Iterable[int]) -> dict[int, int]:
    """``{key: occurrences}``: e.g. the results per board from each result's board."""
    counts: dict[int, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts
