"""A classic championship's game through the table's link, and ``manage.py
table_links``."""

from __future__ import annotations

import io
import re

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import AuditEntry, Game, Seating

pytestmark = pytest.mark.django_db

GAME = {"ns_points": 101, "ew_points": 64, "deals": 9, "ended_by": "target"}


def drawn_classic(**shape: int) -> tuple[Classic, Seating]:
    """A classic championship (``make_classic``'s ``pairs`` and ``rounds``) with round
    1 drawn, and its first table."""
    cache.clear()
    classic = make_classic(**shape)
    services.round_draw(round=classic.rounds[0], seed=3, acting_user=classic.organiser)
    seating = Seating.objects.filter(round=classic.rounds[0]).order_by("table__number").first()
    assert seating is not None
    return classic, seating


def test_a_classic_game_is_entered_at_the_table_and_confirmed() -> None:
    classic, seating = drawn_classic()
    championship = classic.championship
    ns, ew = seating.ns_pair.number, seating.ew_pair.number
    secret = services.table_secret(championship=championship,
                                   table_number=seating.table.number).secret
    client = APIClient()
    standings_url = reverse("api_standings", args=[championship.slug])
    before = client.get(standings_url).json()

    state = client.get(reverse("api_table", args=[secret])).json()
    assert (state["format"], state["boards"], state["game"]["state"]) == (
        "classic", [], "missing")
    bad = client.put(reverse("api_table_game", args=[secret]),
                     {**GAME, "ns_points": 90, "entered_by": ew}, format="json")
    assert bad.status_code == 400  # nobody reached 101 by target: refused at entry
    entered = client.put(reverse("api_table_game", args=[secret]), {**GAME, "entered_by": ew},
                         format="json", HTTP_IDEMPOTENCY_KEY="partida-1")
    assert entered.status_code == 201, entered.json()
    assert entered.json()["status"] == "provisional"
    assert client.get(standings_url).json() == before
    assert not Game.objects.filter(seating=seating).exists()
    board = client.put(reverse("api_table_result", args=[secret, 1]),
                       {"trump": "O", "ns_points_taken": 40, "entered_by": ns}, format="json")
    assert board.status_code == 400

    assert client.post(reverse("api_table_game_confirm", args=[secret]), {"pair": ew},
                       format="json").status_code == 403
    confirmed = client.post(reverse("api_table_game_confirm", args=[secret]), {"pair": ns},
                            format="json")
    assert confirmed.status_code == 200, confirmed.json()
    game = Game.objects.get(seating=seating)
    assert (game.ns_points, game.ew_points, game.entered_by) == (101, 64, None)
    after = client.get(standings_url).json()
    assert after["progress"]["results_in"] == before["progress"]["results_in"] + 1
    winner = next(row for row in after["standings"] if row["pair"] == ns)
    assert winner["wins"] == 1 and winner["points_for"] == 101
    row = AuditEntry.objects.get(action=AuditEntry.Action.GAME_CREATE)
    assert row.reason == (f"taula {seating.table.number}, parella {ew} "
                          f"(confirmada per la parella {ns})")
    again = client.put(reverse("api_table_game", args=[secret]), {**GAME, "entered_by": ew},
                       format="json")
    assert again.status_code == 409
    assert again.json()["current"]["ns_points"] == 101
    state = client.get(reverse("api_table", args=[secret])).json()
    assert state["game"]["state"] == "confirmed"


def test_a_referees_game_supersedes_the_tables_entry() -> None:
    classic, seating = drawn_classic()
    secret = services.table_secret(championship=classic.championship,
                                   table_number=seating.table.number).secret
    client = APIClient()
    client.put(reverse("api_table_game", args=[secret]),
               {**GAME, "entered_by": seating.ns_pair.number}, format="json")
    services.game_record(seating=seating, ns_points=70, ew_points=101, deals=10,
                         ended_by="target", expected_version=None, acting_user=classic.referee)
    state = client.get(reverse("api_table", args=[secret])).json()
    assert state["game"]["state"] == "by_referee"
    assert state["game"]["values"]["ew_points"] == 101
    assert client.post(reverse("api_table_game_confirm", args=[secret]),
                       {"pair": seating.ew_pair.number}, format="json").status_code == 404


def test_table_links_prints_each_tables_link_of_the_round(small) -> None:
    out = io.StringIO()
    call_command("table_links", small.championship.slug, "--round", "1",
                 "--base-url", "https://botifarra.example.org/", stdout=out)
    lines = out.getvalue().splitlines()
    tables = [s.table.number for s in small.seatings]
    assert len(lines) == len(tables) == 2
    for line, number in zip(lines, tables, strict=True):
        secret = services.table_secret(championship=small.championship,
                                       table_number=number).secret
        assert line == f"Taula {number}: https://botifarra.example.org/t/{secret}/"
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", secret)
    again = io.StringIO()
    call_command("table_links", small.championship.slug, "--round", "1",
                 "--base-url", "https://botifarra.example.org", stdout=again)
    assert again.getvalue() == out.getvalue()  # the same link every time
    with pytest.raises(CommandError, match="not drawn"):
        call_command("table_links", small.championship.slug, "--round", "2")
    with pytest.raises(CommandError, match="no championship"):
        call_command("table_links", "cap", "--round", "1")


def test_table_links_starts_from_the_setting(small, settings) -> None:
    settings.TABLE_LINK_BASE_URL = "http://sala.local:8000"
    out = io.StringIO()
    call_command("table_links", small.championship.slug, "--round", "1", stdout=out)
    assert out.getvalue().startswith("Taula 1: http://sala.local:8000/t/")
