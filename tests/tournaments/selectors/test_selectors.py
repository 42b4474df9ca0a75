"""Selectors: standings with progress, traveller, score card, board visibility, referee
sheets; their query counts do not grow with the number of pairs; and their numbers are
the ones ``python -m scoring`` computes on the exported file."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.seats import Seat, Side
from tests.factories import UserFactory, build_championship
from tournaments import selectors, services
from tournaments.models import Board, Championship, Pair, Round, Seating
from tournaments.services.interchange import championship_export

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_sizes():
    """The same shape with 4 and with 12 pairs, two rounds played, one drawn."""
    return [
        build_championship(pairs=n, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2)
        for n in (4, 12)
    ]


def board_with_analysis(championship, number):
    return Board.objects.select_related("analysis").get(championship=championship,
                                                        number=number)


def count_queries(fn):
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "read",
    [
        lambda c: selectors.standings(c),
        lambda c: selectors.standings(c, round_only=1),
        lambda c: selectors.standings(c, for_public=True),
        lambda c: selectors.standings_after_each_round(c, for_public=True),
        # The board loaded as the API loads it: its double-dummy table comes along.
        lambda c: selectors.traveller(c, 1, for_public=True),
        lambda c: selectors.standings_after_each_round(c),
        lambda c: selectors.traveller(c, 1),
        lambda c: selectors.score_card(c, 1, for_public=True),
        lambda c: selectors.public_board_numbers(c),
        lambda c: selectors.referee_round(Round.objects.get(championship=c, number=3)),
    ],
    ids=["standings", "round-standings", "public-standings", "public-progressive",
         "public-traveller", "progressive", "traveller", "score-card",
         "public-boards", "referee-round"],
)
def test_query_counts_do_not_grow_with_the_number_of_pairs(two_sizes, read,
                                                            django_assert_num_queries):
    small, big = two_sizes
    small_count = count_queries(lambda: read(small))
    with django_assert_num_queries(small_count):
        read(big)
    assert small_count <= 8


def test_standings_rank_by_total_and_report_progress():
    c = build_championship(pairs=8, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2)
    view = selectors.standings(c)
    totals = [row.total for row in view.rows]
    assert totals == sorted(totals, reverse=True)
    assert view.rows[0].rank == 1
    # 3 rounds drawn x 4 tables x 2 boards expected, 2 rounds played.
    assert (view.progress.results_in, view.progress.results_expected) == (16, 24)
    assert view.progress.percent == 66
    assert view.rounds == (1, 2, 3)
    only = selectors.standings(c, round_only=2)
    assert (only.progress.results_in, only.progress.results_expected) == (8, 8)
    assert only.progress.complete
    assert all(row.boards == 2 for row in only.rows)
    after = selectors.standings_after_each_round(c)
    assert sorted(after) == [1, 2]
    assert {r.number: r.total for r in after[2]} == {r.number: r.total for r in view.rows}


def test_the_app_gives_the_same_numbers_as_python_m_scoring_on_the_export(tmp_path):
    c = build_championship(pairs=6, rounds=2, boards_per_round=3, drawn_rounds=2,
                           played_rounds=2, method="matchpoints")
    exported = championship_export(c)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "scoring", str(path)], capture_output=True, text=True,
        check=True,
    )
    assert json.loads(out.stdout) == exported
    view = selectors.standings(c)
    assert [(r.rank, r.number, round(float(r.total), 4)) for r in view.rows] == [
        (s["rank"], s["pair"], s["total"]) for s in exported["standings"]]
    trav = selectors.traveller(c, 2)
    by_table = {
        t["number"]: res
        for r in exported["rounds"] for t in r["tables"] for res in t["results"]
        if res["board"] == 2
    }
    for row in trav.rows:
        res = by_table[row.table]
        assert row.score.ns_score == res["ns_score"]
        assert round(float(row.score.ns_comparative), 4) == res["ns_comparative"]
        assert round(float(row.score.ew_comparative), 4) == res["ew_comparative"]


def test_a_board_stays_hidden_until_every_table_of_its_round_has_a_result(small):
    board = small.boards[0]
    assert not selectors.board_is_public(board)
    services.result_record(seating=small.seatings[0], board=board, trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    assert not selectors.board_is_public(board)
    hidden = selectors.traveller(board.championship, board.number, for_public=True)
    assert (hidden.public, hidden.rows, hidden.deal) == (False, (), None)
    assert hidden.tables_missing == (small.seatings[1].table.number,)
    full = selectors.traveller(board.championship, board.number)  # a referee's view
    assert len(full.rows) == 1 and full.deal is not None
    services.result_record(seating=small.seatings[1], board=board, trump="C",
                           ns_points_taken=30, expected_version=None, acting_user=None)
    assert selectors.board_is_public(board)
    shown = selectors.traveller(board.championship, board.number, for_public=True)
    assert shown.public and len(shown.rows) == 2 and shown.deal is not None
    assert selectors.public_board_numbers(small.championship) == {board.number}


def test_a_board_of_an_undrawn_round_is_hidden_and_everything_is_public_once_finished(small):
    later = Board.objects.get(round=small.round2, number=3)
    assert not selectors.board_is_public(later)
    services.championship_finish(championship=small.championship, acting_user=None)
    later.championship.refresh_from_db()
    assert selectors.board_is_public(later)


def test_the_traveller_gives_hand_scores_comparative_points_and_the_dealer(small):
    board = small.boards[1]  # board 2: dealer West, so EW chose trump
    services.result_record(seating=small.seatings[0], board=board, trump="botifarra",
                           ns_points_taken=30, expected_version=None, acting_user=None)
    services.result_record(seating=small.seatings[1], board=board, trump="O",
                           ns_points_taken=36, contro=True, expected_version=None,
                           acting_user=None)
    trav = selectors.traveller(board.championship, board.number)
    assert trav.dealer is Seat.W
    first, second = sorted(trav.rows, key=lambda r: r.table)
    # EW declared botifarra and took 42: EW +12, NS -6 (duplicate doubling).
    assert (first.score.ns_score, first.score.ew_score) == (-6, 12)
    assert (second.score.ns_score, second.score.ew_score) == (0, 0)
    assert (first.score.ns_comparative, second.score.ns_comparative) == (Fraction(1), 2)
    assert (first.score.ew_comparative, second.score.ew_comparative) == (Fraction(2), 1)


def test_the_score_card_lists_each_board_with_direction_opponent_and_points(small):
    for s in small.seatings:
        for b in small.boards:
            services.result_record(seating=s, board=b, trump="E", ns_points_taken=36 + s.pk % 3,
                                   expected_version=None, acting_user=None)
    seating = small.seatings[0]
    card = selectors.score_card(seating.ew_pair.championship, seating.ew_pair.number)
    assert [(r.board, r.direction, r.opponent.number) for r in card.rows] == [
        (1, Side.EW, seating.ns_pair.number), (2, Side.EW, seating.ns_pair.number)]
    assert card.total == sum(r.comparative for r in card.rows)
    assert card.boards == 2 and card.rank is not None


def test_the_public_score_card_leaves_out_hidden_boards_and_their_points(small):
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=50, expected_version=None, acting_user=None)
    pair = small.seatings[0].ns_pair
    public = selectors.score_card(pair.championship, pair.number, for_public=True)
    assert (public.rows, public.total, public.boards, public.rank) == ((), 0, 0, None)
    card = selectors.score_card(pair.championship, pair.number)  # the organiser's view
    assert len(card.rows) == 1 and not card.rows[0].public
    assert card.total == Fraction(3, 2)


def _public_numbers(championship):
    """Every number a public reader gets from the standings and the score cards."""
    overall = selectors.standings(championship, for_public=True)
    by_round = selectors.standings(championship, round_only=1, for_public=True)
    after = selectors.standings_after_each_round(championship, for_public=True)
    cards = {
        p.number: selectors.score_card(p.championship, p.number, for_public=True)
        for p in Pair.objects.filter(championship=championship)
    }
    return (
        [(r.rank, r.number, r.total, r.boards, r.average) for r in overall.rows],
        [(r.rank, r.number, r.total, r.boards, r.average) for r in by_round.rows],
        {n: [(r.rank, r.number, r.total, r.boards) for r in rows] for n, rows in after.items()},
        {n: (c.total, c.boards, c.rank, [r.board for r in c.rows]) for n, c in cards.items()},
    )


@pytest.mark.parametrize("method", ["proportional", "matchpoints"])
def test_saving_a_result_on_a_hidden_board_changes_no_public_number(method):
    c = build_championship(pairs=6, rounds=2, boards_per_round=2, drawn_rounds=1,
                           method=method)
    seatings = list(Seating.objects.filter(round__number=1, round__championship=c)
                    .order_by("table__number"))
    board1, board2 = Board.objects.filter(championship=c, round__number=1).order_by("number")
    for points, seating in zip((50, 30, 41), seatings, strict=True):  # board 1: every table, public
        services.result_record(seating=seating, board=board1, trump="O",
                               ns_points_taken=points, expected_version=None,
                               acting_user=None)
    services.result_record(seating=seatings[0], board=board2, trump="C", ns_points_taken=60,
                           expected_version=None, acting_user=None)
    before = _public_numbers(c)
    # Board 2 stays hidden (table 3 still to play it): a second result on it must not
    # show anywhere public, not even through a total, a board count or a rank.
    services.result_record(seating=seatings[1], board=board2, trump="C", ns_points_taken=10,
                           expected_version=None, acting_user=None)
    assert _public_numbers(c) == before
    overall = selectors.standings(c, for_public=True)
    assert {r.boards for r in overall.rows} == {1}
    assert sum(r.total for r in overall.rows) == 3 * Fraction(3)  # board 1 only: 3 x (1 + 2)
    assert overall.progress.results_in == 5  # progress still counts every result
    # The organiser's view counts the hidden board.
    assert max(r.boards for r in selectors.standings(c).rows) == 2
    # The last table plays board 2: now it is public and counts for everyone.
    services.result_record(seating=seatings[2], board=board2, trump="C", ns_points_taken=36,
                           expected_version=None, acting_user=None)
    assert {r.boards for r in selectors.standings(c, for_public=True).rows} == {2}
    assert _public_numbers(c) != before
    assert ([(r.number, r.total) for r in selectors.standings(c, for_public=True).rows]
            == [(r.number, r.total) for r in selectors.standings(c).rows])


def test_the_public_traveller_of_a_public_board_scores_as_the_public_standings():
    c = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1,
                           method="matchpoints")
    seatings = list(Seating.objects.filter(round__championship=c).order_by("table__number"))
    board1, board2 = Board.objects.filter(championship=c).order_by("number")
    for points, seating in zip((50, 30), seatings, strict=True):
        services.result_record(seating=seating, board=board1, trump="O",
                               ns_points_taken=points, expected_version=None,
                               acting_user=None)
    services.result_record(seating=seatings[0], board=board2, trump="B", ns_points_taken=12,
                           expected_version=None, acting_user=None)
    public = selectors.traveller(board1.championship, board1.number, for_public=True)
    assert public.public and len(public.rows) == 2
    totals = {r.number: r.total for r in selectors.standings(c, for_public=True).rows}
    for row in public.rows:
        assert totals[row.ns.number] == row.score.ns_comparative
        assert totals[row.ew.number] == row.score.ew_comparative
    hidden = selectors.traveller(board2.championship, board2.number, for_public=True)
    assert (hidden.public, hidden.rows, hidden.deal) == (False, (), None)
    assert hidden.tables_missing == (seatings[1].table.number,)


def test_only_the_organiser_and_the_head_referee_see_hidden_boards(small):
    head = UserFactory(username="arbitre-principal")
    services.membership_grant(championship=small.championship, user=head,
                              role="head_referee", acting_user=None)
    assert selectors.user_sees_hidden_boards(small.organiser, small.championship)
    assert selectors.user_sees_hidden_boards(head, small.championship)
    assert not selectors.user_sees_hidden_boards(small.referee, small.championship)
    assert not selectors.user_sees_hidden_boards(AnonymousUser(), small.championship)


def test_the_referee_round_lists_each_table_with_the_boards_dealers_and_results(small):
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=50, expected_version=None, acting_user=None)
    sheets = selectors.referee_round(small.round1)
    assert [s.seating.table.number for s in sheets] == [1, 2]
    assert [(slot.board.number, slot.dealer) for slot in sheets[0].boards] == [
        (1, Seat.N), (2, Seat.W)]
    assert [sheet.done for sheet in sheets] == [1, 0]
    table = selectors.referee_table(small.seatings[0])
    assert table.boards[0].result.ns_points_taken == 50


def test_roles_are_per_championship(small):
    other = Championship.objects.create(name="Altre", slug="altre")
    assert selectors.user_can_referee(small.referee, small.championship)
    assert not selectors.user_can_referee(small.referee, other)
    assert selectors.user_is_organiser(small.organiser, small.championship)
    assert not selectors.user_is_organiser(small.referee, small.championship)
    assert list(selectors.championships_for_user(small.referee)) == [small.championship]


def test_current_round_is_the_first_drawn_open_round(small):
    assert selectors.current_round(small.championship) == small.round1
    services.round_close(round=small.round1, acting_user=None, allow_missing=True)
    assert selectors.current_round(small.championship) == small.round1  # round 2 not drawn
    services.round_draw(round=small.round2, seed=3, acting_user=None)
    assert selectors.current_round(small.championship) == small.round2
    assert Seating.objects.filter(round=small.round2).count() == 2


def test_round_progress_counts_as_the_standings_do_without_scoring(
    django_assert_num_queries,
):
    c = build_championship(pairs=8, rounds=3, boards_per_round=2, drawn_rounds=3,
                           played_rounds=2)
    rnd3 = Round.objects.get(championship=c, number=3)
    services.result_record(seating=rnd3.seatings.order_by("table__number").first(),
                           board=Board.objects.filter(round=rnd3).order_by("number").first(),
                           trump="O", ns_points_taken=40, expected_version=None,
                           acting_user=None)
    with django_assert_num_queries(3):
        counted = selectors.round_progress(c)
    scored = selectors.rounds_progress(selectors.scored_championship(c, public_only=True))
    assert list(counted.values()) == scored
    assert [(p.results_in, p.results_expected, p.boards_complete) for p in scored] == [
        (8, 8, 2), (8, 8, 2), (1, 8, 0)]
