"""Every bad input gets our words: a lone surrogate, an invalid choice, a value
of the wrong type, an unknown field, a missing body and a broken or foreign ``If-Match``
answer 400 (or the 409 of a stale tag) in the request's language, naming the field; never
a 500, and nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import Api, body
from tournaments.models import PrintJob, Result

SURROGATE = '{"trump": "\\ud800", "ns_points_taken": 40}'


def _put(client: APIClient, url: str, raw: str, lang: str = "ca", **headers: Any) -> Any:
    return client.put(url, raw, content_type="application/json",
                      HTTP_ACCEPT_LANGUAGE=lang, **headers)


def test_a_lone_surrogate_in_a_put_is_a_400_naming_the_field(api: Api) -> None:
    client = api.token_client(api.small.referee)
    response = _put(client, api.url(), SURROGATE)
    assert response.status_code == 400
    data = response.json()
    assert [e["field"] for e in data["errors"]] == ["trump"]
    assert data["detail"].startswith("El text conté un caràcter que no existeix")
    infraction = _put(client, api.url(), '{"infraction": "\\ud800"}')
    assert [e["field"] for e in infraction.json()["errors"]] == ["infraction"]
    nested = _put(client, api.url(), '{"adjusted": {"NS": "x\\udfff", "EW": "1"}}')
    assert [e["field"] for e in nested.json()["errors"]] == ["adjusted.NS"]
    assert Result.objects.count() == 0


def test_an_anonymous_print_request_with_a_lone_surrogate_is_a_400(api: Api) -> None:
    url = reverse("api_print_jobs", args=[api.small.championship.slug])
    response = APIClient().post(url, '{"kind": "\\ud800"}', content_type="application/json",
                                HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["kind"]
    assert "UTF-16" in response.json()["detail"] and "texto" in response.json()["detail"]
    assert PrintJob.objects.count() == 0


def test_an_unknown_field_is_a_400_naming_it_and_nothing_is_stored(api: Api) -> None:
    client = api.token_client(api.small.referee)
    response = client.put(api.url(), body(40, barraca=True), format="json",
                          HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "barraca", "message": "Unknown field: this request does not take it."}]
    nested = client.put(api.url(), body(40, adjusted={"NS": "3", "EW": "-3", "X": 1}),
                        format="json")
    assert [e["field"] for e in nested.json()["errors"]] == ["adjusted.X"]
    token = APIClient().post(reverse("api_token"), {"username": "a", "password": "b",
                                                    "remember": True}, format="json")
    assert [e["field"] for e in token.json()["errors"]] == ["remember"]
    assert Result.objects.count() == 0


def test_a_well_formed_tag_that_cannot_match_is_the_conflict_a_broken_one_400(
        api: Api) -> None:
    client = api.token_client(api.small.referee)
    etag = client.put(api.url(), body(40), format="json")["ETag"]
    for header in ('"999"', '"12"', f"W/{etag}", '""', '"abc"'):
        response = client.put(api.url(), body(41), format="json", HTTP_IF_MATCH=header)
        assert response.status_code == 409, header
        assert response.json()["current"]["values"]["ns_points_taken"] == 40
    for header in ("garbage", "*", '"12', f"{etag}, {etag}", 'W/"a" x'):
        response = client.put(api.url(), body(41), format="json", HTTP_IF_MATCH=header)
        assert response.status_code == 400, header
        assert [e["field"] for e in response.json()["errors"]] == ["If-Match"]
    gone = api.token_client(api.head).delete(api.url(), {"reason": "error"}, format="json",
                                             HTTP_IF_MATCH='"999"')
    assert gone.status_code == 409
    assert Result.objects.get().ns_points_taken == 40


#: (what is sent, the field named, the message in ca, es, en): DRF's own words that its
#: catalogues lack, and ours.
ERROR_PATHS = [
    ('{"trump": "O", "ns_points_taken": 40, "note": 5}', "note",
     ("Ha de ser un text entre cometes.", "Tiene que ser un texto entre comillas.",
      "Must be a text in quotes.")),
    ('{"trump": "O", "ns_points_taken": 40, "note": [5]}', "note",
     ("Ha de ser un text entre cometes.", "Tiene que ser un texto entre comillas.",
      "Must be a text in quotes.")),
    ("null", None,
     ("No s'ha enviat cap dada: envieu-hi un objecte JSON.",
      "No se ha enviado ningún dato: envíe un objeto JSON.",
      "No data was sent: send a JSON object.")),
    ("[1]", None,
     ("S'esperava un objecte JSON i s'ha rebut list.",
      "Se esperaba un objeto JSON y se ha recibido list.",
      "A JSON object was expected and list was received.")),
    ('{"trump": "O", "ns_points_taken": 40, "barraca": true}', "barraca",
     ("Camp desconegut: aquesta petició no l'accepta.",
      "Campo desconocido: esta petición no lo acepta.",
      "Unknown field: this request does not take it.")),
]


@pytest.mark.parametrize(("raw", "field", "messages"), ERROR_PATHS)
def test_each_error_path_speaks_the_requests_language(api: Api, raw: str, field: str | None,
                                                      messages: tuple[str, ...]) -> None:
    client = api.token_client(api.small.referee)
    for lang, message in zip(("ca", "es", "en"), messages, strict=True):
        response = _put(client, api.url(), raw, lang)
        assert response.status_code == 400
        assert response.json()["errors"] == [{"field": field, "message": message}], lang


def test_a_session_write_without_csrf_is_refused_in_the_requests_language(api: Api) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(api.small.referee)
    said = {}
    for lang in ("ca", "es", "en"):
        response = client.put(api.url(), body(40), format="json", HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == 403
        said[lang] = response.json()["detail"]
        assert "CSRF" in said[lang] and "Failed" not in said[lang]
    assert len(set(said.values())) == 3
    assert Result.objects.count() == 0


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
    | st.text(st.characters(codec=None), max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
FIELDS = ["trump", "ns_points_taken", "delegated", "contro", "recontro", "sant_vicenc",
          "infraction", "adjusted", "note", "kind", "round_number", "copies", "per_page",
          "reason", "username", "password"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(["result", "delete", "prints", "token"]),
       values=st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), JSON,
                              max_size=4))
def test_random_json_to_every_write_endpoint_is_never_a_500(
        api: Api, target: str, values: dict[str, Any]) -> None:
    slug = api.small.championship.slug
    raw = json.dumps(values, ensure_ascii=True)
    head = api.token_client(api.head)
    if target == "result":
        response = _put(head, api.url(), raw)
    elif target == "delete":
        response = head.delete(api.url(), raw, content_type="application/json",
                               HTTP_IF_MATCH='"1.1"')
    elif target == "prints":
        response = head.post(reverse("api_print_jobs", args=[slug]), raw,
                             content_type="application/json")
    else:
        response = APIClient().post(reverse("api_token"), raw,
                                    content_type="application/json")
    assert response.status_code < 500, (target, raw, response.content[:300])
    if response.status_code == 400:
        data = response.json()
        assert data["detail"]
        # Each problem names a field sent, one the endpoint takes (missing), or none
        # (the body as a whole).
        known = {*values, *FIELDS, "board", "If-Match"}
        assert all(e["field"] is None or e["field"] in known
                   or e["field"].split(".")[0] in known
                   for e in data["errors"]), (raw, data)
