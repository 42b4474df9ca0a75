"""Per role and endpoint, allowed and refused. A role in one championship reaches
nothing of another: the outsider is the organiser of another championship."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import Api, body
from tests.tournaments.views.helpers import record
from tournaments.models import PrintJob, Result
from tournaments.reports import services as print_services

pytestmark = pytest.mark.django_db

WHO = ("anonymous", "nobody", "outsider", "referee", "head", "organiser")


def client_of(api: Api, who: str) -> APIClient:
    users = {"nobody": api.nobody, "outsider": api.outsider, "referee": api.small.referee,
             "head": api.head, "organiser": api.small.organiser}
    return APIClient() if who == "anonymous" else api.token_client(users[who])


@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 401), ("nobody", 403), ("outsider", 403),
    ("referee", 201), ("head", 201), ("organiser", 201),
])
def test_put_of_a_result_per_role(api: Api, who: str, expected: int) -> None:
    response = client_of(api, who).put(api.url(), body(40), format="json")
    assert response.status_code == expected, response.content
    assert Result.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 401), ("nobody", 403), ("outsider", 403),
    ("referee", 403), ("head", 204), ("organiser", 204),
])
def test_delete_of_a_result_per_role(api: Api, who: str, expected: int) -> None:
    result = record(api.small.seatings[0], api.small.boards[0], 40)
    response = client_of(api, who).delete(
        api.url(), {"reason": "error"}, format="json", HTTP_IF_MATCH=f'"{result.pk}.1"'
    )
    assert response.status_code == expected, response.content
    assert Result.objects.count() == (0 if expected == 204 else 1)


@pytest.mark.parametrize("who", ["nobody", "outsider", "referee"])
def test_a_delete_by_who_may_not_delete_says_the_same_whether_a_result_is_there(
        api: Api, who: str) -> None:
    # The round's boards are hidden while it is played: a 404 where nothing is stored
    # and a 403 where a result is would tell that the table played the board.
    record(api.small.seatings[0], api.small.boards[0], 40)
    client = client_of(api, who)
    answers = [
        client.delete(api.url(board=board.number), body, format="json", **headers)
        for board in api.small.boards[:2]
        for body, headers in (({"reason": "error"}, {}), ({}, {"HTTP_IF_MATCH": "cap"}),
                              ({"reason": "error"}, {"HTTP_IF_MATCH": '"1.1"'}))
    ]
    assert {(a.status_code, a.json()["code"]) for a in answers} == {(403, "not_allowed")}
    assert Result.objects.count() == 1


def test_a_plain_referee_may_not_change_a_closed_round_the_head_referee_may(api: Api):
    from tournaments import services

    result = record(api.small.seatings[0], api.small.boards[0], 40)
    record(api.small.seatings[1], api.small.boards[0], 40)
    for board in api.small.boards[1:]:
        for seating in api.small.seatings:
            record(seating, board, 36)
    services.round_close(round=api.small.round1, acting_user=api.small.organiser)
    etag = f'"{result.pk}.1"'
    refused = client_of(api, "referee").put(api.url(), body(41), format="json",
                                            HTTP_IF_MATCH=etag)
    assert refused.status_code == 403
    # A retry of what is stored (a response lost as the round closed) is no change.
    retry = client_of(api, "referee").put(api.url(), body(40), format="json")
    assert (retry.status_code, retry.json()["outcome"]) == (200, "unchanged")
    allowed = client_of(api, "head").put(api.url(), body(41), format="json",
                                         HTTP_IF_MATCH=etag)
    assert allowed.status_code == 200 and allowed.json()["version"] == 2


@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 403), ("nobody", 403), ("outsider", 403),
    ("referee", 403), ("head", 201), ("organiser", 201),
])
def test_board_sheets_print_per_role(api: Api, who: str, expected: int, settings: Any):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client_of(api, who).post(
        f"/api/v1/c/{api.small.championship.slug}/prints/",
        {"kind": "board-sheets", "round_number": 1}, format="json",
    )
    assert response.status_code == expected, response.content
    assert PrintJob.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize(("who", "expected"), [
    ("anonymous", 404), ("nobody", 404), ("outsider", 404),
    ("referee", 404), ("head", 200), ("organiser", 200),
])
def test_a_board_sheets_job_is_seen_only_by_who_may_print_it(api: Api, who: str,
                                                              expected: int) -> None:
    job, _created = print_services.print_job_request(
        championship=api.small.championship, kind="board-sheets", round_number=1,
        acting_user=None,
    )
    slug = api.small.championship.slug
    client = client_of(api, who)
    assert client.get(f"/api/v1/c/{slug}/prints/{job.pk}/").status_code == expected
    listed = [j["id"] for j in client.get(f"/api/v1/c/{slug}/prints/").json()]
    assert (job.pk in listed) == (expected == 200)


@pytest.mark.parametrize(("who", "status", "sees_values"), [
    ("anonymous", 404, None), ("nobody", 404, None), ("outsider", 404, None),
    ("referee", 200, True), ("head", 200, True), ("organiser", 200, True),
])
def test_a_hidden_boards_result_per_role(api: Api, who: str, status: int,
                                         sees_values: bool | None) -> None:
    record(api.small.seatings[0], api.small.boards[0], 50)  # table 2 still to play
    response = client_of(api, who).get(api.url())
    assert response.status_code == status
    if sees_values is not None:
        assert (response.json()["values"] is not None) == sees_values


@pytest.mark.parametrize(("who", "sees"), [
    ("anonymous", False), ("nobody", False), ("outsider", False),
    ("referee", False), ("head", True), ("organiser", True),
])
def test_hidden_boards_in_the_traveller_results_and_score_card_per_role(
    api: Api, who: str, sees: bool
) -> None:
    record(api.small.seatings[0], api.small.boards[0], 50)
    slug, board = api.small.championship.slug, api.small.boards[0].number
    client = client_of(api, who)
    traveller = client.get(f"/api/v1/c/{slug}/boards/{board}/").json()
    assert (traveller["deal"] is not None, len(traveller["results"])) == (sees, int(sees))
    results = client.get(f"/api/v1/c/{slug}/results/").json()
    assert len(results) == int(sees)
    pair = api.small.seatings[0].ns_pair.number
    card = client.get(f"/api/v1/c/{slug}/pairs/{pair}/card/").json()
    assert len(card["rows"]) == int(sees)


@pytest.mark.parametrize("who", WHO)
def test_every_read_endpoint_answers_everyone(api: Api, who: str) -> None:
    slug = api.small.championship.slug
    client = client_of(api, who)
    for path in ("", "pairs/", "pairs/1/card/", "rounds/", "rounds/1/", "boards/",
                 "boards/1/", "results/", "standings/", "standings/?round=1",
                 "standings/progressive/", "prints/"):
        assert client.get(f"/api/v1/c/{slug}/{path}").status_code == 200, path
    assert client.get("/api/v1/c/").status_code == 200


def test_seatings_show_who_plays_where(api: Api) -> None:
    slug = api.small.championship.slug
    data = APIClient().get(f"/api/v1/c/{slug}/rounds/1/").json()
    assert data["boards"] == [b.number for b in api.small.boards]
    assert [(s["table"], s["ns"], s["ew"]) for s in data["seatings"]] == [
        (s.table.number, s.ns_pair.number, s.ew_pair.number) for s in api.small.seatings
    ]


def test_unknown_championship_round_pair_or_board_is_404(api: Api) -> None:
    slug = api.small.championship.slug
    client = APIClient()
    for path in ("/api/v1/c/no-such/", f"/api/v1/c/{slug}/rounds/9/",
                 f"/api/v1/c/{slug}/pairs/99/card/", f"/api/v1/c/{slug}/boards/99/",
                 f"/api/v1/c/{slug}/standings/?round=9"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert set(response.json()) >= {"detail", "code"}
