"""Results entered through a table's link with no login: one pair enters, the opponents
confirm, and only then the result counts (services.tables, api/tables.py)."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.tables.conftest import Table
from tournaments import services
from tournaments.models import AuditEntry, Board, Result, TableEntry

pytestmark = pytest.mark.django_db

OFF = "L'organització ha desactivat l'entrada des de les taules"


def standings(client: APIClient, slug: str) -> Any:
    return client.get(reverse("api_standings", args=[slug])).json()


def referee_saves(table: Table, seating_index: int, board_index: int, points: int) -> Result:
    small = table.small
    return services.result_record(
        seating=small.seatings[seating_index], board=small.boards[board_index], trump="C",
        ns_points_taken=points, expected_version=None, acting_user=small.referee,
    ).result


def test_a_pair_enters_the_opponents_confirm_and_only_then_it_counts(table: Table) -> None:
    slug = table.small.championship.slug
    public = APIClient()
    referee_saves(table, 1, 0, 30)  # table 2 played board 1: table 1's result makes it public
    before = standings(public, slug)
    traveller_url = reverse("api_traveller", args=[slug, table.board()])

    entered = table.put(table.board(), table.ns)
    assert entered.status_code == 201, entered.json()
    assert (entered.json()["status"], entered.json()["entered_by"]) == ("provisional", table.ns)

    # Provisional: no result, no standings, no traveller count it.
    assert not Result.objects.filter(seating=table.seating).exists()
    assert standings(public, slug) == before
    traveller = public.get(traveller_url).json()
    assert (traveller["public"], traveller["tables_missing_count"]) == (False, 1)
    board = table.state().json()["boards"][0]
    assert (board["state"], board["values"]["ns_points_taken"]) == ("provisional", 50)

    own = table.confirm(table.board(), table.ns)
    assert own.status_code == 403
    assert str(table.ew) in own.json()["detail"]
    assert TableEntry.objects.get().status == TableEntry.Status.PROVISIONAL

    confirmed = table.confirm(table.board(), table.ew)
    assert confirmed.status_code == 200, confirmed.json()
    assert (confirmed.json()["status"], confirmed.json()["confirmed_by"]) == (
        "confirmed", table.ew)

    after = standings(public, slug)
    assert after["progress"]["results_in"] == before["progress"]["results_in"] + 1
    assert after["standings"] != before["standings"]
    assert {row["boards"] for row in after["standings"]} == {1}
    traveller = public.get(traveller_url).json()
    assert traveller["public"] is True
    assert sorted(r["ns_points_taken"] for r in traveller["results"]) == [30, 50]

    result = Result.objects.get(seating=table.seating)
    assert (result.trump, result.ns_points_taken, result.entered_by) == ("O", 50, None)
    row = AuditEntry.objects.get(action=AuditEntry.Action.RESULT_CREATE, result=result)
    assert row.acting_user is None
    assert row.reason == (f"taula {table.seating.table.number}, parella {table.ns} "
                          f"(confirmada per la parella {table.ew})")
    states = [b["state"] for b in table.state().json()["boards"]]
    assert states == ["confirmed", "missing"]
    # A retry of the confirmation answers the same; a change from the table is refused.
    assert table.confirm(table.board(), table.ew).json()["status"] == "confirmed"
    again = table.put(table.board(), table.ew, ns_points_taken=40)
    assert again.status_code == 409
    assert again.json()["current"]["ns_points_taken"] == 50


def test_the_state_names_the_round_the_pairs_and_the_boards(table: Table) -> None:
    data = table.state().json()
    assert (data["championship"], data["round"], data["table"]) == (
        table.small.championship.slug, 1, table.seating.table.number)
    assert [(p["number"], p["direction"]) for p in data["pairs"]] == [
        (table.ns, "NS"), (table.ew, "EW")]
    assert data["pairs"][0]["names"] == table.seating.ns_pair.names
    assert [(b["board"], b["dealer"], b["state"]) for b in data["boards"]] == [
        (b.number, b.dealer.value, "missing") for b in table.small.boards]
    assert data["game"] is None


def test_the_same_put_twice_with_one_key_stores_one_entry(table: Table) -> None:
    first = table.put(table.board(), table.ns, key="clau-1")
    second = table.put(table.board(), table.ns, key="clau-1")
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["id"] == second.json()["id"]
    assert TableEntry.objects.count() == 1
    # Without the key, a new entry replaces the one still waiting.
    table.put(table.board(), table.ns, ns_points_taken=44)
    assert sorted(TableEntry.objects.values_list("status", flat=True)) == [
        "provisional", "superseded"]
    assert table.state().json()["boards"][0]["values"]["ns_points_taken"] == 44
    # The key of board 1's entry for board 2: refused, not taken as a retry.
    other = table.put(table.board(1), table.ns, key="clau-1")
    assert other.status_code == 400
    assert other.json()["errors"][0]["field"] == "Idempotency-Key"


def test_a_reissued_secret_refuses_the_old_one(table: Table) -> None:
    small = table.small
    with pytest.raises(services.NotAllowedError):
        services.table_secret_reissue(championship=small.championship,
                                      table_number=table.seating.table.number,
                                      acting_user=small.referee)
    new = services.table_secret_reissue(championship=small.championship,
                                        table_number=table.seating.table.number,
                                        acting_user=small.organiser)
    assert new.secret != table.secret and len(new.secret) >= 22  # >= 128 bits
    old = table.state()
    assert old.status_code == 403
    assert "renovat" in old.json()["detail"]
    assert table.put(table.board(), table.ns).status_code == 403
    assert table.state(new.secret).status_code == 200
    assert table.put(table.board(), table.ns, secret=new.secret).status_code == 201
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_SECRET_REISSUE,
                                     acting_user=small.organiser).count() == 1


def test_table_entry_off_refuses_every_request_with_the_reason(table: Table) -> None:
    table.put(table.board(), table.ns)
    services.table_entry_set(championship=table.small.championship, enabled=False,
                             acting_user=table.small.organiser)
    for response in (table.state(), table.put(table.board(), table.ns),
                     table.confirm(table.board(), table.ew),
                     table.dispute(table.board(), table.ew, "no")):
        assert response.status_code == 403
        assert response.json()["detail"] == OFF
    assert not Result.objects.filter(seating=table.seating).exists()
    services.table_entry_set(championship=table.small.championship, enabled=True,
                             acting_user=table.small.organiser)
    assert table.confirm(table.board(), table.ew).status_code == 200


def test_a_referees_save_supersedes_the_entry_and_a_later_put_is_a_conflict(
        table: Table) -> None:
    table.put(table.board(), table.ns)
    referee_saves(table, 0, 0, 61)
    assert TableEntry.objects.get().status == TableEntry.Status.SUPERSEDED
    assert table.confirm(table.board(), table.ew).status_code == 404
    later = table.put(table.board(), table.ew, ns_points_taken=12)
    assert later.status_code == 409
    body = later.json()
    assert body["code"] == "conflict" and "àrbitre" in body["detail"]
    assert (body["current"]["trump"], body["current"]["ns_points_taken"]) == ("C", 61)
    assert TableEntry.objects.count() == 1
    assert table.state().json()["boards"][0]["state"] == "by_referee"


def test_a_referees_correction_supersedes_a_dispute(table: Table) -> None:
    referee_saves(table, 0, 1, 20)
    table.put(table.board(), table.ns)
    assert table.dispute(table.board(), table.ew, "Eren 40").status_code == 200
    services.result_record(seating=table.seating, board=table.small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None,
                           acting_user=table.small.referee)
    assert TableEntry.objects.get().status == TableEntry.Status.SUPERSEDED


def test_a_dispute_goes_to_the_referees_and_counts_nowhere(table: Table) -> None:
    table.put(table.board(), table.ns)
    assert table.dispute(table.board(), table.ns, "no").status_code == 403
    missing_note = table.dispute(table.board(), table.ew, " ")
    assert missing_note.status_code == 400
    disputed = table.dispute(table.board(), table.ew, "Van fer 48, no 50")
    assert disputed.status_code == 200
    assert disputed.json()["status"] == "disputed"
    assert table.confirm(table.board(), table.ew).status_code == 404
    assert not Result.objects.exists() or not Result.objects.filter(
        seating=table.seating).exists()
    board = table.state().json()["boards"][0]
    assert (board["state"], board["note"]) == ("disputed", "Van fer 48, no 50")
    row = AuditEntry.objects.get(action=AuditEntry.Action.TABLE_ENTRY_DISPUTE)
    assert row.board_number == table.board() and "48" in row.reason


def test_the_link_opens_only_its_tables_boards_of_the_current_round(table: Table) -> None:
    round2 = Board.objects.filter(round=table.small.round2).order_by("number").first()
    assert round2 is not None
    refused = table.put(round2.number, table.ns)
    assert refused.status_code == 403
    assert str(round2.number) in refused.json()["detail"]
    assert table.state("no-es-cap-secret").status_code == 403
    assert table.put(table.board(), table.ns, secret="no-es-cap-secret").status_code == 403
    other_table = table.small.seatings[1]
    wrong_pair = table.put(table.board(), other_table.ns_pair.number)
    assert wrong_pair.status_code == 400
    assert wrong_pair.json()["errors"][0]["field"] == "entered_by"
    # A closed round is no longer in play at the table.
    services.round_close(round=table.small.round1, acting_user=None, allow_missing=True)
    assert table.state().status_code == 403


def test_a_bad_body_is_refused_at_entry_per_field(table: Table) -> None:
    recontro = table.put(table.board(), table.ns, recontro=True)
    assert recontro.status_code == 400
    assert "recontro" in {e["field"] for e in recontro.json()["errors"]}
    adjusted = table.put(table.board(), table.ns, trump=None, ns_points_taken=None,
                         adjusted={"NS": "average_plus", "EW": "average_minus"})
    assert adjusted.status_code == 400
    assert adjusted.json()["errors"][0]["field"] == "adjusted"
    unknown = table.put(table.board(), table.ns, barraca=True)
    assert unknown.status_code == 400
    assert TableEntry.objects.count() == 0


def test_requests_over_the_tables_limit_get_429_with_retry_after(table: Table,
                                                                 settings: Any) -> None:
    settings.TABLE_ENTRY_RATE_PER_TABLE = "3/min"
    assert [table.state().status_code for _ in range(3)] == [200, 200, 200]
    over = table.state()
    assert over.status_code == 429
    assert int(over["Retry-After"]) >= 1
    assert "torneu-ho a provar" in over.json()["detail"]


def test_requests_over_the_addresss_limit_get_429_whatever_the_table(
        table: Table, settings: Any) -> None:
    settings.TABLE_ENTRY_RATE_PER_ADDRESS = "2/min"
    other = services.table_secret(championship=table.small.championship,
                                  table_number=table.small.seatings[1].table.number)
    assert table.state().status_code == 200
    assert table.state(other.secret).status_code == 200
    assert table.state(other.secret).status_code == 429


def test_a_tables_link_is_never_a_login_attempt(table: Table) -> None:
    for _ in range(10):
        assert table.state("dolent").status_code == 403
        assert table.put(table.board(), table.ns, secret="dolent").status_code == 403
    assert AccessAttempt.objects.count() == 0
    assert AccessFailureLog.objects.count() == 0
    assert table.state().status_code == 200


def test_the_schema_describes_the_tables_api(client: Any) -> None:
    text = client.get(reverse("schema")).content.decode()
    for path in ("/api/v1/tables/{secret}/", "/api/v1/tables/{secret}/boards/{board}/result/",
                 "/api/v1/tables/{secret}/boards/{board}/result/confirm/",
                 "/api/v1/tables/{secret}/game/dispute/"):
        assert path in text


def test_a_referees_put_through_the_api_supersedes_the_entry(table: Table) -> None:
    table.put(table.board(), table.ns)
    table.put(table.board(1), table.ns)
    referee = APIClient()
    referee.force_authenticate(table.small.referee)
    url = reverse("api_result", args=[table.small.championship.slug, 1,
                                      table.seating.table.number, table.board()])
    assert referee.put(url, {"trump": "E", "ns_points_taken": 33},
                       format="json").status_code == 201
    statuses = dict(TableEntry.objects.values_list("board__number", "status"))
    assert statuses == {table.board(): "superseded", table.board(1): "provisional"}
