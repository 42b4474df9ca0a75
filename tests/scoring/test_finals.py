"""scoring.finals: each final's boards compared among its own tables, the qualifying
score, the carry-over and the finals' ranking."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import finals as fin
from scoring.championship import Absences, score_championship
from scoring.model import MissedBoards, Result, ScoringRules, Trump
from scoring.stages import Group

RULES = ScoringRules()  # proportional, 1..2, not rounded
FINALS = [Group("A", (1, 2, 3, 4)), Group("B", (5, 6, 7, 8))]


def played(round_: int, table: int, board: int, ns: int, ew: int, taken: int) -> Result:
    return Result(round_, table, board, ns_pair=ns, ew_pair=ew, trump=Trump.O,
                  ns_points_taken=taken)


def finals_round(a: tuple[int, int], b: tuple[int, int], board: int = 9) -> list[Result]:
    """Round 3, one board: final A at tables 1-2 (1 v 2, 3 v 4), final B at tables 3-4
    (5 v 6, 7 v 8), NS taking the points given."""
    return [
        played(3, 1, board, 1, 2, a[0]), played(3, 2, board, 3, 4, a[1]),
        played(3, 3, board, 5, 6, b[0]), played(3, 4, board, 7, 8, b[1]),
    ]


def rows(scored: fin.FinalScore) -> dict[int, fin.FinalRow]:
    return {r.pair: r for r in scored.rows}


# ------------------------------------------------------------------ compared in the final


def test_a_board_is_compared_only_among_the_tables_of_its_final() -> None:
    # Final A's NS took 40 and 30; final B's NS took 70 and 60 on the same board.
    results = finals_round((40, 30), (70, 60))
    a, b = fin.score_finals(RULES, FINALS, results, {}, carry_over="none")
    # Within A, table 1's NS (40) has the board's best NS score: the top.
    assert a.score.result((3, 1, 9)).ns_comparative == RULES.top
    assert a.score.result((3, 2, 9)).ns_comparative == RULES.bottom
    assert b.score.result((3, 3, 9)).ns_comparative == RULES.top
    # Compared across both finals, table 1's 40 would be below B's 70 and 60.
    everyone = score_championship(RULES, results)
    assert everyone.result((3, 1, 9)).ns_comparative < RULES.top
    assert rows(a)[1].finals == RULES.top
    assert set(rows(a)) == {1, 2, 3, 4}
    assert set(rows(b)) == {5, 6, 7, 8}


def test_another_finals_results_change_nothing_in_a_final() -> None:
    first = fin.score_finals(RULES, FINALS, finals_round((40, 30), (70, 60)), {},
                             carry_over="none")[0]
    second = fin.score_finals(RULES, FINALS, finals_round((40, 30), (10, 72)), {},
                              carry_over="none")[0]
    assert first.rows == second.rows


def test_a_table_goes_to_the_final_of_its_ns_pair_and_pairs_of_no_final_are_left_out() -> None:
    results = [played(3, 1, 9, 1, 2, 40), played(3, 2, 9, 9, 10, 50),
               played(3, 3, 9, 11, 6, 50)]
    split = fin.split_results(FINALS, results)
    assert [r.table for r in split["A"]] == [1]
    assert [r.table for r in split["B"]] == [3]


def test_a_pair_in_two_finals_is_refused() -> None:
    with pytest.raises(fin.FinalsError, match="pair 2"):
        fin.split_results([Group("A", (1, 2)), Group("B", (2, 3))], [])


# ------------------------------------------------------------------ carry-over


@pytest.mark.parametrize(("rule", "percent", "expected"), [
    ("none", 0, Fraction(0)), ("none", 50, Fraction(0)),
    ("all", 0, Fraction(21, 2)), ("percent", 50, Fraction(21, 4)),
    ("percent", 100, Fraction(21, 2)), ("percent", 0, Fraction(0)),
    ("percent", 30, Fraction(63, 20)),
])
def test_carried(rule: str, percent: int, expected: Fraction) -> None:
    assert fin.carried(Fraction(21, 2), rule, percent) == expected


@pytest.mark.parametrize(("rule", "percent", "message"), [
    ("some", 0, "carry-over 'some'"), ("percent", 101, "101"), ("percent", -1, "-1"),
])
def test_carried_refuses_bad_rules(rule: str, percent: int, message: str) -> None:
    with pytest.raises(fin.FinalsError, match=message):
        fin.carried(1, rule, percent)


@pytest.mark.parametrize(("rule", "percent"), [("none", 0), ("all", 0), ("percent", 50)])
def test_total_is_the_finals_score_plus_the_part_carried(rule: str, percent: int) -> None:
    qualifying = {p: Fraction(10 + p) for p in range(1, 9)}
    a, _b = fin.score_finals(RULES, FINALS, finals_round((40, 30), (70, 60)), qualifying,
                             carry_over=rule, percent=percent)
    share = {"none": Fraction(0), "all": Fraction(1), "percent": Fraction(percent, 100)}[rule]
    for row in a.rows:
        assert row.qualifying == qualifying[row.pair]
        assert row.carried == share * qualifying[row.pair]
        assert row.total == row.carried + row.finals
    ranked = [r.total for r in a.rows]
    assert ranked == sorted(ranked, reverse=True)


def test_the_carry_over_can_change_the_order() -> None:
    # Within A pair 1 (NS at table 1) tops the board, pair 3 (NS at table 2) bottoms it;
    # pair 3 qualified far ahead.
    qualifying = {1: Fraction(10), 2: Fraction(10), 3: Fraction(20), 4: Fraction(10)}
    results = finals_round((40, 30), (70, 60))
    none = fin.score_finals(RULES, FINALS, results, qualifying, carry_over="none")[0]
    everything = fin.score_finals(RULES, FINALS, results, qualifying, carry_over="all")[0]
    assert none.rows[0].pair == 1
    assert everything.rows[0].pair == 3
    assert rows(everything)[3].total == 20 + RULES.bottom


def test_a_final_before_any_result_ranks_by_what_was_carried() -> None:
    qualifying = {1: Fraction(5), 2: Fraction(9), 3: Fraction(7), 4: Fraction(7)}
    a, _b = fin.score_finals(RULES, FINALS, [], qualifying, carry_over="all")
    assert [(r.rank, r.pair) for r in a.rows] == [(1, 2), (2, 3), (2, 4), (4, 1)]
    assert all(r.finals == 0 and r.boards == 0 for r in a.rows)


def test_level_totals_share_a_place_listed_by_the_better_qualifying_score() -> None:
    qualifying = {1: Fraction(3), 2: Fraction(6), 3: Fraction(1), 4: Fraction(2)}
    a, _b = fin.score_finals(RULES, FINALS, [], qualifying, carry_over="none")
    assert [(r.rank, r.pair) for r in a.rows] == [(1, 2), (1, 1), (1, 4), (1, 3)]


def test_a_withdrawn_pair_ranks_last_with_no_place() -> None:
    qualifying = {1: Fraction(50), 2: Fraction(9), 3: Fraction(7), 4: Fraction(7)}
    a, _b = fin.score_finals(RULES, FINALS, [], qualifying, carry_over="all",
                             absences=Absences(withdrawn={1: 2}))
    assert a.rows[-1].pair == 1
    assert a.rows[-1].place is None
    assert a.rows[0].place == 1


# ------------------------------------------------------------------ stage scores


def test_stage_score_is_the_total_without_absences() -> None:
    score = score_championship(RULES, finals_round((40, 30), (70, 60)))
    scores = fin.stage_scores(score)
    assert scores == {s.pair: s.total for s in score.standings()}


def test_stage_score_of_a_pair_with_a_bye_is_its_average_over_the_fields_boards() -> None:
    # Pairs 1..4 play boards 1 and 2 in round 1; in round 2 pair 5 replaces pair 4, who
    # sits out: ranked by average (per_board), a bye costs nothing.
    results = [
        played(1, 1, 1, 1, 2, 40), played(1, 2, 1, 3, 4, 30),
        played(1, 1, 2, 1, 2, 40), played(1, 2, 2, 3, 4, 30),
        played(2, 1, 3, 1, 2, 40), played(2, 2, 3, 3, 5, 30),
    ]
    absences = Absences(sat_out={4: frozenset({2}), 5: frozenset({1})})
    score = score_championship(RULES, results, absences)
    assert score.ranks_by_average
    scores = fin.stage_scores(score)
    by_pair = {s.pair: s for s in score.standings()}
    assert by_pair[4].boards == 2
    assert scores[4] == by_pair[4].average * 3
    assert scores[1] == by_pair[1].total
    # Under the "average" rule the missed boards already count as A: the total.
    rules = ScoringRules(missed_boards=MissedBoards.AVERAGE)
    average = score_championship(rules, results, absences)
    assert fin.stage_scores(average) == {s.pair: s.total for s in average.standings()}


def test_stage_scores_in_a_scope() -> None:
    results = [played(1, 1, 1, 1, 2, 40), played(1, 2, 1, 3, 4, 30),
               played(2, 1, 2, 1, 2, 30), played(2, 2, 2, 3, 4, 40)]
    score = score_championship(RULES, results)
    first = fin.stage_scores(score, through_round=1)
    assert first == {s.pair: s.total for s in score.standings(through_round=1)}
    assert first != fin.stage_scores(score)


def test_restrict_absences_keeps_the_finals_rounds_and_pairs() -> None:
    absences = Absences(sat_out={1: frozenset({1, 4}), 2: frozenset({2}), 9: frozenset({4})},
                        withdrawn={3: 4, 9: 3}, pairs={1: 1, 2: 2, 3: 1, 9: 1},
                        byes={1: frozenset({4}), 2: frozenset({2})})
    kept = fin.restrict_absences(absences, pairs=(1, 2, 3), rounds={4, 5})
    assert kept.sat_out == {1: frozenset({4})}
    assert kept.byes == {1: frozenset({4})}
    assert kept.withdrawn == {3: 4}
    assert kept.pairs == {1: 1, 2: 1, 3: 1}
    everyone = fin.restrict_absences(absences, rounds={1, 2, 3})
    assert everyone.sat_out == {1: frozenset({1}), 2: frozenset({2})}
    assert set(everyone.pairs) == {1, 2, 3, 9}


def test_a_bye_in_a_final_is_ranked_by_average() -> None:
    # Final of three pairs over two rounds: each sits out once.
    final = [Group("A", (1, 2, 3))]
    results = [played(3, 1, 9, 1, 2, 40), played(4, 1, 10, 3, 1, 40)]
    absences = Absences(sat_out={3: frozenset({3}), 2: frozenset({4})},
                        byes={3: frozenset({3}), 2: frozenset({4})})
    (a,) = fin.score_finals(RULES, final, results, {}, carry_over="none", absences=absences)
    # One board each in the final (the most: pair 1's two): a single table on a board
    # scores the middle, so every pair has 3/2 a board.
    assert {r.pair: r.finals for r in a.rows} == {1: 3, 2: 3, 3: 3}
