"""Small helpers shared by the page tests."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Board, Result, Seating


def entry_url(small: Small, seating: Seating, board: Board) -> str:
    return reverse(
        "result_entry",
        args=[small.championship.slug, seating.round.number, seating.table.number, board.number],
    )


def record(seating: Seating, board: Board, ns_points: int = 40, **data: Any) -> Result:
    """A result entered by the system (no web request), as another referee would."""
    return services.result_record(
        seating=seating, board=board, trump=data.pop("trump", "O"),
        ns_points_taken=ns_points, expected_version=data.pop("expected_version", None),
        acting_user=None, **data,
    ).result


def form_data(**overrides: Any) -> dict[str, Any]:
    """A valid result form: oros, 40 points to NS, no doubles."""
    data: dict[str, Any] = {"trump": "O", "ns_points_taken": "40", "infraction": "", "note": ""}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def fresh_get(client: Any, url: str, *args: Any, **kwargs: Any) -> Any:
    """GET with the live pages' fragment cache emptied first, so the page computes its
    values and the test can read them from ``response.context`` (a cached fragment
    brings only its HTML)."""
    from django.core.cache import cache

    cache.clear()
    return client.get(url, *args, **kwargs)
