"""Twenty devices PUT the same result at the same moment with the same ETag (PostgreSQL
row locks, real threads, each with its own connection): exactly one wins, the nineteen
others get 409 with the winner's result (its version; its values only where GET shows
them), one audit row, nothing lost. Skips on SQLite
(fails when CI=true) via ``on_postgres``."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, build_championship
from tests.threads import at_once
from tournaments import services
from tournaments.models import AuditEntry, Board, Membership, Result, Seating
from tournaments.services import access

DEVICES = 20




@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_puts_with_the_same_etag_one_wins_the_others_get_409(on_postgres) -> None:
    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    referee = UserFactory(username="arbitre-tauleta")
    services.membership_grant(championship=c, user=referee, role=Membership.Role.REFEREE,
                              acting_user=None)
    seating = Seating.objects.filter(round__championship=c).order_by("table__number").first()
    board = Board.objects.get(championship=c, number=1)
    url = reverse("api_result", args=[c.slug, 1, seating.table.number, 1])
    token = access.token_for(user=referee)
    first = APIClient()
    first.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    etag = first.put(url, {"trump": "O", "ns_points_taken": 10}, format="json")["ETag"]
    audits_before = AuditEntry.objects.filter(action__startswith="result.").count()

    def put(points: int) -> Any:
        def call() -> Any:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            return client.put(url, {"trump": "C", "ns_points_taken": points},
                              format="json", HTTP_IF_MATCH=etag)
        return call

    outcomes = at_once([put(30 + i) for i in range(DEVICES)])  # every value differs
    codes = sorted(getattr(o, "status_code", repr(o)) for o in outcomes)
    assert codes == [200] + [409] * (DEVICES - 1), codes
    winner = next(o for o in outcomes if o.status_code == 200).json()
    stored = Result.objects.get(seating=seating, board=board)
    assert (stored.version, stored.ns_points_taken) == (2, winner["values"]["ns_points_taken"])
    for loser in (o for o in outcomes if o.status_code == 409):
        current = loser.json()["current"]
        assert (current["version"], current["etag"]) == (2, f'"{stored.pk}.2"')
        assert current["values"] == winner["values"]  # a referee sees its table's result
    audits = AuditEntry.objects.filter(action__startswith="result.").count()
    assert audits - audits_before == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_put_waiting_on_a_seating_being_edited_saves_after_the_edit(on_postgres) -> None:
    """The PUT's locked read finds the table by its numbers through the seating's pairs;
    when an edit of that seating (NS and EW swapped by hand) holds the row, PostgreSQL
    drops the row once the edit commits, and the save reads it again instead of
    answering that the board does not exist."""
    import time

    from django.db import transaction

    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    referee = UserFactory(username="arbitre-espera")
    services.membership_grant(championship=c, user=referee, role=Membership.Role.REFEREE,
                              acting_user=None)
    seating = Seating.objects.filter(round__championship=c).order_by("table__number").first()
    url = reverse("api_result", args=[c.slug, 1, seating.table.number, 1])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {access.token_for(user=referee)}")
    held = threading.Event()
    answers: list[Any] = []

    def edit() -> None:
        try:
            with transaction.atomic():
                Seating.objects.filter(pk=seating.pk).update(
                    ns_pair=seating.ew_pair_id, ew_pair=seating.ns_pair_id)
                held.set()
                time.sleep(0.8)  # the PUT below waits for this row meanwhile
        finally:
            connection.close()

    def put() -> None:
        try:
            held.wait(10)
            answers.append(client.put(url, {"trump": "O", "ns_points_taken": 40},
                                      format="json"))
        finally:
            connection.close()

    threads = [threading.Thread(target=edit), threading.Thread(target=put)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert answers[0].status_code == 201, answers[0].content
    result = Result.objects.get()
    assert result.seating_id == seating.pk
    assert answers[0].json()["ns"] == seating.ew_pair.number  # the seating as edited


def _held(monkeypatch: Any, module: Any, started: threading.Event,
          name: str = "audit") -> None:
    """``module.<name>`` (the audit, or a new result's insert) waits 0.8 s once it is
    called: its caller's transaction stays open, its locks held, while another request
    runs."""
    import time

    real = getattr(module, name)

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        time.sleep(0.8)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)


def _race(first: Any, second: Any, started: threading.Event) -> list[Any]:
    """``first`` in a thread; ``second`` once ``first`` holds its locks; both answers."""
    answers: list[Any] = [None, None]

    def run(i: int, call: Any) -> None:
        try:
            if i == 1:
                started.wait(10)
            answers[i] = call()
        except Exception as exc:  # asserted on below
            answers[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    # Else ``second`` ran after ``first`` was done, and the race was not run at all.
    assert started.is_set(), "the first call never reached its held step"
    return answers


def _round_with_one_result_missing() -> tuple[Any, Any, str, APIClient]:
    c = build_championship(pairs=4, rounds=1, boards_per_round=2)
    organiser = None  # the services' own acting user: every capability
    referee = UserFactory(username="arbitre-carrera")
    services.membership_grant(championship=c, user=referee, role=Membership.Role.REFEREE,
                              acting_user=None)
    for seating in Seating.objects.filter(round__championship=c):
        for board in Board.objects.filter(round__championship=c):
            if (seating.table.number, board.number) != (1, 1):
                services.result_record(seating=seating, board=board, trump="O",
                                       ns_points_taken=36, expected_version=None,
                                       acting_user=organiser)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {access.token_for(user=referee)}")
    return c, organiser, reverse("api_result", args=[c.slug, 1, 1, 1]), client


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_save_during_a_round_close_sees_the_round_closed(on_postgres, monkeypatch) -> None:
    from tournaments.models import Round
    from tournaments.services import rounds

    c, organiser, url, client = _round_with_one_result_missing()
    started = threading.Event()
    _held(monkeypatch, rounds, started)
    round_ = Round.objects.get(championship=c, number=1)
    closed, put = _race(
        lambda: services.round_close(round=round_, acting_user=organiser, allow_missing=True),
        lambda: client.put(url, {"trump": "O", "ns_points_taken": 40}, format="json"),
        started,
    )
    assert put.status_code == 403, put.content  # a plain referee, a closed round
    assert closed.is_closed
    audit = AuditEntry.objects.get(championship=c, action="round.close")
    assert audit.after["missing"] == ["1/1"]
    assert not Result.objects.filter(seating__table__number=1, board__number=1).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_round_close_during_a_save_sees_the_result(on_postgres, monkeypatch) -> None:
    from tournaments.models import Round
    from tournaments.services import results

    c, organiser, url, client = _round_with_one_result_missing()
    started = threading.Event()
    _held(monkeypatch, results, started, "insert_result")
    round_ = Round.objects.get(championship=c, number=1)
    put, closed = _race(
        lambda: client.put(url, {"trump": "O", "ns_points_taken": 40}, format="json"),
        lambda: services.round_close(round=round_, acting_user=organiser),
        started,
    )
    assert put.status_code == 201, put.content
    assert closed.is_closed  # without allow_missing: nothing was missing any more
    assert AuditEntry.objects.get(championship=c, action="round.close").after["missing"] == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_save_during_the_finish_sees_the_championship_finished(on_postgres,
                                                                 monkeypatch) -> None:
    from tournaments.services import championships

    c, organiser, url, client = _round_with_one_result_missing()
    started = threading.Event()
    _held(monkeypatch, championships, started)
    finished, put = _race(
        lambda: services.championship_finish(championship=c, acting_user=organiser),
        lambda: client.put(url, {"trump": "O", "ns_points_taken": 40}, format="json"),
        started,
    )
    assert not isinstance(finished, Exception), finished
    assert (put.status_code, put.json()["code"]) == (409, "state"), put.content
    assert not Result.objects.filter(seating__table__number=1, board__number=1).exists()
