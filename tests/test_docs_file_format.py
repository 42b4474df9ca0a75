"""The example of docs/file-format.md is a real file: it parses, loads, scores as the
document says, and equals tests/scoring/data/docs_example.json."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from fractions import Fraction as F
from pathlib import Path

import pytest

from scoring import score_championship
from scoring.__main__ import main
from scoring.interchange import load, parse_json

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "file-format.md"
DATA = ROOT / "tests" / "scoring" / "data" / "docs_example.json"
SECTION = "## A minimal complete example"


def documented_example() -> str:
    """The first fenced ```json block after the example's heading."""
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"{DOC.name} lost its section {SECTION!r}"
    match = re.search(r"```json\n(.*?)\n```", text.split(SECTION, 1)[1], re.DOTALL)
    assert match is not None, f"no ```json block under {SECTION!r}"
    return match.group(1)


def test_the_documented_example_is_the_data_file() -> None:
    assert parse_json(documented_example()) == json.loads(DATA.read_text(encoding="utf-8"))


def test_the_documented_example_loads_with_every_kind_of_result() -> None:
    doc = load(parse_json(documented_example()))
    assert (doc.name, doc.slug, str(doc.date), doc.venue) == (
        "Campionat d'exemple", "exemple-2026", "2026-11-29", "Vic"
    )
    assert [p.number for p in doc.pairs] == [1, 2, 3, 4, 5, 6]
    assert [(b.number, b.deal is not None) for b in doc.boards] == [(1, True), (2, False)]
    results = list(doc.results())
    assert len(results) == 6
    assert sum(r.infraction is not None for r in results) == 1
    assert sum(r.adjusted is not None for r in results) == 1
    assert sum(r.delegated for r in results) == 1


def test_the_documented_example_scores_as_its_table_says() -> None:
    doc = load(parse_json(documented_example()))
    scores = score_championship(doc.rules, doc.results())
    got = {
        (key[1], key[2]): (s.ns_score, s.ew_score, s.ns_comparative, s.ew_comparative)
        for key, s in scores.results.items()
    }
    assert got == {
        (1, 1): (4, -4, F(2), F(1)),
        (2, 1): (0, 0, F(1), F(2)),
        (3, 1): (None, None, F(3, 2), F(0)),
        (1, 2): (-12, 12, F(1), F(2)),
        (2, 2): (8, -8, F(2), F(1)),
        (3, 2): (None, None, F(8, 5), F(7, 5)),
    }
    standings = [(s.rank, s.pair, s.total, s.average) for s in scores.standings()]
    assert standings == [
        (1, 5, F(31, 10), F(31, 20)),
        (2, 1, F(3), F(3, 2)),
        (2, 2, F(3), F(3, 2)),
        (2, 3, F(3), F(3, 2)),
        (2, 4, F(3), F(3, 2)),
        (6, 6, F(7, 5), F(7, 10)),
    ]


def test_python_m_scoring_accepts_the_data_file() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main([str(DATA)])
    assert status == 0
    scored = json.loads(out.getvalue())
    assert scored["standings"][0] == {
        "rank": 1, "pair": 5, "total": 3.1, "boards": 2, "average": 1.55
    }


@pytest.mark.django_db
def test_the_documented_example_imports_into_the_web_app() -> None:
    from tournaments import services
    from tournaments.models import Result

    championship = services.championship_import(
        data=parse_json(documented_example()), acting_user=None
    ).championship
    assert (championship.slug, championship.status) == ("exemple-2026", "running")
    assert championship.pairs.count() == 6
    assert Result.objects.filter(seating__round__championship=championship).count() == 6


CLASSIC_SECTION = "## Classic championships"
CLASSIC_DATA = ROOT / "tests" / "scoring" / "data" / "classic_games.json"


def classic_example() -> str:
    """The ```json block of the classic section's example."""
    text = DOC.read_text(encoding="utf-8")
    assert CLASSIC_SECTION in text, f"{DOC.name} lost its section {CLASSIC_SECTION!r}"
    part = text.split(CLASSIC_SECTION, 1)[1].split("### Example", 1)[1]
    match = re.search(r"```json\n(.*?)\n```", part, re.DOTALL)
    assert match is not None, "no ```json block under the classic example"
    return match.group(1)


def test_the_classic_example_is_its_data_file_and_ranks_as_the_document_says() -> None:
    assert parse_json(classic_example()) == json.loads(
        CLASSIC_DATA.read_text(encoding="utf-8"))
    doc = load(parse_json(classic_example()))
    assert doc.is_classic
    assert [(s.place, s.pair, s.wins, s.points_for, s.points_against)
            for s in doc.classic_standings()] == [
        (1, 1, F(2), 222, 104), (2, 4, F(3, 2), 80, 80), (3, 2, F(1), 154, 101),
        (4, 5, F(1), 40, 121), (5, 3, F(1, 2), 80, 170),
    ]
