"""A result save has PostgreSQL plan its statements again when the connection's plans are
older than DATABASE_REPLAN_SECONDS (tournaments/db/plans.py): a plan made on a nearly
empty table reads it whole however much it grows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.api.conftest import Api, body
from tournaments.db import plans

pytestmark = pytest.mark.django_db


def _explain(cursor, statement: str) -> str:  # type: ignore[no-untyped-def]
    cursor.execute(f"EXPLAIN EXECUTE {statement}")
    return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.usefixtures("on_postgres")
def test_a_plan_made_on_an_empty_table_is_made_again_once_it_grew(settings) -> None:
    settings.DATABASE_REPLAN_SECONDS = 5
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE plans_t (id integer PRIMARY KEY, v integer)")
        cursor.execute("ANALYZE plans_t")  # empty: as a new database's statistics say
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute("PREPARE plans_q(integer) AS SELECT v FROM plans_t WHERE id = $1")
        assert "Seq Scan" in _explain(cursor, "plans_q(1)")
        cursor.execute("INSERT INTO plans_t SELECT i, i FROM generate_series(1, 20000) i")
        assert "Seq Scan" in _explain(cursor, "plans_q(1)")  # the kept plan reads it all
        assert plans.replan_if_stale() is False  # the first call notes the time
        plans._PLANNED[connection.connection] -= 6
        assert plans.replan_if_stale() is True
        assert "Index Scan" in _explain(cursor, "plans_q(1)")
        assert plans.replan_if_stale() is False  # just done
        cursor.execute("DEALLOCATE plans_q")


@pytest.mark.usefixtures("on_postgres")
def test_a_result_put_discards_plans_older_than_the_setting(api: Api, settings) -> None:
    client = api.token_client(api.small.referee)
    client.put(api.url(board=api.small.boards[1].number), body(40), format="json")
    settings.DATABASE_REPLAN_SECONDS = 5
    plans.replan_if_stale()
    plans._PLANNED[connection.connection] -= 6
    with CaptureQueriesContext(connection) as ctx:
        response = client.put(api.url(), body(40), format="json")
    assert response.status_code == 201
    assert [q["sql"] for q in ctx.captured_queries].count("DISCARD PLANS") == 1
    with CaptureQueriesContext(connection) as ctx:
        assert client.put(api.url(), body(40), format="json").status_code == 200
    assert "DISCARD PLANS" not in [q["sql"] for q in ctx.captured_queries]


def test_never_with_the_setting_at_zero_nor_on_another_database(settings) -> None:
    settings.DATABASE_REPLAN_SECONDS = 0
    connection.ensure_connection()
    with CaptureQueriesContext(connection) as ctx:
        assert plans.replan_if_stale() is False
    assert ctx.captured_queries == []
    if connection.vendor != "postgresql":
        settings.DATABASE_REPLAN_SECONDS = 5
        assert plans.replan_if_stale() is False
