"""The interchange file carries byes, withdrawals, late entries, the movement and the
missed-board rule, round-trips them, and python -m scoring ranks by them."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from scoring import InterchangeError, MissedBoards, score_championship
from scoring.__main__ import main
from scoring.interchange import dump, load


def document() -> dict:
    """5 pairs, 2 rounds of 1 board: pair 5 sits out round 1, pair 4 withdraws after
    round 1 (pair 3 sits out round 2), pair 6 joins in round 2."""
    result = {"trump": "O", "ns_points_taken": 40}
    return {
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Prova", "slug": "prova", "movement": "swiss"},
        "rules": {"missed_boards": "average"},
        "players": [{"id": f"p{k}", "name": f"Jugador {k}"} for k in range(1, 13)],
        "pairs": [
            {"number": 1, "players": ["p1", "p2"]},
            {"number": 2, "players": ["p3", "p4"]},
            {"number": 3, "players": ["p5", "p6"]},
            {"number": 4, "players": ["p7", "p8"], "withdrawn_after_round": 1,
             "withdrawal_reason": "Malaltia"},
            {"number": 5, "players": ["p9", "p10"]},
            {"number": 6, "players": ["p11", "p12"], "joined_round": 2},
        ],
        "boards": [{"number": 1, "round": 1}, {"number": 2, "round": 2}],
        "rounds": [
            {"number": 1, "movement": "random", "byes": [5], "tables": [
                {"number": 1, "ns": 1, "ew": 2, "results": [{"board": 1, **result}]},
                {"number": 2, "ns": 3, "ew": 4,
                 "results": [{"board": 1, "trump": "O", "ns_points_taken": 30}]},
            ]},
            {"number": 2, "movement": "swiss", "byes": [3], "tables": [
                {"number": 1, "ns": 1, "ew": 5, "results": [{"board": 2, **result}]},
                {"number": 2, "ns": 2, "ew": 6,
                 "results": [{"board": 2, "trump": "O", "ns_points_taken": 30}]},
            ]},
        ],
    }


def test_the_movement_fields_load_and_dump_back_unchanged():
    doc = load(document())
    assert doc.movement == "swiss"
    assert doc.rules.missed_boards is MissedBoards.AVERAGE
    assert [(p.number, p.joined_round, p.withdrawn_after_round) for p in doc.pairs][3:] == [
        (4, 1, 1), (5, 1, None), (6, 2, None)]
    assert [r.byes for r in doc.rounds] == [(5,), (3,)]
    assert load(dump(doc)) == doc
    absences = doc.absences()
    assert absences.sat_out == {5: frozenset({1}), 3: frozenset({2}), 6: frozenset({1})}
    assert absences.withdrawn == {4: 1}


def test_standings_of_the_file_score_missed_boards_as_average_and_list_the_withdrawn_last():
    doc = load(document())
    standings = score_championship(doc.rules, doc.results(), doc.absences()).standings()
    by_pair = {s.pair: s for s in standings}
    assert by_pair[5].missed == 1 and by_pair[6].missed == 1 and by_pair[3].missed == 1
    assert by_pair[6].total == Fraction(2) + Fraction(3, 2)  # won board 2 + A
    assert standings[-1].pair == 4 and standings[-1].withdrawn
    exported = dump(doc, score_championship(doc.rules, doc.results(), doc.absences()))
    assert exported["standings"][-1] == {
        "rank": 6, "pair": 4, "total": 2.0, "boards": 1, "average": 2.0, "withdrawn": True}


def test_python_m_scoring_ranks_by_the_files_rule(tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document()))
    assert main([str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["standings"][-1]["withdrawn"] is True
    assert {s["pair"]: s.get("missed", 0) for s in out["standings"]}[5] == 1


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["rounds"][0]["byes"].append(1), "rounds[0].byes[1]: pair 1 sits out"),
        (lambda d: d["rounds"][0]["byes"].append(9), "rounds[0].byes[1]: pair 9 does not exist"),
        (lambda d: d["pairs"][5].update(joined_round=3),
         "round 2: pair 6 plays before its joined_round 3"),
        (lambda d: d["pairs"][0].update(withdrawn_after_round=1),
         "round 2: pair 1 plays after it withdrew"),
        (lambda d: d["rounds"][1].update(movement="ladder"), "rounds[1].movement"),
        (lambda d: d["rules"].update(missed_boards="zero"), "rules.missed_boards"),
    ],
)
def test_a_file_that_seats_a_pair_outside_its_rounds_is_refused_by_path(change, expected):
    data = copy.deepcopy(document())
    change(data)
    with pytest.raises(InterchangeError) as exc:
        load(data)
    assert any(expected in problem for problem in exc.value.problems), exc.value.problems
