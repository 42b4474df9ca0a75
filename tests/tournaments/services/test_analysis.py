"""Double-dummy tables: computed by the job queued when a round closes (Celery eager in
the tests), stored once per deal and play settings, never in the way of the close."""

from __future__ import annotations

import logging

import pytest
from kombu.exceptions import OperationalError as BrokerError

from engine.rules import Variant
from engine.seats import Seat
from tests.factories import build_championship
from tests.tournaments.dd_helpers import ONE_SUIT_EACH, fake_solver  # noqa: F401
from tournaments import services
from tournaments.models import Board, BoardAnalysis, Championship, Round

pytestmark = pytest.mark.django_db

STORED_TABLE = {"O": 30, "C": 41, "E": 52, "B": 20, "botifarra": 36}


@pytest.fixture
def played() -> Championship:
    """4 pairs, 2 rounds of 2 boards, round 1 played (boards 1-2), round 2 drawn."""
    return build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                              played_rounds=1)


@pytest.fixture
def on_close(settings, monkeypatch):  # type: ignore[no-untyped-def]
    """Analysis on close, the background work run at once in the test's own thread and
    transaction (test_background_analysis.py runs the real background thread)."""
    from tournaments import enqueue

    settings.BOARD_ANALYSIS_ON_CLOSE = True
    monkeypatch.setattr(enqueue, "in_background", lambda work: work())


def close_round_1(championship: Championship, capture) -> Round:  # type: ignore[no-untyped-def]
    round1 = championship.rounds.get(number=1)
    with capture(execute=True):
        services.round_close(round=round1, acting_user=None)
    round1.refresh_from_db()
    return round1


def test_closing_a_round_stores_the_table_and_par_of_each_of_its_boards(
    played, on_close, fake_solver, django_capture_on_commit_callbacks  # noqa: F811
) -> None:
    close_round_1(played, django_capture_on_commit_callbacks)
    stored = {a.board.number: a for a in BoardAnalysis.objects.select_related("board")}
    assert sorted(stored) == [1, 2]  # round 2's boards are not played yet
    assert stored[1].table == STORED_TABLE == stored[2].table
    # Board 1: dealer N, NS declare; espases 52 points score 52 - 36 = 16, the best.
    assert stored[1].par == {"trump": "E", "ns_points": 52, "score": 16}
    # Board 2: dealer W, EW declare; bastos leaves EW 72 - 20 = 52: score 16.
    assert stored[2].par == {"trump": "B", "ns_points": 20, "score": 16}
    assert [(dealer, rules.variant) for _deal, dealer, rules in fake_solver] == [
        (Seat.N, Variant.OBLIGADA), (Seat.W, Variant.OBLIGADA)]
    board1 = Board.objects.get(championship=played, number=1)
    assert fake_solver[0][0] == board1.get_deal()
    assert stored[1].is_current(board1, played.engine_rules())


def test_with_the_setting_off_closing_queues_nothing(
    played, settings, fake_solver, django_capture_on_commit_callbacks  # noqa: F811
) -> None:
    settings.BOARD_ANALYSIS_ON_CLOSE = False
    round1 = close_round_1(played, django_capture_on_commit_callbacks)
    assert round1.is_closed
    assert not BoardAnalysis.objects.exists() and fake_solver == []


def test_a_broker_that_cannot_be_reached_leaves_the_round_closed_and_says_so(
    played, on_close, fake_solver, django_capture_on_commit_callbacks,  # noqa: F811
    monkeypatch, caplog
) -> None:
    from tournaments import enqueue

    def refuse(*args: object) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(enqueue, "runs_in_process", lambda: False)  # a broker, down
    monkeypatch.setattr(enqueue, "send", refuse)
    with caplog.at_level(logging.ERROR, logger="tournaments.services.analysis"):
        round1 = close_round_1(played, django_capture_on_commit_callbacks)
    assert round1.is_closed
    assert not BoardAnalysis.objects.exists()
    assert "analyse_boards" in caplog.text and "Connection refused" in caplog.text


def test_a_solver_that_fails_in_process_leaves_the_round_closed(
    played, on_close, monkeypatch, django_capture_on_commit_callbacks, caplog
) -> None:
    def crash(*args: object) -> None:
        raise MemoryError("no room for the transposition table")

    monkeypatch.setattr("tournaments.services.analysis.dd_table", crash)
    with caplog.at_level(logging.ERROR, logger="tournaments.tasks"):
        round1 = close_round_1(played, django_capture_on_commit_callbacks)
    assert round1.is_closed and not BoardAnalysis.objects.exists()
    assert "double-dummy analysis crashed" in caplog.text


def test_the_task_returns_what_it_did(played, fake_solver) -> None:  # noqa: F811
    from tournaments.tasks import board_analysis_task

    board = Board.objects.get(championship=played, number=1)
    assert board_analysis_task.delay(board.pk).get() == "done"
    assert board_analysis_task.delay(board.pk).get() == "done"  # current: kept
    assert len(fake_solver) == 1
    assert board_analysis_task.delay(987654).get() == "skipped"


def test_a_current_table_is_kept_and_a_stale_one_computed_again(
    played, fake_solver  # noqa: F811
) -> None:
    board = Board.objects.get(championship=played, number=1)
    first = services.board_analyse(board_id=board.pk)
    again = services.board_analyse(board_id=board.pk)
    assert first is not None and again is not None and again.pk == first.pk
    assert len(fake_solver) == 1
    # Other play settings: the table no longer applies.
    Championship.objects.filter(pk=played.pk).update(variant="lliure")
    played.refresh_from_db()
    assert not first.is_current(board, played.engine_rules())
    services.board_analyse(board_id=board.pk)
    assert len(fake_solver) == 2 and fake_solver[1][2].variant is Variant.LLIURE
    # Another deal: the same.
    Board.objects.filter(pk=board.pk).update(deal=ONE_SUIT_EACH.to_json())
    board.refresh_from_db()
    assert not BoardAnalysis.objects.get(board=board).is_current(board, played.engine_rules())
    services.board_analyse(board_id=board.pk)
    assert len(fake_solver) == 3 and fake_solver[2][0] == ONE_SUIT_EACH
    assert BoardAnalysis.objects.get(board=board).is_current(board, played.engine_rules())
    assert BoardAnalysis.objects.count() == 1


def test_storing_a_table_bumps_the_results_version_so_pages_show_it(
    played, fake_solver  # noqa: F811
) -> None:
    before = played.results_version
    services.board_analyse(board_id=Board.objects.get(championship=played, number=1).pk)
    played.refresh_from_db()
    assert played.results_version == before + 1


def test_a_board_without_a_deal_is_not_analysed(fake_solver) -> None:  # noqa: F811
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, generate=False)
    board = Board.objects.filter(championship=championship).first()
    assert board is not None and board.deal is None
    assert services.board_analyse(board_id=board.pk) is None
    run = services.boards_analyse(championship=championship)
    assert run.without_deal == [1, 2] and run.computed == [] and fake_solver == []


def test_boards_analyse_fills_the_gaps_of_one_round_within_a_budget(
    played, fake_solver  # noqa: F811
) -> None:
    run = services.boards_analyse(championship=played, round_number=2, budget=0)
    assert run.left == [3, 4] and run.computed == []
    run = services.boards_analyse(championship=played, round_number=2)
    assert run.computed == [3, 4] and run.left == []
    run = services.boards_analyse(championship=played)
    assert (run.computed, run.current) == ([1, 2], [3, 4])
    assert services.boards_analyse(championship=played, force=True).computed == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="no round 9"):
        services.boards_analyse(championship=played, round_number=9)


def test_the_compiled_solver_stores_the_real_table(played) -> None:
    """No stand-in: the engine's solver on a deal it solves in milliseconds (each hand
    holds one whole suit: N oros, W copes, S espases, E bastos)."""
    board = Board.objects.get(championship=played, number=2)  # dealer W, S leads
    Board.objects.filter(pk=board.pk).update(deal=ONE_SUIT_EACH.to_json())
    analysis = services.board_analyse(board_id=board.pk)
    assert analysis is not None
    # Oros or espases trump: NS hold every trump and take every trick; copes, bastos:
    # EW do. At botifarra S leads espases and NS take all.
    assert analysis.table == {"O": 72, "C": 0, "E": 72, "B": 0, "botifarra": 72}
    assert analysis.par == {"trump": "C", "ns_points": 0, "score": 36}
