"""Redis down (a cache at an address where nothing listens): the circuit's pages, its
API and PDF still answer, each time; the public sign-up still takes a pair (its limit
per address fails open)."""

from __future__ import annotations

import datetime
import time

import pytest
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Registration
from tournaments.services import signup

pytestmark = pytest.mark.django_db

DEAD = {"default": {"BACKEND": "tournaments.cache.RedisCacheOrNothing",
                    "LOCATION": "redis://127.0.0.1:1/0",
                    "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}


@override_settings(CACHES=DEAD, RATELIMIT_USE_CACHE="default")
def test_with_redis_down_the_circuit_pages_and_the_sign_up_answer() -> None:
    assert type(caches["default"]).__name__ == "RedisCacheOrNothing"
    organiser = UserFactory(is_superuser=True)
    circuit = services.circuit_create(name="Circuit sense memòria", acting_user=organiser)
    championship = services.championship_create(
        name="Obert de Folgueroles", date=datetime.date(2026, 12, 12), acting_user=None)
    services.circuit_event_add(circuit=circuit, championship=championship,
                               acting_user=organiser)
    signup.signup_settings_set(championship=championship, signup_open=True,
                               signup_cap=None, check_in=False,
                               site_url="http://testserver", acting_user=None)
    client = Client()
    started = time.perf_counter()
    for _ in range(2):
        assert client.get(reverse("circuit", args=[circuit.slug])).status_code == 200
        assert client.get(reverse("api_circuit", args=[circuit.slug])).status_code == 200
        # The PDF itself when its job is done, else the job's page (the print job runs
        # in-process or on a worker, depending on the environment): either answers.
        pdf = client.get(reverse("circuit_pdf", args=[circuit.slug]), follow=True)
        assert pdf.status_code == 200
        assert (pdf["Content-Type"] == "application/pdf"
                or "/prints/" in pdf.redirect_chain[-1][0])
    answer = client.post(reverse("signup", args=[championship.slug]), {
        "player1": "Marta Soler", "player2": "Joan Riera", "email": "m@example.org"})
    assert answer.status_code == 302
    assert Registration.objects.filter(championship=championship).count() == 1
    # One wait for the dead Redis, then the process leaves it alone for a while.
    assert time.perf_counter() - started < 6
