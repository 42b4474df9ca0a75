"""Seats, sides, play order, dealer and first leader (docs/rules.md "Seats, dealer and boards")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.seats import PLAY_ORDER, Seat, Side, dealer, first_leader, seats_from


def test_play_goes_counter_clockwise_n_w_s_e() -> None:
    assert PLAY_ORDER == (Seat.N, Seat.W, Seat.S, Seat.E)
    assert [Seat.N.right, Seat.W.right, Seat.S.right, Seat.E.right] == [
        Seat.W,
        Seat.S,
        Seat.E,
        Seat.N,
    ]


def test_partners_sit_opposite() -> None:
    assert {seat: seat.partner for seat in Seat} == {
        Seat.N: Seat.S,
        Seat.S: Seat.N,
        Seat.E: Seat.W,
        Seat.W: Seat.E,
    }


def test_sides_group_partners() -> None:
    assert [seat.side for seat in (Seat.N, Seat.E, Seat.S, Seat.W)] == [
        Side.NS,
        Side.EW,
        Side.NS,
        Side.EW,
    ]
    assert Side.NS.seats == (Seat.N, Seat.S)
    assert Side.EW.seats == (Seat.E, Seat.W)
    assert Side.NS.other is Side.EW
    assert Side.EW.other is Side.NS


def test_seats_from_lists_the_four_seats_in_play_order() -> None:
    assert seats_from(Seat.S) == (Seat.S, Seat.E, Seat.N, Seat.W)
    assert seats_from(Seat.N) == PLAY_ORDER


@pytest.mark.parametrize(
    ("board", "expected_dealer", "expected_leader"),
    [
        (1, Seat.N, Seat.W),
        (2, Seat.W, Seat.S),
        (3, Seat.S, Seat.E),
        (4, Seat.E, Seat.N),
        (5, Seat.N, Seat.W),
        (16, Seat.E, Seat.N),
        (17, Seat.N, Seat.W),
    ],
)
def test_dealer_of_board_n_is_n_w_s_e_for_n_mod_4_1_2_3_0(
    board: int, expected_dealer: Seat, expected_leader: Seat
) -> None:
    assert dealer(board) is expected_dealer
    assert first_leader(board) is expected_leader


@given(st.integers(min_value=1, max_value=10**9))
def test_deal_passes_to_the_right_and_the_dealers_right_hand_player_leads(board: int) -> None:
    assert dealer(board + 1) is dealer(board).right
    assert first_leader(board) is dealer(board).right


@pytest.mark.parametrize("bad", [0, -3, True, 1.0, "1", None])
def test_dealer_rejects_a_board_number_that_is_not_an_integer_from_1(bad: object) -> None:
    with pytest.raises(ValueError, match=f"board number {bad!r}"):
        dealer(bad)  # type: ignore[arg-type]


def test_seat_and_side_parse_accept_catalan_spellings() -> None:
    assert Seat.parse(" n ") is Seat.N
    assert Seat.parse("O") is Seat.W  # oest
    assert Side.parse("eo") is Side.EW
    assert Side.parse("NS") is Side.NS
    assert str(Seat.W) == "W"
    assert str(Side.EW) == "EW"


def test_seat_and_side_parse_name_the_bad_text() -> None:
    with pytest.raises(NotationError, match="'X' is not a seat"):
        Seat.parse("X")
    with pytest.raises(NotationError, match="'NE' is not a side"):
        Side.parse("NE")
