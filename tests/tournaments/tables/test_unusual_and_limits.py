"""A table's unusual result is asked once, as the referee's form asks it (422 with the
question, stored once confirmed), and the table's page and its live hand score are
rate limited per table and per address like the table's API, never a login attempt."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from django.urls import reverse

from tests.tournaments.tables.conftest import Table
from tournaments import services
from tournaments.models import TableEntry

pytestmark = pytest.mark.django_db


def test_an_unusual_result_is_asked_once_then_stored_as_typed(table: Table) -> None:
    asked = table.put(table.board(), table.ns, key="u1", ns_points_taken=72)
    assert asked.status_code == 422, asked.json()
    body = asked.json()
    assert body["code"] == "unusual_result"
    assert [u["code"] for u in body["unusual"]] == ["all_points"]
    assert "72 punts" in body["unusual"][0]["message"]
    assert "comproveu-lo" in body["detail"]
    assert not TableEntry.objects.exists()
    confirmed = table.put(table.board(), table.ns, key="u2", ns_points_taken=72,
                          confirm_unusual=True)
    assert confirmed.status_code == 201, confirmed.json()
    entry = TableEntry.objects.get()
    assert entry.values["ns_points_taken"] == 72 and "confirm_unusual" not in entry.values
    # The pair's correction keeping the points is not asked again; the opponents'
    # confirmation is never asked.
    again = table.put(table.board(), table.ns, key="u3", ns_points_taken=72, trump="C")
    assert again.status_code == 201, again.json()
    assert table.confirm(table.board(), table.ew).status_code == 200


def test_a_usual_result_and_a_sant_vicenc_ask_as_the_referees_form(table: Table) -> None:
    assert table.put(table.board(), table.ns, ns_points_taken=40).status_code == 201
    championship = table.small.championship
    championship.sant_vicenc = True
    championship.save(update_fields=["sant_vicenc"])
    sv = table.put(table.board(1), table.ns, ns_points_taken=40, contro=True,
                   recontro=True, sant_vicenc=True)
    assert sv.status_code == 422, sv.json()
    assert [u["code"] for u in sv.json()["unusual"]] == ["sant_vicenc"]


def test_the_table_pages_limits_answer_429_and_lock_nobody_out(table: Table,
                                                              settings: Any) -> None:
    settings.TABLE_ENTRY_RATE_PER_TABLE = "3/min"
    settings.TABLE_ENTRY_RATE_PER_ADDRESS = "6/min"
    client = Client()
    page = f"/t/{table.secret}/"
    score = reverse("table_hand_score", args=[table.secret, table.board()])
    assert [client.get(page).status_code, client.get(score).status_code,
            client.get(page).status_code] == [200, 200, 200]
    over = client.get(page)
    assert over.status_code == 429 and int(over["Retry-After"]) >= 1
    assert "torneu-ho a provar" in over.content.decode()
    assert over["Referrer-Policy"] == "no-referrer"
    limited = client.get(score)
    assert limited.status_code == 429 and "torneu-ho a provar" in limited.json()["detail"]
    # The API counts its own requests: the pair can still send what it typed.
    assert table.put(table.board(), table.ns).status_code == 201
    # Another table is not limited by this one; the address limit counts every table.
    other = services.table_secret(championship=table.small.championship,
                                  table_number=table.small.seatings[1].table.number)
    assert client.get(f"/t/{other.secret}/").status_code == 200
    assert client.get(f"/t/{other.secret}/").status_code == 429
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()
