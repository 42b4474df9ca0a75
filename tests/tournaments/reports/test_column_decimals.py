"""Travellers and score cards print each column of comparative points with one number
of decimals (``selectors.formats.column``): never "16,75" above "17,9506"."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments.reports.build import build
from tournaments.reports.documents import Kind, ScoreCards, Travellers
from tournaments.reports.render import render

pytestmark = pytest.mark.django_db


def _decimals(text: str) -> int:
    whole, _sep, decimals = text.replace(".", ",").partition(",")
    assert re.fullmatch(r"-?\d+", whole) and re.fullmatch(r"\d*", decimals), text
    return len(decimals)


@pytest.mark.parametrize("language", ["ca", "en"])
def test_a_column_of_comparative_points_has_one_number_of_decimals(language: str) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=2,
                                      played_rounds=2, seed=5)
    travellers = build(championship, Kind.TRAVELLERS, language=language)
    assert isinstance(travellers, Travellers) and travellers.travellers
    padded = 0
    for traveller in travellers.travellers:
        texts = [t for row in traveller.rows
                 for t in (row.ns_comparative_text, row.ew_comparative_text)]
        assert len({_decimals(t) for t in texts}) == 1, (traveller.board, texts)
        # A whole value among fractional ones is printed with their decimals.
        padded += sum(1 for row in traveller.rows
                      if float(row.ns_comparative).is_integer() and _decimals(
                          row.ns_comparative_text) > 0)
    assert padded, "no column mixed whole and fractional values: the test proves nothing"
    pdf = " ".join(" ".join(page_texts(render(travellers))).split())
    for traveller in travellers.travellers:
        for row in traveller.rows:
            assert f" {row.ns_comparative_text} {row.ew_comparative_text}" in pdf

    cards = build(championship, Kind.SCORE_CARDS, language=language)
    assert isinstance(cards, ScoreCards) and cards.cards
    for card in cards.cards:
        assert len({_decimals(row.comparative_text) for row in card.rows}) == 1, card.pair
        running = {_decimals(row.running_total_text) for row in card.rows}
        assert running == {_decimals(card.total_text)}, card.pair
    separator = "," if language == "ca" else "."
    assert any(separator in row.comparative_text for card in cards.cards for row in card.rows)
    with translation.override(language):
        text = " ".join(" ".join(page_texts(render(cards))).split())
    assert all(card.total_text in text for card in cards.cards)
