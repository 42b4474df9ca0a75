"""The referees' service worker: served under the championship's referee pages, so that
its scope (by default, the script's folder) is theirs and no wider."""

from __future__ import annotations

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
