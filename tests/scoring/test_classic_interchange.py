"""A classic championship's interchange file (docs/file-format.md "Classic
championships"): read, every problem by its JSON path, written back, the standings, and
``python -m scoring`` on it.

tests/scoring/data/classic_games.json: 5 pairs, 2 rounds, a bye each round; round 1 a
win to 101 and a level game after 12 deals (half a win each), round 2 a game won 140 to
40 (counted 121: the cap) and a deal-by-deal sheet stopped by time at 90 to 0.
"""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from scoring import InterchangeError
from scoring.__main__ import EXIT_BAD_FILE, main
from scoring.classic import ClassicRules, EndedBy, LevelGame, Tiebreak
from scoring.interchange import dump, load, parse_json

DATA = Path(__file__).parent / "data" / "classic_games.json"


def base() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(InterchangeError) as caught:
        load(data)
    return caught.value.problems


def game(data: dict[str, Any], round_: int, table: int) -> dict[str, Any]:
    found: dict[str, Any] = data["rounds"][round_]["tables"][table]["game"]
    return found


def test_a_classic_file_reads_its_rules_games_and_byes() -> None:
    doc = load(base())
    assert doc.is_classic and doc.format == "classic"
    assert doc.classic == ClassicRules(sant_vicenc=False, sant_vicenc_on_botifarra=True)
    assert doc.variant.value == "lliure" and doc.boards == ()
    assert [r.byes for r in doc.rounds] == [(5,), (4,)]
    games = [(g.round, g.ns_pair, g.ew_pair, g.game.ns_points, g.game.ew_points,
              g.game.ended_by) for g in doc.games()]
    assert games == [
        (1, 1, 2, 101, 64, EndedBy.TARGET), (1, 3, 4, 80, 80, EndedBy.DEALS),
        (2, 5, 1, 40, 140, EndedBy.TARGET), (2, 2, 3, 90, 0, EndedBy.TIME),
    ]
    sheet = doc.rounds[1].tables[1].game
    assert sheet is not None and len(sheet.hands) == 3 and sheet.deals == 3


def test_the_standings_count_wins_the_cap_the_level_game_and_byes() -> None:
    rows = [(s.place, s.pair, s.wins, s.played, s.points_for, s.points_against, s.byes)
            for s in load(base()).classic_standings()]
    assert rows == [
        (1, 1, F(2), 2, 101 + 121, 64 + 40, 0),  # 140 counted 121
        (2, 4, F(3, 2), 1, 80, 80, 1),  # level: half; bye: a win, 0 to 0
        (3, 2, F(1), 2, 64 + 90, 101, 0),
        (4, 5, F(1), 1, 40, 121, 1),
        (5, 3, F(1, 2), 2, 80, 80 + 90, 0),
    ]


def test_the_export_adds_the_standings_and_reads_back_the_same() -> None:
    doc = load(base())
    written = dump(doc, classic_standings=doc.classic_standings())
    assert written["championship"]["format"] == "classic"
    assert "boards" not in written and "standings" not in dump(doc)
    assert written["standings"][1] == {
        "rank": 2, "pair": 4, "wins": 1.5, "played": 1, "points_for": 80,
        "points_against": 80, "difference": 0, "byes": 1,
    }
    assert load(written) == doc
    assert dump(load(written), classic_standings=doc.classic_standings()) == written
    # What was left out takes the default, and is written explicitly.
    rules = written["rules"]
    assert (rules["max_deals"], rules["score_cap"], rules["level_game"]) == (12, 121, "half")


def test_a_file_without_classic_rules_takes_the_defaults_and_null_means_none() -> None:
    data = base()
    data["rules"] = {"score_cap": None, "time_limit_minutes": None, "max_deals": None,
                     "level_game": "not_broken", "tiebreaks": ["wins", "buchholz"],
                     "bye_wins": 0.5}
    game(data, 0, 1)["ended_by"] = "adjusted"  # no deal limit to end it
    game(data, 1, 1)["ended_by"] = "adjusted"
    doc = load(data)
    assert doc.classic is not None
    assert (doc.classic.score_cap, doc.classic.max_deals, doc.classic.time_limit_minutes) \
        == (None, None, None)
    assert doc.classic.level_game is LevelGame.NOT_BROKEN
    assert doc.classic.tiebreaks == (Tiebreak.WINS, Tiebreak.BUCHHOLZ)
    assert doc.variant.value == "lliure"
    standings = dump(doc, classic_standings=doc.classic_standings())["standings"]
    by_pair = {s["pair"]: s for s in standings}
    assert by_pair[1]["points_for"] == 101 + 140  # no cap
    assert by_pair[3]["wins"] == 0 and by_pair[4]["wins"] == 0.5  # level: not broken
    assert "buchholz" in by_pair[1] and "head_to_head" not in by_pair[1]


def test_every_problem_of_a_game_is_named_by_its_json_path() -> None:
    data = base()
    game(data, 0, 0)["ns_points"] = 90
    game(data, 0, 1)["deals"] = 11
    game(data, 1, 0)["winner"] = 1
    hands = game(data, 1, 1)["hands"]
    hands[0]["points"] = 80
    hands[1]["trump"] = "X"
    assert problems(data) == [
        "rounds[0].tables[0].game.ns_points: a game ended by target needs a pair at 101 "
        "or more",
        "rounds[0].tables[1].game.deals: a game ended by deals needs the 12 deals played, "
        "not 11",
        "rounds[1].tables[0].game.winner: unknown key (expected one of deals, ended_by, "
        "ew_points, hands, note, ns_points)",
        "rounds[1].tables[1].game.hands[0].points: 80 is not in 0..72",
        "rounds[1].tables[1].game.hands[1].trump: 'X' is not one of O, C, E, B, botifarra",
    ]


def test_a_game_needs_its_final_within_the_limits() -> None:
    data = base()
    data["rounds"][0]["tables"][0]["game"] = {}
    data["rounds"][0]["tables"][1]["game"] = {
        "ns_points": 10**200, "ew_points": -1, "deals": 1.5, "ended_by": None}
    game(data, 1, 0).update(hands=[{"chooser": "NS", "trump": "O", "points": 36}] * 101)
    game(data, 1, 1)["hands"][0]["points"] = 10**200
    data = parse_json(json.dumps(data))  # the long integers as a file's reader gives them
    assert problems(data) == [
        "rounds[0].tables[0].game.ns_points: is missing",
        "rounds[0].tables[0].game.ew_points: is missing",
        "rounds[0].tables[0].game.deals: is missing",
        "rounds[0].tables[0].game.ended_by: is missing",
        "rounds[0].tables[1].game.ns_points: a number of 201 digits is out of range",
        "rounds[0].tables[1].game.ew_points: -1 is not in 0..9999",
        "rounds[0].tables[1].game.deals: must be a whole number, not the number 1.5",
        "rounds[0].tables[1].game.ended_by: is missing",
        "rounds[1].tables[0].game.hands: 101 deals, more than the 100 a game may list",
        "rounds[1].tables[1].game.hands[0].points: a number of 201 digits is out of range",
    ]


def test_a_score_sheet_must_agree_with_its_final_and_end_where_the_game_ends() -> None:
    data = base()
    game(data, 1, 1)["ns_points"] = 91
    assert problems(data) == [
        "rounds[1].tables[1].game.ns_points: the score sheet gives 90, not 91"]
    data = base()
    game(data, 1, 1)["hands"].append({"chooser": "NS", "trump": "O", "points": 72})
    game(data, 1, 1)["hands"].append({"chooser": "NS", "trump": "O", "points": 40})
    assert problems(data) == [
        "rounds[1].tables[1].game.hands[4]: the game ended at deal 4: deal 5 is one too many"]
    data = base()
    game(data, 1, 1)["hands"][2]["contro"] = False
    assert problems(data) == [
        "rounds[1].tables[1].game.hands[2].recontro: recontro without contro"]


def test_the_rules_refuse_what_a_classic_championship_cannot_play() -> None:
    data = base()
    data["rules"].update(score_cap=100, tiebreaks=["wins", "wins", "goals"], bye_wins=2,
                         level_game="replay", method="matchpoints", contro=False,
                         extra_deals=-1)
    assert problems(data) == [
        "rules.method: is a rule of duplicate championships, not of a classic one "
        "(championship.format)",
        "rules.score_cap: 100 is below game_target 101",
        "rules.level_game: 'replay' is not one of half, extra_deals, not_broken",
        "rules.extra_deals: -1 must be 0 or more",
        "rules.tiebreaks[1]: 'wins' appears twice",
        "rules.tiebreaks[2]: 'goals' is not one of wins, difference, points_for, "
        "head_to_head, buchholz",
        "rules.bye_wins: 2 is not in 0..1",
    ]
    data = base()
    data["rules"]["contro"] = False
    assert problems(data) == [
        "rounds[1].tables[1].game.hands[2].contro: contro is not played in this championship"]


def test_boards_and_results_belong_to_duplicate_files_and_games_to_classic_ones() -> None:
    data = base()
    data["boards"] = [{"number": 1}]
    data["championship"]["deal_commitment"] = "0" * 64
    data["rounds"][0]["tables"][0]["results"] = []
    assert problems(data) == [
        "championship.deal_commitment: a classic championship deals no boards",
        "boards: a classic championship has no boards",
        "rounds[0].tables[0].results: unknown key (expected one of ew, game, ns, number)",
    ]
    data = base()
    data["championship"]["format"] = "duplicate"
    found = problems(data)
    assert "rules.game_target: unknown key" in found[0]
    assert "rounds[0].tables[0].game: unknown key (expected one of ew, ns, number, " \
        "results)" in found
    data["championship"]["format"] = "swiss"
    assert "championship.format: 'swiss' is not one of duplicate, classic" in problems(data)


def test_a_table_without_its_game_is_still_being_played() -> None:
    data = base()
    del data["rounds"][1]["tables"][0]["game"]
    data["rounds"][1]["tables"][1]["game"] = None
    doc = load(data)
    assert [t.game is None for r in doc.rounds for t in r.tables] == [
        False, False, True, True]
    assert "game" not in dump(doc)["rounds"][1]["tables"][0]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_python_m_scoring_prints_the_classic_standings() -> None:
    status, out, _err = run(str(DATA))
    assert status == 0
    scored = json.loads(out)
    assert [(s["rank"], s["pair"], s["wins"]) for s in scored["standings"]] == [
        (1, 1, 2), (2, 4, 1.5), (3, 2, 1), (4, 5, 1), (5, 3, 0.5)]
    status, out, _err = run(str(DATA), "--format", "table")
    assert status == 0
    assert out == (
        "Rank  Pair  Names                      Wins  Played  For  Against  Diff\n"
        "----  ----  -------------------------  ----  ------  ---  -------  ----\n"
        "   1     1  Anna Puig – Jordi Vila        2       2  222      104  +118\n"
        "   2     4  Laia Mas – Carles Riba      1.5       1   80       80     0\n"
        "   3     2  Marta Soler – Pere Roca       1       2  154      101   +53\n"
        "   4     5  Montse Pla – Xavier Bosch     1       1   40      121   -81\n"
        "   5     3  Núria Font – Joan Serra     0.5       2   80      170   -90\n"
    )


def test_python_m_scoring_public_leaves_out_notes_and_reasons(tmp_path: Path) -> None:
    data = base()
    game(data, 0, 1)["note"] = "Empat discutit"
    data["pairs"][2].update(withdrawn_after_round=2, withdrawal_reason="Malaltia")
    path = tmp_path / "classic.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, _err = run(str(path))
    assert status == 0 and "Empat discutit" in out and "Malaltia" in out
    status, out, _err = run(str(path), "--public")
    assert status == 0 and "Empat discutit" not in out and "Malaltia" not in out
    standings = json.loads(out)["standings"]
    assert standings[-1] == {"rank": None, "pair": 3, "wins": 0.5, "played": 2,
                             "points_for": 80, "points_against": 170, "difference": -90,
                             "withdrawn": True}
    status, out, _err = run(str(path), "--format", "table")
    assert out.splitlines()[-1].startswith("   -     3  Núria Font – Joan Serra (withdrawn)")


def test_python_m_scoring_refuses_a_bad_classic_file_by_path(tmp_path: Path) -> None:
    data = copy.deepcopy(base())
    game(data, 0, 0)["ended_by"] = "forfeit"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(str(path))
    assert (status, out) == (EXIT_BAD_FILE, "")
    assert err == ("rounds[0].tables[0].game.ended_by: 'forfeit' is not one of target, "
                   "deals, time, adjusted\n")
