"""Read-only API: standings and travellers, with the page's visibility rules, and the same
numbers as ``python -m scoring`` on the exported file."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import record

pytestmark = pytest.mark.django_db


def test_standings_api_gives_progress_and_ranked_pairs(client, small: Small) -> None:
    record(small.seatings[0], small.boards[0], 50)
    record(small.seatings[1], small.boards[0], 30)
    data = client.get(reverse("api_standings", args=[small.championship.slug])).json()
    assert data["progress"] == {"results_in": 2, "results_expected": 4}
    assert [row["rank"] for row in data["standings"]] == [1, 1, 3, 3]
    assert {row["total"] for row in data["standings"]} == {2, 1}
    assert {type(row["total"]) for row in data["standings"]} == {int}  # as the export


def test_the_api_schema_describes_the_read_endpoints(client, db) -> None:
    response = client.get(reverse("schema"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/v1/c/{slug}/standings/" in text and "/api/v1/c/{slug}/boards/{number}/" in text


def test_traveller_api_hides_a_board_until_every_table_played_it(client, small: Small):
    url = reverse("api_traveller", args=[small.championship.slug, small.boards[0].number])
    record(small.seatings[0], small.boards[0], 50)
    hidden = client.get(url).json()
    assert (hidden["public"], hidden["deal"], hidden["results"]) == (False, None, [])
    # Which tables played a hidden board is not the public's: the count only.
    assert (hidden["tables_missing"], hidden["tables_missing_count"]) == (None, 1)
    organiser = Client()
    organiser.force_login(small.organiser)
    assert organiser.get(url).json()["tables_missing"] == [small.seatings[1].table.number]
    record(small.seatings[1], small.boards[0], 30)
    shown = client.get(url).json()
    assert shown["public"] is True
    assert shown["deal"] == small.boards[0].deal
    assert [(r["ns_points_taken"], r["ns_score"]) for r in shown["results"]] == [
        (50, 14), (30, -6)
    ]


def test_traveller_api_hides_a_hidden_board_from_a_plain_referee_too(client, small: Small):
    small.referee.save()
    record(small.seatings[0], small.boards[0], 50)
    client.force_login(small.referee)
    data = client.get(
        reverse("api_traveller", args=[small.championship.slug, small.boards[0].number])
    ).json()
    assert (data["public"], data["deal"], data["results"]) == (False, None, [])


def test_traveller_api_shows_a_hidden_board_to_the_organiser(client, small: Small) -> None:
    small.organiser.save()
    record(small.seatings[0], small.boards[0], 50)
    client.force_login(small.organiser)
    data = client.get(
        reverse("api_traveller", args=[small.championship.slug, small.boards[0].number])
    ).json()
    assert len(data["results"]) == 1 and data["deal"] is not None


def test_standings_api_counts_only_public_boards_whoever_asks(client, small: Small):
    url = reverse("api_standings", args=[small.championship.slug])
    record(small.seatings[0], small.boards[0], 50)
    record(small.seatings[1], small.boards[0], 30)
    before = client.get(url).json()
    record(small.seatings[0], small.boards[1], 70)  # board 2 hidden: table 2 to play
    after = client.get(url).json()
    assert after["standings"] == before["standings"]
    assert {row["boards"] for row in after["standings"]} == {1}
    assert after["progress"]["results_in"] == 3
    small.organiser.save()
    client.force_login(small.organiser)
    inside = client.get(url).json()
    assert inside["standings"] == after["standings"]  # the organiser's too: never a hidden board


@pytest.mark.parametrize(
    "rules",
    [{}, {"method": "matchpoints", "scale_bottom": 0, "scale_top": 100, "rounding": "floor"}],
    ids=["proportional-1-2", "matchpoints-0-100-floor"],
)
def test_api_numbers_equal_python_m_scoring_on_the_export(client, tmp_path: Path, rules):
    championship = build_championship(
        pairs=8, rounds=2, boards_per_round=3, drawn_rounds=2, played_rounds=2, **rules
    )
    out = io.StringIO()
    call_command("export_championship", championship.slug, stdout=out)
    exported = tmp_path / "export.json"
    exported.write_text(out.getvalue(), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "scoring", str(exported)],
        capture_output=True, text=True, check=True,
    )
    scored = json.loads(run.stdout)

    api = client.get(reverse("api_standings", args=[championship.slug])).json()
    assert [
        {k: row[k] for k in ("rank", "pair", "total", "boards", "average")}
        for row in api["standings"]
    ] == scored["standings"]

    expected = {
        (rnd["number"], table["number"], res["board"]): (
            res["ns_score"], res["ew_score"], res["ns_comparative"], res["ew_comparative"]
        )
        for rnd in scored["rounds"] for table in rnd["tables"] for res in table["results"]
    }
    seen = {}
    for board in range(1, 7):
        trav = client.get(reverse("api_traveller", args=[championship.slug, board])).json()
        for r in trav["results"]:
            seen[(r["round"], r["table"], board)] = (
                r["ns_score"], r["ew_score"], r["ns_comparative"], r["ew_comparative"]
            )
    assert seen == expected
    assert len(seen) == 2 * 3 * 4


@pytest.mark.parametrize("query", [{"round": "9"}, {"through": "9"}])
def test_standings_api_gives_404_for_a_round_the_championship_lacks(client, small, query):
    response = client.get(reverse("api_standings", args=[small.championship.slug]), query)
    assert response.status_code == 404


def test_the_api_root_lists_the_resources_and_links_the_docs(client, small: Small) -> None:
    response = client.get("/api/v1/")
    assert response.status_code == 200
    data = response.json()
    assert data["championships"].endswith("/api/v1/c/")
    assert data["per_championship"]["standings"].endswith("/api/v1/c/{slug}/standings/")
    assert data["docs"].endswith("/api/docs/") and data["schema"].endswith("/api/schema/")
    for link in (data["championships"], data["docs"], data["schema"]):
        assert client.get(link).status_code == 200, link
    standings = data["per_championship"]["standings"].replace("{slug}", small.championship.slug)
    assert client.get(standings).status_code == 200
