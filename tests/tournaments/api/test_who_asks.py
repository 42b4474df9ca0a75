"""Answers that depend on who asks say so to caches: every API answer varies on
Authorization and Cookie, an answer to a signed-in user (token or session) is private,
and pages carry the Content-Security-Policy."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import Api


def _vary(response) -> set[str]:  # type: ignore[no-untyped-def]
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


def test_a_referees_answer_about_a_hidden_board_is_private_and_varies(api: Api) -> None:
    client = api.token_client(api.small.referee)
    assert client.put(api.url(), {"trump": "O", "ns_points_taken": 40},
                      format="json").status_code == 201
    staff = client.get(api.url())  # board 1 still hidden: only staff see it
    assert staff.status_code == 200
    assert "private" in staff["Cache-Control"]
    assert {"authorization", "cookie"} <= _vary(staff)
    slug = api.small.championship.slug
    for name, args in (("api_traveller", [slug, 1]), ("api_results", [slug])):
        answer = client.get(reverse(name, args=args))
        assert "private" in answer["Cache-Control"], name
        assert {"authorization", "cookie"} <= _vary(answer), name


def test_an_anonymous_api_answer_is_not_private_but_still_varies(api: Api) -> None:
    answer = APIClient().get(reverse("api_standings", args=[api.small.championship.slug]))
    assert answer.status_code == 200
    assert "private" not in answer.get("Cache-Control", "")
    assert {"authorization", "cookie"} <= _vary(answer)


def test_a_signed_in_page_is_private_and_every_page_has_the_policy(api: Api) -> None:
    client = Client()
    url = reverse("standings", args=[api.small.championship.slug])
    anonymous = client.get(url)
    assert "private" not in anonymous.get("Cache-Control", "")
    client.force_login(api.small.referee)
    signed_in = client.get(url)
    assert "private" in signed_in["Cache-Control"] and "cookie" in _vary(signed_in)
    policy = signed_in["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
