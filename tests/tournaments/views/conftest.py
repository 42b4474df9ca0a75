"""Fixtures of the page tests: the small championship with users that can log in."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import Small


@pytest.fixture
def web(small: Small) -> Small:
    """``small`` with its users' passwords stored: ``UserFactory`` sets the password
    after creation without saving it, so a session would not survive the next request."""
    for user in (small.organiser, small.referee):
        user.save()  # type: ignore[attr-defined]
    return small
