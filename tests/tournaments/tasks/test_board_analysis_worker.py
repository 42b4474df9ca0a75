"""The double-dummy job on a real worker over Redis: closing a round queues one task per
board, and the worker stores each table (the real solver, on deals it solves in
milliseconds)."""

from __future__ import annotations

import time

import pytest

from tests.factories import build_championship
from tests.tournaments.dd_helpers import ONE_SUIT_EACH
from tournaments import services
from tournaments.models import Board, BoardAnalysis

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_closing_a_round_has_the_worker_store_each_boards_table(
    celery_worker, settings  # type: ignore[no-untyped-def]
) -> None:
    settings.BOARD_ANALYSIS_ON_CLOSE = True
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                                      played_rounds=1)
    Board.objects.filter(championship=championship, round__number=1).update(
        deal=ONE_SUIT_EACH.to_json())
    round1 = championship.rounds.get(number=1)
    services.round_close(round=round1, acting_user=None)  # commits, then sends the tasks
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if BoardAnalysis.objects.filter(board__championship=championship).count() == 2:
            break
        time.sleep(0.1)
    stored = {a.board.number: a.table for a in
              BoardAnalysis.objects.filter(board__championship=championship)
              .select_related("board")}
    # N holds oros, W copes, S espases, E bastos: whoever holds the trump suit takes all.
    # Board 1: dealer N, E leads; board 2: dealer W, S leads (botifarra: espases run).
    assert stored == {
        1: {"O": 72, "C": 0, "E": 72, "B": 0, "botifarra": 0},
        2: {"O": 72, "C": 0, "E": 72, "B": 0, "botifarra": 72},
    }
