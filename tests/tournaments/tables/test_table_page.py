"""The table's own page, /t/<secret>/: no login, the table's state from table_state, a
403 with the reason in the user's language, and its service worker at the tables' scope."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from django.urls import reverse

from tests.tournaments.tables.conftest import Table
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_table_its_pairs_and_each_boards_state(table: Table) -> None:
    assert table.put(table.board(0), table.ns, key="k1").status_code == 201
    response = Client().get(f"/t/{table.secret}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Taula {table.seating.table.number} · ronda 1" in html
    assert f"<strong>{table.ns}</strong>" in html and f"<strong>{table.ew}</strong>" in html
    assert html.count("Esperant la confirmació de la parella contrària") == 1
    assert html.count('data-state="missing"') == len(table.small.boards) - 1
    assert 'name="entered_by"' in html and 'id="id_ns_points_taken"' in html
    assert "<script>" not in html  # CSP: no inline script
    assert response["Referrer-Policy"] == "no-referrer"
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()


def test_a_reissued_secret_is_refused_with_the_reason_in_the_users_language(
        table: Table) -> None:
    small = table.small
    services.table_secret_reissue(championship=small.championship,
                                  table_number=table.seating.table.number,
                                  acting_user=small.organiser)
    client = Client()
    response = client.get(f"/t/{table.secret}/")
    assert response.status_code == 403
    assert "no és vàlid o s&#x27;ha renovat" in response.content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = client.get(f"/t/{table.secret}/")
    assert english.status_code == 403 and 'lang="en"' in english.content.decode()
    assert "This table link is not valid or has been reissued" in english.content.decode()


def test_entry_off_is_refused_with_the_reason(table: Table) -> None:
    small = table.small
    services.table_entry_set(championship=small.championship, enabled=False,
                             acting_user=small.organiser)
    response = Client().get(f"/t/{table.secret}/")
    assert response.status_code == 403
    assert "desactivat l&#x27;entrada des de les taules" in response.content.decode()


def test_the_service_worker_is_served_for_the_tables_scope(table: Table) -> None:
    response = Client().get("/t/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/t/"
    assert "tournaments/table.js" in response.content.decode()


def test_a_classic_tables_page_shows_its_game_and_the_game_form() -> None:
    from tests.tournaments.tables.test_classic_and_links import drawn_classic

    classic, seating = drawn_classic()
    secret = services.table_secret(championship=classic.championship,
                                   table_number=seating.table.number).secret
    html = Client().get(f"/t/{secret}/").content.decode()
    assert html.count('class="table-item state-') == 1 and 'data-format="classic"' in html
    assert 'id="id_ns_points"' in html and 'id="id_ns_points_taken"' not in html
    assert 'name="ended_by" value="adjusted"' not in html  # a referee's only


def test_the_entry_forms_hand_score_is_the_referees_rule_and_needs_a_live_secret(
        table: Table) -> None:
    from tournaments import referee_checks

    query = {"trump": "C", "ns_points_taken": "44", "contro": "1"}
    url = reverse("table_hand_score", args=[table.secret, table.board(0)])
    response = Client().get(url, query)
    assert response.status_code == 200
    assert response.json() == referee_checks.hand_score(table.small.championship,
                                                        table.board(0), query)
    assert response.json()["ns"] is not None
    refused = Client().get(reverse("table_hand_score", args=["nope", table.board(0)]), query)
    assert refused.status_code == 403 and "detail" in refused.json()
