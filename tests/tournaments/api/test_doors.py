"""Doors: login and token attempts are limited per user name for the clients without its
device cookie (django-axes; the device cookies in test_device_cookies.py), the
locked-out user reads why, the organiser unlocks; an address may start
only so many print jobs a minute; the API docs load nothing from outside the server."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import PASSWORD, Api
from tests.tournaments.views.helpers import record
from tournaments.models import PrintJob

pytestmark = pytest.mark.django_db


def _fail_logins(client: Client, username: str, times: int, **extra: Any) -> Any:
    response = None
    for _ in range(times):
        response = client.post(reverse("login"), {"username": username, "password": "x"},
                               **extra)
    return response


def test_five_failed_logins_lock_the_user_out_with_a_clear_message(api: Api) -> None:
    client = Client()
    assert _fail_logins(client, "arbitre-prova", 4).status_code == 200  # the form again
    locked = _fail_logins(client, "arbitre-prova", 1)
    assert locked.status_code == 429
    page = html.unescape(locked.content.decode())
    assert 'id="locked-out"' in page and "Massa intents d'entrada fallits" in page
    # Even the right password is refused now, from that address.
    again = Client().post(
        reverse("login"), {"username": "arbitre-prova", "password": PASSWORD})
    assert again.status_code == 429


def test_wrong_passwords_from_one_address_lock_the_name_at_every_address(
    api: Api,
) -> None:
    """Without a device cookie the address does not matter: the proxy's forwarded
    address, or a stranger moving between networks, cannot buy more tries."""
    stranger = Client(REMOTE_ADDR="10.0.0.1")
    assert _fail_logins(stranger, "arbitre-prova", 5).status_code == 429
    elsewhere = Client(REMOTE_ADDR="10.0.0.2").post(
        reverse("login"), {"username": "arbitre-prova", "password": PASSWORD})
    assert elsewhere.status_code == 429
    token = APIClient(REMOTE_ADDR="10.0.0.3").post(
        reverse("api_token"), {"username": "arbitre-prova", "password": PASSWORD},
        format="json")
    assert token.status_code == 429 and "token" not in token.json()
    # Another user name is not touched.
    other = Client(REMOTE_ADDR="10.0.0.1").post(
        reverse("login"), {"username": "principal-prova", "password": PASSWORD})
    assert other.status_code == 302


def test_the_lockout_page_is_in_the_users_language(api: Api) -> None:
    locked = _fail_logins(Client(), "arbitre-prova", 5, HTTP_ACCEPT_LANGUAGE="en")
    assert locked.status_code == 429
    assert locked["Content-Language"] == "en"


def test_failures_under_many_user_names_do_not_lock_a_shared_address(api: Api) -> None:
    """A hall's devices share one public address: five referees each mistyping once do
    not lock the sixth out."""
    client = Client(REMOTE_ADDR="10.0.0.7")
    for n in range(5):
        _fail_logins(client, f"inventat-{n}", 1)
    response = client.post(reverse("login"), {"username": "arbitre-prova",
                                              "password": PASSWORD})
    assert response.status_code == 302


def test_token_requests_count_towards_the_lockout_and_answer_in_json(api: Api) -> None:
    client = APIClient()
    for _ in range(4):
        wrong = client.post(reverse("api_token"),
                            {"username": "arbitre-prova", "password": "x"}, format="json")
        assert wrong.status_code == 400
    locked = client.post(reverse("api_token"),
                         {"username": "arbitre-prova", "password": "x"}, format="json")
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    right = client.post(reverse("api_token"),
                        {"username": "arbitre-prova", "password": PASSWORD}, format="json")
    assert right.status_code == 429 and "token" not in right.json()


def test_the_organiser_unlocks_a_referee_of_the_championship(api: Api) -> None:
    _fail_logins(Client(REMOTE_ADDR="10.0.0.5"), "arbitre-prova", 5)
    assert Client(REMOTE_ADDR="10.0.0.5").post(
        reverse("login"), {"username": "arbitre-prova", "password": PASSWORD}
    ).status_code == 429
    organiser = Client()
    organiser.force_login(api.small.organiser)
    page = organiser.get(reverse("lockouts"))
    assert page.status_code == 200 and "arbitre-prova" in page.content.decode()
    done = organiser.post(reverse("lockouts"), {"username": "arbitre-prova"}, follow=True)
    assert "Desbloquejat." in done.content.decode()
    login = Client(REMOTE_ADDR="10.0.0.5").post(
        reverse("login"), {"username": "arbitre-prova", "password": PASSWORD})
    assert login.status_code == 302


def _row(page: str, username: str) -> str:
    found = re.search(rf'<tr data-username="{re.escape(username)}">(.*?)</tr>', page, re.S)
    assert found, f"no row for {username}"
    return html.unescape(found.group(1))


def test_the_lockouts_page_shows_who_is_being_tried_and_from_where(api: Api) -> None:
    _fail_logins(Client(REMOTE_ADDR="10.0.0.11"), "arbitre-prova", 2)
    _fail_logins(Client(REMOTE_ADDR="10.0.0.12"), "arbitre-prova", 1)
    organiser = Client()
    organiser.force_login(api.small.organiser)
    row = _row(organiser.get(reverse("lockouts")).content.decode(), "arbitre-prova")
    assert "10.0.0.11: 2" in row and "10.0.0.12: 1" in row
    assert "<td>3</td>" in row and "s'està provant" in row and "bloquejat" not in row
    _fail_logins(Client(REMOTE_ADDR="10.0.0.12"), "arbitre-prova", 2)
    page = organiser.get(reverse("lockouts")).content.decode()
    row = _row(page, "arbitre-prova")
    assert "10.0.0.11: 2" in row and "10.0.0.12: 3" in row
    assert "<td>5</td>" in row and "bloquejat" in row
    assert page.count('value="arbitre-prova"') == 1  # one unlock button per user name


def test_an_organiser_cannot_unlock_a_user_of_another_championship(api: Api) -> None:
    _fail_logins(Client(), "arbitre-altre", 5)
    organiser = Client()
    organiser.force_login(api.small.organiser)
    assert "arbitre-altre" not in organiser.get(reverse("lockouts")).content.decode()
    refused = organiser.post(reverse("lockouts"), {"username": "arbitre-altre"}, follow=True)
    assert "no té cap rol en els vostres campionats" in html.unescape(
        refused.content.decode())
    still = Client().post(
        reverse("login"), {"username": "arbitre-altre", "password": PASSWORD})
    assert still.status_code == 429


def test_a_user_with_no_organiser_role_may_not_open_the_lockouts(api: Api) -> None:
    client = Client()
    client.force_login(api.small.referee)
    assert client.get(reverse("lockouts")).status_code == 403
    assert Client().get(reverse("lockouts")).status_code == 302  # to the login page


def test_an_address_may_start_only_so_many_print_jobs_a_minute(
    api: Api, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PRINT_JOBS_PER_MINUTE = 2
    slug = api.small.championship.slug
    client = APIClient(REMOTE_ADDR="10.1.1.1")
    url = f"/api/v1/c/{slug}/prints/"
    codes = []
    for round_number in (0, 1, 1):  # the third is a new request again: round 1 traveller
        with django_capture_on_commit_callbacks(execute=True):
            kind = "travellers" if round_number else "standings"
            codes.append(client.post(url, {"kind": kind, "round_number": round_number},
                                     format="json").status_code)
    # The second round-1 request reuses the done job of the same results: not counted.
    assert codes == [201, 201, 200]
    record(api.small.seatings[0], api.small.boards[0], 40)  # results change: a new job
    limited = client.post(url, {"kind": "standings"}, format="json")
    assert limited.status_code == 429
    assert "Massa documents" in limited.json()["detail"]
    assert PrintJob.objects.count() == 2
    other = APIClient(REMOTE_ADDR="10.1.1.2").post(url, {"kind": "standings"}, format="json")
    assert other.status_code == 201
    organiser = api.token_client(api.small.organiser)
    organiser.defaults["REMOTE_ADDR"] = "10.1.1.1"
    assert organiser.post(url, {"kind": "score-cards"}, format="json").status_code == 201


def test_the_api_docs_load_no_file_from_outside_the_server(client, settings: Any) -> None:
    for name in ("api-docs", "api-redoc"):
        page = client.get(reverse(name)).content.decode()
        sources = re.findall(r'(?:src|href)\s*=\s*["\']([^"\']+)', page)
        assert sources, name
        outside = [s for s in sources if re.match(r"^(https?:)?//", s)]
        assert not outside, (name, outside)
        for source in sources:
            if source.startswith(settings.STATIC_URL) or source.startswith("/static/"):
                assert finders.find(source.split("/static/", 1)[1]), source
    assert "cdn" not in client.get(reverse("api-docs")).content.decode().lower()


def test_the_prints_page_limits_an_address_like_the_api(
    api: Api, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PRINT_JOBS_PER_MINUTE = 1
    url = reverse("print_jobs", args=[api.small.championship.slug])
    client = Client(REMOTE_ADDR="10.2.2.2")
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, {"kind": "standings", "round_number": 0})
    assert first.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        second = client.post(url, {"kind": "score-cards", "round_number": 0})
    assert second.status_code == 200
    assert "Massa documents" in second.content.decode()
    assert PrintJob.objects.count() == 1
    other = Client(REMOTE_ADDR="10.2.2.3").post(url, {"kind": "score-cards", "round_number": 0})
    assert other.status_code == 302
    assert PrintJob.objects.count() == 2
