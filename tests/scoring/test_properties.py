"""Hypothesis properties of comparative scoring: bounds, order, incremental =
full, and table order not mattering."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from engine import Side
from scoring import (
    Adjustment,
    Doubling,
    IncrementalScorer,
    Method,
    Result,
    Rounding,
    ScoringRules,
    Trump,
    round_points,
    score_championship,
)


@st.composite
def rules_strategy(draw: st.DrawFn) -> ScoringRules:
    bottom = Fraction(draw(st.integers(-10, 10)), draw(st.sampled_from([1, 2, 3])))
    top = bottom + Fraction(draw(st.integers(1, 200)), draw(st.sampled_from([1, 4])))
    return ScoringRules(
        doubling=draw(st.sampled_from(list(Doubling))),
        method=draw(st.sampled_from(list(Method))),
        bottom=bottom,
        top=top,
        rounding=draw(st.sampled_from(list(Rounding))),
        infraction_score=Fraction(draw(st.integers(-5, 5))),
    )


@st.composite
def result_strategy(draw: st.DrawFn, round_: int, table: int, board: int) -> Result:
    kind = draw(st.sampled_from(["regular"] * 6 + ["infraction", "adjusted"]))
    contro = draw(st.booleans())
    recontro = contro and draw(st.booleans())
    sant_vicenc = recontro and draw(st.booleans())
    adjusted = None
    if kind == "adjusted":
        adjusted = (
            draw(st.sampled_from(list(Adjustment))),
            draw(st.sampled_from(list(Adjustment))),
        )
    return Result(
        round=round_,
        table=table,
        board=board,
        ns_pair=2 * table - 1,
        ew_pair=2 * table,
        trump=draw(st.sampled_from(list(Trump))),
        ns_points_taken=draw(st.integers(0, 72)),
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        infraction=draw(st.sampled_from([Side.NS, Side.EW])) if kind == "infraction" else None,
        adjusted=adjusted,
    )


@st.composite
def championship_strategy(draw: st.DrawFn) -> tuple[ScoringRules, list[Result]]:
    """One table per pair couple, each board in its own round, some boards not played."""
    tables = draw(st.integers(1, 6))
    boards = draw(st.integers(1, 4))
    results = [
        draw(result_strategy(board, table, board))
        for board in range(1, boards + 1)
        for table in range(1, tables + 1)
        if draw(st.integers(0, 5))  # about one in six boards not played at a table
    ]
    return draw(rules_strategy()), results


@given(championship_strategy())
def test_every_comparative_lies_between_bottom_and_top_or_is_the_infraction_score(
    championship: tuple[ScoringRules, list[Result]],
) -> None:
    rules, results = championship
    scores = score_championship(rules, results)
    low, high = round_points(rules.bottom, rules.rounding), round_points(rules.top, rules.rounding)
    infraction = round_points(rules.infraction_score, rules.rounding)
    for result in results:
        score = scores.result(result.key)
        for side, value in ((Side.NS, score.ns_comparative), (Side.EW, score.ew_comparative)):
            if result.infraction is side:
                assert value == infraction
            else:
                assert low <= value <= high


@given(championship_strategy())
def test_within_a_direction_comparative_points_follow_the_scores(
    championship: tuple[ScoringRules, list[Result]],
) -> None:
    rules, results = championship
    scores = score_championship(rules, results)
    regular = [(r, scores.result(r.key)) for r in results if r.is_regular]
    for a, sa in regular:
        for b, sb in regular:
            if a.board != b.board:
                continue
            for x, y, cx, cy in (
                (sa.ns_score, sb.ns_score, sa.ns_comparative, sb.ns_comparative),
                (sa.ew_score, sb.ew_score, sa.ew_comparative, sb.ew_comparative),
            ):
                assert x is not None and y is not None
                if x == y:
                    assert cx == cy
                elif x < y:
                    assert cx < cy if rules.rounding is Rounding.NONE else cx <= cy


@given(championship_strategy(), st.data())
def test_incremental_rescoring_equals_a_full_rescore(
    championship: tuple[ScoringRules, list[Result]], data: st.DataObject
) -> None:
    rules, results = championship
    scorer = IncrementalScorer(rules, results)
    current = {r.key: r for r in results}
    for _ in range(data.draw(st.integers(1, 6))):
        if current and data.draw(st.booleans()):
            key = data.draw(st.sampled_from(sorted(current)))
            scorer.remove_result(key)
            del current[key]
        else:
            board = data.draw(st.integers(1, 4))
            table = data.draw(st.integers(1, 6))
            new = data.draw(result_strategy(board, table, board))
            scorer.set_result(new)
            current[new.key] = new
    full = score_championship(rules, current.values())
    assert scorer.results == full.results
    assert scorer.standings() == full.standings()
    for round_ in full.rounds:
        assert scorer.standings(round_only=round_) == full.standings(round_only=round_)


@given(championship_strategy(), st.randoms(use_true_random=False))
def test_shuffling_tables_changes_nothing(
    championship: tuple[ScoringRules, list[Result]], rnd: object
) -> None:
    rules, results = championship
    shuffled = list(results)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    once, again = score_championship(rules, results), score_championship(rules, shuffled)
    assert once.results == again.results
    assert once.standings() == again.standings()
    assert once.progressive_standings() == again.progressive_standings()
