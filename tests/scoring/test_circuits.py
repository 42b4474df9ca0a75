"""A circuit's rankings (scoring.circuits): points by place, formula, percentage and
wins, shared places, best N of M, minimum events, tiebreaks, the pair ranking."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.circuits import (
    CircuitRules,
    Event,
    EventPair,
    PointsKind,
    Tiebreak,
    event_points,
    pair_ranking,
    player_ranking,
)


def event(key: str, *places: tuple[int, int, int], **fields: object) -> Event:
    pairs = tuple(EventPair(place, (a, b)) for place, a, b in places)
    return Event(key, field=len(pairs), pairs=pairs, **fields)  # type: ignore[arg-type]


def test_the_place_table_gives_zero_beyond_it_and_shared_places_average() -> None:
    rules = CircuitRules(table=(100, 85, 75))
    e = event("a", (1, 1, 2), (2, 3, 4), (2, 5, 6), (4, 7, 8))
    assert event_points(e, rules) == (100, 80, 80, 0)
    e = event("a", (1, 1, 2), (2, 3, 4), (3, 5, 6), (3, 7, 8))
    assert event_points(e, rules) == (100, 85, Fraction(75, 2), Fraction(75, 2))


def test_the_field_formula_gives_the_field_to_the_winner_and_one_to_the_last() -> None:
    rules = CircuitRules(points=PointsKind.FIELD_FORMULA)
    e = event("a", *((p, 2 * p, 2 * p + 1) for p in range(1, 7)))
    assert event_points(e, rules) == (6, 5, 4, 3, 2, 1)


def test_percentage_and_wins_take_the_pairs_numbers() -> None:
    pairs = (EventPair(1, (1, 2), percentage=Fraction(612, 10)),
             EventPair(2, (3, 4), wins=Fraction(5, 2), played=5))
    e = Event("a", 2, pairs)
    assert event_points(e, CircuitRules(points=PointsKind.PERCENTAGE)) == (
        Fraction(612, 10), 50)
    assert event_points(e, CircuitRules(points=PointsKind.WINS)) == (0, Fraction(5, 2))


def test_best_of_counts_the_best_results_and_says_which_did_not_count() -> None:
    rules = CircuitRules(points=PointsKind.FIELD_FORMULA, best_of=2)
    events = [event(k, (place, 1, 2), *(((p, 10 * p, 10 * p + 1)) for p in range(1, 5)
                                         if p != place))
              for k, place in (("a", 3), ("b", 1), ("c", 4))]
    row = next(r for r in player_ranking(events, rules) if r.key == 1)
    assert row.points == 4 + 2  # 1st and 3rd of four; the 4th (1 point) not counted
    assert [(e.event, e.counted, e.why) for e in row.events] == [
        ("a", True, ""), ("b", True, ""), ("c", False, "not_best")]


def test_rows_under_the_minimum_are_listed_after_the_ranked_ones_with_why() -> None:
    rules = CircuitRules(points=PointsKind.FIELD_FORMULA, min_events=2)
    events = [event("a", (1, 1, 2), (2, 3, 4)), event("b", (1, 3, 4), (2, 5, 6))]
    rows = player_ranking(events, rules)
    assert [(r.key, r.rank, r.why) for r in rows] == [
        (3, 1, ""), (4, 1, ""), (1, None, "min_events"), (2, None, "min_events"),
        (5, None, "min_events"), (6, None, "min_events")]


@pytest.mark.parametrize(("tiebreaks", "first"), [
    ((Tiebreak.MORE_EVENTS,), 1),
    ((Tiebreak.BEST_RESULT,), 3),
    ((Tiebreak.BEST_PLACE,), 3),
    ((Tiebreak.LAST_EVENT,), 1),
])
def test_ties_are_broken_in_the_circuits_order(tiebreaks: tuple[Tiebreak, ...],
                                               first: int) -> None:
    # Person 1: 6 + 6 in two events; person 3: 12 in one. Table 12, 6.
    rules = CircuitRules(table=(12, 6), tiebreaks=tiebreaks)
    events = [event("a", (1, 3, 4), (2, 1, 2)), event("b", (1, 5, 6), (2, 1, 7))]
    rows = [r for r in player_ranking(events, rules) if r.key in (1, 3)]
    assert rows[0].points == rows[1].points == 12
    assert rows[0].key == first
    assert rows[0].rank is not None and rows[1].rank is not None
    assert rows[0].rank < rows[1].rank


def test_rows_equal_on_every_tiebreak_share_the_rank() -> None:
    rules = CircuitRules(table=(10, 5), tiebreaks=(Tiebreak.MORE_EVENTS,))
    rows = player_ranking([event("a", (1, 1, 2), (2, 3, 4))], rules)
    assert [r.rank for r in rows] == [1, 1, 3, 3]


def test_the_pair_ranking_is_by_the_same_two_persons_in_either_seat() -> None:
    rules = CircuitRules(points=PointsKind.FIELD_FORMULA)
    events = [event("a", (1, 1, 2), (2, 3, 4)), event("b", (1, 2, 1), (2, 3, 5))]
    rows = pair_ranking(events, rules)
    assert [(r.key, r.points, r.played) for r in rows] == [
        ((1, 2), 4, 2), ((3, 4), 1, 1), ((3, 5), 1, 1)]


def test_a_person_twice_in_one_event_keeps_the_better_result() -> None:
    rules = CircuitRules(points=PointsKind.FIELD_FORMULA)
    rows = player_ranking([event("a", (1, 1, 2), (2, 1, 3))], rules)
    one = next(r for r in rows if r.key == 1)
    assert (one.points, one.played) == (2, 1)


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="best_of"):
        CircuitRules(best_of=0)
    with pytest.raises(ValueError, match="negative"):
        CircuitRules(table=(10, -1))


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[Event], CircuitRules]:
    events = []
    for k in range(draw(st.integers(1, 5))):
        persons = draw(st.lists(st.integers(1, 12), min_size=2, max_size=12, unique=True))
        persons = persons[: len(persons) // 2 * 2]
        count = len(persons) // 2
        places = sorted(draw(st.lists(st.integers(1, count), min_size=count,
                                      max_size=count)))
        pairs = tuple(EventPair(place, (persons[2 * i], persons[2 * i + 1]))
                      for i, place in enumerate(places))
        events.append(Event(f"e{k}", count, pairs))
    rules = CircuitRules(
        points=draw(st.sampled_from([PointsKind.PLACE_TABLE, PointsKind.FIELD_FORMULA])),
        table=(25, 18, 15, 12, 10),
        best_of=draw(st.none() | st.integers(1, 4)),
        min_events=draw(st.integers(0, 3)),
        tiebreaks=tuple(draw(st.permutations(list(Tiebreak)))),
    )
    return events, rules


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_rankings_keep_their_invariants(season: tuple[list[Event], CircuitRules]) -> None:
    events, rules = season
    for rows in (player_ranking(events, rules), pair_ranking(events, rules)):
        ranked = [r for r in rows if r.rank is not None]
        assert rows[: len(ranked)] == tuple(ranked)  # the unranked come last
        assert all(r.played < rules.min_events for r in rows[len(ranked):])
        assert [r.points for r in ranked] == sorted((r.points for r in ranked), reverse=True)
        assert [r.rank for r in ranked] == sorted(r.rank for r in ranked)
        for position, row in enumerate(ranked, start=1):
            assert row.rank is not None and row.rank <= position
        for row in rows:
            counted = [e for e in row.events if e.counted]
            assert row.points == sum(e.points for e in counted)
            assert len(counted) == (row.played if rules.best_of is None
                                    else min(rules.best_of, row.played))
            dropped = [e.points for e in row.events if not e.counted]
            assert all(d <= min(e.points for e in counted) for d in dropped)


@settings(max_examples=40, deadline=None)
@given(seasons())
def test_a_players_points_are_the_pairs_points(season: tuple[list[Event],
                                                              CircuitRules]) -> None:
    events, rules = season
    rules = CircuitRules(points=rules.points, table=rules.table)  # all results count
    players = {r.key: r.points for r in player_ranking(events, rules)}
    pairs = pair_ranking(events, rules)
    for person, points in players.items():
        # Each person once per event here, so their points are their pairs' sum.
        assert points == sum(r.points for r in pairs if person in r.key)
