"""A classic championship's game at its natural key (round, table): GET with version
and ETag, PUT (201, unchanged 200, If-Match 200, stale 409, 428), every problem at its
field, who may do what, 404s, DELETE; a score sheet's lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, build_championship
from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import AuditEntry, Game, Seating
from tournaments.services import access

pytestmark = pytest.mark.django_db

FINAL = {"ns_points": 101, "ew_points": 40, "deals": 8, "ended_by": "target"}


@dataclass
class Played:
    c: Classic
    seating: Seating
    nobody: Any

    def url(self, round: int = 1, table: int = 1, slug: str | None = None) -> str:
        return reverse("api_game", args=[slug or self.c.championship.slug, round, table])

    def client(self, user: Any) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {access.token_for(user=user)}")
        return client


@pytest.fixture
def played() -> Played:
    cache.clear()  # rate-limit counters of one test never reach the next
    c = make_classic()
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    seating = (Seating.objects.filter(round=c.rounds[0], table__number=1)
               .select_related("table", "round", "ns_pair", "ew_pair").get())
    return Played(c, seating, UserFactory(username="ningu-classic"))


def test_put_creates_201_the_same_again_is_unchanged_and_get_shows_it(played: Played):
    referee = played.client(played.c.referee)
    created = referee.put(played.url(), {**FINAL, "note": "ok"}, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert (data["outcome"], data["version"], data["ns_points"], data["ew_points"]) == (
        "created", 1, 101, 40)
    assert (data["round"], data["table"], data["ns"], data["ew"]) == (
        1, 1, played.seating.ns_pair.number, played.seating.ew_pair.number)
    assert data["hands"] is None and data["sheet"] is None and data["note"] == "ok"
    assert created["ETag"] == data["etag"]
    again = referee.put(played.url(), {**FINAL, "note": "ok"}, format="json")
    assert (again.status_code, again.json()["outcome"], again.json()["version"]) == (
        200, "unchanged", 1)
    assert again.json()["message"] == "Aquesta partida ja estava desada."
    shown = APIClient().get(played.url())
    assert shown.status_code == 200 and shown["ETag"] == data["etag"]
    assert shown.json()["note"] is None  # the referees' note is not the public's
    assert referee.get(played.url()).json()["note"] == "ok"
    assert AuditEntry.objects.filter(action__startswith="game.").count() == 1


def test_if_match_corrects_a_stale_one_is_409_with_the_stored_game_none_is_428(
        played: Played) -> None:
    referee = played.client(played.c.referee)
    etag = referee.put(played.url(), FINAL, format="json")["ETag"]
    changed = referee.put(played.url(), {**FINAL, "ew_points": 50}, format="json",
                          HTTP_IF_MATCH=etag)
    assert (changed.status_code, changed.json()["outcome"], changed.json()["version"]) == (
        200, "updated", 2)
    stale = referee.put(played.url(), {**FINAL, "ew_points": 60}, format="json",
                        HTTP_IF_MATCH=etag)
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "conflict"
    assert (body["current"]["version"], body["current"]["ew_points"]) == (2, 50)
    assert body["current"]["etag"] == changed["ETag"]
    same = referee.put(played.url(), {**FINAL, "ew_points": 50}, format="json",
                       HTTP_IF_MATCH=etag)  # stale, but what is stored: no conflict
    assert (same.status_code, same.json()["outcome"], same.json()["version"]) == (
        200, "unchanged", 2)
    missing = referee.put(played.url(), {**FINAL, "ew_points": 60}, format="json")
    assert missing.status_code == 428 and "If-Match" in missing.json()["detail"]
    foreign = referee.put(played.url(), {**FINAL, "ew_points": 60}, format="json",
                          HTTP_IF_MATCH='W/"abc"')
    assert foreign.status_code == 409
    broken = referee.put(played.url(), {**FINAL, "ew_points": 60}, format="json",
                         HTTP_IF_MATCH="garbage")
    assert broken.status_code == 400 and broken.json()["errors"][0]["field"] == "If-Match"
    assert Game.objects.get().ew_points == 50


def test_every_problem_is_a_400_at_its_field_in_the_services_words(played: Played):
    referee = played.client(played.c.referee)
    short = referee.put(played.url(), {**FINAL, "ns_points": 90}, format="json")
    assert short.status_code == 400
    data = short.json()
    assert data["code"] == "invalid"
    assert [e["field"] for e in data["errors"]] == ["ns_points"]
    assert data["errors"][0]["message"] == (
        "La partida acabada per punts vol una parella a 101 o més.")
    several = referee.put(played.url(), {"ns_points": "cent", "ew_points": -1, "deals": 8,
                                         "ended_by": "target"}, format="json")
    assert several.status_code == 400
    assert [e["field"] for e in several.json()["errors"]] == ["ns_points", "ew_points"]
    unknown = referee.put(played.url(), {**FINAL, "barraca": True}, format="json")
    assert unknown.status_code == 400
    assert [e["field"] for e in unknown.json()["errors"]] == ["barraca"]
    ended = referee.put(played.url(), {**FINAL, "ended_by": "cansament"}, format="json")
    assert ended.json()["errors"][0]["field"] == "ended_by"
    assert "cansament" in ended.json()["errors"][0]["message"]
    deal = referee.put(played.url(), {"hands": [
        {"chooser": "NS", "trump": "O", "points": 80}]}, format="json")
    assert deal.status_code == 400
    assert deal.json()["errors"][0]["field"] == "hands[0].points"
    assert deal.json()["errors"][0]["message"].startswith("Mà 1: ")
    assert not Game.objects.exists()


def test_who_may_enter_and_delete_a_game(played: Played) -> None:
    assert APIClient().put(played.url(), FINAL, format="json").status_code == 401
    refused = played.client(played.nobody).put(played.url(), FINAL, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_allowed")
    # An adjusted score is the head referee's or the organiser's.
    adjusted = played.client(played.c.referee).put(
        played.url(), {**FINAL, "ended_by": "adjusted"}, format="json")
    assert adjusted.status_code == 403
    etag = played.client(played.c.referee).put(played.url(), FINAL, format="json")["ETag"]
    gone = played.client(played.nobody).delete(played.url(), {"reason": "error"},
                                               format="json", HTTP_IF_MATCH=etag)
    assert gone.status_code == 403
    organiser = played.client(played.c.organiser)
    assert organiser.delete(played.url(), {"reason": "error"},
                            format="json").status_code == 428
    deleted = organiser.delete(played.url(), {"reason": "error"}, format="json",
                               HTTP_IF_MATCH=etag)
    assert deleted.status_code == 204
    assert not Game.objects.exists()
    assert APIClient().get(played.url()).status_code == 404
    assert AuditEntry.objects.filter(action="game.delete").count() == 1


def test_an_address_naming_nothing_is_404_and_a_duplicate_championship_400(
        played: Played) -> None:
    referee = played.client(played.c.referee)
    assert APIClient().get(played.url()).json()["code"] == "not_found"  # no game yet
    for url, words in ((played.url(round=9), "ronda 9"), (played.url(table=9), "taula 9"),
                       (played.url(slug="cap-ni-un"), "cap-ni-un"),
                       (played.url(round=2), "taula 1")):  # round 2 not drawn yet
        for response in (APIClient().get(url), referee.put(url, FINAL, format="json"),
                         referee.put(url, {"barraca": 1}, format="json")):
            assert response.status_code == 404, (url, response.json())
            assert words in response.json()["detail"]
    duplicate = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    url = played.url(slug=duplicate.slug)
    for response in (APIClient().get(url), referee.put(url, FINAL, format="json")):
        assert response.status_code == 400
        assert response.json()["code"] == "not_classic"
        assert "predonats" in response.json()["detail"]


def test_a_deal_by_deal_sheet_gives_its_lines_and_the_final(played: Played) -> None:
    hands = [
        # A botifarra with contro won 45 to 27 by EW: 9 x 4 = 36 to EW.
        {"chooser": "EW", "trump": "botifarra", "contro": True, "points": 45},
        {"chooser": "NS", "trump": "O", "contro": True, "recontro": True,
         "points": 56},  # NS 20 x 4 = 80
        {"chooser": "EW", "trump": "E", "points": 20},  # NS 16 -> 96
        {"chooser": "NS", "trump": "C", "points": 41},  # NS 5 -> 101
    ]
    referee = played.client(played.c.referee)
    saved = referee.put(played.url(), {"hands": hands}, format="json")
    assert saved.status_code == 201, saved.json()
    data = saved.json()
    assert (data["ns_points"], data["ew_points"], data["deals"], data["ended_by"]) == (
        101, 36, 4, "target")
    assert [(line["ns_score"], line["ew_score"]) for line in data["sheet"]] == [
        (0, 36), (80, 0), (16, 0), (5, 0)]
    assert [(line["ns_total"], line["ew_total"]) for line in data["sheet"]] == [
        (0, 36), (80, 36), (96, 36), (101, 36)]
    assert data["hands"][0] == {"chooser": "EW", "delegated": False, "trump": "botifarra",
                                "contro": True, "recontro": False, "sant_vicenc": False,
                                "points": 45, "revoke": None}
    assert APIClient().get(played.url()).json()["sheet"] == data["sheet"]
    again = referee.put(played.url(), {"hands": hands}, format="json")
    assert (again.status_code, again.json()["outcome"]) == (200, "unchanged")
    # A final sent with the sheet must be the sheet's.
    wrong = referee.put(played.url(), {"hands": hands, "ew_points": 40}, format="json",
                        HTTP_IF_MATCH=saved["ETag"])
    assert wrong.status_code == 400
    assert wrong.json()["errors"] == [{"field": "ew_points",
                                       "message": "El full dona 36, no 40."}]


def test_a_closed_round_is_the_head_referees_and_a_finished_championship_no_ones(
        played: Played) -> None:
    c = played.c
    services.round_close(round=c.rounds[0], acting_user=c.organiser, allow_missing=True,
                         analyse=False)
    closed = played.client(c.referee).put(played.url(), FINAL, format="json")
    assert (closed.status_code, closed.json()["code"]) == (403, "not_allowed")
    assert played.client(c.organiser).put(played.url(), FINAL,
                                          format="json").status_code == 201
    services.championship_finish(championship=c.championship, acting_user=c.organiser)
    etag = APIClient().get(played.url())["ETag"]
    finished = played.client(c.organiser).put(played.url(), {**FINAL, "ew_points": 41},
                                              format="json", HTTP_IF_MATCH=etag)
    assert (finished.status_code, finished.json()["code"]) == (409, "state")
