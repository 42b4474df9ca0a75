"""scoring.validate: one pure function says what a valid result is, every problem with a
stable code, the field at fault and the values a message shows."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Rules, Side, Suit
from scoring import Adjustment, Trump
from scoring.errors import ResultError
from scoring.text import OversizedNumber
from scoring.validate import (
    MESSAGES,
    Problem,
    ResultRules,
    ResultValues,
    describe,
    parse_result,
    validate_result,
)

PLAYED: dict[str, Any] = {"trump": "O", "ns_points_taken": 40}


def codes(**values: Any) -> list[tuple[str, str]]:
    return [(p.code, p.field) for p in validate_result(**{**PLAYED, **values})]


def test_a_valid_result_has_no_problem() -> None:
    assert validate_result(**PLAYED) == []
    assert validate_result(trump=None, ns_points_taken=None,
                           adjusted={"NS": "average", "EW": "average_minus"}) == []
    assert validate_result(trump="botifarra", ns_points_taken=0, delegated=True, contro=True,
                           recontro=True, sant_vicenc=True, infraction="EW") == []


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"trump": None}, [("trump_missing", "trump")]),
        ({"trump": "X"}, [("trump_unknown", "trump")]),
        ({"trump": 5}, [("trump_unknown", "trump")]),
        ({"ns_points_taken": None}, [("points_missing", "ns_points_taken")]),
        ({"ns_points_taken": "40"}, [("points_not_integer", "ns_points_taken")]),
        ({"ns_points_taken": 40.0}, [("points_not_integer", "ns_points_taken")]),
        ({"ns_points_taken": True}, [("points_not_integer", "ns_points_taken")]),
        ({"ns_points_taken": 73}, [("points_out_of_range", "ns_points_taken")]),
        ({"ns_points_taken": -1}, [("points_out_of_range", "ns_points_taken")]),
        ({"ns_points_taken": OversizedNumber(500)},
         [("points_out_of_range", "ns_points_taken")]),
        ({"contro": "yes"}, [("not_boolean", "contro")]),
        ({"delegated": None}, [("not_boolean", "delegated")]),
        ({"recontro": True}, [("recontro_without_contro", "recontro")]),
        ({"contro": True, "sant_vicenc": True},
         [("sant_vicenc_without_recontro", "sant_vicenc")]),
        ({"infraction": "NE"}, [("infraction_unknown", "infraction")]),
        ({"adjusted": "average"}, [("adjusted_not_object", "adjusted")]),
        ({"adjusted": {"NS": "average"}}, [("adjusted_side_missing", "adjusted.EW")]),
        ({"adjusted": ("average", "top")}, [("adjusted_unknown", "adjusted.EW")]),
        ({"adjusted": {"NS": "average", "EW": "average"}, "infraction": "NS"},
         [("infraction_and_adjusted", "")]),
        ({"trump": None, "ns_points_taken": None, "delegated": True},
         [("trump_missing", "trump"), ("points_missing", "ns_points_taken"),
          ("delegated_without_trump", "delegated")]),
    ],
)
def test_each_rule_has_its_code_and_field(values: dict[str, Any], expected: list[Any]) -> None:
    assert codes(**values) == expected


@pytest.mark.parametrize("side", ["NS", "EW"])
def test_the_points_may_be_left_out_at_an_infraction_where_they_do_not_count(
    side: str,
) -> None:
    assert validate_result(trump="O", ns_points_taken=None, infraction=side) == []
    # Given, they are still checked: an impossible number is refused all the same.
    assert codes(trump="O", ns_points_taken=73, infraction=side) == [
        ("points_out_of_range", "ns_points_taken")]
    # The trump stays required: the board was played, only its score does not count.
    assert codes(trump=None, ns_points_taken=None, infraction=side) == [
        ("trump_missing", "trump")]


def test_every_problem_is_returned_not_only_the_first() -> None:
    problems = validate_result(trump="X", ns_points_taken=80, recontro=True, contro="no",
                               infraction="EO")
    assert [p.code for p in problems] == [
        "trump_unknown", "points_out_of_range", "not_boolean", "recontro_without_contro",
        "infraction_unknown",
    ]
    assert problems[1] == Problem(
        "points_out_of_range", "ns_points_taken", {"value": 80, "minimum": 0, "maximum": 72}
    )


def test_the_championship_settings_bound_sant_vicenc() -> None:
    sv = {"trump": "botifarra", "contro": True, "recontro": True, "sant_vicenc": True}
    assert codes(**sv, rules=Rules(sant_vicenc=False)) == [
        ("sant_vicenc_not_allowed", "sant_vicenc")]
    assert codes(**sv, rules=Rules()) == [
        ("sant_vicenc_on_botifarra_not_allowed", "sant_vicenc")]
    assert codes(**sv, rules=Rules(sant_vicenc_on_botifarra=True)) == []
    assert codes(**{**sv, "trump": "O"}, rules=Rules()) == []
    assert codes(**sv) == []  # a file without the settings allows both
    assert codes(**sv, rules=ResultRules(sant_vicenc_on_botifarra=False)) == [
        ("sant_vicenc_on_botifarra_not_allowed", "sant_vicenc")]


def test_enums_are_accepted_as_well_as_their_text() -> None:
    assert validate_result(trump=Trump.BOTIFARRA, ns_points_taken=10, infraction=Side.EW) == []
    assert validate_result(trump=Suit.O, ns_points_taken=10) == []
    assert validate_result(trump=None, ns_points_taken=None,
                           adjusted=(Adjustment.AVERAGE, Adjustment.AVERAGE_PLUS)) == []


def test_parse_result_gives_typed_values_or_raises_with_the_problems() -> None:
    assert parse_result(trump="C", ns_points_taken=30, infraction="EW", contro=True) == \
        ResultValues(trump=Trump.C, ns_points_taken=30, contro=True, infraction=Side.EW)
    with pytest.raises(ResultError) as caught:
        parse_result(trump="C", ns_points_taken=99, recontro=True)
    assert [p.code for p in caught.value.problems] == [
        "points_out_of_range", "recontro_without_contro"]
    assert str(caught.value) == (
        "ns_points_taken: 99 is not in 0..72; recontro: recontro without contro"
    )


def test_every_code_has_an_english_message() -> None:
    assert describe(Problem("trump_unknown", "trump",
                            {"value": "X", "choices": ("O", "C")})) == "'X' is not one of O, C"
    assert describe(Problem("adjusted_side_missing", "adjusted.NS", {"side": "NS"})) == \
        "is missing"
    assert describe(Problem("points_out_of_range", "ns_points_taken",
                            {"value": OversizedNumber(9)})) == \
        "a number of 9 digits is out of range"
    # the docstring's table lists exactly the codes that have a message
    import scoring.validate as module

    assert module.__doc__ is not None
    for code in MESSAGES:
        assert f"``{code[:30]}" in module.__doc__, code
