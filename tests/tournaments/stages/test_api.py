"""The stages' API: the groups with their standings and who qualified, the knockout
bracket (both live: ETag and Last-Modified from ``results_version``, 304 while
unchanged), and the stages' setup (read by anyone, written by the organiser, a refused
spec's field named)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, build_championship
from tests.tournaments.stages.conftest import Staged, make_staged, play_round
from tournaments import services
from tournaments.models import Round, Seating, Stage
from tournaments.selectors.stages import bracket_view, groups_view

pytestmark = pytest.mark.django_db

GROUP_KEYS = {"name", "pairs", "standings"}
ROW_KEYS = {"rank", "pair", "wins", "difference", "points_for", "qualified"}
MATCH_KEYS = {"pairs", "games", "winner", "third_place", "round", "table"}
GAME_KEYS = {"points", "table", "round", "deals"}


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()  # rate-limit counters of one test never reach the next


def url(staged: Staged, name: str) -> str:
    return reverse(name, args=[staged.championship.slug])


def groups_played(third_place: bool = False) -> Staged:
    """8 pairs in 2 groups, 2 through from each, every group game in."""
    staged = make_staged(8, groups=2, per_group=2, third_place=third_place)
    for r in (1, 2, 3):
        play_round(staged, r, seed=11)
    return staged


# ---------------------------------------------------------------------------- groups


def test_groups_are_the_selectors_groups_in_the_documented_keys() -> None:
    staged = groups_played()
    response = APIClient().get(url(staged, "api_groups"))
    assert response.status_code == 200
    data = response.json()
    assert {"groups", "qualified", "rule", "final"} <= set(data)
    assert set(data["rule"]) == {"per_group", "second_chance", "rest_rule",
                                 "exclude_zero_wins"}
    assert data["rule"]["per_group"] == 2 and data["rule"]["second_chance"] == 0
    view = groups_view(staged.championship)
    assert view is not None and view.final and data["final"] is True
    assert [g["name"] for g in data["groups"]] == [g.name for g in view.groups]
    for got, table in zip(data["groups"], view.groups, strict=True):
        assert set(got) >= GROUP_KEYS
        assert got["pairs"] == list(table.pairs)
        assert [set(row) >= ROW_KEYS for row in got["standings"]] == [True] * len(table.rows)
        assert [(r["rank"], r["pair"], r["wins"], r["difference"], r["points_for"],
                 r["qualified"]) for r in got["standings"]] == [
            (r.rank, r.number, r.wins_out, r.difference, r.points_for, r.qualified)
            for r in table.rows]
        assert all(isinstance(r["wins"], int | float) for r in got["standings"])
    assert [(q["pair"], q["group"], q["place_in_group"], q["how"])
            for q in data["qualified"]] == [
        (q.pair, q.group, q.place_in_group, q.how) for q in view.qualified]
    assert len(data["qualified"]) == 4
    assert {row["qualified"] for g in data["groups"] for row in g["standings"]} == {
        "group", None}


def test_groups_before_every_game_is_in_are_not_final() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=2)
    data = APIClient().get(url(staged, "api_groups")).json()
    assert data["final"] is False and data["qualified"] == []
    assert all(row["qualified"] is None for g in data["groups"] for row in g["standings"])


def test_groups_and_bracket_are_404_before_they_exist_or_without_them() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    client = APIClient()
    for name, words in (("api_groups", "grups"), ("api_bracket", "quadre")):
        response = client.get(url(staged, name))
        assert response.status_code == 404, name
        assert words in response.json()["detail"]
    plain = build_championship(pairs=4, rounds=1, boards_per_round=2)
    for name in ("api_groups", "api_bracket"):
        response = client.get(reverse(name, args=[plain.slug]))
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert client.get(reverse("api_groups", args=["no-such"])).status_code == 404


# --------------------------------------------------------------------- conditional


def test_groups_answer_304_while_unchanged_and_200_after_a_game() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=4)
    client = APIClient()
    first = client.get(url(staged, "api_groups"))
    etag, modified = first["ETag"], first["Last-Modified"]
    assert etag and modified
    again = client.get(url(staged, "api_groups"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and not again.content
    since = client.get(url(staged, "api_groups"), HTTP_IF_MODIFIED_SINCE=modified)
    assert since.status_code == 304
    # One game of round 2: the groups change, the old ETag no longer matches.
    services.round_draw(round=staged.round(2), acting_user=staged.organiser, seed=1)
    seating = Seating.objects.filter(round=staged.round(2)).order_by("table__number").first()
    assert seating is not None
    services.game_record(seating=seating, ns_points=101, ew_points=50, deals=9,
                         ended_by="target", expected_version=None,
                         acting_user=staged.referee)
    changed = client.get(url(staged, "api_groups"), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    played = {row["pair"]: row["played"] for g in changed.json()["groups"]
              for row in g["standings"]}
    assert played[seating.ns_pair.number] == played[seating.ew_pair.number] == 2
    assert client.get(url(staged, "api_groups"),
                      HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_bracket_answers_304_while_unchanged_and_200_after_a_game() -> None:
    staged = groups_played()
    play_round(staged, 4, seed=3)
    client = APIClient()
    first = client.get(url(staged, "api_bracket"))
    assert first.status_code == 200
    assert client.get(url(staged, "api_bracket"),
                      HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    play_round(staged, 5, seed=3)
    after = client.get(url(staged, "api_bracket"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert first.json()["champion"] is None and after.json()["champion"] is not None


# --------------------------------------------------------------------------- bracket


def test_bracket_is_the_selectors_bracket_in_the_documented_keys() -> None:
    staged = groups_played(third_place=True)
    play_round(staged, 4, seed=8)
    data = APIClient().get(url(staged, "api_bracket")).json()
    assert {"rounds", "champion", "runner_up", "third"} <= set(data)
    view = bracket_view(staged.championship)
    assert view is not None
    assert isinstance(data["rounds"], list) and len(data["rounds"]) == len(view.rounds) == 2
    for got, r in zip(data["rounds"], view.rounds, strict=True):
        assert isinstance(got, list) and len(got) == len(r.matches)
        for match, m in zip(got, r.matches, strict=True):
            assert set(match) == MATCH_KEYS
            assert match["pairs"] == list(m.pair_numbers)
            assert match["winner"] == m.winner and match["third_place"] == m.third_place
            assert (match["round"], match["table"]) == (m.round_number, m.table)
            assert [set(g) for g in match["games"]] == [GAME_KEYS] * (m.game is not None)
    semis = data["rounds"][0]
    assert all(m["games"] and m["winner"] in m["pairs"] for m in semis)
    for m in semis:
        (game,) = m["games"]
        top, bottom = game["points"]
        assert m["winner"] == (m["pairs"][0] if top > bottom else m["pairs"][1])
        assert game["round"] == 4 and game["table"] == m["table"]
    final, third = data["rounds"][1]
    assert not final["third_place"] and third["third_place"]
    assert sorted(final["pairs"]) == sorted(m["winner"] for m in semis)
    assert final["games"] == [] and final["winner"] is None
    assert data["champion"] is None and data["third"] is None
    play_round(staged, 5, seed=8)
    done = APIClient().get(url(staged, "api_bracket")).json()
    final, third = done["rounds"][1]
    assert done["champion"] == final["winner"] is not None
    assert done["runner_up"] in final["pairs"] and done["runner_up"] != done["champion"]
    assert done["third"] == third["winner"] is not None


# ---------------------------------------------------------------------------- stages


def organiser_client(staged: Staged) -> APIClient:
    client = APIClient()
    client.force_authenticate(staged.organiser)
    return client


def test_put_stages_sets_them_up_and_get_lists_them() -> None:
    staged = make_staged(12, groups=4, per_group=1)
    spec: list[dict[str, Any]] = [
        {"kind": "groups", "groups": 3, "per_group": 2, "second_chance": 2,
         "split": "snake", "rest_rule": "best_record"},
        {"kind": "knockout", "third_place": True},
    ]
    response = organiser_client(staged).put(url(staged, "api_stages"),
                                            {"stages": spec}, format="json")
    assert response.status_code == 200, response.json()
    stages = response.json()["stages"]
    assert [(s["number"], s["kind"]) for s in stages] == [(1, "groups"), (2, "knockout")]
    assert set(stages[0]) == {"number", "kind", "name", "settings", "rounds", "started"}
    assert stages[0]["settings"]["groups"] == 3
    assert stages[0]["settings"]["second_chance"] == 2
    assert stages[0]["settings"]["rest_rule"] == "best_record"
    assert stages[1]["settings"]["third_place"] is True
    rounds = list(Round.objects.filter(championship=staged.championship)
                  .order_by("number").values_list("number", "stage__number"))
    assert stages[0]["rounds"] == [n for n, s in rounds if s == 1]
    assert stages[1]["rounds"] == [n for n, s in rounds if s == 2]
    assert len(stages[1]["rounds"]) == 3  # 8 through: quarter-finals, semis, final
    assert stages[0]["started"] is False
    listed = APIClient().get(url(staged, "api_stages")).json()
    assert listed["stages"] == stages


@pytest.mark.parametrize(("spec", "field"), [
    ([{"kind": "groups", "groups": 0}], "stages.1.groups"),
    ([{"kind": "groups", "groups": 2, "per_group": 2}, {"kind": "finals"}], "stages.2.kind"),
    ([{"kind": "groups", "groups": 2, "split": "alphabet"}], "stages.1.split"),
    ([{"kind": "groups", "groups": 2}, {"kind": "knockout", "pairs": 1}], "stages.2.pairs"),
    ("groups", "stages"),
])
def test_a_bad_stage_spec_is_400_at_its_field_and_nothing_changes(spec: Any,
                                                                    field: str) -> None:
    staged = make_staged(8, groups=2, per_group=2)
    before = list(Stage.objects.filter(championship=staged.championship)
                  .values_list("pk", "kind", "group_count"))
    response = organiser_client(staged).put(url(staged, "api_stages"),
                                            {"stages": spec}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert field in [e["field"] for e in body["errors"]], body
    assert list(Stage.objects.filter(championship=staged.championship)
                .values_list("pk", "kind", "group_count")) == before


def test_put_stages_after_a_draw_is_refused() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=1)
    response = organiser_client(staged).put(
        url(staged, "api_stages"), {"stages": [{"kind": "groups", "groups": 2}]},
        format="json")
    assert response.status_code in (400, 409)
    assert Stage.objects.filter(championship=staged.championship).count() == 2


def test_only_the_organiser_puts_stages() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    spec = {"stages": [{"kind": "groups", "groups": 4, "per_group": 1}]}
    anonymous = APIClient().put(url(staged, "api_stages"), spec, format="json")
    assert anonymous.status_code in (401, 403)
    for user in (staged.referee, UserFactory(username="ningu-fases")):
        client = APIClient()
        client.force_authenticate(user)
        assert client.put(url(staged, "api_stages"), spec, format="json").status_code == 403
    assert list(Stage.objects.filter(championship=staged.championship)
                .values_list("kind", "group_count")) == [("groups", 2), ("knockout", 0)]
