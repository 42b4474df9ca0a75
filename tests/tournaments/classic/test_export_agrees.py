"""A classic championship of 24 pairs played by the bots, exported: ``python -m scoring``
on the export, the standings API and an independent reading of the rules on the
exported games give the same standings; importing the export and exporting it again
gives the same file."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db

COLUMNS = ("rank", "pair", "wins", "played", "points_for", "points_against", "difference")


def independent_ranks(document: dict[str, Any]) -> dict[int, int]:
    """pair -> rank, read from the file's games alone with the rules as docs/rules.md
    states them: points counted up to the cap; a win 1, a level game half (the
    championship's default), a bye a win at 0-0; ranked by wins, then difference, then
    points for; equal pairs share a rank."""
    cap = document["rules"]["score_cap"]
    wins: dict[int, Fraction] = defaultdict(Fraction)
    got: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    assert document["rules"]["level_game"] == "half"
    for rnd in document["rounds"]:
        for pair in rnd.get("byes", []):
            wins[pair] += 1
        for table in rnd["tables"]:
            game = table["game"]
            ns = min(game["ns_points"], cap)
            ew = min(game["ew_points"], cap)
            got[table["ns"]] += ns
            lost[table["ns"]] += ew
            got[table["ew"]] += ew
            lost[table["ew"]] += ns
            wins[table["ns"]] += 1 if ns > ew else Fraction(1, 2) if ns == ew else 0
            wins[table["ew"]] += 1 if ew > ns else Fraction(1, 2) if ns == ew else 0
    pairs = set(wins) | set(got)
    key = {p: (wins[p], got[p] - lost[p], got[p]) for p in pairs}
    return {p: 1 + sum(1 for q in pairs if key[q] > key[p]) for p in pairs}


def rows(standings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(row[c] for c in COLUMNS) for row in standings]


def test_the_export_the_scorer_the_api_and_the_rules_agree(tmp_path: Path) -> None:
    """Slow (about 10 s): the bots play 60 games deal by deal, and the file goes through
    a fresh ``python -m scoring`` process and an import."""
    call_command("demo", "--slug", "classic-24", "--format", "classic", "--pairs", "24",
                 "--rounds", "5", "--movement", "swiss", "--play-rounds", "5",
                 stdout=open(tmp_path / "demo.txt", "w"))  # noqa: SIM115
    exported = tmp_path / "classic-24.json"
    call_command("export_championship", "classic-24", "--output", str(exported))
    document = json.loads(exported.read_text())
    assert document["championship"]["format"] == "classic"

    scored = subprocess.run(
        [sys.executable, "-m", "scoring", str(exported)], capture_output=True, text=True,
        check=True, cwd=Path(__file__).resolve().parents[3],
    )
    by_scorer = json.loads(scored.stdout)["standings"]
    api = Client().get("/api/v1/c/classic-24/standings/")
    assert api.status_code == 200
    by_api = api.json()["standings"]
    assert rows(by_scorer) == rows(by_api) == rows(document["standings"])
    assert len(by_api) == 24

    ranks = independent_ranks(document)
    assert {row["pair"]: row["rank"] for row in by_api} == ranks
    # The order the rules give: wins, then difference, then points for.
    keys = [(Fraction(r["wins"]), r["difference"], r["points_for"]) for r in by_api]
    assert keys == sorted(keys, reverse=True)
    assert any(g["game"]["ns_points"] > 121 or g["game"]["ew_points"] > 121
               for rnd in document["rounds"] for g in rnd["tables"])

    call_command("import_championship", str(exported), stdout=open(tmp_path / "i.txt", "w"))  # noqa: SIM115
    from tournaments.models import Championship

    copy_ = Championship.objects.exclude(slug="classic-24").get()
    again = tmp_path / "again.json"
    call_command("export_championship", copy_.slug, "--output", str(again))
    second = json.loads(again.read_text())
    for doc in (document, second):
        doc["championship"].pop("slug")
        doc["championship"].pop("name")
    assert second == document
