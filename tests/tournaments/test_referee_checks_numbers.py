"""The referee's unusual-result warning writes numbers in the language's format."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.referee_checks import unusual


def _far(others: list[int]) -> str:
    found = dict(unusual(trump="C", ns_points_taken=70, sant_vicenc=False, infraction=None,
                         adjusted=None, others=others, doubling="duplicate"))
    return found["far_from_field"]


@pytest.mark.parametrize(("language", "median"), [("ca", "36,5"), ("es", "36,5"),
                                                  ("en", "36.5")])
def test_the_median_uses_the_languages_decimal_mark(language: str, median: str) -> None:
    with translation.override(language):
        text = _far([30, 43])
    assert median in text, text


def test_a_whole_median_has_no_decimals() -> None:
    with translation.override("ca"):
        text = _far([30, 30, 31])
    assert " 30 " in text and "30,0" not in text
