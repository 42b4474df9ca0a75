"""The referees' service worker: served under the championship's referee pages, so that
its scope (by default, the script's folder) is theirs and no wider."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_referees_worker_is_served_under_their_pages() -> None:
    url = reverse("referee_sw", args=["obert-de-prova"])
    assert url == "/c/obert-de-prova/referee/sw.js"
    assert url.rsplit("/", 1)[0] + "/" == reverse("referee_tables", args=["obert-de-prova"])
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in response  # no wider than its folder
    body = response.content.decode()
    assert "tournaments/referee_outbox.js" in body
    assert 'request.method !== "GET"' in body  # saving never answered from a cache


def _cache_name(body: str, prefix: str) -> str:
    pattern = ('const PREFIX = "' + re.escape(prefix)
               + r'";\nconst CACHE = PREFIX \+ "([0-9a-f]{12})";')
    found = re.search(pattern, body)
    assert found, body[:600]
    return found.group(1)


def test_the_workers_caches_are_named_by_deploy_and_the_old_ones_deleted(settings) -> None:
    referee = Client().get(reverse("referee_sw", args=["obert-de-prova"])).content.decode()
    table = Client().get("/t/sw.js").content.decode()
    first = _cache_name(referee, "botifarra-referee-")
    assert _cache_name(table, "botifarra-table-")
    assert "name.startsWith(PREFIX) && name !== CACHE" in referee  # the old ones go
    assert _cache_name(Client().get(reverse("referee_sw", args=["altre"])).content.decode(),
                       "botifarra-referee-") == first  # the same deploy: the same name
    # A deploy that changes the static files' names changes the cache's name.
    settings.STATIC_URL = "/static-nou/"
    again = Client().get(reverse("referee_sw", args=["obert-de-prova"])).content.decode()
    assert "/static-nou/tournaments/referee_outbox.js" in again
    assert _cache_name(again, "botifarra-referee-") != first


def test_logging_out_shows_the_page_that_clears_the_referees_copies() -> None:
    from tests.factories import UserFactory

    client = Client()
    client.force_login(UserFactory(username="arbitre-surt"))
    response = client.post(reverse("logout"))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="logged-out"' in page and "Heu sortit" in page
    assert "tournaments/logged_out.js" in page and "<script>" not in page
    assert "_auth_user_id" not in client.session
