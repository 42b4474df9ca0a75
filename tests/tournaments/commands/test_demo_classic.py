"""``manage.py demo --format classic``: a Swiss classic championship played by the bots,
every game entered with its score sheet through the services; the standings checked
against a count made here from the stored games."""

from __future__ import annotations

from collections import Counter, defaultdict
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from engine.rules import Rules
from scoring import classic
from scoring.classic_play import play_classic_game
from tournaments.management.commands import demo
from tournaments.models import AuditEntry, Bye, Championship, Game, Round, Seating
from tournaments.selectors import classic as classic_selectors

pytestmark = pytest.mark.django_db

COMMAND = ("--slug", "classic-23", "--format", "classic", "--pairs", "23", "--rounds", "5",
           "--movement", "swiss", "--play-rounds", "5")


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def independent_order(championship: Championship, cap: int) -> list[tuple[int, ...]]:
    """(pair, wins x 2, difference, points for) of every pair, best first: wins, then
    difference, then points for, each point counted up to ``cap``; a bye a win at 0-0."""
    wins: dict[int, int] = defaultdict(int)  # in halves
    got: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    for ns, ew, ns_points, ew_points in Game.objects.filter(
        seating__round__championship=championship
    ).values_list("seating__ns_pair__number", "seating__ew_pair__number",
                  "ns_points", "ew_points"):
        a, b = min(ns_points, cap), min(ew_points, cap)
        wins[ns] += 2 if a > b else 1 if a == b else 0
        wins[ew] += 2 if b > a else 1 if a == b else 0
        got[ns] += a
        lost[ns] += b
        got[ew] += b
        lost[ew] += a
    for pair in Bye.objects.filter(round__championship=championship).values_list(
            "pair__number", flat=True):
        wins[pair] += 2
    rows = [(p, wins[p], got[p] - lost[p], got[p]) for p in range(1, 24)]
    return sorted(rows, key=lambda r: (-r[1], -r[2], -r[3], r[0]))


def test_the_classic_demo_of_23_pairs_plays_5_swiss_rounds_of_valid_games() -> None:
    """Slow on a loaded machine (2-3 s quiet): the bots play about 600 deals, one by one,
    and 55 games go through the services."""
    out = run_demo(*COMMAND)
    c = Championship.objects.get(slug="classic-23")
    assert c.is_classic and c.name.endswith("· classic-23")
    assert c.movement == Championship.Movement.SWISS
    rules = c.classic_rules()
    rounds = Round.objects.filter(championship=c)
    assert rounds.count() == 5 and not rounds.filter(closed_at__isnull=True).exists()

    # One bye a round, never twice to a pair; no rematch.
    byes = list(Bye.objects.filter(round__championship=c)
                .values_list("round__number", "pair__number"))
    assert sorted(r for r, _p in byes) == [1, 2, 3, 4, 5]
    assert len({p for _r, p in byes}) == 5
    meetings = [frozenset(m) for m in Seating.objects.filter(round__championship=c)
                .values_list("ns_pair__number", "ew_pair__number")]
    assert len(meetings) == 55 and len(set(meetings)) == 55

    # Every game valid under the rules, its sheet replaying to the stored final.
    games = list(Game.objects.filter(seating__round__championship=c))
    assert len(games) == 55
    endings: Counter[str] = Counter()
    for game in games:
        raw = {"ns_points": game.ns_points, "ew_points": game.ew_points,
               "deals": game.deals, "ended_by": game.ended_by, "hands": game.hands}
        checked, problems = classic.validate_game(raw, rules)
        assert problems == [] and checked is not None
        assert (checked.ns_points, checked.ew_points, checked.deals) == (
            game.ns_points, game.ew_points, game.deals)
        assert len(game.hands) == game.deals
        endings[game.ended_by] += 1
    assert len(endings) > 1 and endings["adjusted"] == 0
    assert max(max(g.ns_points, g.ew_points) for g in games) > rules.score_cap  # cap used
    assert AuditEntry.objects.filter(championship=c, action="game.create").count() == 55

    # The standings: wins, then difference, then points for, points capped at 121.
    view = classic_selectors.classic_standings(c)
    shown = [(r.number, int(r.wins * 2), r.difference, r.points_for) for r in view.rows]
    expected = independent_order(c, rules.score_cap)
    assert [row[1:] for row in shown] == [row[1:] for row in expected]
    assert {row[0] for row in shown} == set(range(1, 24))
    # Competition ranks (1, 2, 2, 4) over the same keys.
    keys = [row[1:] for row in expected]
    ranks = [keys.index(key) + 1 for key in keys]
    assert [r.rank for r in view.rows] == ranks
    assert "Ronda 5: taules 11; partides acabades" in out and "descansa" in out
    assert "organitzador / organitzador-demo" in out


def test_a_withdrawal_leaves_the_pair_out_of_later_rounds_and_unplaced() -> None:
    run_demo("--format", "classic", "--pairs", "6", "--rounds", "3", "--withdraw", "2@1")
    c = Championship.objects.get(slug=demo.CLASSIC_SLUG)
    assert c.name == demo.CLASSIC_NAME
    later = Seating.objects.filter(round__championship=c, round__number__gt=1)
    assert not later.filter(ns_pair__number=2).exists()
    assert not later.filter(ew_pair__number=2).exists()
    assert Game.objects.filter(seating__round__championship=c).count() == 3 + 2 + 2
    row = next(r for r in classic_selectors.classic_standings(c).rows if r.number == 2)
    assert row.withdrawn and row.rank is None
    out = run_demo("--format", "classic", "--pairs", "6", "--rounds", "3", "--reset")
    assert Championship.objects.get(slug=demo.CLASSIC_SLUG).pk != c.pk
    assert "Demo creada" in out


def test_the_default_classic_demo_seeds_end_games_every_way_and_some_level() -> None:
    """24 pairs x 5 rounds: the seeds of the 60 games, played without the database."""
    rules, play = classic.ClassicRules(), Rules(variant="lliure", sant_vicenc=False)
    endings: Counter[classic.EndedBy] = Counter()
    level = 0
    for rnd in range(1, demo.CLASSIC_ROUNDS + 1):
        for table in range(1, demo.PAIRS // 2 + 1):
            game = play_classic_game(
                rules, play, seed=demo.GAME_SEED * 100_000 + rnd * 1000 + table).game
            endings[game.ended_by] += 1
            level += game.ns_points == game.ew_points
    assert set(endings) == {classic.EndedBy.TARGET, classic.EndedBy.DEALS,
                            classic.EndedBy.TIME}
    assert level >= 1


def test_a_classic_demo_refuses_boards_per_round() -> None:
    with pytest.raises(CommandError) as caught:
        run_demo("--format", "classic", "--boards-per-round", "4")
    assert str(caught.value).startswith("--boards-per-round")
    assert not Championship.objects.exists()

