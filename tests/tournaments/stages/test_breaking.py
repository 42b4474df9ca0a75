"""A careless or hostile organiser, referee or client against the stages: bad specs
refused at their field with nothing stored, pairs that withdraw or come late, the
knockout's corrections, level and capped knockout games."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.tournaments.stages.conftest import Staged, make_staged, play_round
from tournaments import services
from tournaments.models import Bye, Game, Membership, Pair, Round, Seating, Stage
from tournaments.selectors.ranks import ranks_before
from tournaments.selectors.stages import bracket_view, groups_view

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def _stored(staged: Staged) -> list[tuple[Any, ...]]:
    return list(Stage.objects.filter(championship=staged.championship).order_by("number")
                .values_list("kind", "group_count", "per_group", "second_chance",
                             "third_place", "exclude_zero_wins", "name"))


def _rounds(staged: Staged) -> list[Any]:
    return list(Round.objects.filter(championship=staged.championship).order_by("number")
                .values_list("stage__kind", flat=True))


def _put(staged: Staged, stages: Any) -> Any:
    client = APIClient()
    client.force_authenticate(staged.organiser)
    return client.put(reverse("api_stages", args=[staged.championship.slug]),
                      {"stages": stages}, format="json")


GROUPS = {"kind": "groups", "groups": 4, "per_group": 1}


@pytest.mark.parametrize(("stages", "field"), [
    # A yes/no setting as text is not taken for yes.
    ([{**GROUPS, "exclude_zero_wins": "false"}, {"kind": "knockout"}],
     "stages.1.exclude_zero_wins"),
    ([GROUPS, {"kind": "knockout", "third_place": "no"}], "stages.2.third_place"),
    ([GROUPS, {"kind": "knockout", "avoid_same_group": 0}], "stages.2.avoid_same_group"),
    # A name is text.
    ([{**GROUPS, "name": {"a": 1}}, {"kind": "knockout"}], "stages.1.name"),
    # 16 pairs in 4 groups, 1 through from each: 12 left, not 13.
    ([{**GROUPS, "second_chance": 13}, {"kind": "knockout"}], "stages.1.second_chance"),
    # The knockout after groups takes every pair through: 4, not 2 or 200.
    ([GROUPS, {"kind": "knockout", "pairs": 2}], "stages.2.pairs"),
    ([GROUPS, {"kind": "knockout", "pairs": 200}], "stages.2.pairs"),
    # After a Swiss stage: the first 2, 4, 8... pairs, at most the field.
    ([{"kind": "swiss", "rounds": 3}, {"kind": "knockout", "pairs": 12}], "stages.2.pairs"),
    ([{"kind": "swiss", "rounds": 3}, {"kind": "knockout", "pairs": 32}], "stages.2.pairs"),
    # After groups only a knockout: the groups' qualified pairs go nowhere else.
    ([{**GROUPS, "per_group": 2}, {"kind": "groups", "groups": 2, "per_group": 1}],
     "stages.2.kind"),
    ([{**GROUPS, "per_group": 2}, {"kind": "swiss", "rounds": 2}], "stages.2.kind"),
])
def test_a_bad_spec_is_refused_at_its_field_with_nothing_stored(
        stages: Any, field: str) -> None:
    staged = make_staged(16, groups=4, per_group=1)
    before, rounds = _stored(staged), _rounds(staged)
    response = _put(staged, stages)
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert _stored(staged) == before and _rounds(staged) == rounds


def test_a_knockout_of_the_first_eight_after_a_swiss_stage_is_taken() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    response = _put(staged, [{"kind": "swiss", "rounds": 2},
                             {"kind": "knockout", "pairs": 8}])
    assert response.status_code == 200, response.content
    assert _rounds(staged) == ["swiss"] * 2 + ["knockout"] * 3


def test_second_chance_too_large_in_the_form_is_shown_at_its_field(client: Any) -> None:
    staged = make_staged(16, groups=4, per_group=1)
    client.force_login(staged.organiser)
    before = _stored(staged)
    data = {"groups": "4", "split": "snake", "per_group": "1", "second_chance": "13",
            "rest_rule": "best_placed", "exclude_zero_wins": "on", "knockout": "on"}
    post = {f"stages-{k}": v for k, v in data.items()}
    post["stages-submit"] = "1"
    response = client.post(reverse("rounds_setup", args=[staged.championship.slug]), post)
    assert response.status_code == 200
    assert response.context["stages_form"].errors.get("second_chance")
    assert _stored(staged) == before


# ------------------------------------------------------------------------ withdrawals


def test_a_pair_withdrawn_mid_groups_lets_the_knockout_start_without_it() -> None:
    staged = make_staged(16, groups=4, per_group=1, second_chance=4)
    play_round(staged, 1, seed=1)
    gone = Pair.objects.get(championship=staged.championship, number=1)
    services.pair_withdraw(pair=gone, after_round=1, reason="malalt",
                           acting_user=staged.organiser)
    play_round(staged, 2, seed=1)
    play_round(staged, 3, seed=1)
    # Its opponents sit out the games it would have played.
    assert Bye.objects.filter(round__championship=staged.championship,
                              round__number__in=[2, 3]).count() == 2
    view = groups_view(staged.championship)
    assert view is not None
    assert view.games_in == view.games_due and view.final
    assert all(g.complete for g in view.groups)
    assert 1 not in [q.pair for q in view.qualified] and len(view.qualified) == 8
    seated = services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    assert len(seated) == 4
    assert 1 not in {p for s in seated for p in (s.ns_pair.number, s.ew_pair.number)}


def test_a_late_pair_is_refused_once_the_groups_are_formed() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    play_round(staged, 1, seed=1)
    with pytest.raises(services.ChampionshipStateError, match="ja ha començat"):
        services.pair_register(championship=staged.championship, number=17,
                               player1="Tard A", player2="Tard B",
                               acting_user=staged.organiser)
    assert not Pair.objects.filter(championship=staged.championship, number=17).exists()


def test_a_walkover_in_the_knockout_is_an_adjusted_game_of_the_head_referee() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    seating = Seating.objects.select_related("ns_pair", "ew_pair").get(
        round=staged.round(4), table__number=1)
    services.pair_withdraw(pair=seating.ns_pair, after_round=4, reason="no ve",
                           acting_user=staged.organiser)
    head = UserFactory(username="cap-arbitre-fases")
    services.membership_grant(championship=staged.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=staged.organiser)
    services.game_record(seating=seating, ns_points=0, ew_points=101, deals=0,
                         ended_by="adjusted", expected_version=None, acting_user=head)
    play_round(staged, 4, seed=3)
    final = Seating.objects.get(round=staged.round(5))
    assert seating.ew_pair.number in (final.ns_pair.number, final.ew_pair.number)


# --------------------------------------------------------------------- knockout games


def _knockout_seated(third_place: bool = False) -> Staged:
    staged = make_staged(8, groups=2, per_group=2, third_place=third_place)
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    return staged


def test_a_capped_knockout_game_is_won_by_the_side_with_more_points() -> None:
    staged = _knockout_seated()
    seating = Seating.objects.select_related("ns_pair", "ew_pair").get(
        round=staged.round(4), table__number=1)
    services.game_record(seating=seating, ns_points=125, ew_points=130, deals=12,
                         ended_by="adjusted", expected_version=None,
                         acting_user=staged.organiser)
    view = bracket_view(staged.championship)
    assert view is not None
    match = view.rounds[0].matches[0]
    assert match.winner == seating.ew_pair.number
    assert view.next_match(seating.ew_pair.number) is not None
    assert view.eliminated(seating.ns_pair.number)


def test_a_level_knockout_game_is_refused_at_its_field_in_the_api() -> None:
    staged = _knockout_seated()
    client = APIClient()
    client.force_authenticate(staged.referee)
    url = reverse("api_game", args=[staged.championship.slug, 4, 1])
    response = client.put(url, {"ns_points": 80, "ew_points": 80, "deals": 9,
                                "ended_by": "time"}, format="json")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == ["ew_points"]
    assert "empatada" in response.json()["detail"]
    assert not Game.objects.filter(seating__round=staged.round(4)).exists()


def test_a_level_knockout_game_is_refused_at_its_field_on_the_web(client: Any) -> None:
    staged = _knockout_seated()
    client.force_login(staged.referee)
    url = reverse("game_entry", args=[staged.championship.slug, 4, 1])
    page = client.get(url)
    assert page.status_code == 200
    response = client.post(url, {"ns_points": "80", "ew_points": "80", "deals": "9",
                                 "ended_by": "time", "version": ""})
    assert response.status_code == 200
    assert "empatada" in " ".join(response.context["form"].errors.get("ew_points", []))
    assert not Game.objects.filter(seating__round=staged.round(4)).exists()


def test_a_correction_after_the_next_match_is_played_is_refused() -> None:
    staged = _knockout_seated()
    play_round(staged, 4, seed=3)
    play_round(staged, 5, seed=3)
    game = Game.objects.select_related("seating").get(seating__round=staged.round(4),
                                                      seating__table__number=1)
    with pytest.raises(services.ResultError, match="ja s'ha jugat"):
        services.game_record(seating=game.seating, ns_points=game.ew_points,
                             ew_points=game.ns_points, deals=10, ended_by="target",
                             expected_version=game.version, acting_user=staged.organiser)


def test_deleting_a_knockout_game_unseats_the_unplayed_next_match() -> None:
    staged = _knockout_seated()
    play_round(staged, 4, seed=3)
    assert Seating.objects.filter(round=staged.round(5)).count() == 1
    game = Game.objects.get(seating__round=staged.round(4), seating__table__number=2)
    services.game_delete(game=game, expected_version=game.version,
                         acting_user=staged.organiser)
    assert not Seating.objects.filter(round=staged.round(5)).exists()


def test_the_knockout_before_the_groups_end_and_its_later_round_are_clear_refusals() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    play_round(staged, 1, seed=3)
    with pytest.raises(services.DrawError, match="Falten partides dels grups"):
        services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    play_round(staged, 2, seed=3)
    play_round(staged, 3, seed=3)
    with pytest.raises(services.DrawError, match="encara no té cap partida"):
        services.round_draw(round=staged.round(5), acting_user=staged.organiser, seed=1)
    with pytest.raises(services.DrawError, match="ja té resultats"):
        services.round_draw(round=staged.round(1), acting_user=staged.organiser, seed=9)


def test_reopening_a_knockout_round_seats_the_matches_that_became_ready() -> None:
    staged = make_staged(16, groups=4, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=3)
    play_round(staged, 4, seed=3)  # the quarter-finals: both semi-finals seated
    semis = list(Seating.objects.filter(round=staged.round(5)).order_by("table__number"))
    assert len(semis) == 2
    services.game_record(seating=semis[0], ns_points=101, ew_points=60, deals=9,
                         ended_by="target", expected_version=None,
                         acting_user=staged.referee)
    # The semi-finals' round closed with one game missing, then a correction of a
    # quarter-final unseats the other semi-final and seats it again: not in a closed
    # round.
    services.round_close(round=staged.round(5), acting_user=staged.organiser,
                         allow_missing=True)
    game = Game.objects.select_related("seating").get(seating__round=staged.round(4),
                                                      seating__table__number=4)
    services.game_record(seating=game.seating, ns_points=game.ew_points,
                         ew_points=game.ns_points, deals=10, ended_by="target",
                         expected_version=game.version, acting_user=staged.organiser)
    assert Seating.objects.filter(round=staged.round(5)).count() == 1
    with pytest.raises(services.DrawError):
        services.round_draw(round=staged.round(5), acting_user=staged.organiser, seed=1)
    services.round_reopen(round=staged.round(5), acting_user=staged.organiser)
    assert Seating.objects.filter(round=staged.round(5)).count() == 2


def test_a_knockout_of_one_qualified_pair_says_why() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    response = _put(staged, [{**GROUPS, "per_group": 0, "second_chance": 1},
                             {"kind": "knockout"}])
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "stages.2.pairs"
    assert "1 parella" in error["message"] and "2" in error["message"]


def test_groups_no_longer_possible_after_withdrawals_say_so_in_catalan() -> None:
    staged = make_staged(8, groups=4, per_group=1)
    gone = Pair.objects.get(championship=staged.championship, number=8)
    services.pair_withdraw(pair=gone, after_round=0, reason="baixa",
                           acting_user=staged.organiser)
    with pytest.raises(services.DrawError) as refused:
        services.round_draw(round=staged.round(1), acting_user=staged.organiser, seed=1)
    assert "4 grups" in str(refused.value) and "7 parelles" in str(refused.value)
    assert "pairs" not in str(refused.value) and "groups" not in str(refused.value)


def test_the_knockout_before_the_groups_are_formed_says_so() -> None:
    staged = make_staged(8, groups=4, per_group=1)  # groups of 2: one round
    with pytest.raises(services.DrawError) as refused:
        services.round_draw(round=staged.round(2), acting_user=staged.organiser, seed=1)
    assert "0 de 0" not in str(refused.value)
    assert "ronda 1" in str(refused.value)


def test_a_qualification_short_of_pairs_says_why_in_catalan() -> None:
    staged = make_staged(8, groups=2, per_group=4)
    play_round(staged, 1, seed=1)
    gone = Pair.objects.get(championship=staged.championship, number=1)
    services.pair_withdraw(pair=gone, after_round=1, reason="baixa",
                           acting_user=staged.organiser)
    play_round(staged, 2, seed=1)
    play_round(staged, 3, seed=1)
    with pytest.raises(services.DrawError) as refused:
        services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    assert "per_group" not in str(refused.value) and "placed" not in str(refused.value)
    assert "grup A" in str(refused.value)


def test_stages_after_a_draw_are_refused_at_the_stages_with_nothing_stored() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    services.round_draw(round=staged.round(1), acting_user=staged.organiser, seed=1)
    before, rounds = _stored(staged), _rounds(staged)
    response = _put(staged, [{"kind": "groups", "groups": 2, "per_group": 1},
                             {"kind": "knockout"}])
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["stages"]
    assert _stored(staged) == before and _rounds(staged) == rounds


def test_a_null_stage_is_named_as_the_service_counts_stages() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    response = _put(staged, [GROUPS, None])
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["stages.2"]


def test_a_pair_joining_at_the_groups_after_a_swiss_stage_is_dealt_last() -> None:
    staged = make_staged(8, groups=2, per_group=1)
    services.stages_setup(championship=staged.championship, acting_user=staged.organiser,
                          stages=[{"kind": "swiss", "rounds": 1},
                                  {"kind": "groups", "groups": 2, "per_group": 1,
                                   "split": "snake", "rounds": 5}])
    play_round(staged, 1, seed=2)
    services.pair_register(championship=staged.championship, number=9, player1="Tard A",
                           player2="Tard B", acting_user=staged.organiser)
    services.pair_register(championship=staged.championship, number=10, player1="Tard C",
                           player2="Tard D", acting_user=staged.organiser)
    services.round_draw(round=staged.round(2), acting_user=staged.organiser, seed=1)
    groups = Stage.objects.get(championship=staged.championship, kind="groups").groups
    assert sorted(p for g in groups for p in g["pairs"]) == list(range(1, 11))
    # The latecomers rank after every pair of the Swiss stage: dealt in the last row.
    assert {g["pairs"][-1] for g in groups} == {9, 10}


def test_a_pair_withdrawn_after_a_swiss_stage_is_not_seeded_in_the_knockout() -> None:
    staged = make_staged(8, groups=2, per_group=1)
    services.stages_setup(championship=staged.championship, acting_user=staged.organiser,
                          stages=[{"kind": "swiss", "rounds": 2},
                                  {"kind": "knockout", "pairs": 4}])
    play_round(staged, 1, seed=2)
    play_round(staged, 2, seed=2)
    ranks = ranks_before(staged.championship, 3)
    leader = min(ranks, key=lambda p: (ranks[p], p))
    services.pair_withdraw(pair=Pair.objects.get(championship=staged.championship,
                                                 number=leader),
                           after_round=2, reason="baixa", acting_user=staged.organiser)
    seated = services.round_draw(round=staged.round(3), acting_user=staged.organiser, seed=1)
    assert leader not in {p for s in seated for p in (s.ns_pair.number, s.ew_pair.number)}
    assert len(seated) == 2


def test_a_pair_is_refused_once_the_groups_are_formed_even_with_no_table_left() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    services.round_draw(round=staged.round(1), acting_user=staged.organiser, seed=1)
    gone = Pair.objects.get(championship=staged.championship, number=16)
    # Its withdrawal before round 1 takes round 1's draw away; the groups stay formed.
    assert services.pair_withdraw(pair=gone, after_round=0, reason="baixa",
                                  acting_user=staged.organiser) == [1]
    assert not Seating.objects.filter(round__championship=staged.championship).exists()
    with pytest.raises(services.ChampionshipStateError):
        services.pair_register(championship=staged.championship, number=17,
                               player1="Tard A", player2="Tard B",
                               acting_user=staged.organiser)


def test_a_null_yes_no_setting_takes_its_default() -> None:
    staged = make_staged(16, groups=4, per_group=1)
    response = _put(staged, [{**GROUPS, "exclude_zero_wins": None},
                             {"kind": "knockout", "third_place": None,
                              "avoid_same_group": None}])
    assert response.status_code == 200, response.content
    groups, knockout = Stage.objects.filter(
        championship=staged.championship).order_by("number")
    assert groups.exclude_zero_wins and knockout.avoid_same_group
    assert not knockout.third_place
