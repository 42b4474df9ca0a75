"""The read API of a classic championship: its rules on the championship, the standings
(wins, then difference, then points for; points counted up to the cap; a half as 0.5),
the standings after each round, a round's games, a pair's card; boards and results
empty, never a 500."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import build_championship
from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import Seating

pytestmark = pytest.mark.django_db

#: Table -> (NS points, EW points, how it ended): a 150 counts 121 (the cap), so table
#: 1's winner ranks by +31 (not +60), behind table 2's +41, ahead of table 3's +31 on
#: points for (121 to 110); table 4 is level on time: half a win each.
GAMES = {1: (150, 90, "target"), 2: (101, 60, "target"), 3: (110, 79, "target"),
         4: (80, 80, "time")}


@dataclass
class Round1:
    c: Classic
    pairs: dict[int, tuple[int, int]]  # table -> (NS pair, EW pair)

    def url(self, name: str, *args: object) -> str:
        return reverse(name, args=[self.c.championship.slug, *args])


def play_round_1(**rules: object) -> Round1:
    cache.clear()
    c = make_classic(pairs=8, rounds=2, **rules)
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    pairs = {}
    for seating in Seating.objects.filter(round=c.rounds[0]).select_related(
            "table", "round", "ns_pair", "ew_pair"):
        ns, ew, ended = GAMES[seating.table.number]
        services.game_record(seating=seating, ns_points=ns, ew_points=ew, deals=10,
                             ended_by=ended, expected_version=None, acting_user=c.referee)
        pairs[seating.table.number] = (seating.ns_pair.number, seating.ew_pair.number)
    return Round1(c, pairs)


@pytest.fixture
def round1() -> Round1:
    return play_round_1()


def test_standings_rank_by_wins_difference_points_for_with_the_cap_and_halves(
        round1: Round1) -> None:
    response = APIClient().get(round1.url("api_standings"))
    assert response.status_code == 200
    data = response.json()
    assert (data["format"], data["through_round"], data["tiebreaks"]) == (
        "classic", None, ["wins", "difference", "points_for"])
    assert data["progress"] == {"results_in": 4, "results_expected": 4}
    rows = data["standings"]
    t = round1.pairs
    assert [(r["rank"], r["pair"]) for r in rows] == [
        (1, t[2][0]), (2, t[1][0]), (3, t[3][0]),
        (4, min(t[4])), (4, max(t[4])),
        (6, t[1][1]), (7, t[3][1]), (8, t[2][1]),
    ]
    capped = rows[1]
    assert (capped["wins"], capped["wins_text"], capped["played"], capped["points_for"],
            capped["points_against"], capped["difference"]) == (1, "1", 1, 121, 90, 31)
    assert isinstance(capped["wins"], int)
    level = rows[3]
    assert (level["wins"], level["wins_text"], level["difference"]) == (0.5, "½", 0)
    assert (rows[7]["wins"], rows[7]["difference"]) == (0, -41)
    assert set(capped) == {"rank", "pair", "names", "short", "wins", "wins_text",
                           "played", "byes", "points_for", "points_against",
                           "difference", "status", "withdrawn", "bye", "joined_round"}
    assert capped["names"] == f"Jugador {t[1][0]}A – Jugador {t[1][0]}B"
    assert capped["status"] == "playing"


def test_standings_scope_and_its_refusals(round1: Round1) -> None:
    url = round1.url("api_standings")
    overall = APIClient().get(url).json()
    after1 = APIClient().get(url, {"through": 1}).json()
    assert after1["through_round"] == 1
    assert after1["standings"] == overall["standings"]
    assert APIClient().get(url, {"through": 2}).status_code == 200  # set up, not drawn
    assert APIClient().get(url, {"through": 9}).status_code == 404
    one = APIClient().get(url, {"round": 1})
    assert one.status_code == 400
    assert one.json()["errors"][0]["field"] == "round"
    assert "through" in one.json()["detail"]
    progressive = APIClient().get(round1.url("api_standings_progressive")).json()
    assert progressive["format"] == "classic"
    assert [r["round"] for r in progressive["rounds"]] == [1]
    assert progressive["rounds"][0]["standings"] == overall["standings"]


def test_buchholz_and_head_to_head_appear_when_they_rank(db: None) -> None:
    played = play_round_1(tiebreaks=["wins", "head_to_head", "buchholz"])
    rows = APIClient().get(played.url("api_standings")).json()["standings"]
    top = rows[0]
    assert top["wins"] == 1 and "buchholz" in top and "head_to_head" in top
    assert top["buchholz"] == 0  # its opponent won nothing
    level = next(r for r in rows if r["wins"] == 0.5)
    assert level["buchholz"] == 0.5 and level["head_to_head"] == 0.5


def test_the_championship_says_its_format_and_classic_rules(round1: Round1) -> None:
    data = APIClient().get(round1.url("api_championship")).json()
    assert data["format"] == "classic"
    assert {k: data[k] for k in ("game_target", "max_deals", "time_limit_minutes",
                                 "score_cap", "level_game", "extra_deals", "tiebreaks",
                                 "bye_wins", "contro_allowed", "recontro_allowed")} == {
        "game_target": 101, "max_deals": 12, "time_limit_minutes": 55, "score_cap": 121,
        "level_game": "half", "extra_deals": 2,
        "tiebreaks": ["wins", "difference", "points_for"], "bye_wins": 1,
        "contro_allowed": True, "recontro_allowed": True,
    }
    duplicate = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    other = APIClient().get(reverse("api_championship", args=[duplicate.slug])).json()
    assert other["format"] == "duplicate"
    assert not {"game_target", "max_deals", "score_cap", "tiebreaks"} & set(other)
    listed = APIClient().get(reverse("api_championships")).json()
    assert {c["format"] for c in listed} == {"classic", "duplicate"}


def test_a_round_lists_its_tables_games_and_byes_and_a_pair_its_card(
        db: None) -> None:
    cache.clear()
    c = make_classic()  # 5 pairs: one bye a round
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    first = Seating.objects.filter(round=c.rounds[0], table__number=1).select_related(
        "table", "round", "ns_pair", "ew_pair").get()
    services.game_record(seating=first, ns_points=70, ew_points=101, deals=9,
                         ended_by="target", expected_version=None, acting_user=c.referee)
    slug = c.championship.slug
    data = APIClient().get(reverse("api_round", args=[slug, 1])).json()
    assert data["games_in"] == 1 and len(data["byes"]) == 1
    one, two = data["tables"]
    assert (one["table"], one["ns"], one["ew"]) == (
        1, first.ns_pair.number, first.ew_pair.number)
    assert {k: one["game"][k] for k in ("ns_points", "ew_points", "deals", "ended_by",
                                        "version")} == {
        "ns_points": 70, "ew_points": 101, "deals": 9, "ended_by": "target", "version": 1}
    assert two["game"] is None
    assert data["seatings"][0] == {"table": 1, "ns": one["ns"], "ew": one["ew"]}
    card = APIClient().get(reverse("api_score_card", args=[slug, first.ew_pair.number]))
    assert card.status_code == 200
    body = card.json()
    assert (body["format"], body["wins"], body["rank"]) == ("classic", 1, 1)
    assert body["lines"] == [{
        "round": 1, "table": 1, "opponent": first.ns_pair.number,
        "opponent_short": body["lines"][0]["opponent_short"],
        "points": 101, "opponent_points": 70, "counted": 101, "opponent_counted": 70,
        "result": "won", "wins_after": 1, "wins_after_text": "1", "rank_after": 1,
    }]
    bye = data["byes"][0]
    line = APIClient().get(reverse("api_score_card", args=[slug, bye])).json()["lines"][0]
    assert (line["result"], line["table"], line["opponent"]) == ("bye", None, None)
    assert APIClient().get(reverse("api_score_card", args=[slug, 99])).status_code == 404


def test_boards_and_results_of_a_classic_championship_are_empty_or_404(
        round1: Round1) -> None:
    client = APIClient()
    assert client.get(round1.url("api_boards")).json() == []
    assert client.get(round1.url("api_results")).json() == []
    board = client.get(round1.url("api_traveller", 1))
    assert board.status_code == 404 and "clàssic" in board.json()["detail"]
    rounds = client.get(round1.url("api_rounds"))
    assert rounds.status_code == 200 and rounds.json()[0]["boards"] == []
    assert rounds.json()[0]["games_in"] == 4 and rounds.json()[1]["tables"] == []
