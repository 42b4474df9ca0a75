"""Device cookies (OWASP's remedy for lockout denial of service, tournaments/devices.py):
strangers typing wrong passwords for a referee lock out only the clients that never
signed in as that referee; the referee's phone, which did, still signs in. Refused
attempts do not restart the cool-off, and the organiser's unlock is not undone by them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.api.conftest import PASSWORD, Api
from tournaments.devices import COOKIE_NAME

pytestmark = pytest.mark.django_db

REFEREE = "arbitre-prova"


def _login(client: Client, username: str, password: str, url: str = "login") -> Any:
    return client.post(reverse(url), {"username": username, "password": password})


def _phone(username: str = REFEREE, address: str = "10.1.0.1") -> Client:
    """A phone that signed in before as ``username`` and then lost its session (the
    session cookie gone, the device cookie kept)."""
    phone = Client(REMOTE_ADDR=address)
    assert _login(phone, username, PASSWORD).status_code == 302
    assert phone.cookies[COOKIE_NAME].value
    del phone.cookies[settings.SESSION_COOKIE_NAME]
    return phone


def test_twenty_anonymous_failures_then_the_referees_phone_signs_in(api: Api) -> None:
    """The issue's "What must show": 20 failures from the hall's shared address, on the
    login page, the token request and the admin's login; the referee's phone (same
    address) signs in; a client without the device cookie is refused after a few."""
    phone = _phone(address="10.1.0.1")
    statuses = []
    for n in range(20):
        stranger = Client(REMOTE_ADDR="10.1.0.1")
        if n % 3 == 0:
            statuses.append(_login(stranger, REFEREE, "x").status_code)
        elif n % 3 == 1:
            statuses.append(APIClient(REMOTE_ADDR="10.1.0.1").post(
                reverse("api_token"), {"username": REFEREE, "password": "x"},
                format="json").status_code)
        else:
            statuses.append(_login(stranger, REFEREE, "x", "admin:login").status_code)
    limit = settings.AXES_FAILURE_LIMIT
    assert 429 not in statuses[:limit - 1]
    assert statuses[limit - 1:] == [429] * (20 - limit + 1)
    # The phone: in, with the right password, on the page and the API.
    assert _login(phone, REFEREE, PASSWORD).status_code == 302
    del phone.cookies[settings.SESSION_COOKIE_NAME]
    token = phone.post(reverse("api_token"), {"username": REFEREE, "password": PASSWORD},
                       content_type="application/json")
    assert token.status_code == 200 and token.json()["token"]
    # A client that never signed in as the referee: refused, right password or not.
    assert _login(Client(REMOTE_ADDR="10.1.0.1"), REFEREE, PASSWORD).status_code == 429


def test_the_token_request_gives_a_device_cookie_the_api_honours(api: Api) -> None:
    device = APIClient(REMOTE_ADDR="10.1.0.2")
    first = device.post(reverse("api_token"), {"username": REFEREE, "password": PASSWORD},
                        format="json")
    assert first.status_code == 200 and COOKIE_NAME in first.cookies
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), REFEREE, "x")
    again = device.post(reverse("api_token"), {"username": REFEREE, "password": PASSWORD},
                        format="json")
    assert again.status_code == 200 and again.json()["token"] == first.json()["token"]


def test_a_device_is_limited_by_its_own_failures_only(api: Api) -> None:
    """A device cookie is no free pass: its own wrong passwords lock that device out for
    that user (a stolen cookie buys a few tries), and not the referee's other phone."""
    thief = _phone(address="10.1.0.3")
    phone = _phone(address="10.1.0.4")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(thief, REFEREE, "x")
    assert _login(thief, REFEREE, PASSWORD).status_code == 429
    assert _login(phone, REFEREE, PASSWORD).status_code == 302


def test_a_device_cookie_counts_only_for_the_users_who_signed_in_on_it(api: Api) -> None:
    phone = _phone(address="10.1.0.5")  # the referee's, not the head referee's
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), "principal-prova", "x")
    assert _login(phone, "principal-prova", PASSWORD).status_code == 429
    assert _login(phone, REFEREE, PASSWORD).status_code == 302


def test_a_forged_or_altered_device_cookie_is_no_device_cookie(api: Api) -> None:
    phone = _phone(address="10.1.0.6")
    real = phone.cookies[COOKIE_NAME].value
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(), REFEREE, "x")
    for forged in (real[:-2] + ("AA" if not real.endswith("AA") else "BB"), "x:y:z"):
        client = Client()
        client.cookies[COOKIE_NAME] = forged
        assert _login(client, REFEREE, PASSWORD).status_code == 429
    assert _login(phone, REFEREE, PASSWORD).status_code == 302


def test_the_admin_login_honours_the_device_cookie(api: Api) -> None:
    UserFactory(username="gestor", is_staff=True, is_superuser=True)
    admin_phone = Client(REMOTE_ADDR="10.1.0.7")
    assert _login(admin_phone, "gestor", "contrasenya-prova", "admin:login") \
        .status_code == 302
    del admin_phone.cookies[settings.SESSION_COOKIE_NAME]
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login(Client(REMOTE_ADDR="10.1.0.7"), "gestor", "x", "admin:login")
    assert _login(Client(REMOTE_ADDR="10.1.0.7"), "gestor", "contrasenya-prova",
                  "admin:login").status_code == 429
    assert _login(admin_phone, "gestor", "contrasenya-prova", "admin:login") \
        .status_code == 302


def test_refused_attempts_do_not_restart_the_cool_off(api: Api) -> None:
    """One wrong password every 14 minutes no longer keeps a name locked all day: the
    attempts refused during a lockout are not counted, so it ends a cool-off after the
    failure that made it."""
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit):
        _login(Client(), REFEREE, "x")
    made = AccessAttempt.objects.filter(username=REFEREE).values_list(
        "attempt_time", flat=True).get()
    for _ in range(10):
        assert _login(Client(), REFEREE, "x").status_code == 429
    stored = AccessAttempt.objects.filter(username=REFEREE).get()
    assert (stored.failures_since_start, stored.attempt_time) == (limit, made)
    AccessAttempt.objects.filter(username=REFEREE).update(
        attempt_time=made - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert _login(Client(), REFEREE, PASSWORD).status_code == 302


def test_the_organisers_unlock_lasts(api: Api) -> None:
    """After the unlock, the refused attempts that went before it do not come back and
    a new lockout needs the whole limit of new failures: a referee on a new phone signs
    in between a stranger's attempts."""
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit + 5):
        _login(Client(REMOTE_ADDR="10.1.0.8"), REFEREE, "x")
    organiser = Client()
    organiser.force_login(api.small.organiser)
    organiser.post(reverse("lockouts"), {"username": REFEREE})
    for _ in range(limit - 1):
        assert _login(Client(REMOTE_ADDR="10.1.0.8"), REFEREE, "x").status_code == 200
    assert _login(Client(REMOTE_ADDR="10.1.0.9"), REFEREE, PASSWORD).status_code == 302


def test_the_lockouts_page_tells_a_known_device_apart(api: Api) -> None:
    phone = _phone(address="10.1.0.10")
    _login(phone, REFEREE, "x")
    _login(Client(REMOTE_ADDR="10.1.0.11"), REFEREE, "x")
    organiser = Client()
    organiser.force_login(api.small.organiser)
    page = organiser.get(reverse("lockouts")).content.decode()
    assert "10.1.0.10 (dispositiu conegut): 1" in page
    assert "10.1.0.11: 1" in page
