"""A classic championship's game entry against what a careless or hostile client sends:
every refusal a clear error at its field, nothing half written; and saves that run at
the same moment as a finish, a close or a rules change."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import AuditEntry, Championship, Game, Round, Seating

LEVEL = {"chooser": "NS", "trump": "O", "points": 36}


def first_table(c: Classic) -> Seating:
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    return (Seating.objects.filter(round=c.rounds[0]).select_related("table", "round")
            .order_by("table__number").first())


@pytest.mark.django_db
def test_a_sheet_of_forty_thousand_level_deals_is_a_clear_error_not_a_crash() -> None:
    c = make_classic(pairs=4, rounds=1, max_deals=None, time_limit_minutes=60)
    table = first_table(c)
    with pytest.raises(services.ResultError) as error:
        services.game_record(seating=table, hands=[LEVEL] * 40_000, ended_by="time",
                             expected_version=None, acting_user=c.referee)
    assert error.value.field == "hands"
    assert "40" in str(error.value)
    assert not Game.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="game.").exists()


def _waiting_on_a_lock(pid_holder: list[int]) -> bool:
    """Whether the backend in ``pid_holder`` waits for a row lock (pg_stat_activity)."""
    if not pid_holder:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
                       [pid_holder[0]])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def _save_while_the_championship_is_locked(
    c: Classic, change: Callable[[], None], **game: Any
) -> object:
    """Save a game in another thread while this one holds the championship's row as a
    finish, a close or a rules change holds it (FOR UPDATE) and makes ``change``; the
    save's outcome (the saved game or the error) once this one commits."""
    table = first_table(c)
    outcome: list[object] = []
    pid: list[int] = []

    def save() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pid.append(cursor.fetchone()[0])
            outcome.append(services.game_record(
                seating=Seating.objects.get(pk=table.pk), expected_version=None,
                acting_user=c.referee, **game))
        except Exception as exc:  # asserted on by the caller
            outcome.append(exc)
        finally:
            connection.close()

    worker = threading.Thread(target=save)
    with transaction.atomic():
        Championship.objects.select_for_update().get(pk=c.championship.pk)
        change()
        worker.start()
        # Until the save either waits for the row or is done without waiting.
        while worker.is_alive() and not _waiting_on_a_lock(pid):
            worker.join(timeout=0.01)
    worker.join(timeout=30)
    return outcome[0]


FINAL = {"ns_points": 101, "ew_points": 40, "deals": 8, "ended_by": "target"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_saved_while_the_championship_finishes_waits_and_is_refused(
    on_postgres: None,
) -> None:
    c = make_classic(pairs=4, rounds=1)

    def finish() -> None:
        Championship.objects.filter(pk=c.championship.pk).update(
            status=Championship.Status.FINISHED)

    outcome = _save_while_the_championship_is_locked(c, finish, **FINAL)
    assert isinstance(outcome, services.ChampionshipStateError)
    assert not Game.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_saved_while_the_rules_change_is_checked_by_the_new_rules(
    on_postgres: None,
) -> None:
    c = make_classic(pairs=4, rounds=1)

    def target_151() -> None:
        Championship.objects.filter(pk=c.championship.pk).update(game_target=151,
                                                                  score_cap=171)

    outcome = _save_while_the_championship_is_locked(c, target_151, **FINAL)
    assert isinstance(outcome, services.ResultError), outcome
    assert "151" in str(outcome)
    assert not Game.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_plain_referee_saving_while_the_round_closes_is_refused(
    on_postgres: None,
) -> None:
    c = make_classic(pairs=4, rounds=1)

    def close() -> None:
        Round.objects.filter(pk=c.rounds[0].pk).update(closed_at=timezone.now())

    outcome = _save_while_the_championship_is_locked(c, close, **FINAL)
    assert isinstance(outcome, services.NotAllowedError), outcome
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_a_refused_sheet_line_says_the_same_at_the_line_and_in_the_summary(client) -> None:
    """After a save refused for a deal's 73 points, the sheet's summary said the points
    were missing (the field's error had emptied its value) while the line said 73."""
    c = make_classic(pairs=4, rounds=1)
    first_table(c)
    client.force_login(c.referee)
    url = reverse("game_entry", args=[c.championship.slug, 1, 1])
    response = client.post(url, {
        "mode": "sheet", "lines": "12", "ended_by": "time", "note": "",
        "h0-chooser": "NS", "h0-trump": "O", "h0-points": "73",
    })
    assert response.status_code == 200
    page = response.content.decode()
    summary = page[page.index('id="sheet-summary"'):]
    assert "«73»" in summary
    assert "Cal saber els punts" not in page
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_log_of_a_classic_championship_speaks_of_games_not_boards(client) -> None:
    """It read "5 rondes de 0 taulers", the ranking order as JSON
    (["wins", "difference", ...]) and offered to filter boards and results."""
    c = make_classic(pairs=4, rounds=3)
    client.force_login(c.organiser)
    url = reverse("audit_log", args=[c.championship.slug])
    page = client.get(url).content.decode()
    assert "3 rondes" in page and "de 0 taulers" not in page
    assert "Partides guanyades, Diferència de punts, Punts a favor" in page
    assert "&quot;wins&quot;" not in page
    assert 'value="game"' in page
    assert 'value="boards"' not in page and 'value="result"' not in page
    # A kind the format never has filters nothing.
    assert "3 rondes" in client.get(url + "?kind=boards").content.decode()


@pytest.mark.django_db
def test_withdrawing_a_pair_before_a_round_with_games_is_refused_clearly() -> None:
    """Only a board's results stopped it: with games in round 2, withdrawing a pair after
    round 1 undid round 2's draw, whose seatings the games protect (a 500)."""
    c = make_classic(pairs=4, rounds=2)
    services.round_draw(round=c.rounds[0], seed=1, acting_user=c.organiser)
    services.round_draw(round=c.rounds[1], seed=1, acting_user=c.organiser)
    table = (Seating.objects.filter(round=c.rounds[1]).select_related("table", "round")
             .order_by("table__number").first())
    services.game_record(seating=table, expected_version=None, acting_user=c.organiser,
                         **FINAL)
    with pytest.raises(services.ChampionshipStateError) as error:
        services.pair_withdraw(pair=table.ns_pair, after_round=1, reason="malalt",
                               acting_user=c.organiser)
    assert "ronda 2" in str(error.value)
    assert Game.objects.count() == 1
    assert Seating.objects.filter(round=c.rounds[1]).count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("lines", ["999", "-4", "abc"])
def test_a_sheet_sent_with_an_odd_line_count_is_still_saved(client, lines: str) -> None:
    """The hidden count of lines was checked as a field: out of range, the save was
    refused with no message on the page (a hidden field's error is not shown)."""
    c = make_classic(pairs=4, rounds=1)
    first_table(c)
    client.force_login(c.referee)
    url = reverse("game_entry", args=[c.championship.slug, 1, 1])
    response = client.post(url, {
        "mode": "sheet", "lines": lines, "ended_by": "time", "note": "",
        "h0-chooser": "NS", "h0-trump": "O", "h0-points": "50",
    })
    assert response.status_code == 302
    assert Game.objects.get().hands[0]["points"] == 50
