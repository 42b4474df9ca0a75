"""A result at its natural key: GET with version and ETag, PUT with If-Match (201, 200,
409, 428), the same PUT twice is no conflict, DELETE with a reason; tokens."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import PASSWORD, Api, body
from tests.tournaments.views.helpers import record
from tournaments.models import AuditEntry, Result

pytestmark = pytest.mark.django_db


def test_a_token_request_returns_the_users_token_and_it_acts_as_that_referee(api: Api):
    client = APIClient()
    response = client.post(reverse("api_token"),
                           {"username": "arbitre-prova", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) == 40
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    saved = client.put(api.url(), body(40), format="json")
    assert saved.status_code == 201
    assert AuditEntry.objects.get(action="result.create").acting_user == api.small.referee


def test_a_wrong_password_gets_400_with_a_message_and_no_token(api: Api) -> None:
    response = APIClient().post(reverse("api_token"),
                                {"username": "arbitre-prova", "password": "no"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == "Nom d'usuari o contrasenya incorrectes."


def test_anonymous_put_is_refused_with_401_and_nothing_is_stored(api: Api) -> None:
    response = APIClient().put(api.url(), body(40), format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert Result.objects.count() == 0


def test_put_creates_201_the_same_put_again_is_200_with_the_same_version(api: Api) -> None:
    client = api.token_client(api.small.referee)
    created = client.put(api.url(), body(40), format="json")
    assert created.status_code == 201
    first = created.json()
    assert (first["version"], first["outcome"], first["values"]["ns_points_taken"]) == (
        1, "created", 40
    )
    assert created["ETag"] == first["etag"]
    again = client.put(api.url(), body(40), format="json")  # a retry: no If-Match
    assert again.status_code == 200
    assert (again.json()["version"], again.json()["outcome"]) == (1, "unchanged")
    assert again.json()["message"] == "Aquest resultat ja estava desat."
    assert AuditEntry.objects.filter(action__startswith="result.").count() == 1


def test_get_gives_version_and_etag_and_put_with_it_replaces_the_result(api: Api) -> None:
    client = api.token_client(api.small.referee)
    client.put(api.url(), body(40), format="json")
    shown = client.get(api.url())
    assert shown.status_code == 200
    etag = shown["ETag"]
    assert etag == shown.json()["etag"] and shown.json()["version"] == 1
    changed = client.put(api.url(), body(50), format="json", HTTP_IF_MATCH=etag)
    assert changed.status_code == 200
    assert (changed.json()["version"], changed.json()["outcome"]) == (2, "updated")
    assert Result.objects.get().ns_points_taken == 50


def test_a_stale_if_match_gets_409_with_the_current_result_in_the_body(api: Api) -> None:
    client = api.token_client(api.head)
    stale = client.put(api.url(), body(40), format="json")["ETag"]
    record(api.small.seatings[0], api.small.boards[0], 45, expected_version=1)  # another
    response = client.put(api.url(), body(30), format="json", HTTP_IF_MATCH=stale)
    assert response.status_code == 409
    data = response.json()
    assert data["code"] == "conflict"
    assert (data["current"]["version"], data["current"]["values"]["ns_points_taken"]) == (2, 45)
    assert Result.objects.get().ns_points_taken == 45


def test_a_referee_sees_a_hidden_boards_values_as_the_tables_sheet_shows_them(
    api: Api,
) -> None:
    client = api.token_client(api.small.referee)
    stale = client.put(api.url(), body(40, note="revisat"), format="json")["ETag"]
    record(api.small.seatings[0], api.small.boards[0], 45, expected_version=1)  # another
    conflict = client.put(api.url(), body(30), format="json", HTTP_IF_MATCH=stale)
    assert conflict.status_code == 409
    current = conflict.json()["current"]
    assert (current["version"], current["public"]) == (2, False)
    assert current["values"]["ns_points_taken"] == 45  # as GET shows it to a referee
    assert current["etag"] == client.get(api.url())["ETag"]
    assert client.get(api.url()).json()["values"]["ns_points_taken"] == 45
    again = client.put(api.url(), body(45), format="json")  # the same values: unchanged
    assert (again.status_code, again.json()["outcome"]) == (200, "unchanged")
    assert again.json()["values"]["ns_points_taken"] == 45
    # Someone who may not enter results there learns nothing: the public gets 404.
    assert APIClient().get(api.url()).status_code == 404


def test_a_malformed_if_match_gets_400_naming_the_header(api: Api) -> None:
    client = api.token_client(api.small.referee)
    etag = client.put(api.url(), body(40), format="json")["ETag"]
    for header in ("garbage", "*", '"12', f"{etag}, {etag}", f"W/{etag}x"):
        response = client.put(api.url(), body(41), format="json", HTTP_IF_MATCH=header)
        assert response.status_code == 400, header
        data = response.json()
        assert data["code"] == "invalid" and "If-Match" in data["detail"]
        assert [e["field"] for e in data["errors"]] == ["If-Match"]
    gone = api.token_client(api.head).delete(api.url(), {"reason": "error"}, format="json",
                                             HTTP_IF_MATCH="W/xyz")
    assert gone.status_code == 400
    assert Result.objects.get().ns_points_taken == 40
    # An ETag of ours naming another result is well formed: a conflict, not bad input.
    other = client.put(api.url(), body(41), format="json", HTTP_IF_MATCH='"999999.1"')
    assert other.status_code == 409


def test_a_change_without_if_match_gets_428_and_changes_nothing(api: Api) -> None:
    client = api.token_client(api.small.referee)
    client.put(api.url(), body(40), format="json")
    response = client.put(api.url(), body(41), format="json")
    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]
    assert Result.objects.get().ns_points_taken == 40


def test_the_same_values_over_a_stale_if_match_are_200_unchanged(api: Api) -> None:
    client = api.token_client(api.small.referee)
    stale = client.put(api.url(), body(40), format="json")["ETag"]
    current = client.put(api.url(), body(45), format="json", HTTP_IF_MATCH=stale)["ETag"]
    again = client.put(api.url(), body(45), format="json", HTTP_IF_MATCH=stale)
    assert again.status_code == 200
    assert again["ETag"] == current and again.json()["version"] == 2


def test_an_etag_of_a_deleted_result_does_not_match_the_one_entered_again(api: Api) -> None:
    client = api.token_client(api.small.referee)
    old = client.put(api.url(), body(40), format="json")["ETag"]
    head = api.token_client(api.head)
    gone = head.delete(api.url(), {"reason": "taula equivocada"}, format="json",
                       HTTP_IF_MATCH=old)
    assert gone.status_code == 204
    client.put(api.url(), body(20), format="json")
    response = client.put(api.url(), body(30), format="json", HTTP_IF_MATCH=old)
    assert response.status_code == 409


def test_bad_input_gets_400_with_the_field_path_and_a_translated_message(api: Api) -> None:
    client = api.token_client(api.small.referee)
    response = client.put(api.url(), {"trump": "X", "ns_points_taken": 80}, format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"trump", "ns_points_taken"}
    english = client.put(api.url(), {"trump": "O", "ns_points_taken": 80}, format="json",
                         HTTP_ACCEPT_LANGUAGE="en")
    assert "72" in english.json()["errors"][0]["message"]


def test_a_rule_broken_gets_400_from_the_service_with_its_field(api: Api) -> None:
    client = api.token_client(api.small.referee)
    response = client.put(api.url(), body(40, recontro=True), format="json")
    assert response.status_code == 400
    assert "recontro" in {e["field"] for e in response.json()["errors"]}
    assert Result.objects.count() == 0


def test_a_nested_field_error_names_its_path(api: Api) -> None:
    client = api.token_client(api.head)
    response = client.put(api.url(), {"adjusted": {"NS": "A"}}, format="json")
    assert response.status_code == 400
    assert "adjusted.EW" in {e["field"] for e in response.json()["errors"]}


def test_a_plain_referee_may_not_put_an_adjusted_score(api: Api) -> None:
    client = api.token_client(api.small.referee)
    adjusted = {"NS": "average_plus", "EW": "average_minus"}
    response = client.put(api.url(), {"adjusted": adjusted}, format="json")
    assert response.status_code == 403
    assert Result.objects.count() == 0


def test_delete_needs_the_head_referee_a_reason_and_is_audited(api: Api) -> None:
    etag = api.token_client(api.small.referee).put(api.url(), body(40), format="json")["ETag"]
    refused = api.token_client(api.small.referee).delete(
        api.url(), {"reason": "error"}, format="json", HTTP_IF_MATCH=etag)
    assert refused.status_code == 403
    head = api.token_client(api.head)
    assert head.delete(api.url(), {}, format="json", HTTP_IF_MATCH=etag).status_code == 400
    assert head.delete(api.url(), {"reason": "error"}, format="json").status_code == 428
    done = head.delete(api.url(), {"reason": "taula equivocada"}, format="json",
                       HTTP_IF_MATCH=etag)
    assert done.status_code == 204
    assert Result.objects.count() == 0
    audit = AuditEntry.objects.get(action="result.delete")
    assert (audit.reason, audit.acting_user) == ("taula equivocada", api.head)


def test_a_session_put_needs_the_csrf_token_like_the_form(api: Api) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(api.small.referee)
    response = client.put(api.url(), body(40), format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_result_of_a_hidden_board_is_404_to_the_public_and_whole_to_a_referee(
    api: Api,
) -> None:
    record(api.small.seatings[0], api.small.boards[0], 50)  # table 2 still to play
    assert APIClient().get(api.url()).status_code == 404
    referee = api.token_client(api.small.referee).get(api.url())
    assert referee.status_code == 200
    assert referee.json()["values"]["ns_points_taken"] == 50
    assert referee.json()["version"] == 1
    head = api.token_client(api.head).get(api.url()).json()
    assert head["values"]["ns_points_taken"] == 50
    record(api.small.seatings[1], api.small.boards[0], 30)  # now complete: public
    public = APIClient().get(api.url()).json()
    assert public["values"]["ns_points_taken"] == 50


def test_a_board_of_another_round_or_a_missing_table_is_404(api: Api) -> None:
    client = api.token_client(api.small.referee)
    other_round_board = api.small.boards[-1].number + 1
    assert client.put(api.url(board=other_round_board), body(), format="json"
                      ).status_code == 404
    assert client.put(api.url(table=9), body(), format="json").status_code == 404


def test_the_old_read_paths_redirect_to_v1(api: Api) -> None:
    slug = api.small.championship.slug
    response = APIClient().get(f"/api/c/{slug}/standings/?round=1")
    assert response.status_code == 301
    assert response["Location"] == f"/api/v1/c/{slug}/standings/?round=1"
    board = APIClient().get(f"/api/c/{slug}/boards/1/")
    assert board["Location"] == f"/api/v1/c/{slug}/boards/1/"


def test_drfs_own_messages_follow_the_requests_language(api: Api) -> None:
    client = api.token_client(api.small.referee)
    catalan = client.put(api.url(), body(40, contro="potser"), format="json",
                         HTTP_ACCEPT_LANGUAGE="ca")
    assert catalan.status_code == 400
    assert catalan.json()["errors"] == [
        {"field": "contro", "message": "Ha de ser un booleà: true o false."}
    ]
    head = api.token_client(api.head)
    missing = head.delete(api.url(), {}, format="json", HTTP_ACCEPT_LANGUAGE="ca")
    assert missing.json()["errors"] == [
        {"field": "reason", "message": "Aquest camp és obligatori."}  # DRF's catalogue
    ]
    spanish = head.delete(api.url(), {}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.json()["detail"] == "Este campo es requerido."
    garbled = client.put(api.url(), "{no", content_type="application/json",
                         HTTP_ACCEPT_LANGUAGE="ca")
    assert garbled.status_code == 400
    assert garbled.json()["detail"].startswith("No s'ha pogut llegir el cos de la petició")
    assert Result.objects.count() == 0


@pytest.mark.parametrize("path", ["token", "prints", "result"])
def test_json_nested_too_deeply_is_a_400_not_a_500(api: Api, path: str) -> None:
    deep = "[" * 5000 + "]" * 5000
    url = {"token": reverse("api_token"),
           "prints": f"/api/v1/c/{api.small.championship.slug}/prints/",
           "result": api.url()}[path]
    client = api.token_client(api.small.referee) if path == "result" else APIClient()
    method = client.put if path == "result" else client.post
    response = method(url, deep, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert not Result.objects.exists()


def test_a_token_authenticates_its_user_and_nothing_else(api: Api) -> None:
    referee = api.small.referee
    client = api.token_client(referee)
    assert client.put(api.url(), body(40), format="json").status_code == 201
    assert client.get(api.url())["ETag"]
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = stranger.put(api.url(), body(41), format="json")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    referee.is_active = False
    referee.save(update_fields=["is_active"])
    assert client.put(api.url(), body(41), format="json").status_code == 401
    audit = AuditEntry.objects.get(action="result.create")
    assert audit.acting_user_id == referee.pk  # the save acted as the token's user
    assert Result.objects.get().ns_points_taken == 40


def big(client: Any, url: str) -> Any:
    """A PUT whose body is over the upload limit (as the settings have it)."""
    from django.conf import settings

    return client.put(url, body(40, note="x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE),
                      format="json")


@pytest.mark.parametrize(("where", "detail"), [
    ({"slug": "cap"}, "No hi ha cap campionat «cap»."),
    ({"round": 9}, "El campionat no té la ronda 9."),
    ({"round": 2 ** 63}, f"El campionat no té la ronda {2 ** 63}."),
    ({"table": 99}, "La ronda 1 no té la taula 99."),
    ({"table": 10 ** 20}, f"La ronda 1 no té la taula {10 ** 20}."),
    ({"board": 3}, "El tauler 3 no es juga a la ronda 1."),  # a board of round 2
    ({"board": 2 ** 64}, f"El tauler {2 ** 64} no es juga a la ronda 1."),
])
def test_an_address_that_names_nothing_is_a_404_saying_what(api: Api, where, detail) -> None:
    # Numbers beyond the database's integers too (SQLite overflowed on them: a 500).
    slug = where.get("slug", api.small.championship.slug)
    url = reverse("api_result", args=[slug, where.get("round", 1), where.get("table", 1),
                                      where.get("board", api.small.boards[0].number)])
    client = api.token_client(api.small.referee)
    # A bad body or If-Match too: what names nothing is said first.
    for response in (client.put(url, body(40), format="json"), client.get(url),
                     APIClient().get(url),
                     client.put(url, body(40, contro="potser"), format="json"),
                     big(client, url),
                     client.put(url, "{no", content_type="application/json"),
                     client.put(url, body(40), format="json", HTTP_IF_MATCH="cap")):
        assert response.status_code == 404
        assert response.json() == {"detail": detail, "code": "not_found"}
    assert Result.objects.count() == 0


def test_a_body_over_the_upload_limit_is_a_413_in_the_apis_shape(api: Api, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = api.token_client(api.small.referee)
    response = client.put(api.url(), body(40, note="x" * 2000), format="json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert "1000 octets" in response.json()["detail"]
    assert Result.objects.count() == 0


def test_a_saves_answer_is_what_its_schemas_serializer_makes_of_it(api: Api) -> None:
    """The PUT answers with its body as built, skipping ``ResultSavedSerializer``: the
    serializer must give back exactly the same, keys, order and types, for every kind
    of result and outcome."""
    from tournaments.api.serializers import ResultSavedSerializer

    client = api.token_client(api.head)
    first, second = (b.number for b in api.small.boards[:2])
    answers = [
        client.put(api.url(board=first), body(40), format="json"),  # created
        client.put(api.url(board=first), body(40), format="json"),  # unchanged
    ]
    answers.append(client.put(api.url(board=first), body(52, contro=True, note="nota"),
                              format="json", HTTP_IF_MATCH=answers[0]["ETag"]))  # updated
    answers.append(client.put(api.url(table=2, board=first),
                              {"adjusted": {"NS": "average_plus", "EW": "average_minus"}},
                              format="json"))
    answers.append(client.put(api.url(table=1, board=second),
                              body(30, trump="botifarra", infraction="NS"), format="json"))
    assert [a.status_code for a in answers] == [201, 200, 200, 201, 201], [
        a.json() for a in answers]
    for answer in answers:
        sent = answer.json()
        assert list(sent) == list(ResultSavedSerializer(sent).data)
        assert [(k, v, type(v)) for k, v in ResultSavedSerializer(sent).data.items()] == [
            (k, v, type(v)) for k, v in sent.items()]
    assert answers[3].json()["values"]["adjusted"] == {"NS": "average_plus",
                                                       "EW": "average_minus"}


def test_a_note_is_composed_before_it_is_cut_and_compared(api: Api) -> None:
    # U+0958 composes to two characters (it is excluded from composition): 300 of them
    # are 600 once stored in NFC, past the column's 500.
    client = api.token_client(api.small.referee)
    lengthened = client.put(api.url(), body(40, note="\u0958" * 300), format="json")
    assert lengthened.status_code == 201, lengthened.content
    assert len(Result.objects.get().note) == 500
    # A decomposed accent saved twice is the same note: the second is no change.
    other = api.url(board=api.small.boards[1].number)
    assert client.put(other, body(40, note="Nu\u0301ria"), format="json").status_code == 201
    again = client.put(other, body(40, note="Nu\u0301ria"), format="json")
    assert (again.status_code, again.json()["outcome"]) == (200, "unchanged")
    assert Result.objects.get(board=api.small.boards[1]).note == "N\u00faria"
    head = api.token_client(api.head)
    gone = head.delete(other, {"reason": "\u0958" * 300}, format="json",
                       HTTP_IF_MATCH=again["ETag"])
    assert gone.status_code == 204, gone.content
    assert len(AuditEntry.objects.get(action="result.delete").reason) <= 500


@pytest.mark.parametrize(("header", "parsed"), [
    ('"12.3"', (12, 3)), ("12.3", (12, 3)), (' "1.1" ', (1, 1)),
    ('"12.3', None), ('12.3"', None), ('"012.3"', None), ('"12.03"', None),
    ('W/"12.3"', None), ('"12.3", "12.4"', None), ("*", None), ('""', None),
])
def test_an_if_match_is_one_of_our_etags_character_for_character(header, parsed) -> None:
    from tournaments.api.results import parse_etag

    assert parse_etag(header) == parsed


def test_a_token_with_a_nul_byte_is_a_401_not_a_500(api: Api) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token abc\x00def")
    response = client.put(api.url(), body(40), format="json")
    assert response.status_code == 401
    assert not Result.objects.exists()


def test_a_limits_message_is_in_each_requests_language_not_the_first_ones(api: Api) -> None:
    """The limits of ``ns_points_taken`` and ``note`` are refused by DRF validators whose
    message is formatted once and then kept: each request needs fields of its own (DRF's
    deep copy), or every later request gets the language of the first refusal."""
    client = api.token_client(api.small.referee)
    too_much = {"trump": "O", "ns_points_taken": 80, "note": "x" * 501}
    messages = {}
    for language in ("ca", "en", "es", "ca"):
        response = client.put(api.url(), too_much, format="json",
                              HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400
        found = {e["field"]: e["message"] for e in response.json()["errors"]}
        assert set(found) == {"ns_points_taken", "note"}
        messages.setdefault(language, found)
        assert found == messages[language], language
    assert messages["en"]["ns_points_taken"] == "Ensure this value is less than or equal to 72."
    assert messages["en"]["note"].startswith("Ensure this field has no more than 500")
    for field in ("ns_points_taken", "note"):
        assert len({messages[language][field] for language in ("ca", "en", "es")}) == 3
    assert Result.objects.count() == 0


def test_an_infraction_may_leave_the_points_out_and_a_played_result_may_not(
    api: Api,
) -> None:
    client = api.token_client(api.small.referee)
    refused = client.put(api.url(board=api.small.boards[0].number),
                         {"trump": "O", "ns_points_taken": None}, format="json")
    assert refused.status_code == 400
    assert Result.objects.count() == 0
    saved = client.put(api.url(board=api.small.boards[0].number),
                       {"trump": "O", "ns_points_taken": None, "infraction": "EW"},
                       format="json")
    assert saved.status_code == 201, saved.json()
    stored = Result.objects.get()
    assert (stored.infraction, stored.ns_points_taken) == ("EW", None)
