"""The model's choices carry Catalan labels, so they are written out in models.py; their
values must stay those of the engine and scoring enums they stand for."""

from __future__ import annotations

import enum

import pytest

from engine.rules import CarregarScope, Variant
from engine.seats import Side
from scoring.model import Adjustment, Doubling, Method, Rounding, Trump
from tournaments.models import Championship, Result


@pytest.mark.parametrize(
    ("choices", "values"),
    [
        (Championship.Variant, Variant),
        (Championship.Doubling, Doubling),
        (Championship.Method, Method),
        (Championship.Rounding, Rounding),
        (Championship.CarregarScope, CarregarScope),
        (Result.Trump, Trump),
        (Result.Side, Side),
        (Result.Adjustment, Adjustment),
    ],
)
def test_model_choices_have_the_values_of_the_engine_and_scoring_enums(
    choices: type[enum.Enum], values: type[enum.Enum]
) -> None:
    assert {c.value for c in choices} == {v.value for v in values}
