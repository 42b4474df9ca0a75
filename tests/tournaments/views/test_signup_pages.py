"""The sign-up and check-in pages: the public form and its cancel link, the contact
kept off every public page and the check-in page, who may open what, the address's
limit, the htmx tap."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Championship, Membership, Pair, Registration
from tournaments.services import signup

pytestmark = pytest.mark.django_db

SITE = "http://testserver"
EMAIL, PHONE = "secret.contact@example.org", "+34 611 222 333"


@pytest.fixture
def open_signup(db: None) -> dict[str, object]:
    """A championship with its sign-up open (2 places), an organiser, a referee, a
    check-in helper, one pair signed up with an e-mail and a phone, its pair made."""
    championship = services.championship_create(
        name="Obert de Manlleu", date=datetime.date(2026, 12, 12), venue="Manlleu",
        acting_user=None)
    users = {}
    for role in (Membership.Role.ORGANISER, Membership.Role.REFEREE,
                 Membership.Role.CHECK_IN):
        users[role] = UserFactory()
        users[role].save()
        services.membership_grant(championship=championship, user=users[role], role=role,
                                  acting_user=None)
    signup.signup_settings_set(championship=championship, signup_open=True, signup_cap=2,
                               check_in=True, site_url=SITE,
                               acting_user=users[Membership.Role.ORGANISER])
    first = signup.signup_submit(championship=championship, player1="Núria Fuentes",
                                 player2="Josep Vilaseca", email=EMAIL, phone=PHONE,
                                 site_url=SITE).registration
    signup.pairs_from_signup(championship=championship, acting_user=None)
    championship.refresh_from_db()
    return {"championship": championship, "first": first, **users}


def client_of(user: object | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post_signup(client: Client, championship: Championship, k: int, **extra: str):
    return client.post(reverse("signup", args=[championship.slug]), {
        "player1": f"Marta Soler {k}", "player2": f"Joan Riera {k}",
        "email": f"p{k}@example.org", **extra})


def test_the_form_signs_a_pair_up_and_over_the_cap_tells_it_its_waiting_place(
    open_signup, mailoutbox, django_capture_on_commit_callbacks,
) -> None:
    championship = open_signup["championship"]
    client = Client()
    page = client.get(reverse("signup", args=[championship.slug]))
    assert "Queda 1 plaça lliure" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        held = post_signup(client, championship, 1)
        waiting = post_signup(client, championship, 2)
    assert held.status_code == 302 and waiting.status_code == 302
    answer = client.get(waiting["Location"]).content.decode()
    assert "llista d'espera, en el lloc 1" in answer
    assert Registration.objects.get(email="p1@example.org").status == "registered"
    assert [m.to for m in mailoutbox] == [["p1@example.org"], ["p2@example.org"]]


def test_a_double_tap_on_the_form_makes_one_registration(open_signup) -> None:
    championship = open_signup["championship"]
    client = Client()
    first, second = (post_signup(client, championship, 1) for _ in range(2))
    assert first["Location"] == second["Location"]
    assert Registration.objects.filter(email="p1@example.org").count() == 1


def test_a_robot_filling_the_hidden_field_signs_nobody_up(open_signup) -> None:
    championship = open_signup["championship"]
    page = post_signup(Client(), championship, 1, website="http://spam.example")
    assert page.status_code == 200
    assert not Registration.objects.filter(email="p1@example.org").exists()


def test_the_form_is_limited_per_address(open_signup, settings) -> None:
    settings.SIGNUPS_PER_HOUR = 1
    championship = open_signup["championship"]
    client = Client()
    assert post_signup(client, championship, 1).status_code == 302
    refused = post_signup(client, championship, 2)
    assert refused.status_code == 429
    assert "Massa inscripcions" in refused.content.decode()
    assert not Registration.objects.filter(email="p2@example.org").exists()


def test_a_closed_sign_up_says_so(open_signup) -> None:
    championship = open_signup["championship"]
    signup.signup_settings_set(championship=championship, signup_open=False, signup_cap=2,
                               check_in=True, site_url=SITE, acting_user=None)
    page = Client().get(reverse("signup", args=[championship.slug])).content.decode()
    assert "signup-closed" in page and "signup-form" not in page
    assert post_signup(Client(), championship, 5).status_code == 200
    assert not Registration.objects.filter(email="p5@example.org").exists()


def test_the_cancel_link_asks_then_cancels_and_moves_the_waiting_list_up(
    open_signup, mailoutbox, django_capture_on_commit_callbacks,
) -> None:
    championship = open_signup["championship"]
    client = Client()
    post_signup(client, championship, 1)
    post_signup(client, championship, 2)  # waits
    first = open_signup["first"]
    url = reverse("signup_cancel", args=[championship.slug, first.cancel_token])
    assert "Sí, cancel·lar" in client.get(url).content.decode()
    first.refresh_from_db()
    assert first.status == "registered"  # a GET (a mail scanner) cancels nothing
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    first.refresh_from_db()
    assert first.status == "cancelled"
    assert Registration.objects.get(email="p2@example.org").status == "registered"
    assert any(m.to == ["p2@example.org"] for m in mailoutbox)
    assert client.get(reverse("signup_cancel", args=[championship.slug, "nope"])
                      ).status_code == 404


def test_the_contact_is_on_no_public_page_nor_on_the_check_in_page(open_signup) -> None:
    championship = open_signup["championship"]
    slug = championship.slug
    first = open_signup["first"]
    public = [reverse(name, args=args) for name, args in (
        ("championship", [slug]), ("standings", [slug]), ("signup", [slug]),
        ("pair_card", [slug, 1]), ("signup_done", [slug, first.cancel_token]),
        ("signup_cancel", [slug, first.cancel_token]),
    )] + [f"/api/v1/c/{slug}/pairs/"]
    helper = client_of(open_signup[Membership.Role.CHECK_IN])
    pages = [Client().get(url) for url in public]
    pages.append(helper.get(reverse("check_in", args=[slug])))
    for page in pages:
        text = page.content.decode()
        assert EMAIL not in text and "611 222" not in text, page.wsgi_request.path
    assert "Núria Fuentes" in pages[-1].content.decode()
    # The organiser's list and its CSV have it.
    organiser = client_of(open_signup[Membership.Role.ORGANISER])
    assert EMAIL in organiser.get(reverse("signup_list", args=[slug])).content.decode()
    csv = organiser.get(reverse("signup_list", args=[slug]) + "?format=csv")
    assert PHONE in csv.content.decode("utf-8-sig")


def test_a_referee_cannot_open_the_list_and_the_helper_checks_in_only(open_signup) -> None:
    championship = open_signup["championship"]
    slug = championship.slug
    referee = client_of(open_signup[Membership.Role.REFEREE])
    helper = client_of(open_signup[Membership.Role.CHECK_IN])
    assert referee.get(reverse("signup_list", args=[slug])).status_code == 403
    assert referee.get(reverse("check_in", args=[slug])).status_code == 403
    assert helper.get(reverse("signup_list", args=[slug])).status_code == 403
    assert Client().get(reverse("signup_list", args=[slug])).status_code == 302  # login
    assert helper.get(reverse("check_in", args=[slug])).status_code == 200


def test_a_tap_ticks_the_pair_present_through_htmx_and_a_double_tap_changes_nothing(
    open_signup,
) -> None:
    championship = open_signup["championship"]
    helper = client_of(open_signup[Membership.Role.CHECK_IN])
    url = reverse("check_in", args=[championship.slug])
    for _ in range(2):
        answer = helper.post(url, {"pair": "1", "present": "1"}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
    text = answer.content.decode()
    assert 'id="check-in-list"' in text and "<html" not in text
    assert "1 present de 1" in text  # one pair: singular
    assert Pair.objects.get(championship=championship, number=1).checked_in_at is not None
    assert AuditEntry.objects.filter(championship=championship,
                                     action=AuditEntry.Action.PAIR_CHECK_IN).count() == 1
    found = helper.get(url, {"find": "nuria"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Núria Fuentes" in found
    assert "Núria" not in helper.get(url, {"find": "zzz"},
                                     HTTP_HX_REQUEST="true").content.decode()


def test_the_organiser_acts_on_the_list_and_makes_the_pairs_from_the_page(open_signup,
                                                                          ) -> None:
    championship = open_signup["championship"]
    organiser = client_of(open_signup[Membership.Role.ORGANISER])
    url = reverse("signup_list", args=[championship.slug])
    organiser.post(url, {"action": "add", "add-player1": "Pere Casals",
                         "add-player2": "Marta Pujol", "add-phone": "600 111 222"})
    added = Registration.objects.get(player1_name="Pere Casals")
    organiser.post(url, {"action": "paid", "registration": added.pk})
    organiser.post(url, {"action": "move", "registration": added.pk, "position": "1"})
    organiser.post(url, {"action": "make_pairs"})
    added.refresh_from_db()
    assert added.paid and added.position == 1 and added.pair is not None
    assert added.pair.number == 2
    page = organiser.get(url).content.decode()
    assert "Pere Casals" in page and "pagades: 1" in page
    # The championship's page links the list and says the sign-up is open.
    home = organiser.get(reverse("championship", args=[championship.slug])).content.decode()
    assert 'id="signup-list-link"' in home and 'id="signup-open"' in home
    # The log reads each sign-up row in words, without the contact.
    log = organiser.get(reverse("audit_log", args=[championship.slug]))
    assert log.status_code == 200
    text = log.content.decode()
    assert "Inscripció pagada" in text and "600 111 222" not in text


def test_a_pair_added_by_hand_over_the_cap_is_told_it_waits(open_signup) -> None:
    championship = open_signup["championship"]
    organiser = client_of(open_signup[Membership.Role.ORGANISER])
    url = reverse("signup_list", args=[championship.slug])
    post_signup(Client(), championship, 1)  # the second and last place
    page = organiser.post(url, {"action": "add", "add-player1": "Pere Casals",
                                "add-player2": "Marta Pujol", "add-phone": "600 111 222"},
                          follow=True).content.decode()
    assert "Afegida a la llista d&#x27;espera (lloc 1): Pere Casals" in page


def test_the_api_gives_the_list_to_the_organiser_only_and_adds_a_pair_once(
    open_signup,
) -> None:
    championship = open_signup["championship"]
    url = f"/api/v1/c/{championship.slug}/signup/"
    assert Client().get(url).status_code in (401, 403)
    assert client_of(open_signup[Membership.Role.REFEREE]).get(url).status_code == 403
    assert client_of(open_signup[Membership.Role.CHECK_IN]).get(url).status_code == 403
    organiser = client_of(open_signup[Membership.Role.ORGANISER])
    rows = organiser.get(url).json()
    assert rows[0]["email"] == EMAIL and rows[0]["pair"] == 1
    body = {"player1": "Pere Casals", "player2": "Marta Pujol", "phone": "600 111 222"}
    first = organiser.post(url, body, content_type="application/json")
    again = organiser.post(url, body, content_type="application/json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    bad = organiser.post(url, {"player1": "Pere", "player2": "Marta"},
                         content_type="application/json")
    assert bad.status_code == 400


def test_the_phone_field_and_the_list_are_styled_for_a_phone() -> None:
    """The form's phone field (type tel) gets the fields' style (it was a bare 150 px
    box), and on a phone the organiser's list stacks each registration with its actions
    (they were out of sight, in a table scrolled sideways)."""
    import re
    from pathlib import Path

    css = (Path(__file__).resolve().parents[3] / "static/tournaments/site.css").read_text()
    fields_rule = css[:css.index("{", css.index("input[type=text], input[type=number]"))]
    assert "input[type=tel]" in fields_rule
    phone = re.search(r"@media \(max-width: 640px\) \{\s*#registrations thead \{ display: none",
                      css)
    assert phone is not None
    template = (Path(__file__).resolve().parents[3]
                / "templates/tournaments/signup/list.html").read_text()
    assert 'name="position" type="text"' in template
