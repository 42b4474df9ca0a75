"""What the public sees of a championship file: the boards whose deal and results are
public, by the one rule of :mod:`scoring.visibility`, and the document cut down to them.

A board's round is its ``boards[].round`` when the file gives it (the movement), else the
one round all its results were played in (``None`` when they span several rounds: public
once it has a result, docs/decisions.md 16). The tables due in a round are the tables the
file seats in it. Every board is public once the championship is finished
(:attr:`~scoring.interchange.document.ChampionshipDoc.is_finished`).
"""

from __future__ import annotations

import dataclasses

from scoring.interchange.document import ChampionshipDoc
from scoring.visibility import count_by, public_boards


def board_rounds(doc: ChampionshipDoc) -> dict[int, int | None]:
    """``{board number: its round, or None for no single round}`` of every board."""
    played: dict[int, set[int]] = {}
    for result in doc.results():
        played.setdefault(result.board, set()).add(result.round)
    out: dict[int, int | None] = {}
    for board in doc.boards:
        if board.round is not None:
            out[board.number] = board.round
        else:
            rounds = played.get(board.number, set())
            out[board.number] = next(iter(rounds)) if len(rounds) == 1 else None
    return out


def public_board_numbers(doc: ChampionshipDoc) -> frozenset[int]:
    """Numbers of the boards the public may see now (see the module's docstring).

    >>> from scoring.interchange.load import load
    >>> sorted(public_board_numbers(load(_EXAMPLE)))
    [1]
    """
    return public_boards(
        finished=doc.is_finished,
        board_rounds=board_rounds(doc),
        tables_due={r.number: len(r.tables) for r in doc.rounds},
        results_per_board=count_by(r.board for r in doc.results()),
    )


def public_doc(doc: ChampionshipDoc) -> ChampionshipDoc:
    """``doc`` as the public sees it: the results and deals of hidden boards left out
    (the boards themselves, the seatings and everything else kept)."""
    public = public_board_numbers(doc)
    return dataclasses.replace(
        doc,
        boards=tuple(
            b if b.number in public else dataclasses.replace(b, deal=None) for b in doc.boards
        ),
        rounds=tuple(
            dataclasses.replace(
                r,
                tables=tuple(
                    dataclasses.replace(
                        t,
                        results=tuple(x for x in t.results if x.board in public),
                        notes=tuple((b, n) for b, n in t.notes if b in public),
                    )
                    for t in r.tables
                ),
            )
            for r in doc.rounds
        ),
    )


def without_private_words(doc: ChampionshipDoc) -> ChampionshipDoc:
    """``doc`` as a public download holds it: without the words written for the
    organiser and the referees (a withdrawal's reason, a referee's note on a result or
    on a classic game),
    which no public page shows (docs/decisions.md 73). Every number stays."""
    return dataclasses.replace(
        doc,
        pairs=tuple(dataclasses.replace(p, withdrawal_reason="") for p in doc.pairs),
        rounds=tuple(
            dataclasses.replace(
                r, tables=tuple(dataclasses.replace(t, notes=(), game_note="")
                                for t in r.tables)
            )
            for r in doc.rounds
        ),
    )


# Two tables in round 1; board 1 played at both, board 2 at one only (hidden).
_EXAMPLE = {
    "format": "botifarra-duplicate/1",
    "championship": {"name": "Prova", "slug": "prova"},
    "players": [{"id": f"p{n}", "name": f"P{n}"} for n in range(1, 9)],
    "pairs": [{"number": n, "players": [f"p{2 * n - 1}", f"p{2 * n}"]} for n in range(1, 5)],
    "boards": [{"number": 1}, {"number": 2}],
    "rounds": [{"number": 1, "tables": [
        {"number": 1, "ns": 1, "ew": 2, "results": [
            {"board": 1, "trump": "O", "ns_points_taken": 40},
            {"board": 2, "trump": "C", "ns_points_taken": 30}]},
        {"number": 2, "ns": 3, "ew": 4, "results": [
            {"board": 1, "trump": "O", "ns_points_taken": 36}]},
    ]}],
}
