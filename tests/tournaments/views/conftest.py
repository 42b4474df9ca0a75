"""Fixtures of the page tests: the small championship with users that can log in."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.tournaments.conftest import Small


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache (the live pages keep rendered fragments)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def web(small: Small) -> Small:
    """``small`` with its users' passwords stored: ``UserFactory`` sets the password
    after creation without saving it, so a session would not survive the next request."""
    for user in (small.organiser, small.referee):
        user.save()  # type: ignore[attr-defined]
    return small
