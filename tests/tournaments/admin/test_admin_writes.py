"""The admin writes nothing past the services: the rows with an audit trail are
read-only there, and a role is given or taken through ``services.membership_grant`` and
``services.membership_revoke``, each with its audit row."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments.models import AuditEntry, Championship, Membership, Pair, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    user = UserFactory(username="admin-writes", is_superuser=True, is_staff=True)
    user.save()
    client.force_login(user)
    return client


def test_a_pair_changed_in_the_admin_is_refused_and_stays_as_it_was(
    admin_client: Client, small: Small
) -> None:
    pair = Pair.objects.get(championship=small.championship, number=1)
    other = Player.objects.filter(championship=small.championship).exclude(
        pk__in=[pair.player1_id, pair.player2_id]).first()
    assert other is not None
    entries = AuditEntry.objects.count()
    url = reverse("admin:tournaments_pair_change", args=[pair.pk])
    response = admin_client.post(url, {
        "championship": small.championship.pk, "number": 1,
        "player1": other.pk, "player2": pair.player2_id, "_save": "Desa",
    })
    assert response.status_code == 403
    pair.refresh_from_db()
    assert pair.player1_id != other.pk
    assert AuditEntry.objects.count() == entries
    # Shown, with no button to save it.
    page = admin_client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()


def test_a_running_championship_cannot_be_set_to_zero_boards_a_round_in_the_admin(
    admin_client: Client, small: Small
) -> None:
    championship = small.championship
    before = championship.boards_per_round
    assert before == 2
    response = admin_client.post(
        reverse("admin:tournaments_championship_change", args=[championship.pk]),
        {"name": championship.name, "slug": championship.slug,
         "date": championship.date.isoformat(), "venue": championship.venue,
         "status": championship.status, "boards_per_round": 0, "_save": "Desa"},
    )
    assert response.status_code == 403
    championship.refresh_from_db()
    assert championship.boards_per_round == before


@pytest.mark.parametrize("model", ["championship", "player", "pair", "round", "table",
                                   "board", "seating", "result", "auditentry"])
def test_audited_rows_cannot_be_added_nor_deleted_in_the_admin(
    admin_client: Client, small: Small, model: str
) -> None:
    assert admin_client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403
    listing = admin_client.get(reverse(f"admin:tournaments_{model}_changelist"))
    assert listing.status_code == 200
    assert 'value="delete_selected"' not in listing.content.decode()


def test_a_championship_deleted_in_the_admin_is_refused(
    admin_client: Client, small: Small
) -> None:
    url = reverse("admin:tournaments_championship_delete", args=[small.championship.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Championship.objects.filter(pk=small.championship.pk).exists()


def test_a_board_shown_in_the_admin_keeps_its_cards_hidden(
    admin_client: Client, small: Small
) -> None:
    board = small.boards[0]
    page = admin_client.get(reverse("admin:tournaments_board_change", args=[board.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    # A JSON field shows as its JSON, escaped: no hand of the deal, in either form.
    hands = [json.dumps(hand) for hand in board.deal.values()]
    assert len(hands) == 4
    assert not any(hand in html or escape(hand) in html for hand in hands)
    assert "field-deal" not in html


def test_a_role_given_in_the_admin_goes_through_the_service_and_is_audited(
    admin_client: Client, small: Small
) -> None:
    user = UserFactory(username="arbitre-nou")
    response = admin_client.post(reverse("admin:tournaments_membership_add"), {
        "championship": small.championship.pk, "user": user.pk,
        "role": Membership.Role.HEAD_REFEREE, "_save": "Desa",
    })
    assert response.status_code == 302
    assert Membership.objects.filter(championship=small.championship, user=user,
                                     role=Membership.Role.HEAD_REFEREE).exists()
    entry = AuditEntry.objects.filter(championship=small.championship,
                                      action=AuditEntry.Action.ROLE_GRANT).latest("id")
    assert entry.acting_user.username == "admin-writes"
    assert entry.after == {"user": "arbitre-nou", "role": "head_referee"}


def test_a_staff_user_without_a_role_there_cannot_give_one(
    client: Client, small: Small
) -> None:
    from django.contrib.auth.models import Permission

    staff = UserFactory(username="staff-sense-rol", is_staff=True)
    staff.save()
    staff.user_permissions.add(*Permission.objects.filter(
        codename__in=["add_membership", "view_membership"]))
    client.force_login(staff)
    user = UserFactory(username="arbitre-colat")
    response = client.post(reverse("admin:tournaments_membership_add"), {
        "championship": small.championship.pk, "user": user.pk,
        "role": Membership.Role.ORGANISER, "_save": "Desa",
    })
    assert response.status_code == 200  # the form again, with the reason
    assert "No teniu permís" in response.content.decode()
    assert not Membership.objects.filter(user=user).exists()


def test_a_role_taken_away_in_the_admin_goes_through_the_service_and_is_audited(
    admin_client: Client, small: Small
) -> None:
    membership = Membership.objects.get(championship=small.championship, user=small.referee)
    assert admin_client.get(
        reverse("admin:tournaments_membership_change", args=[membership.pk])
    ).status_code == 200
    response = admin_client.post(
        reverse("admin:tournaments_membership_delete", args=[membership.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    entry = AuditEntry.objects.filter(championship=small.championship,
                                      action=AuditEntry.Action.ROLE_REVOKE).get()
    assert entry.acting_user.username == "admin-writes"
    assert entry.before == {"user": "arbitre-prova", "role": "referee"}


def test_a_role_is_never_edited_in_place_in_the_admin(
    admin_client: Client, small: Small
) -> None:
    membership = Membership.objects.get(championship=small.championship, user=small.referee)
    response = admin_client.post(
        reverse("admin:tournaments_membership_change", args=[membership.pk]),
        {"championship": small.championship.pk, "user": small.referee.pk,
         "role": Membership.Role.ORGANISER, "_save": "Desa"},
    )
    assert response.status_code == 403
    membership.refresh_from_db()
    assert membership.role == Membership.Role.REFEREE


def test_the_last_organiser_cannot_be_taken_away_in_the_admin(
    admin_client: Client, small: Small
) -> None:
    membership = Membership.objects.get(championship=small.championship,
                                        user=small.organiser)
    url = reverse("admin:tournaments_membership_delete", args=[membership.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Membership.objects.filter(pk=membership.pk).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.ROLE_REVOKE).exists()
