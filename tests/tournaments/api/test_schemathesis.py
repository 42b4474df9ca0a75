"""Schemathesis against the API's own schema, in-process (WSGI), bounded.

For every operation of ``/api/schema/`` hypothesis generates requests from the schema
(``SCHEMATHESIS_EXAMPLES`` each, default 25) and checks: never a 500, every status code,
content type and body as the schema says. The championship's slug and the numbers in
paths are drawn from a real, half-played championship so that most requests reach real
rows; anonymous, a referee's token and the organiser's token take turns. A few minutes
on CI at most (the run's time is printed).
"""

from __future__ import annotations

import copy
import os
import time
from typing import Any

import pytest
import schemathesis
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.tournaments.api.conftest import Api
from tests.tournaments.views.helpers import record
from tournaments.services import access

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
SMALL = {"round", "table", "board", "number", "job_id"}


def _narrowed(schema: dict[str, Any], slug: str) -> dict[str, Any]:
    """The schema with ``slug`` fixed to the real championship and the numbers in paths
    kept small (1..3), so that generated requests find rows rather than 404 only."""
    schema = copy.deepcopy(schema)
    for item in schema["paths"].values():
        for operation in item.values():
            for parameter in operation.get("parameters", []) if isinstance(operation,
                                                                            dict) else []:
                if parameter.get("in") != "path":
                    continue
                if parameter["name"] == "slug":
                    parameter["schema"] = {"type": "string", "enum": [slug]}
                elif parameter["name"] in SMALL:
                    parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": 3}
    return schema


@pytest.fixture
def keep_the_test_connection() -> Any:
    """The WSGI handler closes the database connection at the end of each request
    (``close_old_connections``); inside a test that connection holds the test's
    transaction, so, as Django's own test client does, the signals are left out while
    schemathesis calls the application directly."""
    from django.core import signals
    from django.db import close_old_connections

    def detach() -> None:  # again after each request of Django's Client, which reconnects
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)

    yield detach
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def test_the_api_never_answers_500_and_every_response_matches_the_schema(
    api: Api, django_capture_on_commit_callbacks: Any, capsys: Any,
    keep_the_test_connection: Any,
) -> None:
    """Slow by design: schemathesis sends generated requests to every operation of the
    schema."""
    small = api.small
    record(small.seatings[0], small.boards[0], 50)
    record(small.seatings[1], small.boards[0], 30)
    record(small.seatings[0], small.boards[1], 67)  # board 2 hidden
    raw = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    keep_the_test_connection()
    schema = schemathesis.openapi.from_dict(_narrowed(raw, small.championship.slug))
    schema.app = application
    tokens = {
        "anonymous": {},
        "referee": {"Authorization": f"Token {access.token_for(user=small.referee)}"},
        "organiser": {"Authorization": f"Token {access.token_for(user=small.organiser)}"},
    }
    started = time.monotonic()
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), who=st.sampled_from(sorted(tokens)))
        def check(case: Any, who: str) -> None:
            with django_capture_on_commit_callbacks(execute=True):
                case.call_and_validate(headers=tokens[who], checks=CHECKS)

        check()
    elapsed = time.monotonic() - started
    with capsys.disabled():
        print(f"\nschemathesis: {operations} operations x {EXAMPLES} examples "
              f"in {elapsed:.1f} s")
    assert operations >= 17
