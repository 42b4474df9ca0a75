"""scoring.stages: groups, their schedule and standings, the qualification with a second
chance, and the knockout bracket."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import stages
from scoring.classic import ClassicRules, ClassicStanding, EndedBy, Game, PlayedGame
from scoring.stages import Bracket, Group, GroupStanding, Qualified

RULES = ClassicRules()


# ----------------------------------------------------------------------------- groups


def test_seeding_deals_one_pair_per_group_in_turn() -> None:
    groups = stages.split_groups(range(1, 11), 3, method="seeding")
    assert [(g.name, g.pairs) for g in groups] == [
        ("A", (1, 4, 7, 10)), ("B", (2, 5, 8)), ("C", (3, 6, 9)),
    ]


def test_snake_turns_every_row() -> None:
    ranking = [8, 3, 5, 1, 2, 7, 4, 6, 9]
    groups = stages.split_groups(range(1, 10), 3, method="snake", ranking=ranking)
    # 1..3 to A..C, 4..6 to C..A, 7..9 to A..C (by ranking place).
    assert [g.pairs for g in groups] == [(8, 7, 4), (3, 2, 6), (5, 1, 9)]


def test_snake_skips_ranked_pairs_no_longer_in_the_field() -> None:
    groups = stages.split_groups([1, 2, 3, 4], 2, method="snake", ranking=[4, 9, 3, 2, 1])
    assert [g.pairs for g in groups] == [(4, 1), (3, 2)]


def test_random_is_reproducible_from_the_seed() -> None:
    one = stages.split_groups(range(1, 21), 4, method="random", seed=11)
    assert one == stages.split_groups(reversed(range(1, 21)), 4, method="random", seed=11)
    others = {tuple(g.pairs for g in stages.split_groups(range(1, 21), 4, method="random",
                                                          seed=s)) for s in range(5)}
    assert len(others) > 1


def test_group_names_go_past_z() -> None:
    groups = stages.split_groups(range(1, 61), 28, method="seeding")
    assert [g.name for g in groups][-3:] == ["Z", "AA", "AB"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"pairs": [1, 2, 3], "groups": 2, "method": "seeding"}, "at least 2 pairs"),
    ({"pairs": [1, 2, 2, 3], "groups": 1, "method": "seeding"}, "more than once"),
    ({"pairs": [0, 1], "groups": 1, "method": "seeding"}, "not a pair number"),
    ({"pairs": [1, 2], "groups": 0, "method": "seeding"}, "1 or more"),
    ({"pairs": [1, 2], "groups": 1, "method": "zigzag"}, "not one of"),
    ({"pairs": [1, 2], "groups": 1, "method": "random"}, "needs a seed"),
    ({"pairs": [1, 2], "groups": 1, "method": "random", "seed": 1, "ranking": [1, 2]},
     "no ranking"),
    ({"pairs": [1, 2, 3], "groups": 1, "method": "snake", "ranking": [1, 2]},
     r"leaves out pairs \[3\]"),
])
def test_bad_splits_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(stages.GroupSplitError, match=message) as raised:
        stages.split_groups(**kwargs)
    assert isinstance(raised.value, ValueError)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_pair_in_exactly_one_group_sizes_within_one(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 80))
    g = data.draw(st.integers(1, n // 2))
    method = data.draw(st.sampled_from(stages.SPLIT_METHOD_CHOICES))
    pairs = data.draw(st.permutations(range(1, n + 1)))
    groups = stages.split_groups(pairs, g, method=method, seed=data.draw(st.integers(0, 99)))
    placed = [p for grp in groups for p in grp.pairs]
    assert sorted(placed) == list(range(1, n + 1))
    sizes = [grp.size for grp in groups]
    assert len(sizes) == g and max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    assert [grp.name for grp in groups] == [stages.group_name(k) for k in range(g)]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(1, 5))
def test_a_snake_of_full_row_pairs_gives_every_group_the_same_seed_sum(g: int, k: int) -> None:
    ranking = list(range(1, 2 * k * g + 1))
    groups = stages.split_groups(ranking, g, method="snake", ranking=ranking)
    assert len({sum(grp.pairs) for grp in groups}) == 1


def test_finals_cut_the_standings_in_order() -> None:
    finals = stages.split_finals([5, 2, 8, 1, 7, 3], [2, 4])
    assert [(f.name, f.pairs) for f in finals] == [("A", (5, 2)), ("B", (8, 1, 7, 3))]
    for sizes, message in (([2, 3], "add up to 5"), ([1, 5], "2 or more"), ([], "2 or more")):
        with pytest.raises(stages.GroupSplitError, match=message):
            stages.split_finals([5, 2, 8, 1, 7, 3], sizes)


# --------------------------------------------------------------------------- schedule


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7])
def test_a_group_plays_an_all_play_all(size: int) -> None:
    group = Group("A", tuple(range(10, 10 + size)))
    draws = stages.group_schedule(group)
    met = Counter(t.pairs for d in draws for t in d.tables)
    assert set(met) == {frozenset(c) for c in itertools.combinations(group.pairs, 2)}
    assert set(met.values()) == {1}
    assert all(len(d.byes) == size % 2 for d in draws)
    if size % 2:
        assert sorted(p for d in draws for p in d.byes) == list(group.pairs)


def test_a_stage_round_numbers_tables_through_the_hall() -> None:
    groups = [Group("A", (1, 2, 3, 4)), Group("B", (5, 6, 7, 8, 9))]
    assert stages.stage_rounds(groups) == 5
    first = stages.stage_round(groups, 1)
    assert [t.number for t in first.tables] == [1, 2, 3, 4]
    assert {p for t in first.tables[:2] for p in t.pairs} == {1, 2, 3, 4}
    assert len(first.byes) == 1 and first.byes[0] in range(5, 10)
    fourth = stages.stage_round(groups, 4)  # group A is done after 3 rounds
    assert [t.number for t in fourth.tables] == [1, 2]
    with pytest.raises(stages.StageError, match="rounds 1 to 5"):
        stages.stage_round(groups, 6)


def test_a_withdrawn_pairs_opponents_sit_out() -> None:
    group = Group("A", (1, 2, 3, 4))
    draws = stages.group_schedule(group, absent=[4])
    assert all(4 not in d.seated and 4 not in d.byes for d in draws)
    assert sorted(p for d in draws for p in d.byes) == [1, 2, 3]
    assert stages.stage_round([group, Group("B", (5, 6))], 1, absent=[4]).byes == (
        draws[0].byes
    )


# -------------------------------------------------------------------------- standings


def play_group(group: Group, offset: int = 0) -> tuple[list[PlayedGame], list[tuple[int, int]]]:
    """The group's all-play-all, the lower pair number always winning 101 to a loser's
    score that grows with its number (so differences tell the pairs apart)."""
    games: list[PlayedGame] = []
    byes: list[tuple[int, int]] = []
    for d in stages.group_schedule(group):
        for t in d.tables:
            loser = max(t.ns, t.ew)
            low = (loser * 7 + offset) % 90
            ns, ew = (101, low) if t.ns < t.ew else (low, 101)
            games.append(PlayedGame(d.round, t.ns, t.ew, Game(ns, ew, 9, EndedBy.TARGET)))
        byes.extend((d.round, p) for p in d.byes)
    return games, byes


def test_group_standings_count_only_games_among_the_group() -> None:
    group = Group("A", (1, 2, 3, 4))
    games, _ = play_group(group)
    stray = PlayedGame(1, 4, 9, Game(101, 0, 9, EndedBy.TARGET))
    standing = stages.group_standings(group, [*games, stray], RULES)
    assert [(r.pair, r.wins, r.played) for r in standing.rows] == [
        (1, 3, 3), (2, 2, 3), (3, 1, 3), (4, 0, 3),
    ]


def row(rank: int, pair: int, wins: float, played: int, difference: int, *,
        byes: int = 0, points_for: int = 300) -> ClassicStanding:
    w = Fraction(wins)
    return ClassicStanding(rank, pair, w, played, points_for, points_for - difference,
                           difference, byes=byes)


def standing(name: str, *rows: ClassicStanding, size: int | None = None) -> GroupStanding:
    pairs = tuple(r.pair for r in rows)
    if size is not None:
        pairs += tuple(range(900 + ord(name) * 10, 900 + ord(name) * 10 + size - len(rows)))
    return GroupStanding(Group(name, pairs), rows, RULES)


def test_best_placed_takes_every_runner_up_before_any_third() -> None:
    a = standing("A", row(1, 1, 3, 3, 90), row(2, 2, 1, 3, -10), row(3, 3, 1, 3, -20),
                 row(4, 4, 1, 3, -60))
    b = standing("B", row(1, 5, 2, 3, 60), row(2, 6, 2, 3, 30), row(3, 7, 2, 3, 10),
                 row(4, 8, 0, 3, -100))
    got = stages.qualify([a, b], per_group=1, best_of_rest=3)
    assert got == [
        Qualified(1, "A", 1, "group"), Qualified(5, "B", 1, "group"),
        Qualified(6, "B", 2, "second_chance"), Qualified(2, "A", 2, "second_chance"),
        Qualified(7, "B", 3, "second_chance"),
    ]
    record = stages.qualify([a, b], per_group=1, best_of_rest=3, rest_rule="best_record")
    assert [q.pair for q in record] == [1, 5, 6, 7, 2]


def test_level_records_go_by_difference_then_points_for_then_group_order() -> None:
    a = standing("A", row(1, 1, 3, 3, 90), row(2, 2, 2, 3, 10, points_for=250))
    b = standing("B", row(1, 3, 3, 3, 90), row(2, 4, 2, 3, 10, points_for=260))
    c = standing("C", row(1, 5, 3, 3, 90), row(2, 6, 2, 3, 10, points_for=260))
    got = stages.qualify([a, b, c], per_group=1, best_of_rest=2)
    assert [q.pair for q in got] == [1, 3, 5, 4, 6]


def test_groups_of_different_sizes_compare_per_game_at_a_table() -> None:
    # A (4 pairs): the runner-up won 2 of 3. B (5 pairs): 2 of 4 at a table and a bye
    # counted as a win: 3 wins in all, but a worse rate.
    a = standing("A", row(1, 1, 3, 3, 90), row(2, 2, 2, 3, 10), size=4)
    b = standing("B", row(1, 3, 4, 4, 90, byes=1), row(2, 4, 3, 4, 40, byes=1), size=5)
    got = stages.qualify([a, b], per_group=1, best_of_rest=1)
    assert got[-1] == Qualified(2, "A", 2, "second_chance")
    # Same sizes: totals as the standings count them, so B's runner-up.
    b_same = standing("B", row(1, 3, 4, 4, 90, byes=1), row(2, 4, 3, 4, 40, byes=1), size=4)
    assert stages.qualify([a, b_same], per_group=1, best_of_rest=1)[-1].pair == 4


def test_a_pair_with_no_win_at_a_table_gets_no_second_chance() -> None:
    a = standing("A", row(1, 1, 3, 3, 90), row(2, 2, 1, 4, -50, byes=1))
    b = standing("B", row(1, 3, 3, 3, 90), row(2, 4, 1, 3, -80))
    assert stages.qualify([a, b], per_group=1, best_of_rest=1)[-1].pair == 4
    with pytest.raises(stages.QualifyError, match="only 1 pairs are eligible"):
        stages.qualify([a, b], per_group=1, best_of_rest=2)
    allowed = stages.qualify([a, b], per_group=1, best_of_rest=2, exclude_zero_wins=False)
    assert [q.pair for q in allowed] == [1, 3, 2, 4]


def test_a_withdrawn_pair_has_no_place() -> None:
    gone = ClassicStanding(2, 2, Fraction(2), 3, 300, 250, 50, withdrawn=True)
    a = standing("A", row(1, 1, 3, 3, 90), gone, row(3, 3, 1, 3, -10))
    got = stages.qualify([a], per_group=2, best_of_rest=0)
    assert got == [Qualified(1, "A", 1, "group"), Qualified(3, "A", 2, "group")]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"per_group": -1, "best_of_rest": 0}, "per_group -1"),
    ({"per_group": 0, "best_of_rest": 0}, "nobody qualifies"),
    ({"per_group": 3, "best_of_rest": 0}, "group A has 2 placed pairs"),
    ({"per_group": 1, "best_of_rest": 0, "rest_rule": "luck"}, "not one of"),
])
def test_bad_qualifications_are_refused(kwargs: dict[str, Any], message: str) -> None:
    a = standing("A", row(1, 1, 3, 3, 90), row(2, 2, 1, 3, -10))
    with pytest.raises(stages.QualifyError, match=message):
        stages.qualify([a], **kwargs)


def play_out(bracket: Bracket, pick: random.Random | None = None) -> Bracket:
    """Every match decided round by round: the better seed wins, or ``pick`` chooses."""
    seed_of = {p: k for k, p in enumerate(bracket.positions) if p is not None}
    seeds = stages.seed_positions(len(bracket.positions))
    rank = {p: seeds[k] for p, k in seed_of.items()}
    for _ in range(bracket.round_count + 1):
        winners = {m.key: (pick.choice(m.pairs) if pick else min(m.pairs, key=rank.__getitem__))
                   for m in bracket.ready()}
        if not winners:
            break
        bracket = stages.advance(bracket, winners)
    return bracket


def test_64_pairs_in_16_groups_of_4_winners_to_a_bracket_of_16() -> None:
    groups = stages.split_groups(range(1, 65), 16, method="seeding")
    assert {g.size for g in groups} == {4}
    standings = []
    for g in groups:
        games, byes = play_group(g, offset=g.pairs[0])
        standings.append(stages.group_standings(g, games, RULES, byes=byes))
    qualified = stages.qualify(standings, per_group=1, best_of_rest=0)
    assert sorted(q.pair for q in qualified) == list(range(1, 17))
    assert {q.how for q in qualified} == {"group"}
    bracket = stages.seed_bracket(qualified)
    first = bracket.rounds[0]
    assert len(first) == 8 and all(m.ready for m in first)
    done = play_out(bracket)
    assert done.champion == qualified[0].pair
    assert done.final.pairs == (qualified[0].pair, qualified[1].pair)


def test_the_60_pair_shape_15_winners_and_the_best_runner_up() -> None:
    groups = stages.split_groups(range(1, 61), 15, method="snake")
    standings = []
    for g in groups:
        games, byes = play_group(g, offset=g.pairs[0] * 3)
        standings.append(stages.group_standings(g, games, RULES, byes=byes))
    qualified = stages.qualify(standings, per_group=1, best_of_rest=1)
    assert len(qualified) == 16
    assert [q.how for q in qualified] == ["group"] * 15 + ["second_chance"]
    best = qualified[-1]
    assert best.place_in_group == 2
    runners_up = [s.placed()[1] for s in standings]
    top = max(runners_up, key=lambda r: (r.wins, r.difference, r.points_for))
    assert best.pair == top.pair
    assert len(stages.seed_bracket(qualified).rounds) == 4


# ---------------------------------------------------------------------------- bracket


def test_the_standard_order_of_sixteen() -> None:
    bracket = stages.seed_bracket(list(range(1, 17)))
    assert [(m.top, m.bottom) for m in bracket.rounds[0]] == [
        (1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15),
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 70), st.integers(0, 999))
def test_bracket_invariants(n: int, seed: int) -> None:
    pairs = [100 + k for k in range(n)]  # seed k+1 is pair 100+k
    bracket = stages.seed_bracket(pairs)
    size = stages.bracket_size(n)
    assert len(bracket.positions) == size and size // 2 < n <= size
    first = bracket.rounds[0]
    assert sorted(p for m in first for p in m.pairs) == pairs
    byes = [m for m in first if m.bottom is None]
    assert len(byes) == size - n
    assert sorted(m.top for m in byes if m.top is not None) == pairs[: size - n]
    assert all(m.winner == m.top for m in byes)
    # 1 and 2 in different halves: they can meet only in the final.
    half = size // 2
    assert (bracket.positions.index(100) < half) != (bracket.positions.index(101) < half)
    by_seed = play_out(bracket)
    assert by_seed.final.pairs == (100, 101) and by_seed.champion == 100
    if n >= 4:
        semis = by_seed.rounds[-2]
        assert sorted(p for m in semis for p in m.pairs) == pairs[:4]
    done = play_out(bracket, random.Random(seed))
    assert done.champion in pairs
    assert not done.ready()


def test_a_runner_up_can_be_kept_from_its_group_winner() -> None:
    qualified = [Qualified(10 + k, stages.group_name(k), 1, "group") for k in range(15)]
    qualified.append(Qualified(99, "A", 2, "second_chance"))  # seed 16, A like seed 1
    plain = stages.seed_bracket(qualified)
    assert plain.rounds[0][0].pairs == (10, 99)
    apart = stages.seed_bracket(qualified, avoid_same_group=True)
    # Seed 16 swaps with the nearest lower seed, 15 (pair 24, group O).
    assert apart.rounds[0][0].pairs == (10, 24)
    assert [m.pairs for m in apart.rounds[0]][1:] == [
        m.pairs if 24 not in m.pairs else (m.pairs[0], 99) for m in plain.rounds[0][1:]
    ]
    with pytest.raises(stages.BracketError, match="needs every pair's group"):
        stages.seed_bracket(list(range(1, 9)), avoid_same_group=True)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(2, 12), st.integers(0, 999))
def test_keeping_groups_apart_keeps_the_top_seeds_and_the_byes(
    n: int, g: int, seed: int,
) -> None:
    rng = random.Random(seed)
    qualified = [Qualified(k + 1, stages.group_name(rng.randrange(g)), 1, "group")
                 for k in range(n)]
    plain = stages.seed_bracket(qualified).rounds[0]
    apart = stages.seed_bracket(qualified, avoid_same_group=True).rounds[0]
    assert [m.top for m in apart] == [m.top for m in plain]
    assert [m.bottom is None for m in apart] == [m.bottom is None for m in plain]
    assert sorted(p for m in apart for p in m.pairs) == list(range(1, n + 1))
    group = {q.pair: q.group for q in qualified}

    def clashes(matches: tuple[stages.Match, ...]) -> int:
        return sum(len(m.pairs) == 2 and group[m.pairs[0]] == group[m.pairs[1]]
                   for m in matches)

    assert clashes(apart) <= clashes(plain)


def test_a_third_place_match_plays_the_semifinal_losers() -> None:
    bracket = stages.seed_bracket([1, 2, 3, 4, 5, 6], third_place=True)
    done = play_out(bracket)
    final, third = done.rounds[-1]
    assert final.pairs == (1, 2) and third.third_place and third.pairs == (4, 3)
    assert done.champion == 1 and done.third == 3
    with pytest.raises(stages.BracketError, match="at least 4 pairs"):
        stages.seed_bracket([1, 2, 3], third_place=True)


def test_a_match_is_ready_as_soon_as_both_feeders_have_a_winner() -> None:
    bracket = stages.seed_bracket(list(range(1, 9)))
    bracket = stages.advance(bracket, {(1, 1): 8, (1, 2): 4})
    semi = bracket.match((2, 1))
    assert semi.ready and semi.pairs == (8, 4)
    assert not bracket.match((2, 2)).ready
    bracket = stages.advance(bracket, {(2, 1): 4})
    # Changing a winner whose next match is decided by that pair is refused...
    with pytest.raises(stages.BracketError, match="no longer one of its pairs"):
        stages.advance(bracket, {(1, 2): 5})
    # ...not when the next match's winner is still in it.
    changed = stages.advance(bracket, {(1, 1): 1})
    assert changed.match((2, 1)).pairs == (1, 4) and changed.match((2, 1)).winner == 4


@pytest.mark.parametrize(("winners", "message"), [
    ({(1, 1): 7}, "not in match"),
    ({(2, 1): 1}, "does not have both its pairs"),
    ({(4, 1): 1}, "no match"),
    ({(3, 2): 1}, "no match"),
])
def test_bad_advances_are_refused(winners: dict[tuple[int, int], int], message: str) -> None:
    with pytest.raises(stages.BracketError, match=message):
        stages.advance(stages.seed_bracket(list(range(1, 9))), winners)


def test_a_bye_needs_no_winner_but_accepts_its_pair() -> None:
    bracket = stages.seed_bracket([1, 2, 3])
    assert bracket.match((1, 1)).winner == 1
    assert stages.advance(bracket, {(1, 1): 1}).match((2, 1)).top == 1


@pytest.mark.parametrize("pairs", [[1], [], [1, 1, 2]])
def test_bad_brackets_are_refused(pairs: list[int]) -> None:
    with pytest.raises(stages.BracketError):
        stages.seed_bracket(pairs)


@pytest.mark.parametrize(("games", "best_of", "winner"), [
    ([], 3, None), ([4], 3, None), ([4, 9], 3, None), ([4, 4], 3, 4), ([4, 9, 9], 3, 9),
    ([9], 1, 9), ([4, 9, 4, 9], 5, None), ([4, 9, 4, 9, 9], 5, 9),
])
def test_a_match_goes_to_the_first_to_win_most_of_its_games(
    games: list[int], best_of: int, winner: int | None,
) -> None:
    assert stages.match_winner(games, best_of) == winner


@pytest.mark.parametrize(("games", "best_of", "message"), [
    ([4, 4, 9], 3, "after the match was decided"),
    ([4, 9, 7], 3, "two pairs"),
    ([4], 2, "odd number"),
    ([4], 0, "odd number"),
])
def test_bad_matches_are_refused(games: list[int], best_of: int, message: str) -> None:
    with pytest.raises(stages.BracketError, match=message):
        stages.match_winner(games, best_of)
