"""Without a broker nothing waits for a command: closing a round computes its boards'
double-dummy tables on the web process's one background thread, after the request has
returned, one computation at a time. With a broker the Celery tasks are sent as before."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.factories import build_championship
from tests.tournaments.dd_helpers import FAKE_TABLE, STORED_TABLE
from tournaments import enqueue, services
from tournaments.models import BoardAnalysis, Championship

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a test waits for the background thread at most.
WAIT = 30


class GatedSolver:
    """A stand-in solver that blocks until the test opens the gate, and records how many
    boards it solved and how many it was solving at once at most."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most_at_once = 0
        self.solved = 0
        self.threads: set[str] = set()

    def __call__(self, deal: Any, dealer: Any, rules: Any = None) -> dict[Any, int]:
        with self.lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            self.threads.add(threading.current_thread().name)
        self.started.set()
        try:
            assert self.gate.wait(WAIT), "the test never opened the gate"
            return dict(FAKE_TABLE)
        finally:
            with self.lock:
                self.running -= 1
                self.solved += 1


@pytest.fixture
def solver(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Any:
    settings.BOARD_ANALYSIS_ON_CLOSE = True
    gated = GatedSolver()
    monkeypatch.setattr("tournaments.services.analysis.dd_table", gated)
    # A fresh background thread for the test, shut down (waited for) at its end.
    monkeypatch.setattr(enqueue, "background", None)
    yield gated
    gated.gate.set()
    executor = enqueue.background
    if executor is not None:
        executor.shutdown(wait=True)


def _wait_for_background() -> None:
    """Wait until everything sent to the background thread so far has run."""
    enqueue.in_background(lambda: None).result(timeout=WAIT)


@pytest.fixture
def championship() -> Championship:
    """4 pairs, 2 rounds of 2 boards, both played: closing each round analyses 2 boards."""
    return build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                              played_rounds=2)


def test_without_a_broker_closing_returns_at_once_and_the_tables_follow(
    solver: GatedSolver, championship: Championship
) -> None:
    assert enqueue.runs_in_process()  # the tests' settings: no broker
    round1 = championship.rounds.get(number=1)
    services.round_close(round=round1, acting_user=None)
    # The close has returned while the solver is still held on its first board.
    assert solver.started.wait(WAIT)
    assert solver.solved == 0 and not BoardAnalysis.objects.exists()
    solver.gate.set()
    _wait_for_background()
    stored = BoardAnalysis.objects.filter(board__championship=championship)
    assert sorted(stored.values_list("board__number", flat=True)) == [1, 2]
    assert all(a.table == STORED_TABLE for a in stored)
    assert solver.threads and all(name.startswith("botifarra-background")
                                  for name in solver.threads)


def test_a_second_close_queues_behind_the_first_never_alongside(
    solver: GatedSolver, championship: Championship
) -> None:
    services.round_close(round=championship.rounds.get(number=1), acting_user=None)
    assert solver.started.wait(WAIT)
    services.round_close(round=championship.rounds.get(number=2), acting_user=None)
    assert solver.running == 1  # round 2 waits its turn
    solver.gate.set()
    _wait_for_background()
    assert solver.most_at_once == 1 and solver.solved == 4
    assert BoardAnalysis.objects.filter(board__championship=championship).count() == 4


def test_the_round_s_budget_leaves_the_boards_not_started_and_says_so(
    solver: GatedSolver, championship: Championship, settings: Any, caplog: Any
) -> None:
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 0
    solver.gate.set()
    services.round_close(round=championship.rounds.get(number=1), acting_user=None)
    _wait_for_background()
    assert solver.solved == 0 and not BoardAnalysis.objects.exists()
    assert "analyse_boards" in caplog.text


def test_with_a_broker_the_tasks_are_sent_by_name_as_before(
    solver: GatedSolver, championship: Championship, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(enqueue, "runs_in_process", lambda: False)
    monkeypatch.setattr(enqueue, "send", lambda name, *args: sent.append((name, args)))
    services.round_close(round=championship.rounds.get(number=1), acting_user=None)
    boards = championship.boards.filter(round__number=1).order_by("number")
    assert sent == [(enqueue.BOARD_ANALYSIS, (b.pk,)) for b in boards]
    assert enqueue.background is None  # no background thread started
    assert solver.solved == 0


def test_the_close_page_answers_before_the_tables_are_computed(
    solver: GatedSolver, championship: Championship, client: Any
) -> None:
    from django.urls import reverse

    from tests.factories import UserFactory
    from tournaments.models import Membership

    organiser = UserFactory(username="organitzadora-fons")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(organiser)
    response = client.post(reverse("round_close", args=[championship.slug, 1]),
                           {"confirm": "on"})
    assert response.status_code == 302
    assert championship.rounds.get(number=1).is_closed
    assert solver.started.wait(WAIT) and solver.solved == 0  # still computing
    solver.gate.set()
    _wait_for_background()
    assert BoardAnalysis.objects.filter(board__championship=championship).count() == 2
