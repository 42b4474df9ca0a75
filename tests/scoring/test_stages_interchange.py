"""The file's ``stages`` (docs/file-format.md "Stages"), no database: read and written
back unchanged, every problem named by its JSON path, and ``python -m scoring`` scoring
the groups and the bracket from the games."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from scoring import InterchangeError
from scoring.__main__ import main
from scoring.interchange import dump, load
from scoring.interchange.stages import score_stages
from scoring.stages import Group, seed_bracket, split_groups, stage_round


def game(ns: int, ew: int) -> dict[str, Any]:
    """The lower pair number wins 101 to 50 + the other's number (never level)."""
    win, lose = 101, 50 + max(ns, ew)
    ns_points, ew_points = (win, lose) if ns < ew else (lose, win)
    return {"ns_points": ns_points, "ew_points": ew_points, "deals": 9, "ended_by": "target"}


def staged_file(*, knockout_played: bool = True) -> dict[str, Any]:
    """8 pairs in 2 groups of 4 (rounds 1-3, the first two of each group through), then
    a knockout of 4 (rounds 4-5). The lower pair number wins every game, so pair 1 is
    the champion and pair 2 the runner-up."""
    groups = split_groups(range(1, 9), 2, method="seeding")
    rounds: list[dict[str, Any]] = []
    for k in (1, 2, 3):
        draw = stage_round(groups, k)
        rounds.append({"number": k, "tables": [
            {"number": t.number, "ns": t.ns, "ew": t.ew, "game": game(t.ns, t.ew)}
            for t in draw.tables]})
    # Group A (1, 3, 5, 7): 1 then 3; group B (2, 4, 6, 8): 2 then 4.
    qualified = [
        {"pair": 1, "group": "A", "place_in_group": 1, "how": "group"},
        {"pair": 2, "group": "B", "place_in_group": 1, "how": "group"},
        {"pair": 3, "group": "A", "place_in_group": 2, "how": "group"},
        {"pair": 4, "group": "B", "place_in_group": 2, "how": "group"},
    ]
    bracket = seed_bracket([1, 2, 3, 4])
    semis = [(bracket.positions[0], bracket.positions[1]),
             (bracket.positions[2], bracket.positions[3])]
    assert all(a is not None and b is not None for a, b in semis)
    first: list[dict[str, Any]] = [{"number": n, "ns": a, "ew": b} for n, (a, b)
                                   in enumerate(semis, start=1)]
    final: list[dict[str, Any]] = []
    if knockout_played:
        for t in first:
            t["game"] = game(t["ns"], t["ew"])
        winners = [min(a, b) for a, b in semis if a is not None and b is not None]
        final = [{"number": 1, "ns": winners[0], "ew": winners[1],
                  "game": game(winners[0], winners[1])}]
    rounds += [{"number": 4, "tables": first}, {"number": 5, "tables": final}]
    return {
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Campionat per fases", "slug": "fases", "format": "classic"},
        "players": [{"id": f"p{n}", "name": f"Jugador {n}"} for n in range(1, 17)],
        "pairs": [{"number": n, "players": [f"p{2 * n - 1}", f"p{2 * n}"]}
                  for n in range(1, 9)],
        "rounds": rounds,
        "stages": [
            {"kind": "groups", "name": "Grups", "rounds": [1, 2, 3], "group_count": 2,
             "split": "seeding", "per_group": 2, "second_chance": 0,
             "rest_rule": "best_placed", "exclude_zero_wins": True,
             "groups": [{"name": g.name, "pairs": list(g.pairs)} for g in groups],
             "qualified": qualified},
            {"kind": "knockout", "name": "Eliminatòria", "rounds": [4, 5],
             "third_place": False, "avoid_same_group": True,
             "bracket": {"positions": list(bracket.positions), "third_place": False}},
        ],
    }


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(InterchangeError) as info:
        load(data)
    return list(info.value.problems)


def test_the_stages_read_and_write_back_unchanged() -> None:
    data = staged_file()
    doc = load(data)
    groups, knockout = doc.stages
    assert (groups.kind, groups.rounds, groups.per_group) == ("groups", (1, 2, 3), 2)
    assert groups.groups == (Group("A", (1, 3, 5, 7)), Group("B", (2, 4, 6, 8)))
    assert groups.qualified is not None and [q.pair for q in groups.qualified] == [1, 2, 3, 4]
    assert knockout.bracket is not None and knockout.bracket.positions == (1, 4, 2, 3)
    assert dump(doc)["stages"] == data["stages"]
    assert load(dump(doc)) == doc


def test_a_file_without_stages_is_one_stage_as_before() -> None:
    data = staged_file()
    del data["stages"]
    doc = load(data)
    assert doc.stages == () and "stages" not in dump(doc)
    data["stages"] = None
    assert load(data).stages == ()


def test_defaults_and_a_stage_not_started_yet() -> None:
    data = staged_file(knockout_played=False)
    data["stages"] = [
        {"kind": "groups", "rounds": [1, 2, 3], "group_count": 2},
        {"kind": "knockout", "rounds": [4, 5]},
    ]
    groups, knockout = load(data).stages
    assert (groups.split, groups.per_group, groups.second_chance, groups.rest_rule,
            groups.exclude_zero_wins, groups.groups, groups.qualified) == (
        "snake", 1, 0, "best_placed", True, None, None)
    assert (knockout.third_place, knockout.avoid_same_group, knockout.bracket) == (
        False, True, None)
    assert score_stages(load(data)) == (None, None)


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda s: s[0].update(kind="lligueta"),
     "stages[0].kind: 'lligueta' is not one of swiss, groups, knockout, finals"),
    (lambda s: s[1].update(kind="finals", finals=[["A", 4]]),
     "stages[1].kind: a classic championship has no finals stage (it takes swiss, "
     "groups, knockout)"),
    (lambda s: s[0]["rounds"].append(9), "stages[0].rounds[3]: round 9 is not in rounds"),
    (lambda s: s[1]["rounds"].insert(0, 3),
     "stages[1].rounds[0]: round 3 is already in stages[0]"),
    (lambda s: s[0].update(rounds=[2, 1, 3]),
     "stages[0].rounds[1]: round 1 after round 2: a stage's rounds are listed once each, "
     "in increasing order"),
    (lambda s: s.reverse(),
     "stages[1].rounds[0]: round 1 comes before the last round 5 of an earlier stage: "
     "stages play in order"),
    (lambda s: s[0]["groups"][0]["pairs"].__setitem__(1, 99),
     "stages[0].groups[0].pairs[1]: pair 99 does not exist"),
    (lambda s: s[0]["groups"][0]["pairs"].__setitem__(1, "3"),
     "stages[0].groups[0].pairs[1]: must be a whole number, not the text '3'"),
    (lambda s: s[0]["groups"][1]["pairs"].__setitem__(0, 1),
     "stages[0].groups[1].pairs[0]: pair 1 is already in stages[0].groups[0]"),
    (lambda s: s[0].update(group_count=3), "stages[0].groups: 2 groups, not the group_count 3"),
    (lambda s: s[0].pop("group_count"), "stages[0].group_count: is missing (how many groups)"),
    (lambda s: s[0].update(split="zigzag"),
     "stages[0].split: 'zigzag' is not one of seeding, snake, random"),
    (lambda s: s[0].update(per_group=0),
     "stages[0].per_group: per_group and second_chance are both 0: nobody qualifies"),
    (lambda s: s[0]["qualified"][0].update(pair=2),
     "stages[0].qualified[0].pair: pair 2 is not in group A"),
    (lambda s: s[0]["qualified"][0].update(group="Z"),
     "stages[0].qualified[0].group: 'Z' is not a group of this stage"),
    (lambda s: s[0]["qualified"][0].update(how="lucky"),
     "stages[0].qualified[0].how: 'lucky' is not one of group, second_chance"),
    (lambda s: s[0].update(groups=None),
     "stages[0].qualified: pairs qualified from groups that were never formed (groups is "
     "null)"),
    (lambda s: s[1]["bracket"].update(positions=[1, 2, 3]),
     "stages[1].bracket.positions: 3 places: a bracket has a power of two of places "
     "(2, 4, 8, ...)"),
    (lambda s: s[1]["bracket"].update(positions=[1, 2, None, None]),
     "stages[1].bracket.positions[2]: match 2 of the first round has no pair (two byes)"),
    (lambda s: s[1]["bracket"].update(positions=[1, 2, 1, 3]),
     "stages[1].bracket.positions[2]: pair 1 appears twice in the bracket"),
    (lambda s: s[1]["bracket"].update(positions=[1, 2, 3, 40]),
     "stages[1].bracket.positions[3]: pair 40 does not exist"),
    (lambda s: s[1]["bracket"].update(positions=[1, 2, 3, 5]),
     "stages[1].bracket.positions: pairs [1, 2, 3, 5] are not the pairs stages[0] "
     "qualified [1, 2, 3, 4]"),
    (lambda s: s[1]["bracket"].update(positions=[1, 8, 4, 5, 3, 6, 2, 7]),
     "stages[1].rounds: a bracket of 8 places plays 3 rounds, not 2"),
    (lambda s: s[1]["bracket"].update(positions=[1, None], third_place=True),
     "stages[1].bracket.third_place: a third-place match needs at least 4 pairs"),
    (lambda s: s[0].update(bracket={"positions": [1, 2]}),
     "stages[0].bracket: unknown key (expected one of exclude_zero_wins, group_count, "
     "groups, kind, name, per_group, qualified, rest_rule, rounds, second_chance, seed, "
     "split)"),
    (lambda s: s.extend(copy.deepcopy(s[1:]) * 4),
     "stages: 6 stages, more than the 5 a championship may have"),
])
def test_every_problem_is_named_by_its_json_path(edit: Any, expected: str) -> None:
    data = staged_file()
    edit(data["stages"])
    assert expected in problems(data)


def test_finals_of_a_duplicate_championship() -> None:
    data = {
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Duplicat", "slug": "duplicat"},
        "players": [{"id": f"p{n}", "name": f"J {n}"} for n in range(1, 9)],
        "pairs": [{"number": n, "players": [f"p{2 * n - 1}", f"p{2 * n}"]}
                  for n in range(1, 5)],
        "rounds": [{"number": 1}, {"number": 2}],
        "stages": [
            {"kind": "swiss", "name": "", "rounds": [1]},
            {"kind": "finals", "name": "Finals", "rounds": [2],
             "finals": [["A", 2], ["B", 2]], "carry_over": "percent",
             "carry_over_percent": 50,
             "groups": [{"name": "A", "pairs": [3, 1]}, {"name": "B", "pairs": [2, 4]}]},
        ],
    }
    doc = load(data)
    assert doc.stages[1].finals == (("A", 2), ("B", 2))
    assert dump(doc)["stages"] == data["stages"]
    bad = copy.deepcopy(data)
    bad["stages"][1]["groups"][1]["name"] = "C"
    bad["stages"][1]["carry_over_percent"] = 101
    assert problems(bad) == [
        "stages[1].groups: the finals formed [('A', 2), ('C', 2)] are not the finals "
        "[('A', 2), ('B', 2)]",
        "stages[1].carry_over_percent: 101 must be 100 or less",
    ]
    bad = copy.deepcopy(data)
    bad["stages"][0]["kind"] = "groups"
    assert problems(bad) == ["stages[0].kind: a duplicate championship has no groups stage "
                             "(it takes swiss, finals)"]


def run(path: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(path), *args])
    return status, out.getvalue(), err.getvalue()


def test_python_m_scoring_scores_the_groups_and_the_bracket(tmp_path: Path) -> None:
    path = tmp_path / "staged.json"
    path.write_text(json.dumps(staged_file()), encoding="utf-8")
    status, out, err = run(path)
    assert status == 0 and err == ""
    groups, knockout = json.loads(out)["stages"]
    assert [[(line["rank"], line["pair"], line["qualified"]) for line in g["standings"]]
            for g in groups["group_standings"]] == [
        [(1, 1, "group"), (2, 3, "group"), (3, 5, None), (4, 7, None)],
        [(1, 2, "group"), (2, 4, "group"), (3, 6, None), (4, 8, None)]]
    assert (groups["games_in"], groups["games_due"], groups["qualified_agrees"]) == (
        12, 12, True)
    assert [(m["round"], m["top"], m["bottom"], m["winner"]) for m in knockout["matches"]] \
        == [(1, 1, 4, 1), (1, 2, 3, 2), (2, 1, 2, 1)]
    assert (knockout["champion"], knockout["runner_up"]) == (1, 2)
    status, out, err = run(path, "--format", "table")
    assert status == 0
    assert "\nStage 1: groups (Grups), rounds 1, 2, 3\n" in out
    assert "\nQualified in seed order: 1, 2, 3, 4\n" in out
    assert "  Match 1: 1 Jugador 1 – Jugador 2 v 2 Jugador 3 – Jugador 4 101-52 -> 1 " \
           "Jugador 1 – Jugador 2\n" in out
    assert out.endswith("\nChampion: 1 Jugador 1 – Jugador 2\n"
                        "Runner-up: 2 Jugador 3 – Jugador 4\n")


def test_python_m_scoring_says_when_the_stored_qualification_is_not_the_games(
        tmp_path: Path) -> None:
    data = staged_file(knockout_played=False)
    data["stages"][0]["qualified"][2:] = [
        {"pair": 5, "group": "A", "place_in_group": 3, "how": "group"},
        {"pair": 4, "group": "B", "place_in_group": 2, "how": "group"}]
    data["stages"][1]["bracket"]["positions"] = [1, 4, 2, 5]
    data["rounds"][3]["tables"][1]["ew"] = 5
    path = tmp_path / "staged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(path)
    assert status == 0
    assert err == ("warning: stages[0].qualified: the file qualifies pairs [1, 2, 5, 4], "
                   "the games qualify [1, 2, 3, 4]\n")
    knockout = json.loads(out)["stages"][1]
    assert knockout["champion"] is None and knockout["runner_up"] is None
    status, out, _err = run(path, "--format", "table")
    assert out.endswith("\nChampion: not decided yet\n")


def test_the_documented_example_is_this_file() -> None:
    """docs/file-format.md "Stages" shows the stages of :func:`staged_file`."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "file-format.md").read_text(
        encoding="utf-8")
    section = text.split("\n## Stages\n", 1)[1]
    block = section.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads("{" + block + "}")["stages"] == staged_file()["stages"]
