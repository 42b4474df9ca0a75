"""``python -m scoring FILE.json`` end to end, on hand-checked championships.

tests/scoring/data/{matchpoints,proportional,classic}.json hold the same 6 pairs, 2 rounds,
4 boards (board 2 not played at table 3, an EW infraction and an A+/A- adjustment in round
2), scored by matchpoints (1..2, Neuberg on the boards with 2 results where board 1 has 3),
proportional (1..2) and classic doubling on the butinet scale (0..100, floor). butinet.json
is the butinet board of docs/rules.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def scored(name: str) -> dict[str, Any]:
    done = run(str(DATA / f"{name}.json"))
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def result_rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (
            round_["number"],
            table["number"],
            r["board"],
            r["ns_score"],
            r["ew_score"],
            r["ns_comparative"],
            r["ew_comparative"],
        )
        for round_ in doc["rounds"]
        for table in round_["tables"]
        for r in table["results"]
    ]


def standing_rows(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(s["rank"], s["pair"], s["total"], s["boards"], s["average"]) for s in doc["standings"]]


# (round, table, board, ns_score, ew_score, ns_comparative, ew_comparative), hand-worked.
EXPECTED_RESULTS = {
    "matchpoints": [
        (1, 1, 1, 3, -3, 2.0, 1.0),  # NS 3, 0, -6: mp 4, 2, 0 of 4
        (1, 1, 2, -6, 12, 1.125, 1.875),  # A=2, E=3: (0+1)*3/2-1 = 1/2 of 4
        (1, 2, 1, 0, 0, 1.5, 1.5),
        (1, 2, 2, 12, -12, 1.875, 1.125),  # (2+1)*3/2-1 = 7/2 of 4
        (1, 3, 1, -6, 6, 1.0, 2.0),
        (2, 1, 3, None, None, 1.5, 0.0),  # EW infraction: NS average (15/8+9/8)/2
        (2, 1, 4, None, None, 1.6, 1.4),  # A+ / A-
        (2, 2, 3, 14, -14, 1.875, 1.125),
        (2, 2, 4, 0, 0, 1.125, 1.875),
        (2, 3, 3, -16, 16, 1.125, 1.875),
        (2, 3, 4, 20, -10, 1.875, 1.125),  # NS contro x2; recontro, Sant Vicenç informative
    ],
    "proportional": [
        (1, 1, 1, 3, -3, 2.0, 1.0),
        (1, 1, 2, -6, 12, 1.0, 2.0),  # EW botifarra x2
        (1, 2, 1, 0, 0, 1.6667, 1.3333),  # 1 + 6/9, 1 + 3/9
        (1, 2, 2, 12, -12, 2.0, 1.0),  # NS contro x2 on EW botifarra x2
        (1, 3, 1, -6, 6, 1.0, 2.0),
        (2, 1, 3, None, None, 1.5, 0.0),
        (2, 1, 4, None, None, 1.6, 1.4),
        (2, 2, 3, 14, -14, 2.0, 1.0),
        (2, 2, 4, 0, 0, 1.0, 2.0),
        (2, 3, 3, -16, 16, 1.0, 2.0),
        (2, 3, 4, 20, -10, 2.0, 1.0),
    ],
    "classic": [
        (1, 1, 1, 3, -3, 100, 0),
        (1, 1, 2, -12, 12, 0, 100),  # botifarra M = 2
        (1, 2, 1, 0, 0, 66, 33),  # 66.67 and 33.33 rounded down
        (1, 2, 2, 24, -24, 100, 0),  # botifarra with contro M = 4
        (1, 3, 1, -6, 6, 0, 100),
        (2, 1, 3, None, None, 50, 0),
        (2, 1, 4, None, None, 60, 40),
        (2, 2, 3, 14, -14, 100, 0),
        (2, 2, 4, 0, 0, 0, 100),
        (2, 3, 3, -16, 16, 0, 100),
        (2, 3, 4, 80, -80, 100, 0),  # Sant Vicenç M = 8
    ],
}

# (rank, pair, total, boards, average)
EXPECTED_STANDINGS = {
    "matchpoints": [
        (1, 3, 6.375, 4, 1.5938),
        (2, 1, 6.225, 4, 1.5563),  # 1.55625 rounded half up
        (3, 2, 5.875, 4, 1.4688),
        (4, 6, 5.0, 3, 1.6667),
        (5, 4, 4.025, 4, 1.0063),
        (6, 5, 4.0, 3, 1.3333),
    ],
    "proportional": [
        (1, 3, 6.6667, 4, 1.6667),  # 20/3
        (2, 1, 6.1, 4, 1.525),
        (3, 2, 6.0, 4, 1.5),
        (4, 6, 5.0, 3, 1.6667),
        (5, 5, 4.0, 3, 1.3333),
        (6, 4, 3.7333, 4, 0.9333),  # 56/15
    ],
    "classic": [
        (1, 3, 266, 4, 66.5),
        (2, 1, 210, 4, 52.5),
        (3, 2, 200, 4, 50.0),
        (3, 6, 200, 3, 66.6667),
        (5, 5, 100, 3, 33.3333),
        (6, 4, 73, 4, 18.25),
    ],
}


@pytest.mark.parametrize("name", ["matchpoints", "proportional", "classic"])
def test_python_m_scoring_gives_the_hand_worked_numbers(name: str) -> None:
    doc = scored(name)
    assert result_rows(doc) == EXPECTED_RESULTS[name]
    assert standing_rows(doc) == EXPECTED_STANDINGS[name]


def test_python_m_scoring_gives_the_butinet_board() -> None:
    doc = scored("butinet")
    assert [row[3:] for row in result_rows(doc)] == [
        (-1, 2, 45, 72),
        (4, -8, 68, 42),
        (3, -6, 63, 48),
        (-11, 11, 0, 100),
        (11, -22, 100, 0),
    ]
    assert standing_rows(doc)[:3] == [
        (1, 8, 100, 1, 100.0),
        (1, 9, 100, 1, 100.0),
        (3, 2, 72, 1, 72.0),
    ]


def test_python_m_scoring_keeps_the_rest_of_the_document() -> None:
    original = json.loads((DATA / "classic.json").read_text(encoding="utf-8"))
    doc = scored("classic")
    assert {k: v for k, v in doc.items() if k not in ("standings", "rounds")} == {
        k: v for k, v in original.items() if k != "rounds"
    }


def test_python_m_scoring_reads_stdin() -> None:
    done = run("-", stdin=(DATA / "proportional.json").read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    assert standing_rows(json.loads(done.stdout)) == EXPECTED_STANDINGS["proportional"]


def test_a_bad_file_is_refused_with_each_problem_and_status_2(tmp_path: Path) -> None:
    data = json.loads((DATA / "matchpoints.json").read_text(encoding="utf-8"))
    data["rounds"][1]["tables"][2]["results"][0]["ns_points_taken"] = 73
    data["rounds"][0]["tables"][0]["results"][0]["recontro"] = True
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = run(str(bad))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "rounds[0].tables[0].results[0].recontro: recontro without contro",
        "rounds[1].tables[2].results[0].ns_points_taken: 73 is not in 0..72",
    ]


def test_invalid_json_is_refused_with_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    done = run(str(bad))
    assert done.returncode == 2
    assert "not JSON" in done.stderr


def test_a_missing_file_is_refused_with_status_2(tmp_path: Path) -> None:
    done = run(str(tmp_path / "absent.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def matchpoints_text() -> str:
    return (DATA / "matchpoints.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 100_000 + "]" * 100_000,
         "-: arrays and objects nested too deep (more than 100 levels at line 1 column 101)"),
        (matchpoints_text().replace('"number": 1,', '"number": ' + "9" * 5000 + ",", 1),
         "pairs[0].number: a number of 5000 digits is out of range"),
        (matchpoints_text().replace('"top": 2', '"top": 1e30', 1),
         "rules.scale.top: 1e+30 is not between -1000000 and 1000000"),
        (matchpoints_text().replace('"infraction_score": 0', '"infraction_score": 1e300', 1),
         "rules.infraction_score: 1e+300 is not between -1000000 and 1000000"),
        (matchpoints_text().replace('"contro": false', '"contro": false, "contro": true', 1),
         "-: rounds[0].tables[0].results[0].contro: the key appears twice in the same object"),
    ],
    ids=["deep", "huge-integer", "huge-scale", "huge-infraction-score", "repeated-key"],
)
def test_a_hostile_file_is_refused_with_a_message_and_status_2_not_a_traceback(
    text: str, expected: str
) -> None:
    done = run("-", stdin=text)
    assert (done.returncode, done.stdout) == (2, "")
    assert "Traceback" not in done.stderr
    assert expected in done.stderr.splitlines(), done.stderr


# -- --format table, --public, a closed pipe ------------------------------------------------


def test_format_table_prints_the_standings_aligned() -> None:
    done = run(str(DATA / "matchpoints.json"), "--format", "table")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["Rank", "Pair", "Names", "Total", "Boards", "Average", "%"]
    assert set(lines[1]) == {"-", " "}
    assert lines[2].split() == ["1", "3", "Núria", "Font", "–", "Joan", "Serra", "6.3750", "4",
                                "1.5938", "59.38"]
    # 1.55625 is 55.625 % of the 1..2 scale, rounded half up
    assert lines[3].split()[-3:] == ["4", "1.5563", "55.63"]
    assert len(lines) == 2 + 6
    assert len({len(line) for line in lines[:3]}) == 1  # columns line up


def test_format_table_shows_whole_totals_under_floor_rounding() -> None:
    done = run(str(DATA / "classic.json"), "--format", "table")
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [(r[0], r[1], r[-4], r[-3], r[-1]) for r in rows] == [
        ("1", "3", "266", "4", "66.50"),
        ("2", "1", "210", "4", "52.50"),
        ("3", "2", "200", "4", "50.00"),
        ("3", "6", "200", "3", "66.67"),
        ("5", "5", "100", "3", "33.33"),
        ("6", "4", "73", "4", "18.25"),
    ]


def mid_round() -> dict[str, Any]:
    """matchpoints.json mid-round 2: table 3 has not played board 4 yet, so board 4 is
    hidden (tables 1 and 2 played it) and board 3, which every table played, is public.
    Board 2, which table 3 never played in round 1, stays hidden too."""
    data = json.loads((DATA / "matchpoints.json").read_text(encoding="utf-8"))
    data["rounds"][1]["tables"][2]["results"] = [
        r for r in data["rounds"][1]["tables"][2]["results"] if r["board"] != 4
    ]
    return data


def test_public_leaves_out_the_boards_some_table_still_has_to_play(tmp_path: Path) -> None:
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(mid_round()), encoding="utf-8")
    everything = json.loads(run(str(path)).stdout)
    public = json.loads(run(str(path), "--public").stdout)
    boards = {
        r["board"] for rd in public["rounds"] for t in rd["tables"] for r in t["results"]
    }
    assert boards == {1, 3}
    assert {r["board"] for rd in everything["rounds"] for t in rd["tables"]
            for r in t["results"]} == {1, 2, 3, 4}
    assert "deal" not in json.dumps(public["boards"])
    assert {s["pair"]: s["boards"] for s in public["standings"]} == {
        1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    assert {s["pair"]: s["boards"] for s in everything["standings"]} == {
        1: 4, 2: 3, 3: 4, 4: 4, 5: 2, 6: 3}


def test_public_counts_every_board_once_the_championship_is_finished(tmp_path: Path) -> None:
    data = mid_round()
    data["championship"]["status"] = "finished"
    path = tmp_path / "done.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run(str(path), "--public").stdout == run(str(path)).stdout


def big_document(pairs: int = 40, boards: int = 300) -> dict[str, Any]:
    """One round of ``pairs / 2`` tables, each playing ``boards`` boards: its scored JSON
    is far larger than a pipe's buffer."""
    return {
        "format": "botifarra-duplicate/1",
        "championship": {"name": "Gran", "slug": "gran"},
        "players": [{"id": f"p{n}", "name": f"Jugador {n}"} for n in range(1, 2 * pairs + 1)],
        "pairs": [{"number": n, "players": [f"p{2 * n - 1}", f"p{2 * n}"]}
                  for n in range(1, pairs + 1)],
        "boards": [{"number": b} for b in range(1, boards + 1)],
        "rounds": [{"number": 1, "tables": [
            {"number": t, "ns": 2 * t - 1, "ew": 2 * t, "results": [
                {"board": b, "trump": "O", "ns_points_taken": (b * t) % 73}
                for b in range(1, boards + 1)]}
            for t in range(1, pairs // 2 + 1)]}],
    }


@pytest.mark.parametrize("fmt", ["json", "table"])
def test_a_reader_that_stops_early_ends_it_quietly(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "big.json"
    pairs = 40 if fmt == "json" else 2000  # the table has one line per pair
    path.write_text(json.dumps(big_document(pairs, 300 if fmt == "json" else 1)),
                    encoding="utf-8")
    # python -m scoring FILE | head -1
    scorer = subprocess.Popen(
        [sys.executable, "-m", "scoring", str(path), "--format", fmt],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    assert scorer.stdout is not None and scorer.stderr is not None
    head = subprocess.run(["head", "-1"], stdin=scorer.stdout, capture_output=True,
                          text=True, timeout=120, check=False)
    scorer.stdout.close()
    stderr = scorer.stderr.read().decode()
    scorer.wait(timeout=120)
    assert head.stdout.split()[0] == ("{" if fmt == "json" else "Rank")
    assert len(head.stdout.splitlines()) == 1
    assert "Traceback" not in stderr
    assert stderr == ""
