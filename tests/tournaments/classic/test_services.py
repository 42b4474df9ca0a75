"""Entering a classic championship's games through the services: the checks, the
concurrency guarantees, the audit, and the Swiss draw by wins."""

from __future__ import annotations

import pytest

from tests.tournaments.classic.conftest import Classic
from tournaments import services
from tournaments.models import AuditEntry, Bye, Game, Seating
from tournaments.selectors import classic as selectors
from tournaments.services.results import SaveKind


def seatings(round) -> list[Seating]:
    return list(Seating.objects.filter(round=round).select_related("table", "round")
                .order_by("table__number"))


def test_a_classic_championship_has_its_defaults(classic_championship: Classic) -> None:
    c = classic_championship.championship
    assert c.is_classic and c.variant == "lliure" and not c.sant_vicenc
    rules = c.classic_rules()
    assert (rules.game_target, rules.max_deals, rules.time_limit_minutes,
            rules.score_cap) == (101, 12, 55, 121)
    assert not c.boards.exists()


def test_a_game_is_entered_checked_and_audited(classic_championship: Classic) -> None:
    c = classic_championship
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    table = seatings(c.rounds[0])[0]
    with pytest.raises(services.ResultError) as error:
        services.game_record(seating=table, ns_points=90, ew_points=40, deals=8,
                             ended_by="target", expected_version=None,
                             acting_user=c.referee)
    assert error.value.field == "ns_points"
    assert "101" in str(error.value)
    saved = services.game_record(seating=table, ns_points=101, ew_points=40, deals=8,
                                 ended_by="target", expected_version=None,
                                 acting_user=c.referee)
    assert saved.kind is SaveKind.CREATED and saved.game.version == 1
    again = services.game_record(seating=table, ns_points=101, ew_points=40, deals=8,
                                 ended_by="target", expected_version=None,
                                 acting_user=c.referee)
    assert again.kind is SaveKind.UNCHANGED
    with pytest.raises(services.GameConflict):
        services.game_record(seating=table, ns_points=101, ew_points=50, deals=8,
                             ended_by="target", expected_version=None,
                             acting_user=c.referee)
    updated = services.game_record(seating=table, ns_points=101, ew_points=50, deals=8,
                                   ended_by="target", expected_version=1,
                                   acting_user=c.referee)
    assert updated.kind is SaveKind.UPDATED and updated.game.version == 2
    actions = list(AuditEntry.objects.filter(championship=c.championship,
                                             action__startswith="game.")
                   .values_list("action", flat=True))
    assert actions == ["game.create", "game.update"]


def test_a_deal_by_deal_sheet_stores_the_deals_and_the_final(
        classic_championship: Classic) -> None:
    c = classic_championship
    services.round_draw(round=c.rounds[0], seed=7, acting_user=c.organiser)
    table = seatings(c.rounds[0])[0]
    hands = [
        {"chooser": "EW", "trump": "botifarra", "contro": True, "points": 45},  # EW 36
        {"chooser": "NS", "trump": "O", "contro": True, "recontro": True,
         "points": 56},  # NS 20 x 4 = 80
        {"chooser": "EW", "trump": "E", "points": 20},  # NS 16 -> 96
        {"chooser": "NS", "trump": "C", "points": 41},  # NS 5 -> 101
    ]
    saved = services.game_record(seating=table, hands=hands, expected_version=None,
                                 acting_user=c.referee)
    game = Game.objects.get(pk=saved.game.pk)
    assert (game.ns_points, game.ew_points, game.deals, game.ended_by) == (
        101, 36, 4, "target")
    assert len(game.hands) == 4


def test_the_swiss_draw_meets_pairs_by_wins_and_rotates_the_bye(
        classic_championship: Classic) -> None:
    c = classic_championship
    byes: list[int] = []
    for rnd in c.rounds:
        services.round_draw(round=rnd, seed=11, acting_user=c.organiser)
        byes += list(Bye.objects.filter(round=rnd).values_list("pair__number", flat=True))
        for k, seating in enumerate(seatings(rnd)):
            services.game_record(seating=seating, ns_points=101, ew_points=30 + k,
                                 deals=9, ended_by="target", expected_version=None,
                                 acting_user=c.referee)
    assert len(byes) == 3 and len(set(byes)) == 3
    met = [frozenset((s.ns_pair_id, s.ew_pair_id))
           for s in Seating.objects.filter(round__championship=c.championship)]
    assert len(met) == len(set(met))
    table = selectors.classic_standings(c.championship)
    assert [r.rank for r in table.rows] == sorted(r.rank for r in table.rows)
    assert table.progress.results_in == table.progress.results_expected == 6
    wins = [r.wins for r in table.rows]
    assert wins == sorted(wins, reverse=True)


def test_a_classic_championship_keeps_its_name(classic_championship: Classic) -> None:
    """The classic defaults are set without touching the name given."""
    assert classic_championship.championship.name == "Campionat clàssic"


def test_a_classic_championship_with_games_can_be_deleted(
        classic_championship: Classic) -> None:
    c = classic_championship
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    services.game_record(seating=seatings(c.rounds[0])[0], ns_points=101, ew_points=3,
                         deals=5, ended_by="target", expected_version=None,
                         acting_user=c.referee)
    summary = services.championship_delete_summary(c.championship)
    assert summary.results == 1
    services.championship_delete(championship=c.championship,
                                 confirm_slug=c.championship.slug, acting_user=c.organiser)
    assert not Game.objects.exists()


def test_rules_cannot_change_once_a_game_is_in_and_bad_rules_are_refused(
        classic_championship: Classic) -> None:
    c = classic_championship
    with pytest.raises(services.RegistrationError) as error:
        services.championship_update_rules(championship=c.championship,
                                           acting_user=c.organiser, score_cap=90)
    assert error.value.field == "score_cap"
    with pytest.raises(services.RegistrationError) as error:
        services.championship_update_rules(championship=c.championship,
                                           acting_user=c.organiser,
                                           tiebreaks=["wins", "wins"])
    assert error.value.field == "tiebreaks"
    services.championship_update_rules(championship=c.championship, acting_user=c.organiser,
                                       max_deals="", game_target="51")
    c.championship.refresh_from_db()
    assert c.championship.max_deals is None and c.championship.game_target == 51
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    services.game_record(seating=seatings(c.rounds[0])[0], ns_points=51, ew_points=3,
                         deals=5, ended_by="target", expected_version=None,
                         acting_user=c.referee)
    with pytest.raises(services.ChampionshipStateError):
        services.championship_update_rules(championship=c.championship,
                                           acting_user=c.organiser, game_target=101)


def test_a_round_names_the_winner_on_the_counted_points(
        classic_championship: Classic) -> None:
    """150 to 130 ended by adjustment: both count 121, so the game is level (no winner
    marked), as the standings count it."""
    c = classic_championship
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    first, second = seatings(c.rounds[0])
    services.game_record(seating=first, ns_points=150, ew_points=130, deals=12,
                         ended_by="adjusted", expected_version=None,
                         acting_user=c.organiser)
    services.game_record(seating=second, ns_points=40, ew_points=101, deals=7,
                         ended_by="target", expected_version=None, acting_user=c.referee)
    games = selectors.round_games(c.championship, c.rounds[0])
    assert [t.winner for t in games.tables] == [None, second.ew_pair.number]


def test_every_pair_card_is_read_at_once_in_a_fixed_number_of_queries(
        classic_championship: Classic, django_assert_max_num_queries) -> None:
    """The printed pair cards of every pair: the same lines as each pair's own card, in
    the queries of one card, not one read per pair."""
    c = classic_championship
    for rnd in c.rounds[:2]:
        services.round_draw(round=rnd, seed=5, acting_user=c.organiser)
        for k, seating in enumerate(seatings(rnd)):
            services.game_record(seating=seating, ns_points=101, ew_points=40 + k,
                                 deals=9, ended_by="target", expected_version=None,
                                 acting_user=c.referee)
    with django_assert_max_num_queries(7):
        cards = selectors.pair_cards(c.championship)
    assert sorted(cards) == [1, 2, 3, 4, 5]
    for number, lines in cards.items():
        assert lines == selectors.pair_card(c.championship, number)
        assert [line.round for line in lines] == [1, 2]
    assert sum(line.result == "bye" for lines in cards.values() for line in lines) == 2
