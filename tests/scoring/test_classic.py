"""scoring.classic: a classic game's deal scores, its checks, and the standings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.seats import Side
from scoring import classic
from scoring.classic import ClassicRules, EndedBy, Hand, LevelGame, PlayedGame, Tiebreak
from scoring.model import Trump

RULES = ClassicRules()


def codes(raw: dict[str, object], rules: ClassicRules = RULES) -> list[tuple[str, str]]:
    return [(p.code, p.field) for p in classic.validate_game(raw, rules)[1]]


def final(ns: int, ew: int, deals: int, ended: str) -> dict[str, object]:
    return {"ns_points": ns, "ew_points": ew, "deals": deals, "ended_by": ended}


def test_botifarra_with_contro_won_45_to_27_counts_36() -> None:
    hand = Hand(chooser=Side.NS, trump=Trump.BOTIFARRA, contro=True, points=45)
    assert classic.hand_game_score(hand).ns == 36
    assert classic.hand_game_score(hand).ew == 0


def test_the_side_that_loses_the_deal_scores_nothing_and_the_other_scores() -> None:
    # EW chose oros and took 30: NS took 42, six over the half, x1.
    hand = Hand(chooser=Side.EW, trump=Trump.O, points=30)
    assert classic.hand_game_score(hand) == classic.HandScore(ns=6, ew=0)
    level = Hand(chooser=Side.EW, trump=Trump.O, points=36, contro=True)
    assert classic.hand_game_score(level) == classic.HandScore(ns=0, ew=0)


def test_a_revoke_gives_the_other_side_36_times_the_multiplier() -> None:
    hand = Hand(chooser=Side.NS, trump=Trump.E, points=None, contro=True, recontro=True,
                revoke=Side.NS)
    assert classic.hand_game_score(hand) == classic.HandScore(ns=0, ew=36 * 4)


@pytest.mark.parametrize(("raw", "expected"), [
    (final(101, 80, 9, "target"), []),
    (final(90, 80, 9, "target"), [("target_not_reached", "ns_points")]),
    (final(101, 110, 9, "target"), [("both_reached_target", "ns_points")]),
    (final(80, 70, 12, "deals"), []),
    (final(80, 70, 11, "deals"), [("deal_limit_not_reached", "deals")]),
    (final(101, 70, 12, "deals"), [("target_reached", "ended_by")]),
    (final(80, 70, 13, "time"), [("deals_out_of_range", "deals")]),
    (final(80, 70, 7, "time"), []),
    (final(0, 0, 0, "adjusted"), []),
    (final(80, -1, 7, "time"), [("out_of_range", "ew_points")]),
    (final(80, 70, 7, "lunch"), [("ended_by_unknown", "ended_by")]),
])
def test_a_final_is_checked_against_the_rules(raw: dict[str, object],
                                              expected: list[tuple[str, str]]) -> None:
    assert codes(raw) == expected


def test_without_a_time_limit_a_game_cannot_end_on_time() -> None:
    rules = ClassicRules(time_limit_minutes=None)
    assert codes(final(80, 70, 7, "time"), rules) == [("no_time_limit", "ended_by")]


def test_extra_deals_a_level_game_plays_them() -> None:
    rules = ClassicRules(level_game=LevelGame.EXTRA_DEALS, extra_deals=2)
    assert codes(final(80, 80, 12, "deals"), rules) == [("level_needs_extra_deals", "deals")]
    assert codes(final(80, 90, 14, "deals"), rules) == []


def sheet(*hands: Hand) -> list[dict[str, object]]:
    return [h.as_json() for h in hands]


def test_a_sheet_ends_on_the_deal_that_reaches_the_target() -> None:
    big = Hand(chooser=Side.NS, trump=Trump.BOTIFARRA, contro=True, recontro=True,
               points=50)  # 14 x 8 = 112
    game, problems = classic.validate_game({"hands": sheet(big)}, RULES)
    assert problems == []
    assert game is not None
    assert (game.ns_points, game.ew_points, game.deals, game.ended_by) == (
        112, 0, 1, EndedBy.TARGET)
    small = Hand(chooser=Side.EW, trump=Trump.O, points=40)
    _game, problems = classic.validate_game({"hands": sheet(big, small)}, RULES)
    assert [(p.code, p.field) for p in problems] == [("hand_after_end", "hands[1]")]


def test_a_sheet_short_of_the_end_needs_time_called() -> None:
    small = Hand(chooser=Side.EW, trump=Trump.O, points=40)
    _game, problems = classic.validate_game({"hands": sheet(small)}, RULES)
    assert [p.code for p in problems] == ["sheet_not_finished"]
    game, problems = classic.validate_game({"hands": sheet(small), "ended_by": "time"}, RULES)
    assert problems == [] and game is not None and game.ew_points == 4


def test_a_sheet_refuses_doubles_the_championship_does_not_allow() -> None:
    hand = Hand(chooser=Side.EW, trump=Trump.O, points=40, contro=True, recontro=True,
                sant_vicenc=True)
    _game, problems = classic.validate_game({"hands": sheet(hand), "ended_by": "time"},
                                            RULES)
    assert [(p.code, p.field) for p in problems] == [
        ("sant_vicenc_not_allowed", "hands[0].sant_vicenc")]


def played(r: int, ns: int, ew: int, a: int, b: int, ended: str = "target") -> PlayedGame:
    return PlayedGame(r, ns, ew, classic.Game(a, b, 10, EndedBy(ended)))


def test_standings_rank_by_wins_then_difference_then_points_with_the_cap() -> None:
    games = [
        played(1, 1, 2, 150, 20),  # capped at 121: +101
        played(1, 3, 4, 101, 0),  # +101
        played(2, 1, 3, 60, 101),
        played(2, 2, 4, 101, 99),
    ]
    rows = classic.classic_standings(games, RULES)
    assert [(r.rank, r.pair, r.wins, r.difference) for r in rows] == [
        (1, 3, 2, 142), (2, 1, 1, 60), (3, 2, 1, -99), (4, 4, 0, -103)]
    assert rows[1].points_for == 121 + 60


def test_a_level_game_counts_half_or_nothing_as_the_rules_say() -> None:
    games = [played(1, 1, 2, 80, 80, "time")]
    half = classic.classic_standings(games, RULES)
    assert [r.wins for r in half] == [Fraction(1, 2)] * 2
    assert [r.rank for r in half] == [1, 1]
    none = classic.classic_standings(games, ClassicRules(level_game=LevelGame.NOT_BROKEN))
    assert [r.wins for r in none] == [0, 0]


def test_byes_withdrawals_and_pairs_without_a_game() -> None:
    games = [played(1, 1, 2, 101, 50)]
    rows = classic.classic_standings(games, RULES, pairs=[1, 2, 3, 4], byes=[(1, 3)],
                                     withdrawn=[2])
    by_pair = {r.pair: r for r in rows}
    assert by_pair[3].wins == 1 and by_pair[3].difference == 0 and by_pair[3].bye
    assert by_pair[2].place is None and by_pair[4].place is None
    assert [r.pair for r in rows[:2]] == [1, 3]


def test_head_to_head_and_buchholz_break_ties() -> None:
    games = [played(1, 1, 2, 101, 0), played(1, 3, 4, 101, 0),
             played(2, 2, 3, 101, 0), played(2, 4, 1, 101, 0)]
    rules = ClassicRules(tiebreaks=(Tiebreak.WINS, Tiebreak.HEAD_TO_HEAD))
    rows = classic.classic_standings(games, rules)
    # Everyone has one win; among all four, head to head is one win each: all tied.
    assert {r.rank for r in rows} == {1}
    rules = ClassicRules(tiebreaks=(Tiebreak.WINS, Tiebreak.BUCHHOLZ))
    assert all(r.buchholz == 2 for r in classic.classic_standings(games, rules))


def test_a_sheet_longer_than_the_form_shows_is_refused_before_its_deals_are_read() -> None:
    """Without a deal limit nothing else ends a sheet of level deals: 40000 of them once
    reached the database's small integer (a 500)."""
    rules = ClassicRules(max_deals=None)
    level = {"chooser": "NS", "trump": "O", "points": 36}
    longest = [level] * classic.MAX_SHEET_DEALS
    game, problems = classic.validate_game({"hands": longest, "ended_by": "time"}, rules)
    assert problems == [] and game is not None and game.deals == classic.MAX_SHEET_DEALS
    too_long = [*longest, "not even a deal"]
    assert codes({"hands": too_long, "ended_by": "time"}, rules) == [
        ("sheet_too_long", "hands")]


def test_a_deal_without_its_chooser_says_it_is_missing_not_none() -> None:
    problems = classic.validate_hand({"trump": "O", "points": 40}, RULES, path="hands[0].")[1]
    assert [(p.code, p.field, p.params) for p in problems] == [
        ("chooser_missing", "hands[0].chooser", {})]


def test_a_sheet_has_the_same_most_deals_in_the_app_and_in_a_file() -> None:
    from scoring.interchange.limits import MAX_GAME_HANDS
    assert classic.MAX_SHEET_DEALS == MAX_GAME_HANDS


def test_a_final_level_in_the_middle_of_the_extra_deals_is_not_ended_by_deals() -> None:
    """A level game plays every extra deal (as play_sheet reads a sheet): level after 13
    of 12 + 2 deals it has not ended by the deal limit."""
    rules = ClassicRules(level_game=LevelGame.EXTRA_DEALS, extra_deals=2)
    assert codes(final(80, 80, 13, "deals"), rules) == [("extra_deals_count", "deals")]
    assert codes(final(80, 80, 14, "deals"), rules) == []
    level = {"chooser": "NS", "trump": "O", "points": 36}
    _game, problems = classic.validate_game(
        {"hands": [level] * 14, "ended_by": "time"}, rules)
    assert [(p.code, p.field) for p in problems] == [("sheet_mismatch", "ended_by")]
