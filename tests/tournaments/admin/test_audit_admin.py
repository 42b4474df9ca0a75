"""The championships' log in the admin: listed, read-only (no add, change nor delete)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_the_admin_lists_the_log_read_only(client, small: Small) -> None:
    admin = UserFactory(username="admin-log", is_superuser=True, is_staff=True)
    admin.save()
    client.force_login(admin)
    entry = AuditEntry.objects.filter(championship=small.championship).first()
    listing = client.get(reverse("admin:tournaments_auditentry_changelist"))
    assert listing.status_code == 200
    assert entry.get_action_display() in listing.content.decode()
    assert client.get(reverse("admin:tournaments_auditentry_add")).status_code == 403
    page = client.get(reverse("admin:tournaments_auditentry_change", args=[entry.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    delete = reverse("admin:tournaments_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
