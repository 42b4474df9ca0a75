"""Comparative points of one board, hand-worked (docs/rules.md "Duplicate scoring")."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from engine import Side
from scoring import (
    Adjustment,
    Doubling,
    Method,
    Result,
    ResultError,
    ResultScore,
    Rounding,
    ScoringRules,
    Trump,
    adjusted_points,
    comparative_points,
    round_points,
    score_board,
)

PROPORTIONAL = ScoringRules()
MATCHPOINTS = ScoringRules(method=Method.MATCHPOINTS)
BUTINET = ScoringRules.butinet()


def result(
    table: int,
    ns_points_taken: int | None,
    *,
    board: int = 1,
    trump: Trump | None = Trump.O,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    infraction: Side | None = None,
    adjusted: tuple[Adjustment, Adjustment] | None = None,
) -> Result:
    """Table t seats pair 2t-1 NS and pair 2t EW, in round 1."""
    return Result(
        round=1,
        table=table,
        board=board,
        ns_pair=2 * table - 1,
        ew_pair=2 * table,
        trump=trump,
        ns_points_taken=ns_points_taken,
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        infraction=infraction,
        adjusted=adjusted,
    )


def floored(rules: ScoringRules, scores: list[int]) -> list[int]:
    return [int(round_points(v, rules.rounding)) for v in comparative_points(rules, scores)]


def test_butinet_board_gives_the_published_comparative_points() -> None:
    # docs/rules.md "The 0 to 100 preset (butinet)": scale 0-100, rounded down.
    assert floored(BUTINET, [-1, 4, 3, -11, 11]) == [45, 68, 63, 0, 100]
    assert floored(BUTINET, [2, -8, -6, 11, -22]) == [72, 42, 48, 100, 0]


def test_butinet_board_from_results_with_ew_contro_at_four_tables() -> None:
    # Board 1: dealer N, so NS declare; EW double at tables 1, 2, 3 and 5.
    board = [
        result(1, 35, contro=True),
        result(2, 40, contro=True),
        result(3, 39, contro=True),
        result(4, 25),
        result(5, 47, contro=True),
    ]
    scores = score_board(BUTINET, board)
    got = [(s.ns_score, s.ew_score, s.ns_comparative, s.ew_comparative) for s in scores.values()]
    assert got == [
        (-1, 2, 45, 72),
        (4, -8, 68, 42),
        (3, -6, 63, 48),
        (-11, 11, 0, 100),
        (11, -22, 100, 0),
    ]


def test_proportional_is_linear_between_the_worst_and_best_score() -> None:
    # min -6, max 4: 0 sits 6/10 of the way up.
    assert comparative_points(PROPORTIONAL, [4, 0, -6]) == [F(2), F(8, 5), F(1)]


@pytest.mark.parametrize("rules", [PROPORTIONAL, MATCHPOINTS], ids=["proportional", "mp"])
def test_all_results_equal_get_the_middle_of_the_scale(rules: ScoringRules) -> None:
    assert comparative_points(rules, [2, 2, 2, 2]) == [F(3, 2)] * 4


@pytest.mark.parametrize("rules", [PROPORTIONAL, MATCHPOINTS], ids=["proportional", "mp"])
def test_a_single_result_gets_the_middle_of_the_scale(rules: ScoringRules) -> None:
    assert comparative_points(rules, [7]) == [F(3, 2)]


@pytest.mark.parametrize("rules", [PROPORTIONAL, MATCHPOINTS], ids=["proportional", "mp"])
def test_two_tables_give_top_and_bottom(rules: ScoringRules) -> None:
    assert comparative_points(rules, [-4, 4]) == [F(1), F(2)]


def test_a_tie_at_the_top_shares_the_top_in_proportional() -> None:
    assert comparative_points(PROPORTIONAL, [5, 5, -3]) == [F(2), F(2), F(1)]


def test_a_tie_at_the_top_splits_the_matchpoints() -> None:
    # Each of the two 5s beats -3 (2) and ties the other (1): 3 of 4.
    assert comparative_points(MATCHPOINTS, [5, 5, -3]) == [F(7, 4), F(7, 4), F(1)]


def test_matchpoints_give_two_per_score_beaten_and_one_per_tie() -> None:
    # mp of 8: -5 -> 0, 0 -> 3 (ties), 10 -> 6, 20 -> 8.
    assert comparative_points(MATCHPOINTS, [10, 0, 0, -5, 20]) == [
        F(7, 4),
        F(11, 8),
        F(11, 8),
        F(1),
        F(2),
    ]


def test_neuberg_matches_the_ebu_worked_example() -> None:
    # Bavin, "The Neuberg formula": 10 results where 11 were expected, top 20.
    rules = ScoringRules(method=Method.MATCHPOINTS, bottom=F(0), top=F(20))
    scores = [520, 500, 490, 480, 460, 450, 430, 420, 400, -50]
    got = comparative_points(rules, scores, most_results=11)
    assert got == [F(x) / 10 for x in (199, 177, 155, 133, 111, 89, 67, 45, 23, 1)]


def test_neuberg_scales_a_board_with_fewer_results() -> None:
    # A = 2, E = 3: mp 0 -> (0+1)*3/2 - 1 = 1/2 of 4; mp 2 -> 7/2 of 4.
    assert comparative_points(MATCHPOINTS, [-6, 12], most_results=3) == [F(9, 8), F(15, 8)]


def test_neuberg_gives_a_lone_result_the_middle() -> None:
    assert comparative_points(MATCHPOINTS, [3], most_results=5) == [F(3, 2)]


def test_most_results_below_the_results_is_refused() -> None:
    with pytest.raises(ValueError, match="most_results 2"):
        comparative_points(MATCHPOINTS, [1, 2, 3], most_results=2)


def test_adjustments_average_plus_and_minus() -> None:
    assert adjusted_points(PROPORTIONAL, Adjustment.AVERAGE) == F(3, 2)
    assert adjusted_points(PROPORTIONAL, Adjustment.AVERAGE_PLUS) == F(8, 5)
    assert adjusted_points(PROPORTIONAL, Adjustment.AVERAGE_MINUS) == F(7, 5)
    assert adjusted_points(BUTINET, Adjustment.AVERAGE_PLUS) == 60
    assert adjusted_points(BUTINET, Adjustment.AVERAGE_MINUS) == 40


def test_adjusted_result_is_left_out_of_the_comparison() -> None:
    board = [
        result(1, 40),
        result(2, 30),
        result(3, None, trump=None, adjusted=(Adjustment.AVERAGE_PLUS, Adjustment.AVERAGE_MINUS)),
    ]
    scores = score_board(PROPORTIONAL, board)
    assert scores[(1, 1, 1)] == ResultScore(4, -4, F(2), F(1))
    assert scores[(1, 2, 1)] == ResultScore(-6, 6, F(1), F(2))
    assert scores[(1, 3, 1)] == ResultScore(None, None, F(8, 5), F(7, 5))


def three_regular_tables() -> list[Result]:
    # NS scores 4, 0, -6 -> 2, 8/5, 1 (mean 23/15); EW -4, 0, 6 -> 1, 7/5, 2 (mean 22/15).
    return [result(1, 40), result(2, 36), result(3, 30)]


def test_infraction_by_ns_gives_ns_the_infraction_score_and_ew_its_direction_average() -> None:
    board = [*three_regular_tables(), result(4, 60, infraction=Side.NS)]
    scores = score_board(PROPORTIONAL, board)
    assert scores[(1, 4, 1)] == ResultScore(None, None, F(0), F(22, 15))
    # The infraction's 60 points do not enter the comparison.
    assert scores[(1, 1, 1)].ns_comparative == 2


@pytest.mark.parametrize("points", [None, 0, 60, 72])
def test_an_infractions_points_given_or_not_change_no_score(points: int | None) -> None:
    """The referee may leave an infraction's points out (docs/rules.md "Infractions"):
    given or not, whatever they are, every pair's comparative points are the same."""
    board = [*three_regular_tables(), result(4, points, infraction=Side.NS)]
    scores = score_board(PROPORTIONAL, board)
    assert scores[(1, 4, 1)] == ResultScore(None, None, F(0), F(22, 15))
    assert [scores[(1, t, 1)] for t in (1, 2, 3)] == [
        score_board(PROPORTIONAL, three_regular_tables())[(1, t, 1)] for t in (1, 2, 3)]


def test_infraction_by_ew_gives_ew_the_infraction_score_and_ns_its_direction_average() -> None:
    rules = ScoringRules(infraction_score=F(1, 2))
    board = [*three_regular_tables(), result(4, 10, infraction=Side.EW)]
    assert score_board(rules, board)[(1, 4, 1)] == ResultScore(None, None, F(23, 15), F(1, 2))


def test_infraction_at_the_only_table_gives_the_other_pair_the_middle() -> None:
    scores = score_board(PROPORTIONAL, [result(1, 50, infraction=Side.EW)])
    assert scores[(1, 1, 1)] == ResultScore(None, None, F(3, 2), F(0))


def test_infraction_average_uses_unrounded_values_before_floor() -> None:
    # NS 3, 0, -3, -6 on 0..100: 100, 66.67, 33.33, 0. Exact mean 50; floored ones give 49.75.
    board = [
        result(1, 39),
        result(2, 36),
        result(3, 33),
        result(4, 30),
        result(5, 36, infraction=Side.EW),
    ]
    scores = score_board(BUTINET, board)
    assert [scores[(1, t, 1)].ns_comparative for t in (1, 2, 3, 4)] == [100, 66, 33, 0]
    assert scores[(1, 5, 1)].ns_comparative == 50


def test_matchpoints_infraction_average_uses_neuberg_values() -> None:
    board = [result(1, 40), result(2, 30), result(3, 36, infraction=Side.NS)]
    scores = score_board(MATCHPOINTS, board, most_results=3)
    # EW -4 -> 9/8, 6 -> 15/8: mean 3/2.
    assert scores[(1, 3, 1)] == ResultScore(None, None, F(0), F(3, 2))


def test_floor_rounds_each_comparative_down() -> None:
    assert round_points(F(200, 3), Rounding.FLOOR) == 66
    assert round_points(F(200, 3), Rounding.NONE) == F(200, 3)
    assert round_points(F(-1, 3), Rounding.FLOOR) == -1


def test_classic_doubling_with_recontro_and_sant_vicenc_multiplies_both_sides() -> None:
    rules = ScoringRules(doubling=Doubling.CLASSIC)
    # Board 2: dealer W, EW declare; NS contro, EW recontro, NS Sant Vicenç: M = 8.
    board = [
        result(1, 46, board=2, trump=Trump.E, contro=True, recontro=True, sant_vicenc=True),
        result(2, 40, board=2, trump=Trump.E, contro=True, recontro=True),  # M = 4
        result(3, 30, board=2, trump=Trump.BOTIFARRA, contro=True),  # M = 4
    ]
    scores = score_board(rules, board)
    assert [(s.ns_score, s.ew_score) for s in scores.values()] == [(80, -80), (16, -16), (-24, 24)]
    # NS 80, 16, -24 over a spread of 104: 2, 1 + 40/104, 1.
    assert [s.ns_comparative for s in scores.values()] == [F(2), F(18, 13), F(1)]


def test_duplicate_doubling_with_recontro_and_sant_vicenc_only_doubles_the_contro_side() -> None:
    board = [result(1, 46, board=2, trump=Trump.E, contro=True, recontro=True, sant_vicenc=True)]
    assert score_board(PROPORTIONAL, board)[(1, 1, 2)].ns_score == 20
    assert score_board(PROPORTIONAL, board)[(1, 1, 2)].ew_score == -10


def test_a_played_result_without_points_is_refused_naming_it() -> None:
    with pytest.raises(ResultError, match=r"\(1, 2, 1\)"):
        score_board(PROPORTIONAL, [result(1, 40), result(2, None)])


def test_impossible_points_are_refused_naming_the_result() -> None:
    with pytest.raises(ResultError, match=r"\(1, 1, 1\).*0\.\.72"):
        score_board(PROPORTIONAL, [result(1, 80)])


def test_infraction_and_adjustment_together_are_refused() -> None:
    both = result(1, 40, infraction=Side.NS, adjusted=(Adjustment.AVERAGE, Adjustment.AVERAGE))
    with pytest.raises(ResultError, match="both"):
        score_board(PROPORTIONAL, [both])


def test_the_quick_check_accepts_only_what_the_full_check_accepts() -> None:
    """``check_result`` answers a plainly valid typed result in a few comparisons; every
    combination of typed, untyped and wrong values gets the full check's verdict and
    problems."""
    import itertools

    from scoring.comparative import _plainly_valid, check_result
    from scoring.validate import validate_result

    adjustment = (Adjustment.AVERAGE, Adjustment.AVERAGE_PLUS)
    accepted = 0
    for trump, points, flags, infraction, adjusted, ew_pair in itertools.product(
        (None, Trump.O, Trump.BOTIFARRA, "O"),
        (None, 0, 72, 73, -1, True, 1.0),
        itertools.product((False, True, None), repeat=4),
        (None, Side.NS, "NS"),
        (None, adjustment, adjustment[:1], "average", list(adjustment)),
        (1, 2),
    ):
        values = dict(zip(("delegated", "contro", "recontro", "sant_vicenc"), flags,
                          strict=True))
        problems = validate_result(trump=trump, ns_points_taken=points,
                                   infraction=infraction, adjusted=adjusted, **values)
        valid = not problems and ew_pair != 1
        typed = Result(1, 1, 1, 1, ew_pair, trump, points, *flags,  # type: ignore[arg-type]
                       infraction, adjusted)  # type: ignore[arg-type]
        quick = _plainly_valid(typed)
        assert not quick or valid, typed
        accepted += quick
        try:
            check_result(typed)
        except ResultError as exc:
            assert not valid, typed
            assert ew_pair == 1 or exc.problems == problems
        else:
            assert valid, typed
    assert accepted > 100  # the quick path is taken
