"""The value types shared by the scorer and the Django app (scoring/model.py)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction as F

import pytest

from engine import Side, Suit
from scoring import Adjustment, Doubling, Method, Result, Rounding, ScoringRules, Trump


def test_scoring_rules_defaults_are_the_spec_defaults() -> None:
    rules = ScoringRules()
    assert (rules.doubling, rules.method, rules.rounding) == (
        Doubling.DUPLICATE,
        Method.PROPORTIONAL,
        Rounding.NONE,
    )
    assert (rules.bottom, rules.top, rules.infraction_score) == (F(1), F(2), F(0))


def test_butinet_preset_is_0_to_100_rounded_down() -> None:
    assert ScoringRules.butinet() == ScoringRules(bottom=F(0), top=F(100), rounding=Rounding.FLOOR)


def test_scoring_rules_take_texts_and_any_exact_number() -> None:
    rules = ScoringRules(
        doubling="classic",  # type: ignore[arg-type]
        method="matchpoints",  # type: ignore[arg-type]
        rounding="floor",  # type: ignore[arg-type]
        bottom=Decimal("0.5"),  # type: ignore[arg-type]
        top=2.1,  # type: ignore[arg-type]
        infraction_score=-1,  # type: ignore[arg-type]
    )
    assert (rules.doubling, rules.method, rules.rounding) == (
        Doubling.CLASSIC,
        Method.MATCHPOINTS,
        Rounding.FLOOR,
    )
    assert (rules.bottom, rules.top, rules.infraction_score) == (F(1, 2), F(21, 10), F(-1))
    assert rules == ScoringRules(
        Doubling.CLASSIC, Method.MATCHPOINTS, F(1, 2), F(21, 10), Rounding.FLOOR, F(-1)
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "butinet"}, "method 'butinet' is not one of proportional, matchpoints"),
        ({"bottom": F(2), "top": F(2)}, "scale bottom 2 must be below top 2"),
        ({"top": "2"}, "top '2' is not a number"),
        ({"bottom": float("nan")}, "bottom nan is not a finite number"),
    ],
)
def test_scoring_rules_refuse_bad_values(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScoringRules(**kwargs)  # type: ignore[arg-type]


def test_trump_maps_to_the_engine_suit_and_back() -> None:
    assert Trump.C.suit is Suit.C
    assert Trump.BOTIFARRA.suit is None
    assert Trump.from_suit(None) is Trump.BOTIFARRA
    assert Trump.from_suit(Suit.B) is Trump.B


def test_result_key_and_regularity() -> None:
    played = Result(2, 5, 9, ns_pair=1, ew_pair=2, trump=Trump.O, ns_points_taken=40)
    assert played.key == (2, 5, 9)
    assert played.is_regular
    adjusted = Result(2, 5, 9, 1, 2, None, None, adjusted=(Adjustment.AVERAGE, Adjustment.AVERAGE))
    assert not adjusted.is_regular
    assert not Result(2, 5, 9, 1, 2, Trump.O, 40, infraction=Side.NS).is_regular
