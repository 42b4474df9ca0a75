"""Two referees save the same result at the same moment (PostgreSQL row locks).

Each thread has its own database connection; both loaded version v; one save wins, the
other gets ResultConflict, and the winner's result is what is stored (nothing lost
silently). Skips on SQLite (fails when CI=true) via the ``on_postgres`` fixture.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import build_championship
from tournaments import services
from tournaments.models import Board, Result, ResultAudit, Seating


def save_at_once(calls):
    """Run each call in its own thread (own connection), released together."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except Exception as exc:  # collected and asserted on below
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_referees_correcting_the_same_version_one_wins_the_other_gets_a_conflict(
    on_postgres,
):
    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    seating = Seating.objects.filter(round__championship=c).first()
    board = Board.objects.get(championship=c, number=1)
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                           expected_version=None, acting_user=None)

    def save(points):
        return lambda: services.result_record(
            seating=seating, board=board, trump="O", ns_points_taken=points,
            expected_version=1, acting_user=None,
        )

    outcomes = save_at_once([save(50), save(20)])
    saved = [o for o in outcomes if isinstance(o, Result)]
    conflicts = [o for o in outcomes if isinstance(o, services.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    stored = Result.objects.get(seating=seating, board=board)
    assert stored.version == 2
    assert stored.ns_points_taken == saved[0].ns_points_taken
    assert conflicts[0].current.ns_points_taken == saved[0].ns_points_taken
    assert ResultAudit.objects.filter(action="update").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_referees_entering_a_new_result_at_once_one_wins_the_other_gets_a_conflict(
    on_postgres,
):
    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    seating = Seating.objects.filter(round__championship=c).first()
    board = Board.objects.get(championship=c, number=1)

    def save(points):
        return lambda: services.result_record(
            seating=seating, board=board, trump="C", ns_points_taken=points,
            expected_version=None, acting_user=None,
        )

    outcomes = save_at_once([save(45), save(27)])
    saved = [o for o in outcomes if isinstance(o, Result)]
    conflicts = [o for o in outcomes if isinstance(o, services.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    assert Result.objects.get().ns_points_taken == saved[0].ns_points_taken
    assert ResultAudit.objects.count() == 1
