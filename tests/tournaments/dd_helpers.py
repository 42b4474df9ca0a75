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
