"""Bad input on the sign-up's API and pages, the check-in and the circuit's rules:
wrong types, empty, huge, control characters, negative and out-of-range numbers. Each
is a 400 (API) or the form again with its field's Catalan error (pages), never a 500,
and nothing is written."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Championship, Circuit, Membership, Registration
from tournaments.services import signup

pytestmark = pytest.mark.django_db

SITE = "http://testserver"


@pytest.fixture
def setup(db: None) -> dict[str, Any]:
    championship = services.championship_create(
        name="Obert de Sant Julià", date=datetime.date(2026, 12, 12), acting_user=None)
    organiser = UserFactory(is_superuser=False)
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    signup.signup_settings_set(championship=championship, signup_open=True,
                               signup_cap=3, check_in=True, site_url=SITE,
                               acting_user=None)
    signup.signup_submit(championship=championship, player1="Anna Puig",
                         player2="Pere Vila", email="a@example.org", site_url=SITE)
    signup.pairs_from_signup(championship=championship, acting_user=None)
    client = Client()
    client.force_login(organiser)
    return {"championship": Championship.objects.get(pk=championship.pk),
            "client": client, "organiser": organiser}


BAD_BODIES = [
    {},
    {"player1": 123, "player2": ["a"], "email": "x@example.org"},
    {"player1": None, "player2": "Joan Riera", "email": "x@example.org"},
    {"player1": "Marta\x00Soler", "player2": "Joan Riera", "email": "x@example.org"},
    {"player1": "Marta\x07Soler", "player2": "Joan Riera", "email": "x@example.org"},
    {"player1": "M" * 10000, "player2": "Joan Riera", "email": "x@example.org"},
    {"player1": "Marta Soler", "player2": "Joan Riera"},
    {"player1": "Marta Soler", "player2": "Joan Riera", "email": "no-es-un-correu"},
    {"player1": "Marta Soler", "player2": "Joan Riera", "phone": "trucar-me"},
    {"player1": "Marta Soler", "player2": "Joan Riera", "email": "x@example.org",
     "note": "n" * 5000},
    {"player1": "Marta Soler", "player2": "Joan Riera", "email": "x@example.org",
     "status": "confirmed"},
    {"player1": "   ", "player2": "\t", "email": "x@example.org"},
    {"player1": "Marta Soler", "player2": "MARTA  soler", "email": "x@example.org"},
]


def test_a_bad_registration_through_the_api_is_a_400_in_catalan(setup) -> None:
    before = Registration.objects.count(), AuditEntry.objects.count()
    for body in BAD_BODIES:
        answer = setup["client"].post(
            reverse("api_signup", args=[setup["championship"].slug]), body,
            content_type="application/json", HTTP_ACCEPT_LANGUAGE="ca")
        assert answer.status_code == 400, (body, answer.content)
    assert (Registration.objects.count(), AuditEntry.objects.count()) == before


def test_a_body_that_is_not_json_or_a_list_is_a_400(setup) -> None:
    url = reverse("api_signup", args=[setup["championship"].slug])
    for raw in ("{", "[1, 2]", '"text"', "null"):
        answer = setup["client"].post(url, raw, content_type="application/json")
        assert answer.status_code == 400, (raw, answer.status_code)
    assert Registration.objects.count() == 1


def test_bad_places_on_the_settings_form_name_the_field(setup) -> None:
    championship = setup["championship"]
    for cap in ["-1", "0", "abc", "99999", "1e3", "²", " 2 x", ""]:
        answer = setup["client"].post(reverse("signup_list", args=[championship.slug]), {
            "action": "settings", "signup_open": "on", "signup_cap": cap,
            "check_in": "on"})
        if cap == "":  # blank: no cap at all, a valid choice
            assert answer.status_code == 302
            assert Championship.objects.get(pk=championship.pk).signup_cap is None
            continue
        assert answer.status_code == 200, cap
        assert 'id="id_signup_cap_error"' in answer.content.decode(), cap
        assert Championship.objects.get(pk=championship.pk).signup_cap == 3


def test_a_bad_position_on_the_list_is_a_message(setup) -> None:
    championship = setup["championship"]
    registration = Registration.objects.get(championship=championship)
    for position in ["0", "-3", "²", "", "9" * 40, "abc"]:
        answer = setup["client"].post(reverse("signup_list", args=[championship.slug]), {
            "action": "move", "registration": str(registration.pk),
            "position": position}, follow=True)
        assert answer.status_code == 200, position
        assert Registration.objects.get(pk=registration.pk).position == 1


def test_a_bad_pair_on_the_check_in_is_a_message(setup) -> None:
    championship = setup["championship"]
    for pair, htmx in ((pair, htmx) for pair in ["-1", "²", "", "9" * 40, "0", "abc"]
                       for htmx in ({}, {"HTTP_HX_REQUEST": "true"})):
        answer = setup["client"].post(reverse("check_in", args=[championship.slug]),
                                      {"pair": pair, "present": "1"}, follow=True, **htmx)
        assert answer.status_code == 200
        assert "Aquesta parella no existeix" in answer.content.decode()
    assert not AuditEntry.objects.filter(action="pair.check_in").exists()


def test_an_unknown_registration_on_the_list_is_a_message(setup) -> None:
    championship = setup["championship"]
    for registration in ["-1", "²", "", "9" * 40]:
        answer = setup["client"].post(reverse("signup_list", args=[championship.slug]), {
            "action": "cancel", "registration": registration}, follow=True)
        assert answer.status_code == 200
        assert "Aquesta inscripció no existeix" in answer.content.decode(), registration


def test_another_championships_registration_is_unknown_here(setup) -> None:
    other = services.championship_create(
        name="Obert de Roda", date=datetime.date(2026, 12, 12), acting_user=None)
    signup.signup_settings_set(championship=other, signup_open=True, signup_cap=None,
                               check_in=False, site_url=SITE, acting_user=None)
    theirs = signup.signup_submit(championship=other, player1="Laia Serra",
                                  player2="Marc Font", email="l@example.org",
                                  site_url=SITE).registration
    answer = setup["client"].post(
        reverse("signup_list", args=[setup["championship"].slug]),
        {"action": "cancel", "registration": str(theirs.pk)}, follow=True)
    assert "Aquesta inscripció no existeix" in answer.content.decode()
    assert Registration.objects.get(pk=theirs.pk).status == "registered"


BAD_RULES = [
    ("best_of", "0"), ("best_of", "-2"), ("best_of", "abc"), ("best_of", "²"),
    ("min_events", "99999"), ("min_events", ""), ("min_events", "-1"),
    ("points_table", "cent, vuitanta"), ("points_table", "100, -5"),
    ("points_table", ", ".join(["1"] * 600)), ("points", "inventat"),
    ("name", ""), ("name", "\x07"),
]


def test_bad_circuit_rules_name_their_field_and_write_nothing(db: None) -> None:
    organiser = UserFactory(is_superuser=True)
    circuit = services.circuit_create(name="Circuit de proves", acting_user=organiser)
    client = Client()
    client.force_login(organiser)
    for field, value in BAD_RULES:
        data = {"action": "rules", "name": "Circuit de proves", "points": "place_table",
                "points_table": "10, 5", "best_of": "", "min_events": "1", field: value}
        answer = client.post(reverse("circuit_manage", args=[circuit.slug]), data)
        assert answer.status_code == 200, (field, value)
        assert 'class="errorlist' in answer.content.decode(), (field, value)
    assert Circuit.objects.get(pk=circuit.pk).version == circuit.version


def test_the_same_pair_again_from_another_browser_does_not_get_its_cancel_link(
    setup,
) -> None:
    """A double tap of one browser shows its answer again; the same names and contact
    typed in another browser within the minute (someone who knows them) do not lead to
    the page that holds the cancel link."""
    championship = setup["championship"]
    url = reverse("signup", args=[championship.slug])
    data = {"player1": "Marta Soler", "player2": "Joan Riera", "email": "m@example.org"}
    pair, intruder = Client(), Client()
    first = pair.post(url, data)
    assert first.status_code == 302
    registration = Registration.objects.get(email="m@example.org")
    assert registration.cancel_token in first["Location"]
    again = pair.post(url, data)
    assert again.status_code == 302 and again["Location"] == first["Location"]
    other = intruder.post(url, data)
    assert other.status_code == 200
    body = other.content.decode()
    assert registration.cancel_token not in body
    assert "Aquesta parella ja s&#x27;ha inscrit fa un moment" in body
    assert Registration.objects.filter(email="m@example.org").count() == 1
