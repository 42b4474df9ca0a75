"""API v1 traveller: the double-dummy table comes with the deal, never without it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.dd_helpers import analysed, fake_solver  # noqa: F401
from tournaments import services
from tournaments.models import Championship, Membership

pytestmark = pytest.mark.django_db


def board(client, championship: Championship, number: int) -> dict:  # type: ignore[no-untyped-def]
    response = client.get(reverse("api_traveller", args=[championship.slug, number]))
    assert response.status_code == 200
    return response.json()


def test_a_public_board_comes_with_its_table_and_par(client, analysed) -> None:  # noqa: F811
    data = board(client, analysed, 1)
    assert data["deal"] is not None
    assert data["double_dummy"] == {
        "declarer": "NS",
        "declarations": [
            {"trump": "O", "ns_points": 30, "ew_points": 42, "par": False},
            {"trump": "C", "ns_points": 41, "ew_points": 31, "par": False},
            {"trump": "E", "ns_points": 52, "ew_points": 20, "par": True},
            {"trump": "B", "ns_points": 20, "ew_points": 52, "par": False},
            {"trump": "botifarra", "ns_points": 36, "ew_points": 36, "par": False},
        ],
        "par": {"trump": "E", "ns_points": 52, "ew_points": 20, "par": True},
        "par_score": 16,
    }


def test_a_public_board_not_analysed_yet_has_a_null_table(client, analysed) -> None:  # noqa: F811
    data = board(client, analysed, 2)
    assert data["deal"] is not None and data["double_dummy"] is None


def test_a_hidden_board_gives_neither_deal_nor_table_to_the_public(
    client, analysed  # noqa: F811
) -> None:
    data = board(client, analysed, 3)
    assert (data["public"], data["deal"], data["double_dummy"]) == (False, None, None)


def test_the_organiser_gets_the_table_of_a_hidden_board_with_its_deal(
    client, analysed  # noqa: F811
) -> None:
    organiser = UserFactory(username="org-dd-api")
    services.membership_grant(championship=analysed, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(organiser)
    data = board(client, analysed, 3)
    assert data["public"] is False and data["deal"] is not None
    # Board 3: dealer S, NS name trump: espases again.
    assert data["double_dummy"]["declarer"] == "NS"
    assert data["double_dummy"]["par"]["trump"] == "E"
