"""The players' persons through the API: the organiser reads the unlinked players with
the persons proposed and links them at once; others are refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.api.conftest import Api
from tournaments import services
from tournaments.models import Person, Player

pytestmark = pytest.mark.django_db


def test_the_organiser_reads_the_proposals_and_links_every_player(api: Api) -> None:
    small = api.small
    url = reverse("api_player_persons", args=[small.championship.slug])
    jordi = services.person_create(name="JORDI VILA", acting_user=None)
    assert api.token_client(api.head).get(url).status_code == 403
    client = api.token_client(small.organiser)
    rows = client.get(url).json()
    assert len(rows) == 8
    assert rows[0]["name"] == "Jordi Vila" and rows[0]["candidates"][0]["id"] == jordi.pk
    links = [{"player": r["player"], "person": (r["candidates"][0]["id"]
                                                if r["candidates"] else None)} for r in rows]
    bad = client.post(url, {"links": [{"player": rows[0]["player"], "person": 2**31 - 1}]},
                      format="json")
    assert bad.status_code == 400 and "persona" in bad.json()["detail"]
    response = client.post(url, {"links": links}, format="json")
    assert response.status_code == 200 and response.json() == {"linked": 8}
    assert not Player.objects.filter(championship=small.championship,
                                     person__isnull=True).exists()
    assert Person.objects.count() == 8
    assert client.get(url).json() == []
