"""Hand score per side: docs/rules.md "Hand score", docs/file-format.md "Hand score"."""

from __future__ import annotations

import pytest

from engine import HandScore, InvalidResultError, Side, Suit, classic_infraction_score, hand_score
from scoring.model import Doubling


def test_botifarra_by_dealer_side_and_contro_by_other_side_both_double() -> None:
    # Dealer side NS declares botifarra (x2 for NS), EW calls contro (x2 for EW).
    assert hand_score(41, dealer_side=Side.NS, trump=None, contro=True) == HandScore(10, -10)
    assert hand_score(30, dealer_side=Side.NS, trump=None, contro=True) == HandScore(-12, 12)


def test_botifarra_lost_by_six_gives_dealer_side_minus_12_and_other_side_plus_6() -> None:
    assert hand_score(30, dealer_side=Side.NS, trump=None) == HandScore(ns=-12, ew=6)
    assert hand_score(42, dealer_side=Side.EW, trump=None) == HandScore(ns=6, ew=-12)


def test_contro_doubles_only_the_pair_that_called_it() -> None:
    # NS deal and name oros, EW call contro: only EW's score is doubled.
    assert hand_score(40, dealer_side=Side.NS, trump=Suit.O, contro=True) == HandScore(4, -8)
    assert hand_score(35, dealer_side=Side.NS, trump=Suit.O, contro=True) == HandScore(-1, 2)
    # EW deal, NS call contro.
    assert hand_score(40, dealer_side=Side.EW, trump=Suit.C, contro=True) == HandScore(8, -4)


def test_recontro_and_sant_vicenc_change_nothing_under_duplicate_doubling() -> None:
    plain = hand_score(46, dealer_side=Side.EW, trump=Suit.E, contro=True)
    assert plain == HandScore(20, -10)
    assert (
        hand_score(
            46, dealer_side=Side.EW, trump=Suit.E, contro=True, recontro=True, sant_vicenc=True
        )
        == plain
    )


def test_undoubled_suit_hand_scores_are_opposite() -> None:
    assert hand_score(36, dealer_side=Side.NS, trump=Suit.B) == HandScore(0, 0)
    assert hand_score(72, dealer_side=Side.NS, trump=Suit.B) == HandScore(36, -36)
    assert hand_score(0, dealer_side=Side.EW, trump=Suit.B) == HandScore(-36, 36)


@pytest.mark.parametrize(
    ("points", "trump", "contro", "recontro", "sant_vicenc", "expected_ns"),
    [
        (45, Suit.O, False, False, False, 9),  # the rulebooks: 45 undoubled 9
        (45, Suit.O, True, False, False, 18),  # with contro 18
        (45, Suit.O, True, True, False, 36),  # recontro 36
        (45, Suit.O, True, True, True, 72),  # Sant Vicenç x8
        (50, Suit.C, True, False, False, 28),  # 50 with contro 28
        (50, None, True, False, False, 56),  # botifarra with contro 56
        (50, None, True, True, True, 224),  # botifarra x2, Sant Vicenç x8
        (72, Suit.E, False, False, False, 36),  # capot undoubled 36
        (30, Suit.E, True, True, False, -24),  # a loss is signed
    ],
)
def test_classic_doubling_multiplies_both_sides_by_m(
    points: int,
    trump: Suit | None,
    contro: bool,
    recontro: bool,
    sant_vicenc: bool,
    expected_ns: int,
) -> None:
    score = hand_score(
        points,
        dealer_side=Side.NS,
        trump=trump,
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        doubling="classic",
    )
    assert score == HandScore(expected_ns, -expected_ns)


def test_doubling_accepts_the_scoring_enum() -> None:
    kwargs = {"dealer_side": Side.EW, "trump": None, "contro": True, "recontro": True}
    assert hand_score(30, doubling=Doubling.CLASSIC, **kwargs) == HandScore(-48, 48)  # type: ignore[arg-type]
    assert hand_score(30, doubling=Doubling.DUPLICATE, **kwargs) == HandScore(-12, 12)  # type: ignore[arg-type]


def test_hand_score_indexes_by_side() -> None:
    score = HandScore(ns=4, ew=-8)
    assert (score[Side.NS], score[Side.EW]) == (4, -8)


@pytest.mark.parametrize("points", [-1, 73, True, 36.0, "36"])
def test_points_outside_0_to_72_are_refused(points: object) -> None:
    with pytest.raises(InvalidResultError, match=r"not in 0\.\.72"):
        hand_score(points, dealer_side=Side.NS, trump=Suit.O)  # type: ignore[arg-type]


def test_recontro_without_contro_is_refused() -> None:
    with pytest.raises(InvalidResultError, match="recontro without contro"):
        hand_score(40, dealer_side=Side.NS, trump=Suit.O, recontro=True)


def test_sant_vicenc_without_recontro_is_refused() -> None:
    with pytest.raises(InvalidResultError, match="Sant Vicenç without recontro"):
        hand_score(40, dealer_side=Side.NS, trump=Suit.O, contro=True, sant_vicenc=True)


def test_unknown_doubling_is_refused() -> None:
    with pytest.raises(InvalidResultError, match="doubling"):
        hand_score(40, dealer_side=Side.NS, trump=Suit.O, doubling="triple")


def test_classic_infraction_gives_the_other_side_36_times_m() -> None:
    assert classic_infraction_score(Side.NS, trump=Suit.O) == HandScore(0, 36)
    assert classic_infraction_score(Side.NS, trump=None, contro=True) == HandScore(0, 144)
    assert classic_infraction_score(
        Side.EW, trump=None, contro=True, recontro=True, sant_vicenc=True
    ) == HandScore(576, 0)


def test_classic_infraction_checks_the_doubles() -> None:
    with pytest.raises(InvalidResultError):
        classic_infraction_score(Side.EW, trump=Suit.O, sant_vicenc=True)
