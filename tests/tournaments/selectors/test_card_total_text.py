"""A pair's total reads the same on the standings and on its card (page, printed card):
the card takes the standings' text, its running totals that column's decimals, while a
board's comparative points keep the export's decimals (docs/decisions.md 77)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import build_championship
from tests.tournaments.readers import card_page, card_pdf, standings_page
from tournaments import selectors
from tournaments.selectors.formats import MAX_DECIMALS

pytestmark = pytest.mark.django_db


def _needs_more_than(value: Fraction, places: int) -> bool:
    return value * 10**places != int(value * 10**places)


def test_the_cards_total_is_the_standings_text_when_the_exact_total_has_more_decimals(
) -> None:
    # Matchpoints on 0..2 with Neuberg's E over 9 pairs: totals of many decimals.
    championship = build_championship(pairs=9, rounds=3, drawn_rounds=3, played_rounds=3,
                                      method="matchpoints", missed_boards="per_board")
    with translation.override("ca"):
        rows = {row.number: row for row in selectors.standings(championship).rows}
        cards = {n: selectors.score_card(championship, n) for n in rows}
    long = [n for n, row in rows.items()
            if row.has_score and _needs_more_than(row.total, MAX_DECIMALS)]
    assert long, "the championship should have a total that needs rounding"
    for number, row in rows.items():
        card = cards[number]
        assert card is not None
        assert card.total_text == row.total_text, number
        assert card.rank == row.rank, number
        if card.rows and not row.missed:
            # The last running total is the total, and reads as it.
            assert card.rows[-1].running_total_text == row.total_text, number
    # The per-board column keeps up to 4 decimals: some board needs more than 2.
    comparatives = [r for c in cards.values() if c for r in c.rows]
    assert any(_needs_more_than(r.comparative, MAX_DECIMALS) for r in comparatives)
    assert any(len(r.comparative_text.partition(",")[2]) > MAX_DECIMALS
               for r in comparatives)
    # Page, printed card and standings page read the same total.
    client = Client()
    number = long[0]
    shown = next(r for r in standings_page(client, championship).lines if r.pair == number)
    page = card_page(client, championship, number)
    assert page.total == shown.total == rows[number].total_text
    assert card_pdf(championship, number).total == shown.total
    html = client.get(reverse("pair_card", args=[championship.slug, number])).content.decode()
    assert 'id="comparative-note"' in html and "fins a 4" in html
