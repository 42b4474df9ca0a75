"""Hostile input on the new organiser pages: numbers typed as "²" (``str.isdigit()``
accepts it, ``int()`` refuses it), a points table of exponents (a number of a billion
digits), out-of-range ids. Each answer is a Catalan refusal, never a 500, and nothing
is written."""

from __future__ import annotations

import datetime
import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Circuit, CircuitRole, PeopleAuditEntry, Person, Player
from tournaments.services.circuits import CircuitError, clean_rules

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit_and_organiser(db: None) -> tuple[Circuit, object]:
    organiser = UserFactory(is_superuser=True)
    circuit = services.circuit_create(name="Circuit hostil", acting_user=organiser)
    return circuit, organiser


@pytest.mark.parametrize("table", ["1e999999999", "100, 1e-999999999", "9e99999"])
def test_a_points_table_of_huge_exponents_is_refused_at_once(table: str) -> None:
    started = time.perf_counter()
    with pytest.raises(CircuitError) as caught:
        clean_rules(points="place_table", points_table=table, best_of=None, min_events=1,
                    tiebreaks=[])
    assert time.perf_counter() - started < 0.5
    assert caught.value.field == "points_table"
    assert "no és un nombre" in str(caught.value)


def test_a_points_table_of_exponents_on_the_form_names_the_field(
    circuit_and_organiser,
) -> None:
    circuit, organiser = circuit_and_organiser
    client = Client()
    client.force_login(organiser)
    version = circuit.version
    started = time.perf_counter()
    page = client.post(reverse("circuit_manage", args=[circuit.slug]), {
        "action": "rules", "name": "Circuit hostil", "points": "place_table",
        "points_table": "100, 1e999999999", "min_events": "1"})
    assert time.perf_counter() - started < 2
    assert page.status_code == 200
    assert "lloc 2" in page.content.decode()
    circuit.refresh_from_db()
    assert circuit.version == version


def test_a_superscript_digit_for_an_organiser_to_remove_is_a_no_op(
    circuit_and_organiser,
) -> None:
    circuit, organiser = circuit_and_organiser
    client = Client()
    client.force_login(organiser)
    page = client.post(reverse("circuit_manage", args=[circuit.slug]),
                       {"action": "revoke", "role": "²"}, follow=True)
    assert page.status_code == 200
    assert "expected a number" not in page.content.decode()
    assert CircuitRole.objects.filter(circuit=circuit).count() == 1


def test_a_superscript_digit_as_a_person_on_the_linking_page_is_no_choice() -> None:
    championship = services.championship_create(
        name="Obert de Tona", date=datetime.date(2026, 12, 12), acting_user=None)
    services.pair_register(championship=championship, number=1, player1="Anna Puig",
                           player2="Pere Vila", acting_user=None)
    organiser = UserFactory(is_superuser=True)
    client = Client()
    client.force_login(organiser)
    players = list(Player.objects.filter(championship=championship))
    url = reverse("championship_persons", args=[championship.slug])
    data = {f"p{p.pk}": "²" for p in players}
    page = client.post(url, data)
    assert page.status_code == 200
    assert "No heu triat cap persona" in page.content.decode()
    searched = client.post(url, {"search": "²"})
    assert searched.status_code == 200
    huge = client.post(url, {f"p{players[0].pk}": "9" * 30}, follow=True)
    assert huge.status_code == 200
    assert "No heu triat cap persona" in huge.content.decode()
    bigint = client.post(url, {f"p{players[0].pk}": "9" * 18}, follow=True)
    assert bigint.status_code == 200
    assert "No hi ha cap persona amb el número 999999999999999999" in (
        bigint.content.decode())
    assert not Person.objects.exists()
    assert not Player.objects.filter(person__isnull=False).exists()


def test_a_superscript_digit_as_a_choice_of_the_season_import_is_the_proposal(
    circuit_and_organiser,
) -> None:
    from tournaments.web import seasons

    class Row:
        key = "0:1"

    class Review:
        rows = (Row(),)

    class Post(dict):
        pass

    class Request:
        POST = Post({"row-0:1": "²"})

    assert seasons._choices(Request(), Review()) == {}  # type: ignore[arg-type]
    Request.POST = Post({"row-0:1": "12"})
    assert seasons._choices(Request(), Review()) == {"0:1": 12}  # type: ignore[arg-type]
    assert not PeopleAuditEntry.objects.filter(action="circuit.import").exists()
