"""Fixtures of the tables' links: the small championship (4 pairs, 2 tables, round 1
drawn, 2 boards) with table 1's secret, an anonymous client and a fresh cache (the
rate limits' counters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Seating


@dataclass
class Table:
    small: Small
    secret: str
    seating: Seating  # table 1 in round 1
    client: APIClient

    @property
    def ns(self) -> int:
        return self.seating.ns_pair.number

    @property
    def ew(self) -> int:
        return self.seating.ew_pair.number

    def board(self, index: int = 0) -> int:
        return self.small.boards[index].number

    def put(self, board: int, pair: int, key: str | None = None, secret: str | None = None,
            **values: Any) -> Any:
        body = {"trump": "O", "ns_points_taken": 50, **values, "entered_by": pair}
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        return self.client.put(
            reverse("api_table_result", args=[secret or self.secret, board]), body,
            format="json", **headers)

    def confirm(self, board: int, pair: int) -> Any:
        return self.client.post(reverse("api_table_result_confirm", args=[self.secret, board]),
                                {"pair": pair}, format="json")

    def dispute(self, board: int, pair: int, note: str) -> Any:
        return self.client.post(reverse("api_table_result_dispute", args=[self.secret, board]),
                                {"pair": pair, "note": note}, format="json")

    def state(self, secret: str | None = None) -> Any:
        return self.client.get(reverse("api_table", args=[secret or self.secret]))


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()  # the rate limits' counters of one test never reach the next


@pytest.fixture
def table(small: Small) -> Table:
    seating = small.seatings[0]
    access = services.table_secret(championship=small.championship,
                                   table_number=seating.table.number)
    return Table(small=small, secret=access.secret, seating=seating,
                 client=APIClient(enforce_csrf_checks=True))
