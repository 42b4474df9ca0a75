"""``manage.py demo --format classic --groups ...``: a classic championship in groups and
a knockout played by the bots. What must show is checked against the exported file,
each group ranked here by a small count of our own (wins, then difference, then points
for), not by the selectors."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from engine.rules import Rules
from scoring.classic import ClassicRules, LevelGame
from scoring.classic_play import play_classic_game
from tournaments import services
from tournaments.management.commands import demo
from tournaments.models import Championship, Game, Stage
from tournaments.selectors.stages import bracket_view

pytestmark = pytest.mark.django_db

GIRONA = ("--format", "classic", "--pairs", "64", "--groups", "16", "--qualify", "1",
          "--knockout", "--deals-per-game", "8")
SECOND_CHANCE = ("--format", "classic", "--pairs", "60", "--groups", "15", "--qualify", "1",
                 "--second-chance", "1", "--knockout")


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


# -- an independent reading of the exported file -------------------------------------------


def games_of(doc: dict[str, Any], numbers: range) -> list[tuple[int, int, int, int]]:
    """(ns, ew, ns_points, ew_points) of every game of the rounds ``numbers``."""
    return [
        (t["ns"], t["ew"], t["game"]["ns_points"], t["game"]["ew_points"])
        for r in doc["rounds"] if r["number"] in numbers for t in r["tables"]
    ]


def groups_of(games: list[tuple[int, int, int, int]]) -> list[set[int]]:
    """The groups as the games show them: the pairs linked by a game (an all-play-all
    links every pair of a group to every other)."""
    linked: dict[int, set[int]] = defaultdict(set)
    for ns, ew, _a, _b in games:
        linked[ns].add(ew)
        linked[ew].add(ns)
    seen: set[int] = set()
    groups = []
    for start in sorted(linked):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            pair = todo.pop()
            if pair not in group:
                group.add(pair)
                todo.extend(linked[pair] - group)
        seen |= group
        groups.append(group)
    return groups


def records(games: list[tuple[int, int, int, int]], cap: int | None) -> dict[int, tuple[int, ...]]:
    """pair -> (wins in halves, difference, points for, games won outright), each
    game's points counted up to ``cap``; a level game half a win to each."""
    wins: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    got: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    for ns, ew, ns_points, ew_points in games:
        a = ns_points if cap is None else min(ns_points, cap)
        b = ew_points if cap is None else min(ew_points, cap)
        wins[ns] += 2 if a > b else 1 if a == b else 0
        wins[ew] += 2 if b > a else 1 if a == b else 0
        won[ns] += a > b
        won[ew] += b > a
        got[ns], lost[ns] = got[ns] + a, lost[ns] + b
        got[ew], lost[ew] = got[ew] + b, lost[ew] + a
    return {p: (wins[p], got[p] - lost[p], got[p], won[p]) for p in got}


def ranked(group: set[int], record: dict[int, tuple[int, ...]]) -> list[int]:
    """The group best first: wins, difference, points for; still level, the lower pair
    number (as the standings list them)."""
    return sorted(group, key=lambda p: (-record[p][0], -record[p][1], -record[p][2], p))


def best(pairs: list[int], record: dict[int, tuple[int, ...]]) -> set[int]:
    """The pairs sharing the best record (wins, difference, points for) of ``pairs``."""
    top = max(record[p][:3] for p in pairs)
    return {p for p in pairs if record[p][:3] == top}


def knockout_check(doc: dict[str, Any], first: int, rounds: int) -> int:
    """Every knockout round's pairs are the winners of the round before; every game has a
    winner; returns the champion."""
    winners: list[int] = []
    for number in range(first, first + rounds):
        games = games_of(doc, range(number, number + 1))
        if number > first:
            assert sorted(p for g in games for p in g[:2]) == sorted(winners)
        assert all(a != b for _ns, _ew, a, b in games)  # no level knockout game
        winners = [ns if a > b else ew for ns, ew, a, b in games]
    assert len(winners) == 1
    return winners[0]


# -- the demos -------------------------------------------------------------------------------


def test_girona_16_groups_of_4_then_a_knockout_of_16_to_one_champion() -> None:
    """Slow (about 10 s on a quiet machine): 111 games of 8 deals played by the bots."""
    out = run_demo(*GIRONA)
    c = Championship.objects.get(slug=demo.GIRONA_SLUG)
    assert c.is_classic and c.max_deals == 8 and c.score_cap is None
    doc = services.championship_export(c)
    assert [r["number"] for r in doc["rounds"]] == [1, 2, 3, 4, 5, 6, 7]

    group_games = games_of(doc, range(1, 4))
    groups = groups_of(group_games)
    assert sorted(len(g) for g in groups) == [4] * 16
    assert sorted(p for g in groups for p in g) == list(range(1, 65))
    played: dict[int, int] = defaultdict(int)
    for ns, ew, _a, _b in group_games:
        played[ns] += 1
        played[ew] += 1
    assert set(played.values()) == {3} and len(played) == 64  # each pair 3 group games
    assert all(r["byes"] == [] for r in doc["rounds"][:3] if "byes" in r)
    # Every game of the group stage lasted the 8 deals (10 when level after 8).
    assert {t["game"]["deals"] for r in doc["rounds"][:3] for t in r["tables"]} <= {8, 10}

    record = records(group_games, doc["rules"]["score_cap"])
    knockout_pairs = {p for g in games_of(doc, range(4, 5)) for p in g[:2]}
    assert len(knockout_pairs) == 16
    for group in groups:
        through = group & knockout_pairs
        assert len(through) == 1, group  # one pair of each group, its winner
        assert through <= best(list(group), record)
        assert through == {ranked(group, record)[0]}

    assert len(games_of(doc, range(4, 8))) == 15  # 8 + 4 + 2 + 1
    champion = knockout_check(doc, 4, 4)
    view = bracket_view(c)
    assert view is not None and view.champion is not None
    assert view.champion.number == champion
    assert f"Campiona: parella {champion} " in out


def test_60_pairs_15_group_winners_and_the_best_runner_up() -> None:
    """Slow (about 10 s on a quiet machine): 105 games to 101 played by the bots."""
    run_demo(*SECOND_CHANCE)
    c = Championship.objects.get(slug=demo.STAGES_SLUG.format(pairs=60))
    doc = services.championship_export(c)
    group_games = games_of(doc, range(1, 4))
    groups = groups_of(group_games)
    assert sorted(len(g) for g in groups) == [4] * 15
    record = records(group_games, doc["rules"]["score_cap"])
    knockout_pairs = {p for g in games_of(doc, range(4, 5)) for p in g[:2]}
    assert len(knockout_pairs) == 16

    orders = [ranked(g, record) for g in groups]
    winners = {order[0] for order in orders}
    assert winners <= knockout_pairs
    # The second chance, best placed: the runners-up that won a game, the best record.
    runners_up = [order[1] for order in orders if record[order[1]][3] > 0]
    (extra,) = knockout_pairs - winners
    assert extra in best(runners_up, record)
    stage = Stage.objects.get(championship=c, kind=Stage.Kind.GROUPS)
    assert [q["pair"] for q in stage.qualified if q["how"] == "second_chance"] == [extra]

    assert len(games_of(doc, range(4, 8))) == 15
    champion = knockout_check(doc, 4, 4)
    view = bracket_view(c)
    assert view is not None and view.champion is not None
    assert view.champion.number == champion


# -- a level knockout game --------------------------------------------------------------------

#: A seed whose game, under 8 deals and no target, is level after the 8 deals.
LEVEL_SEED = 140
EIGHT = ClassicRules(game_target=9999, max_deals=8, time_limit_minutes=None, score_cap=None)


def test_a_level_game_plays_on_the_same_deals_until_it_is_not_level() -> None:
    level = play_classic_game(EIGHT, Rules(), seed=LEVEL_SEED)
    assert len(level.hands) == 8 and level.game.ns_points == level.game.ew_points
    longer = demo._break_level(EIGHT, Rules(), LEVEL_SEED, 8)
    assert longer.hands[:8] == level.hands  # the deals played stay as they were
    assert len(longer.hands) == 8 + EIGHT.extra_deals
    assert longer.game.ns_points != longer.game.ew_points


def test_a_level_knockout_game_is_broken_and_entered_as_the_referees_final(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every knockout game is made the level game of :data:`LEVEL_SEED`: the demo plays
    it on past its extra deals and enters the final (adjusted) with a winner."""
    real = demo.play_classic_game

    def level_in_knockout(rules: ClassicRules, play: Rules, *, seed: int) -> Any:
        if seed // 1000 % 100 >= 4:  # table t of round r plays seed ...r*1000+t
            seed, play = LEVEL_SEED, Rules()  # the level game's own play rules
            if rules.level_game is LevelGame.EXTRA_DEALS:  # still level after the extras
                rules = dataclasses.replace(rules, level_game=LevelGame.HALF)
        return real(rules, play, seed=seed)

    monkeypatch.setattr(demo, "play_classic_game", level_in_knockout)
    out = run_demo("--format", "classic", "--pairs", "8", "--groups", "2", "--qualify", "2",
                   "--knockout", "--deals-per-game", "8", "--slug", "level-ko")
    c = Championship.objects.get(slug="level-ko")
    games = list(Game.objects.filter(seating__round__championship=c,
                                     seating__round__number__gte=4))
    assert len(games) == 3
    for game in games:
        assert game.ended_by == "adjusted" and game.deals == 10
        assert game.ns_points != game.ew_points and "desempat" in game.note
    view = bracket_view(c)
    assert view is not None and view.champion is not None
    assert "allargades fins a desempatar 2" in out


# -- bad combinations ----------------------------------------------------------------------


@pytest.mark.parametrize(("args", "option"), [
    (("--groups", "4"), "--groups"),
    (("--format", "classic", "--pairs", "7", "--groups", "4"), "--pairs"),
    (("--format", "classic", "--pairs", "16", "--groups", "4", "--qualify", "5"),
     "--qualify"),
    (("--format", "classic", "--second-chance", "1"), "--second-chance"),
    (("--format", "classic", "--knockout"), "--knockout"),
    (("--format", "classic", "--pairs", "8", "--groups", "1", "--qualify", "1",
      "--knockout"), "--knockout"),
    (("--format", "classic", "--pairs", "16", "--groups", "4", "--third-place"),
     "--third-place"),
    (("--format", "classic", "--pairs", "16", "--groups", "4", "--rounds", "3"), "--rounds"),
    (("--format", "classic", "--pairs", "16", "--groups", "4",
      "--second-chance-rule", "best_record"), "--second-chance-rule"),
    (("--format", "classic", "--pairs", "16", "--groups", "4", "--qualify", "0"),
     "--qualify"),
    (("--deals-per-game", "8"), "--deals-per-game"),
    (("--format", "classic", "--deals-per-game", "0"), "--deals-per-game"),
])
def test_a_bad_combination_is_one_line_naming_the_option(
    args: tuple[str, ...], option: str
) -> None:
    with pytest.raises(CommandError) as info:
        run_demo(*args)
    message = str(info.value)
    assert message.startswith(option + ":") or message.startswith(option + " ")
    assert "\n" not in message
    assert not Championship.objects.exists()
