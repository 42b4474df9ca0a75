"""A classic championship in groups then a knockout, played through the services."""

from __future__ import annotations

import pytest

from scoring import stages as pure
from tests.tournaments.stages.conftest import make_staged, play_round
from tournaments import services
from tournaments.models import AuditEntry, Game, Round, Seating, Stage
from tournaments.selectors.stages import bracket_view, groups_view

pytestmark = pytest.mark.django_db


def test_setup_makes_the_stages_rounds() -> None:
    staged = make_staged(16, groups=4)
    rounds = list(Round.objects.filter(championship=staged.championship).order_by("number"))
    # Groups of 4: 3 rounds; a knockout of 4: 2 rounds.
    assert [(r.stage.kind if r.stage else None, r.stage_round) for r in rounds] == [
        ("groups", 1), ("groups", 2), ("groups", 3), ("knockout", 1), ("knockout", 2)]
    assert AuditEntry.objects.filter(championship=staged.championship,
                                     action="stage.setup").count() == 1


def test_groups_then_knockout_to_a_champion() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    for r in (1, 2, 3):
        play_round(staged, r, seed=7)
    groups = staged.stages[0]
    groups.refresh_from_db()
    assert [len(g["pairs"]) for g in groups.groups] == [4, 4, 4, 4]
    view = groups_view(staged.championship)
    assert view is not None and view.final and view.games_in == view.games_due == 24
    winners = [g.rows[0].number for g in view.groups]
    assert sorted(q.pair for q in view.qualified) == sorted(winners)
    # The knockout: round 4 seats the 4 group winners at 2 tables.
    play_round(staged, 4, seed=7)
    ko = Stage.objects.get(championship=staged.championship, kind="knockout")
    seated = Seating.objects.filter(round__number=4, round__championship=staged.championship)
    assert sorted(p for s in seated for p in (s.ns_pair.number, s.ew_pair.number)) == \
        sorted(winners)
    # Round 5 (the final) is seated by the games, no draw needed.
    final = Seating.objects.get(round__number=5, round__championship=staged.championship)
    play_round(staged, 5, seed=7)
    view_b = bracket_view(staged.championship)
    assert view_b is not None and view_b.champion is not None
    assert view_b.champion.number in (final.ns_pair.number, final.ew_pair.number)
    assert ko.kind == "knockout"


def test_level_knockout_game_is_refused() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    seating = Seating.objects.filter(round=staged.round(4)).first()
    assert seating is not None
    # Level after 12 deals: the extra deals are asked for.
    with pytest.raises(services.ResultError, match="2 mans més") as info:
        services.game_record(seating=seating, ns_points=95, ew_points=95, deals=12,
                             ended_by="deals", expected_version=None,
                             acting_user=staged.referee)
    assert info.value.field == "deals"
    # Still level after them: refused too, the referee decides (adjusted).
    with pytest.raises(services.ResultError, match="decideix l'àrbitre") as info:
        services.game_record(seating=seating, ns_points=99, ew_points=99, deals=14,
                             ended_by="deals", expected_version=None,
                             acting_user=staged.referee)
    assert info.value.field == "ew_points"
    assert not Game.objects.filter(seating=seating).exists()


def test_knockout_before_the_groups_end_is_refused() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1)
    with pytest.raises(services.DrawError, match="Falten partides"):
        services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)


def test_correction_reseats_the_next_match_until_it_is_played() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=5)
    play_round(staged, 4, seed=5)
    first = Seating.objects.filter(round=staged.round(4)).order_by("table__number").first()
    assert first is not None
    game = Game.objects.get(seating=first)
    loser = first.ew_pair.number if game.ns_points > game.ew_points else first.ns_pair.number
    # Swap the score: the other pair now goes to the final.
    services.game_record(seating=first, ns_points=game.ew_points, ew_points=game.ns_points,
                         deals=10, ended_by="target", expected_version=game.version,
                         acting_user=staged.referee)
    final = Seating.objects.get(round=staged.round(5))
    assert loser in (final.ns_pair.number, final.ew_pair.number)
    play_round(staged, 5, seed=5)
    game = Game.objects.get(seating=first)
    with pytest.raises(services.ResultError, match="ja s'ha jugat"):
        services.game_record(seating=first, ns_points=game.ew_points,
                             ew_points=game.ns_points, deals=10, ended_by="target",
                             expected_version=game.version, acting_user=staged.referee)


def test_bracket_of_sixteen_seeds_like_the_pure_rule() -> None:
    staged = make_staged(64, groups=16, per_group=1)
    for r in (1, 2, 3):
        play_round(staged, r, seed=11)
    view = groups_view(staged.championship)
    assert view is not None
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    expected = pure.seed_bracket(list(view.qualified), avoid_same_group=True)
    ko = Stage.objects.get(championship=staged.championship, kind="knockout")
    assert ko.bracket is not None and ko.bracket["positions"] == list(expected.positions)
    assert Seating.objects.filter(round=staged.round(4)).count() == 8


def test_plain_rounds_setup_replaces_the_stages() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    services.rounds_setup(championship=staged.championship, rounds=3, boards_per_round=0,
                          acting_user=staged.organiser)
    assert not Stage.objects.filter(championship=staged.championship).exists()
    assert list(Round.objects.filter(championship=staged.championship)
                .values_list("stage", flat=True)) == [None, None, None]


def test_a_played_staged_championship_can_be_deleted() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3, 4):
        play_round(staged, r, seed=2)
    services.championship_delete(championship=staged.championship,
                                 confirm_slug=staged.championship.slug,
                                 acting_user=staged.organiser)
    assert not Stage.objects.exists()
    assert not Round.objects.exists()


def test_a_level_knockout_game_goes_to_the_extra_deals_whatever_the_level_rule() -> None:
    # The championship's own level rule is "half a win each" (the default).
    staged = make_staged(8, groups=2, per_group=2)
    assert staged.championship.level_game == "half"
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    seating = Seating.objects.filter(round=staged.round(4)).first()
    assert seating is not None
    saved = services.game_record(seating=seating, ns_points=95, ew_points=80, deals=14,
                                 ended_by="deals", expected_version=None,
                                 acting_user=staged.referee)
    assert saved.game.deals == 14
    # A group game keeps the championship's rule: 14 deals are refused there.
    group_seating = Seating.objects.filter(round=staged.round(1)).first()
    assert group_seating is not None
    game = Game.objects.get(seating=group_seating)
    with pytest.raises(services.ResultError):
        services.game_record(seating=group_seating, ns_points=95, ew_points=80, deals=14,
                             ended_by="deals", expected_version=game.version,
                             acting_user=staged.referee)


def test_a_game_ended_the_wrong_way_is_named_in_words_not_by_its_stored_value() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    services.round_draw(round=staged.round(1), acting_user=staged.organiser, seed=1)
    seating = Seating.objects.filter(round=staged.round(1)).first()
    assert seating is not None
    with pytest.raises(services.ResultError) as info:
        services.game_record(seating=seating, ns_points=130, ew_points=20, deals=12,
                             ended_by="deals", expected_version=None,
                             acting_user=staged.referee)
    assert "«Mans esgotades»" in str(info.value) and "deals" not in str(info.value)


def test_no_late_pair_once_the_groups_have_started() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=1)
    with pytest.raises(services.ChampionshipStateError, match="ja ha començat"):
        services.pair_register(championship=staged.championship, number=9,
                               player1="Tard A", player2="Tard B",
                               acting_user=staged.organiser)
    assert services.late_entry_round(staged.championship) is None
