"""Every registered pair in the standings (``Absences.pairs``): the pair with a bye, a
late pair, a withdrawn pair, how each is marked and ranked. The championship is the
bye example of docs/rules.md "Standings": five pairs, one board a round, proportional
1 to 2; round 1: 1-2 and 3-4 play board 1 (NS take 40 and 30, oros), pair 5 sits out;
round 2: 5-1 and 2-3 play board 2 (NS take 44 and 36, copes), pair 4 sits out."""

from __future__ import annotations

from fractions import Fraction as F

from scoring import Absences, MissedBoards, Result, ScoringRules, Standing, Trump
from scoring import score_championship as score

RESULTS = [
    Result(1, 1, 1, ns_pair=1, ew_pair=2, trump=Trump.O, ns_points_taken=40),
    Result(1, 2, 1, ns_pair=3, ew_pair=4, trump=Trump.O, ns_points_taken=30),
    Result(2, 1, 2, ns_pair=5, ew_pair=1, trump=Trump.C, ns_points_taken=44),
    Result(2, 2, 2, ns_pair=2, ew_pair=3, trump=Trump.C, ns_points_taken=36),
]
BYES = {5: frozenset({1}), 4: frozenset({2})}
PER_BOARD = ScoringRules()
AVERAGE = ScoringRules(missed_boards=MissedBoards.AVERAGE)


def absences(*, late: dict[int, int] | None = None,
             withdrawn: dict[int, int] | None = None) -> Absences:
    """The example's byes, every pair registered (``late``: pair -> the round it joins,
    a pair of its own with no result)."""
    late = late or {}
    sat_out = dict(BYES) | {p: frozenset(range(1, j)) for p, j in late.items()}
    return Absences(sat_out, withdrawn or {}, {p: 1 for p in range(1, 6)} | late, BYES)


def rows(standings: list[Standing]) -> list[tuple[int, int, F, bool, bool, int | None]]:
    return [(s.rank, s.pair, s.total, s.has_score, s.bye, s.joins) for s in standings]


def test_after_round_one_the_pair_with_the_bye_is_listed_with_no_score_and_ranks_last() -> None:
    after_one = score(PER_BOARD, RESULTS, absences()).standings(through_round=1)
    assert rows(after_one) == [
        (1, 1, F(2), True, False, None),
        (1, 4, F(2), True, False, None),
        (3, 2, F(1), True, False, None),
        (3, 3, F(1), True, False, None),
        (5, 5, F(0), False, True, None),
    ]
    assert (after_one[-1].boards, after_one[-1].missed, after_one[-1].average) == (0, 0, F(0))


def test_without_the_registered_pairs_the_pair_with_no_result_is_left_out() -> None:
    # python -m scoring and the export pass no registered pairs: as before.
    old = Absences(dict(BYES), {})
    after_one = score(PER_BOARD, RESULTS, old).standings(through_round=1)
    assert [s.pair for s in after_one] == [1, 4, 2, 3]


def test_under_the_average_rule_the_bye_scores_a_and_ranks_among_the_pairs() -> None:
    after_one = score(AVERAGE, RESULTS, absences()).standings(through_round=1)
    assert [(s.rank, s.pair, s.total, s.missed, s.bye) for s in after_one] == [
        (1, 1, F(2), 0, False),
        (1, 4, F(2), 0, False),
        (3, 5, F(3, 2), 1, True),
        (4, 2, F(1), 0, False),
        (4, 3, F(1), 0, False),
    ]
    assert all(s.has_score for s in after_one)


def test_the_mark_is_the_bye_of_the_scopes_last_round() -> None:
    scores = score(PER_BOARD, RESULTS, absences())
    round_two = scores.standings(round_only=2)
    assert [(s.pair, s.bye, s.has_score) for s in round_two if s.bye] == [(4, True, False)]
    assert round_two[-1].pair == 4 and len(round_two) == 5
    overall = scores.standings()  # the last round with a result: 2
    assert [s.pair for s in overall if s.bye] == [4]
    assert all(s.has_score for s in overall)  # pair 4 played round 1, pair 5 round 2
    after_two = scores.standings(through_round=2)
    assert rows(after_two) == rows(overall)


def test_a_late_pair_shows_before_it_joins_marked_with_its_round() -> None:
    scores = score(PER_BOARD, RESULTS, absences(late={6: 3}))
    after_one = scores.standings(through_round=1)
    assert len(after_one) == 6
    assert rows(after_one)[-2:] == [
        (5, 5, F(0), False, True, None),
        (5, 6, F(0), False, False, 3),
    ]
    assert rows(scores.standings())[-1] == (6, 6, F(0), False, False, 3)
    # Under the average rule its missed rounds count A, as before it was listed.
    average = score(AVERAGE, RESULTS, absences(late={6: 3})).standings(through_round=1)
    late = next(s for s in average if s.pair == 6)
    assert (late.total, late.missed, late.joins, late.has_score) == (F(3, 2), 1, 3, True)


def test_a_withdrawn_pair_ranks_after_the_pairs_with_no_score() -> None:
    scores = score(PER_BOARD, RESULTS, absences(withdrawn={4: 1}))
    after_two = scores.standings(through_round=2)
    assert [(s.rank, s.pair, s.withdrawn) for s in after_two][-1] == (5, 4, True)
    assert [(s.pair, s.withdrawn) for s in scores.standings()][-1] == (4, True)
    assert [(s.pair, s.withdrawn) for s in scores.standings(round_only=2)][-1] == (4, True)


def test_a_pair_that_withdrew_later_is_in_play_in_the_standings_before() -> None:
    scores = score(PER_BOARD, RESULTS, absences(withdrawn={4: 1}))
    after_one = scores.standings(through_round=1)
    assert {s.pair: (s.rank, s.withdrawn) for s in after_one}[4] == (1, False)
    assert not any(s.withdrawn for s in scores.standings(round_only=1))


def test_a_scope_with_no_result_lists_nobody() -> None:
    scores = score(PER_BOARD, RESULTS, absences())
    assert scores.standings(round_only=3) == []
    assert score(PER_BOARD, [], absences()).standings() == []


def test_the_standings_rank_by_average_once_a_pair_sat_out_under_per_board() -> None:
    assert score(PER_BOARD, RESULTS, absences()).ranks_by_average
    assert not score(AVERAGE, RESULTS, absences()).ranks_by_average
    assert not score(PER_BOARD, RESULTS[:2], Absences(pairs={1: 1, 2: 1, 3: 1, 4: 1}))\
        .ranks_by_average
