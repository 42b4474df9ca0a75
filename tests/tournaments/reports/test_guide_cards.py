"""Guide cards: per table the pairs of each round, per pair its table and direction each
round (a bye says so)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.factories import build_championship
from tournaments.models import Bye, Seating
from tournaments.reports.guide_cards import build_guide_cards, render_guide_cards

pytestmark = pytest.mark.django_db


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_table_cards_list_each_rounds_ns_and_ew_pair():
    c = build_championship(pairs=5, rounds=2, boards_per_round=1, drawn_rounds=2)
    doc = build_guide_cards(c, by="table")
    assert [card.title for card in doc.cards] == ["Taula 1", "Taula 2"]
    first = Seating.objects.get(round__championship=c, round__number=2, table__number=1)
    assert doc.cards[0].lines[1] == ("2", str(first.ns_pair.number), str(first.ew_pair.number))
    pages = []
    pdf = render_guide_cards(doc, on_page=lambda done, total: pages.append(done))
    assert pdf.startswith(b"%PDF") and pages == [1]
    assert "Taula 2" in text_of(pdf)


def test_pair_cards_give_table_and_direction_each_round_and_the_bye():
    c = build_championship(pairs=5, rounds=2, boards_per_round=1, drawn_rounds=2)
    doc = build_guide_cards(c, by="pair")
    assert len(doc.cards) == 5
    bye = Bye.objects.get(round__championship=c, round__number=1).pair.number
    card = next(card for card in doc.cards if card.title == f"Parella {bye}")
    assert card.lines[0] == ("1", "—", "descansa")
    seated = Seating.objects.get(round__championship=c, round__number=1, table__number=1)
    ns_card = next(card for card in doc.cards if card.title == f"Parella {seated.ns_pair.number}")
    assert ns_card.lines[0] == ("1", "1", "NS")
    assert "descansa" in text_of(render_guide_cards(doc))


def test_guide_cards_of_an_undrawn_championship_say_so():
    c = build_championship(pairs=4, drawn_rounds=0)
    doc = build_guide_cards(c, by="pair")
    assert doc.cards == ()
    assert "sortejada" in text_of(render_guide_cards(doc))
    with pytest.raises(ValueError):
        build_guide_cards(c, by="board")
