"""The organiser's controls of the table entry (web/table_entry.py): the switch, the
current round's links and renewing one table's link."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.tournaments.tables.conftest import Table
from tournaments.models import AuditEntry, Championship, TableAccess

pytestmark = pytest.mark.django_db

BASE = "https://botifarra.example.org"


def logged(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def page(table: Table) -> str:
    return reverse("table_entry", args=[table.small.championship.slug])


@override_settings(TABLE_LINK_BASE_URL=BASE)
def test_only_the_organiser_sees_the_links(table: Table) -> None:
    small = table.small
    assert logged(small.referee).get(page(table)).status_code == 403
    response = logged(small.organiser).get(page(table))
    assert response.status_code == 200
    text = response.content.decode()
    for seating in small.seatings:
        access = TableAccess.objects.get(championship=small.championship,
                                         table_number=seating.table.number,
                                         revoked_at__isnull=True)
        assert f"{BASE}/t/{access.secret}/" in text
    detail = logged(small.organiser).get(
        reverse("championship", args=[small.championship.slug])).content.decode()
    assert page(table) in detail


def test_the_switch_turns_table_entry_off_and_on(table: Table) -> None:
    small = table.small
    organiser = logged(small.organiser)
    assert logged(small.referee).post(page(table), {"enabled": "0"}).status_code == 403
    assert organiser.post(page(table), {"enabled": "0"}).status_code == 302
    assert not Championship.objects.get(pk=small.championship.pk).table_entry
    assert table.state().status_code == 403  # the table's link is refused, with the reason
    assert "desactivat" in table.state().json()["detail"]
    assert "Desactivada" in organiser.get(page(table)).content.decode()
    organiser.post(page(table), {"enabled": "1"})
    assert Championship.objects.get(pk=small.championship.pk).table_entry
    assert table.state().status_code == 200
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_ENTRY_SWITCH).count() == 2


def test_renewing_a_link_stops_the_old_one_at_once(table: Table) -> None:
    small = table.small
    number = table.seating.table.number
    url = reverse("table_link_reissue", args=[small.championship.slug, number])
    assert logged(small.referee).post(url).status_code == 403
    assert table.state().status_code == 200
    response = logged(small.organiser).post(url)
    assert response.status_code == 302
    assert table.state().status_code == 403
    new = TableAccess.objects.get(championship=small.championship, table_number=number,
                                  revoked_at__isnull=True)
    assert new.secret != table.secret
    assert table.state(new.secret).status_code == 200
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_SECRET_REISSUE).exists()
    assert new.secret in logged(small.organiser).get(page(table)).content.decode()
