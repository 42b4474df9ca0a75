"""Every organiser action on the sign-up, the persons and the circuits, tried by page
and API by anonymous, a referee, a check-in helper, the organiser of another
championship and the organiser of another circuit who is not a persons' manager... each
is refused (login, 403 or 404) and nothing is written; the pair's contact shows on no
page any of them opens, nor in the audit log a head referee reads."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Circuit,
    CircuitRole,
    Membership,
    PeopleAuditEntry,
    Person,
    Player,
    Registration,
)
from tournaments.services import signup

EMAIL, PHONE = "amagat.contacte@example.org", "+34 699 111 222"
SITE = "http://testserver"


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Any:
    """Built once for the module: a championship with its sign-up (one pair with its
    contact, its pair made, its players linked to persons, one record merged), its
    organiser, referee, head referee, check-in helper; another championship's organiser;
    a circuit and another circuit's organiser."""
    with django_db_blocker.unblock():
        championship = services.championship_create(
            name="Obert de Balenyà", date=datetime.date(2026, 12, 12), acting_user=None)
        other = services.championship_create(
            name="Obert de Taradell", date=datetime.date(2026, 12, 13), acting_user=None)
        users: dict[str, Any] = {}
        for name, where, role in (
            ("organiser", championship, Membership.Role.ORGANISER),
            ("referee", championship, Membership.Role.REFEREE),
            ("head", championship, Membership.Role.HEAD_REFEREE),
            ("check_in", championship, Membership.Role.CHECK_IN),
            ("other_organiser", other, Membership.Role.ORGANISER),
        ):
            users[name] = UserFactory(username=f"perm-{name}")
            services.membership_grant(championship=where, user=users[name], role=role,
                                      acting_user=None)
        signup.signup_settings_set(championship=championship, signup_open=True,
                                   signup_cap=4, check_in=True, site_url=SITE,
                                   acting_user=None)
        registration = signup.signup_submit(
            championship=championship, player1="Laia Codina", player2="Marc Bosch",
            email=EMAIL, phone=PHONE, note="telefoneu després de les 8",
            site_url=SITE).registration
        signup.signup_paid(registration=registration, paid=True, acting_user=None)
        signup.pairs_from_signup(championship=championship, acting_user=None)
        one, two = Player.objects.filter(championship=championship).order_by("pk")
        kept = Person.objects.create(name="Laia Codina")
        absorbed = Person.objects.create(name="Laia Codina Puig")
        Person.objects.filter(pk=absorbed.pk).update(merged_into=kept)
        Player.objects.filter(pk=one.pk).update(person=kept)
        circuit = services.circuit_create(name="Circuit d'Osona", acting_user=None)
        other_circuit = services.circuit_create(name="Circuit del Lluçanès",
                                                acting_user=None)
        users["circuit_other"] = UserFactory(username="perm-circuit-other")
        CircuitRole.objects.create(circuit=other_circuit, user=users["circuit_other"])
        yield {"championship": championship, "registration": registration,
               "kept": kept, "absorbed": absorbed, "player": two, "circuit": circuit,
               "users": users}
        with django_db_blocker.unblock():
            from django.core.management import call_command
            call_command("flush", interactive=False, verbosity=0)


def client_for(world: Any, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(world["users"][who])
    return client


def attempts(world: Any) -> list[tuple[str, str, dict[str, Any]]]:
    c = world["championship"].slug
    r = world["registration"]
    kept, absorbed = world["kept"], world["absorbed"]
    player = world["player"]
    circuit = world["circuit"].slug
    return [
        ("get", reverse("signup_list", args=[c]), {}),
        ("get", reverse("signup_list", args=[c]) + "?format=csv", {}),
        ("post", reverse("signup_list", args=[c]), {"action": "cancel",
                                                    "registration": r.pk}),
        ("post", reverse("signup_list", args=[c]), {"action": "unpaid",
                                                    "registration": r.pk}),
        ("post", reverse("signup_list", args=[c]), {"action": "settings",
                                                    "signup_cap": "1"}),
        ("post", reverse("signup_list", args=[c]), {
            "action": "add", "add-player1": "A B", "add-player2": "C D",
            "add-email": "x@example.org"}),
        ("get", reverse("api_signup", args=[c]), {}),
        ("post", reverse("api_signup", args=[c]), {"player1": "A B", "player2": "C D",
                                                   "email": "x@example.org"}),
        ("get", reverse("championship_persons", args=[c]), {}),
        ("post", reverse("championship_persons", args=[c]), {f"p{player.pk}": "new"}),
        ("get", reverse("api_player_persons", args=[c]), {}),
        ("get", reverse("persons"), {}),
        ("post", reverse("persons_merge"), {"kept": kept.pk, "absorbed": absorbed.pk,
                                            "confirm": "on"}),
        ("post", reverse("person_unmerge", args=[absorbed.pk]), {"confirm": "on"}),
        ("get", reverse("person_edit", args=[kept.pk]), {}),
        ("post", reverse("person_export", args=[kept.pk]), {}),
        ("post", reverse("person_delete", args=[absorbed.pk]), {"confirm": "on"}),
        ("post", reverse("person_anonymise", args=[kept.pk]), {"confirm": "on"}),
        ("get", reverse("circuit_manage", args=[circuit]), {}),
        ("post", reverse("circuit_manage", args=[circuit]), {
            "action": "add", "championship": c}),
        ("get", reverse("circuit_import", args=[circuit]), {}),
    ]


PEOPLE = ["anonymous", "referee", "head", "check_in", "other_organiser"]


@pytest.mark.django_db
@pytest.mark.parametrize("who", PEOPLE)
def test_nobody_but_the_organisers_may_do_an_organiser_action(world: Any, who: str) -> None:
    client = client_for(world, who)
    before = (AuditEntry.objects.count(), PeopleAuditEntry.objects.count(),
              Registration.objects.filter(status="cancelled").count(),
              Person.objects.count(), Player.objects.filter(person__isnull=False).count(),
              Circuit.objects.get(pk=world["circuit"].pk).version)
    for method, url, data in attempts(world):
        answer = getattr(client, method)(url, data)
        body = answer.content.decode(errors="replace")
        assert answer.status_code in (302, 401, 403, 404), (who, method, url,
                                                            answer.status_code)
        if answer.status_code == 302:
            assert "login" in answer["Location"], (who, url, answer["Location"])
        assert EMAIL not in body and "699 111 222" not in body, (who, url)
    after = (AuditEntry.objects.count(), PeopleAuditEntry.objects.count(),
             Registration.objects.filter(status="cancelled").count(),
             Person.objects.count(), Player.objects.filter(person__isnull=False).count(),
             Circuit.objects.get(pk=world["circuit"].pk).version)
    assert after == before


@pytest.mark.django_db
def test_another_circuits_organiser_runs_no_other_circuit(world: Any) -> None:
    client = client_for(world, "circuit_other")
    circuit = world["circuit"]
    version = Circuit.objects.get(pk=circuit.pk).version
    for url, data in ((reverse("circuit_manage", args=[circuit.slug]),
                       {"action": "add", "championship": world["championship"].slug}),
                      (reverse("circuit_import", args=[circuit.slug]),
                       {"action": "cancel"})):
        assert client.get(url).status_code == 403
        assert client.post(url, data).status_code == 403
    assert Circuit.objects.get(pk=circuit.pk).version == version


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "referee", "head", "check_in"])
def test_the_contact_shows_on_no_page_they_open(world: Any, who: str) -> None:
    client = client_for(world, who)
    c = world["championship"].slug
    urls = [reverse("signup", args=[c]), reverse("check_in", args=[c]),
            reverse("api_championship", args=[c]) if _has("api_championship") else "",
            reverse("audit_log", args=[c]) if _has("audit_log") else "",
            reverse("person", args=[world["kept"].pk]),
            reverse("circuit", args=[world["circuit"].slug])]
    for url in filter(None, urls):
        body = client.get(url).content.decode(errors="replace")
        assert EMAIL not in body and "699 111 222" not in body, (who, url)
        assert "telefoneu" not in body, (who, url)


def _has(name: str) -> bool:
    try:
        reverse(name, args=["x"])
    except Exception:
        return False
    return True
