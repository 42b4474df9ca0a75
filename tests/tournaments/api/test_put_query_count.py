"""A result's save through the API reads and writes a fixed number of statements,
whatever the size of the championship (docs/decisions.md 45)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.api.conftest import Api, body

pytestmark = pytest.mark.django_db

#: token and user, the seating located and locked with the board's id, the checks and
#: (on PostgreSQL) the user's roles, the roles elsewhere, the current result's lock, the
#: result with its pair-board rows, audit row and version bump (one statement on
#: PostgreSQL, four elsewhere), the board's visibility (plus BEGIN and COMMIT where
#: captured).
CREATE_STATEMENTS = 5 if connection.vendor == "postgresql" else 9
#: the same values again: no write.
UNCHANGED_STATEMENTS = 4 if connection.vendor == "postgresql" else 5


def _counted(client, url: str, **extra: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as ctx:
        response = client.put(url, body(40), format="json", **extra)
    statements = [q["sql"] for q in ctx.captured_queries
                  if q["sql"].split()[0].upper() not in ("BEGIN", "COMMIT", "SAVEPOINT",
                                                          "RELEASE")]
    return response.status_code, len(statements)


def test_a_put_costs_a_fixed_number_of_statements(api: Api) -> None:
    client = api.token_client(api.small.referee)
    client.put(api.url(board=api.small.boards[1].number), body(40), format="json")
    assert _counted(client, api.url()) == (201, CREATE_STATEMENTS)
    assert _counted(client, api.url()) == (200, UNCHANGED_STATEMENTS)
