"""Every draw, also one edited by hand in the admin, is checked before the round's first
result: a seating with a problem refuses it, naming the problem."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tournaments import services
from tournaments.models import Board, Bye, Result, Seating

pytestmark = pytest.mark.django_db


def _record(seating: Seating, board: Board) -> services.ResultSaved:
    return services.result_record(seating=seating, board=board, trump="O",
                                  ns_points_taken=40, expected_version=None, acting_user=None)


def _round_1(pairs: int):  # type: ignore[no-untyped-def]
    c = build_championship(pairs=pairs, rounds=1, boards_per_round=2, drawn_rounds=1)
    seatings = list(Seating.objects.filter(round__championship=c).order_by("table__number")
                    .select_related("ns_pair", "ew_pair"))
    boards = list(Board.objects.filter(championship=c).order_by("number"))
    return c, seatings, boards


def test_a_pair_put_at_two_tables_by_hand_refuses_the_rounds_first_result(db: None) -> None:
    _c, (first, second), boards = _round_1(pairs=4)
    twice = first.ns_pair
    Seating.objects.filter(pk=second.pk).update(ns_pair=twice)  # as an edit in the admin
    with pytest.raises(services.ChampionshipStateError) as exc:
        _record(first, boards[0])
    message = str(exc.value)
    assert f"La parella {twice.number} seu dues vegades" in message
    assert "ronda 1" in message
    assert not Result.objects.exists()


# A table with the same pair on both sides cannot even be stored (database constraint
# seating_two_different_pairs).


def test_a_pair_sitting_out_and_seated_refuses_the_first_result(db: None) -> None:
    _c, seatings, boards = _round_1(pairs=5)
    bye = Bye.objects.get()
    Seating.objects.filter(pk=seatings[0].pk).update(ew_pair=bye.pair)
    with pytest.raises(services.ChampionshipStateError) as exc:
        _record(seatings[1], boards[0])
    assert f"La parella {bye.pair.number} seu dues vegades" in str(exc.value)


def test_a_valid_seating_edited_by_hand_accepts_the_result(db: None) -> None:
    _c, (first, second), boards = _round_1(pairs=4)
    # Swap the EW pairs of the two tables: still every pair once.
    Seating.objects.filter(pk=first.pk).update(ew_pair=second.ew_pair)
    Seating.objects.filter(pk=second.pk).update(ew_pair=first.ew_pair)
    saved = _record(first, boards[0])
    assert (saved.kind, saved.result.ns_points_taken) == (services.SaveKind.CREATED, 40)
    assert Result.objects.get().seating.ew_pair == second.ew_pair


def test_the_check_costs_one_query_once_the_round_has_a_result(
    db: None, django_assert_max_num_queries  # type: ignore[no-untyped-def]
) -> None:
    _c, (first, _second), boards = _round_1(pairs=4)
    _record(first, boards[0])
    from tournaments.services import results

    round = first.round  # result_record has it loaded already
    with django_assert_max_num_queries(1):
        results._check_seating_before_first_result(round)
