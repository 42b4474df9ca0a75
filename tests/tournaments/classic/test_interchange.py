"""A classic championship through the interchange file: exported, imported and exported
again gives the same file; the export's standings are the read model's; the public file
leaves out the notes and reasons."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scoring import InterchangeError
from scoring.interchange import dumps, load
from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import AuditEntry, Championship, Game, Pair, Round, Seating
from tournaments.selectors import classic as selectors

pytestmark = pytest.mark.django_db

#: A deal-by-deal sheet that ends on time: NS 28, 34, then 90 (recontro x4).
SHEET = [
    {"chooser": "NS", "trump": "botifarra", "points": 50},
    {"chooser": "EW", "trump": "O", "points": 30},
    {"chooser": "NS", "trump": "C", "contro": True, "recontro": True, "points": 50},
]


def tables(rnd: Round) -> list[Seating]:
    return list(Seating.objects.filter(round=rnd).select_related("table", "round")
                .order_by("table__number"))


def play(c: Classic) -> Championship:
    """Three rounds of five pairs: a capped game and a level game with a note (round 1,
    then closed), a deal-by-deal game (round 2), pair 5's withdrawal after round 2, and
    round 3 with one game still being played."""
    r1, r2, r3 = c.rounds
    enter = {"expected_version": None, "acting_user": c.referee}
    services.round_draw(round=r1, seed=7, acting_user=c.organiser)
    capped, level = tables(r1)
    services.game_record(seating=capped, ns_points=150, ew_points=40, deals=7,
                         ended_by="target", **enter)
    services.game_record(seating=level, ns_points=80, ew_points=80, deals=12,
                         ended_by="deals", note="Empat a la darrera mà", **enter)
    services.round_close(round=r1, acting_user=c.organiser)
    services.round_draw(round=r2, seed=7, acting_user=c.organiser)
    sheet, plain = tables(r2)
    services.game_record(seating=sheet, hands=SHEET, ended_by="time", **enter)
    services.game_record(seating=plain, ns_points=64, ew_points=101, deals=10,
                         ended_by="target", **enter)
    services.pair_withdraw(pair=Pair.objects.get(championship=c.championship, number=5),
                           after_round=2, reason="Malaltia", acting_user=c.organiser)
    services.round_draw(round=r3, seed=7, acting_user=c.organiser)
    services.game_record(seating=tables(r3)[0], ns_points=101, ew_points=99, deals=12,
                         ended_by="target", **enter)
    return c.championship


def without_name(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out["championship"].pop("slug")
    out["championship"].pop("name")
    return out


def test_export_import_export_gives_the_same_classic_file() -> None:
    """One championship played once for the round trip, the standings and a refusal
    (each play costs a second)."""
    championship = play(make_classic(pairs=5, rounds=3))
    exported = services.championship_export(championship)
    exported_standings_are_the_read_models(championship, exported["standings"])
    a_bad_file_is_refused_by_path_and_writes_nothing(copy.deepcopy(exported))
    assert exported["championship"]["format"] == "classic"
    assert "boards" not in exported
    assert exported["rules"]["score_cap"] == 121
    assert exported["rules"]["tiebreaks"] == ["wins", "difference", "points_for"]
    rounds = exported["rounds"]
    assert [len(r.get("byes", [])) for r in rounds] == [1, 1, 0]
    assert "closed_at" in rounds[0] and "closed_at" not in rounds[1]
    games = [t.get("game") for r in rounds for t in r["tables"]]
    assert [g is None for g in games] == [False, False, False, False, False, True]
    assert games[1]["note"] == "Empat a la darrera mà"
    sheet = next(g for g in games if g and "hands" in g)
    assert (sheet["ns_points"], sheet["ew_points"], sheet["deals"], sheet["ended_by"]) \
        == (90, 0, 3, "time")
    assert [h["points"] for h in sheet["hands"]] == [50, 30, 50]
    assert next(p for p in exported["pairs"] if p["number"] == 5)["withdrawal_reason"] \
        == "Malaltia"

    imported = services.championship_import(data=load_and_back(exported), acting_user=None)
    copy_ = imported.championship
    assert copy_.is_classic and copy_.name == "Campionat clàssic (2)"
    assert Game.objects.filter(seating__round__championship=copy_).count() == 5
    assert AuditEntry.objects.filter(championship=copy_, action="game.create").count() == 5
    again = services.championship_export(copy_)
    assert dumps(without_name(again)) == dumps(without_name(exported))
    assert [(r.rank, r.number, r.wins, r.difference)
            for r in selectors.classic_standings(copy_).rows] == \
        [(r.rank, r.number, r.wins, r.difference)
         for r in selectors.classic_standings(championship).rows]


def load_and_back(document: dict[str, Any]) -> dict[str, Any]:
    """The file as read from disk (the JSON text parsed again)."""
    data: dict[str, Any] = json.loads(dumps(document))
    load(data)  # the pure reader accepts it too
    return data


def test_the_public_classic_file_leaves_out_notes_and_reasons(client) -> None:
    c = make_classic(pairs=5, rounds=3)
    championship = play(c)
    public = services.championship_export(championship, public=True)
    text = dumps(public)
    assert "Empat a la darrera mà" not in text and "Malaltia" not in text
    url = f"/c/{championship.slug}/interchange.json"
    assert client.get(url).status_code == 404  # not before the championship is finished
    assert 'id="interchange-file"' not in client.get(f"/c/{championship.slug}/").content.decode()
    services.championship_finish(championship=championship, acting_user=c.organiser)
    page = client.get(f"/c/{championship.slug}/").content.decode()
    assert f'href="{url}"' in page
    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert '"format": "classic"' in body and "Malaltia" not in body


def exported_standings_are_the_read_models(
    championship: Championship, exported: list[dict[str, Any]]
) -> None:
    rows = [r for r in selectors.classic_standings(championship).rows if r.has_score]
    assert [(s["rank"], s["pair"], s["wins"], s["played"], s["points_for"],
             s["points_against"], s["difference"], s.get("withdrawn", False))
            for s in exported] == [
        (r.rank, r.number, r.wins_out, r.played, r.points_for, r.points_against,
         r.difference, r.withdrawn) for r in rows]
    # The capped game counts 121 to 40; the level game half a win each.
    assert any(s["points_for"] >= 121 and s["wins"] >= 1 for s in exported)
    assert sum(s["wins"] for s in exported) == 5 + 2  # 5 games (one level), 2 byes
    withdrawn = [s for s in exported if s.get("withdrawn")]
    assert [(s["pair"], s["rank"]) for s in withdrawn] == [(5, None)]


def a_bad_file_is_refused_by_path_and_writes_nothing(exported: dict[str, Any]) -> None:
    exported["rounds"][1]["tables"][1]["game"]["ns_points"] = 101
    exported["rules"]["bye_wins"] = 0.25
    before = Championship.objects.count()
    with pytest.raises(InterchangeError) as caught:
        services.championship_import(data=exported, acting_user=None)
    assert any(p.startswith("rounds[1].tables[1].game.") for p in caught.value.problems)
    assert Championship.objects.count() == before
    exported["rounds"][1]["tables"][1]["game"]["ns_points"] = 64
    with pytest.raises(InterchangeError) as caught:
        services.championship_import(data=exported, acting_user=None)
    assert caught.value.problems == ["rules.bye_wins: 0.25 needs more than 1 decimals"]
