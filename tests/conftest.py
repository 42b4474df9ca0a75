"""Shared fixtures. Service-dependent fixtures live next to the tests that use them."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.services import require


@pytest.fixture
def on_postgres() -> None:
    """For tests that only mean something on PostgreSQL (row locks, concurrency)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    require(engine.endswith("postgresql"), "needs PostgreSQL: set DATABASE_URL=postgres://...")
