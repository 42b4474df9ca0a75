"""Fixtures of the API tests: the small championship with its users able to log in, a
head referee, an outsider (referee of another championship) and DRF's API client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Membership
from tournaments.services import access

PASSWORD = "una-contrasenya-llarga"


@dataclass
class Api:
    small: Small
    head: Any
    outsider: Any  # referee of another championship
    nobody: Any  # logged-in user with no role

    def url(self, round: int = 1, table: int = 1, board: int | None = None) -> str:
        number = self.small.boards[0].number if board is None else board
        return reverse("api_result", args=[self.small.championship.slug, round, table, number])

    def token_client(self, user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {access.token_for(user=user)}")
        return client


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any) -> None:
    cache.clear()  # rate-limit counters of one test never reach the next
    # A fast hasher: these tests check who may do what, not password storage.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api(small: Small) -> Api:
    for user in (small.organiser, small.referee):
        user.set_password(PASSWORD)
        user.save()
    head = UserFactory(username="principal-prova")
    head.set_password(PASSWORD)
    head.save()
    services.membership_grant(
        championship=small.championship, user=head, role=Membership.Role.HEAD_REFEREE,
        acting_user=None,
    )
    other = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    outsider = UserFactory(username="arbitre-altre")
    outsider.set_password(PASSWORD)
    outsider.save()
    services.membership_grant(
        championship=other, user=outsider, role=Membership.Role.ORGANISER, acting_user=None,
    )
    nobody = UserFactory(username="ningu")
    nobody.set_password(PASSWORD)
    nobody.save()
    return Api(small=small, head=head, outsider=outsider, nobody=nobody)


def body(points: int = 40, **extra: Any) -> dict[str, Any]:
    """A valid result: oros, ``points`` to NS."""
    return {"trump": "O", "ns_points_taken": points, **extra}
