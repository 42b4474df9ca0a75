"""Odd values of ``round``/``through`` never give a 500: the API answers 400 naming the
parameter; the pages show the overall standings or a 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import Small

pytestmark = pytest.mark.django_db

BAD = ["-1", "abc", "99999999999999999999", "1.5", "²", " "]


@pytest.mark.parametrize("name", ["round", "through"])
@pytest.mark.parametrize("value", BAD)
def test_the_standings_api_refuses_a_bad_round_with_400_naming_it(
    client, small: Small, name: str, value: str
) -> None:
    url = reverse("api_standings", args=[small.championship.slug])
    response = client.get(url, {name: value})
    if not value.strip():  # empty: as if absent
        assert response.status_code == 200
        return
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [name]


def test_the_standings_api_still_takes_a_good_round(client, small: Small) -> None:
    url = reverse("api_standings", args=[small.championship.slug])
    data = client.get(url, {"round": "1"}).json()
    assert data["round"] == 1
    assert client.get(url, {"round": "9"}).status_code == 404


@pytest.mark.parametrize("name", ["round", "through", "scope"])
@pytest.mark.parametrize("value", [*BAD, "9", "round=abc", "through=-1"])
@pytest.mark.parametrize("page", ["standings", "hall", "live_standings", "live_hall"])
def test_no_round_value_gives_a_500_on_the_pages(
    client, small: Small, name: str, value: str, page: str
) -> None:
    response = client.get(reverse(page, args=[small.championship.slug]), {name: value})
    assert response.status_code in (200, 204, 404), (page, name, value)
