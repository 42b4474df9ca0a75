"""With duplicate doubling and default rules, the API refuses a Sant Vicenç naming the
rule (docs/decisions.md "Sant Vicenç by default")."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments.api.conftest import Api
from tournaments.models import Result

pytestmark = pytest.mark.django_db

RULE = "regla «Sant Vicenç permès»: no"
SANT_VICENC = {"contro": True, "recontro": True, "sant_vicenc": True}


def test_with_default_rules_the_api_refuses_a_sant_vicenc_naming_the_rule(api: Api) -> None:
    client = api.token_client(api.small.referee)
    response = client.put(api.url(), {"trump": "O", "ns_points_taken": 40, **SANT_VICENC},
                          format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == ["sant_vicenc"]
    assert RULE in errors[0]["message"]
    with translation.override("en"):
        english = client.put(api.url(), {"trump": "O", "ns_points_taken": 40, **SANT_VICENC},
                             format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert "Sant Vicenç" in english.json()["errors"][0]["message"]
    assert Result.objects.count() == 0
