"""Whole-championship scoring: standings, progressive and per-round standings, incremental
rescoring. Numbers hand-worked on tests/scoring/data/*.json (see test_main.py)."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from engine import Side
from scoring import (
    IncrementalScorer,
    Result,
    ResultError,
    ScoringRules,
    Standing,
    Trump,
    score_championship,
)
from scoring.interchange import ChampionshipDoc, load

DATA = Path(__file__).parent / "data"


def fixture(name: str) -> ChampionshipDoc:
    return load(json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")))


def lines(standings: list[Standing]) -> list[tuple[int, int, F, int]]:
    return [(s.rank, s.pair, s.total, s.boards) for s in standings]


def test_matchpoints_standings_with_totals_boards_and_averages() -> None:
    doc = fixture("matchpoints")
    standings = score_championship(doc.rules, doc.results()).standings()
    assert lines(standings) == [
        (1, 3, F("6.375"), 4),
        (2, 1, F("6.225"), 4),
        (3, 2, F("5.875"), 4),
        (4, 6, F(5), 3),
        (5, 4, F("4.025"), 4),
        (6, 5, F(4), 3),
    ]
    assert [s.average for s in standings] == [
        F("6.375") / 4,
        F("6.225") / 4,
        F("5.875") / 4,
        F(5, 3),
        F("4.025") / 4,
        F(4, 3),
    ]


def test_equal_totals_share_a_rank_and_the_next_rank_skips() -> None:
    doc = fixture("classic")
    standings = score_championship(doc.rules, doc.results()).standings()
    assert lines(standings) == [
        (1, 3, F(266), 4),
        (2, 1, F(210), 4),
        (3, 2, F(200), 4),
        (3, 6, F(200), 3),
        (5, 5, F(100), 3),
        (6, 4, F(73), 4),
    ]


def test_standings_after_round_one_count_only_round_one() -> None:
    doc = fixture("matchpoints")
    scores = score_championship(doc.rules, doc.results())
    assert lines(scores.standings(through_round=1)) == [
        (1, 3, F("3.375"), 2),
        (2, 1, F("3.125"), 2),
        (3, 2, F("2.875"), 2),
        (4, 4, F("2.625"), 2),
        (5, 6, F(2), 1),
        (6, 5, F(1), 1),
    ]
    assert scores.progressive_standings()[2] == scores.standings()
    assert list(scores.progressive_standings()) == [1, 2]


def test_standings_of_one_round_share_ranks_1_2_2_2_2_6() -> None:
    doc = fixture("matchpoints")
    scores = score_championship(doc.rules, doc.results())
    assert lines(scores.standings(round_only=2)) == [
        (1, 1, F("3.1"), 2),
        (2, 2, F(3), 2),
        (2, 3, F(3), 2),
        (2, 5, F(3), 2),
        (2, 6, F(3), 2),
        (6, 4, F("1.4"), 2),
    ]


def test_through_round_and_round_only_together_are_refused() -> None:
    doc = fixture("matchpoints")
    with pytest.raises(ValueError, match="not both"):
        score_championship(doc.rules, doc.results()).standings(through_round=1, round_only=1)


def test_a_board_not_played_at_one_table_counts_fewer_boards() -> None:
    doc = fixture("proportional")
    scores = score_championship(doc.rules, doc.results())
    by_pair = {s.pair: s for s in scores.standings()}
    assert (by_pair[5].boards, by_pair[5].total, by_pair[5].average) == (3, F(4), F(4, 3))
    assert (by_pair[3].total, by_pair[4].total) == (F(20, 3), F(56, 15))


def test_result_reads_one_score_by_key() -> None:
    doc = fixture("proportional")
    scores = score_championship(doc.rules, doc.results())
    assert scores.result((1, 2, 1)).ns_comparative == F(5, 3)
    assert scores.results[(2, 1, 3)].ns_score is None
    with pytest.raises(KeyError):
        scores.result((9, 9, 9))


def test_the_same_key_twice_is_refused() -> None:
    first = Result(1, 1, 1, 1, 2, Trump.O, 40)
    with pytest.raises(ResultError, match="twice"):
        score_championship(ScoringRules(), [first, dataclasses.replace(first, ns_points_taken=30)])


@pytest.mark.parametrize("name", ["matchpoints", "proportional", "classic"])
def test_changing_one_result_incrementally_equals_a_full_rescore(name: str) -> None:
    doc = fixture(name)
    results = list(doc.results())
    scorer = IncrementalScorer(doc.rules, results)
    changed = dataclasses.replace(results[2], ns_points_taken=70, contro=True)
    scorer.set_result(changed)
    full = score_championship(doc.rules, [changed if r.key == changed.key else r for r in results])
    assert scorer.results == full.results
    assert scorer.standings() == full.standings()
    assert scorer.standings(through_round=1) == full.standings(through_round=1)


@pytest.mark.parametrize("name", ["matchpoints", "proportional", "classic"])
def test_removing_and_adding_results_incrementally_equals_a_full_rescore(name: str) -> None:
    doc = fixture(name)
    results = list(doc.results())
    scorer = IncrementalScorer(doc.rules, results)
    # Board 1 is the only board with 3 regular results: removing one changes Neuberg's E.
    scorer.remove_result((1, 3, 1))
    full = score_championship(doc.rules, [r for r in results if r.key != (1, 3, 1)])
    assert scorer.results == full.results
    assert scorer.standings() == full.standings()
    extra = Result(2, 4, 2, ns_pair=7, ew_pair=8, trump=Trump.B, ns_points_taken=44)
    scorer.set_result(extra)
    full = score_championship(doc.rules, [*full.inputs.values(), extra])
    assert scorer.results == full.results
    assert scorer.standings() == full.standings()


def test_removing_every_result_leaves_empty_standings() -> None:
    doc = fixture("proportional")
    scorer = IncrementalScorer(doc.rules, doc.results())
    for key in list(scorer.results):
        scorer.remove_result(key)
    assert scorer.results == {}
    assert scorer.standings() == []


def test_an_invalid_incremental_result_changes_nothing() -> None:
    doc = fixture("matchpoints")
    scorer = IncrementalScorer(doc.rules, doc.results())
    before = (dict(scorer.results), scorer.standings())
    with pytest.raises(ResultError):
        scorer.set_result(Result(1, 3, 2, 5, 6, Trump.O, 90))
    with pytest.raises(ResultError):
        scorer.set_result(
            Result(1, 3, 2, 5, 6, Trump.O, 40, infraction=Side.NS, adjusted=None, recontro=True)
        )
    assert (scorer.results, scorer.standings()) == before
    with pytest.raises(KeyError):
        scorer.remove_result((7, 7, 7))


def test_scoring_twice_or_in_reverse_order_gives_identical_numbers() -> None:
    doc = fixture("matchpoints")
    results = list(doc.results())
    once = score_championship(doc.rules, results)
    again = score_championship(doc.rules, reversed(results))
    assert once.results == again.results
    assert once.standings() == again.standings()
