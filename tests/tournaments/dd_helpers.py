"""Double-dummy tables for the tests: a stand-in solver (a whole deal takes the real one
about 10 s) and a deal the real solver finishes in milliseconds."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import Suit
from engine.deal import Deal
from engine.seats import Seat

#: What the stand-in solver answers for every board: NS's points per declaration.
FAKE_TABLE: dict[Suit | None, int] = {
    Suit.O: 30, Suit.C: 41, Suit.E: 52, Suit.B: 20, None: 36,
}

#: Each hand holds one whole suit: N oros, W copes, S espases, E bastos.
ONE_SUIT_EACH = Deal.from_json({
    seat: [f"{rank}{suit}" for rank in range(1, 13)]
    for seat, suit in (("N", "O"), ("W", "C"), ("S", "E"), ("E", "B"))
})


@pytest.fixture
def fake_solver(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace the solver in ``services.analysis`` by one answering :data:`FAKE_TABLE`;
    yields the list of (deal, dealer, rules) it was called with."""
    calls: list[Any] = []

    def solve(deal: Deal, dealer: Seat, rules: Any = None) -> dict[Suit | None, int]:
        calls.append((deal, dealer, rules))
        return dict(FAKE_TABLE)

    monkeypatch.setattr("tournaments.services.analysis.dd_table", solve)
    return calls


#: FAKE_TABLE as stored (``BoardAnalysis.table``), keyed as a result's trump.
STORED_TABLE = {"O": 30, "C": 41, "E": 52, "B": 20, "botifarra": 36}


@pytest.fixture
def analysed(db: None, fake_solver: list[Any]) -> Any:
    """8 pairs (4 tables), 2 rounds of 2 boards: round 1 played (boards 1-2, public),
    round 2 drawn and not played (boards 3-4, hidden). At board 1, table 1 has an
    adjusted score and table 2 an infraction; boards 1 and 3 have their (stand-in)
    double-dummy tables stored. Returns the championship."""
    from tests.factories import build_championship
    from tournaments import services
    from tournaments.models import Board, Result

    championship = build_championship(pairs=8, rounds=2, boards_per_round=2,
                                      drawn_rounds=2, played_rounds=1)
    board1 = Board.objects.get(championship=championship, number=1)
    at_board1 = Result.objects.filter(board=board1)
    at_board1.filter(seating__table__number=1).update(
        trump=None, ns_points_taken=None, contro=False, adjusted_ns="average_plus",
        adjusted_ew="average_minus")
    at_board1.filter(seating__table__number=2).update(infraction="NS")
    for number in (1, 3):
        services.board_analyse(
            board_id=Board.objects.get(championship=championship, number=number).pk)
    championship.refresh_from_db()
    return championship
