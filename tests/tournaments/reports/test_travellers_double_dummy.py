"""The printed travellers: the double-dummy table under each deal that has one, never on
a board still hidden (read back with pypdf)."""

from __future__ import annotations

import pytest

from tests.tournaments.dd_helpers import STORED_TABLE, analysed, fake_solver  # noqa: F401
from tests.tournaments.reports.pdfcheck import page_texts, save_png, text_outside_page, words
from tournaments.models import Result
from tournaments.reports import build
from tournaments.reports.documents import DoubleDummyTable, Kind
from tournaments.reports.render import render

pytestmark = pytest.mark.django_db


def test_the_table_is_printed_under_the_deal_of_each_analysed_board(
    analysed  # noqa: F811
) -> None:
    document = build.build(analysed, Kind.TRAVELLERS, language="ca")
    assert [t.board for t in document.travellers] == [1, 2]  # 3 and 4 are hidden
    first, second = document.travellers
    assert first.double_dummy == DoubleDummyTable(
        lines=(("O", 30, False), ("C", 41, False), ("E", 52, True), ("B", 20, False),
               ("botifarra", 36, False)),
        declarer="NS", par_score=16,
    )
    assert second.double_dummy is None  # never analysed
    data = render(document)
    texts = page_texts(data)
    one = " ".join(words(texts[0]))
    assert "Anàlisi a cartes vistes" in one
    assert "Oros Copes Espases Bastos Botifarra" in one
    assert "NS 30 41 52 20 36" in one and "EO 42 31 20 52 36" in one
    assert "Par: Espases (NS 52, EO 20), +16 per a NS sense contro." in one
    # Under the deal: the last card of South's hand comes before the table.
    assert one.index("Anàlisi a cartes vistes") < one.index("Taula")
    # Each played row marked in NS's points against the table; incidents unmarked.
    marks = {row.table: row.dd_difference for row in first.rows}
    expected = {}
    for result in Result.objects.filter(board__championship=analysed, board__number=1):
        if result.seating.table.number > 2:
            expected[result.seating.table.number] = (
                result.ns_points_taken - STORED_TABLE[result.trump])
    assert marks == {1: None, 2: None, **expected}
    for table, difference in expected.items():
        mark = f"+{difference}" if difference > 0 else (
            f"\u2212{-difference}" if difference < 0 else "=")
        assert f" {mark} " in one, (table, mark)
    assert "Cartes vistes" in one and "+/−: punts que NS han fet de més o de menys" in one
    two = " ".join(words(texts[1]))
    assert "Tauler 2" in two and "cartes vistes" not in two
    assert text_outside_page(data) == []
    save_png(data, "db-travellers-double-dummy")


def test_a_hidden_boards_table_is_never_printed_in_any_language(
    analysed  # noqa: F811
) -> None:
    for language, title in (("ca", "cartes vistes"), ("es", "Par:"), ("en", "Par:")):
        document = build.build(analysed, Kind.TRAVELLERS, round_number=2, language=language)
        assert document.travellers == ()
        text = " ".join(words(" ".join(page_texts(render(document)))))
        # The table's own rows (not a bare "52", which the footer's time may print).
        assert title not in text
        assert "30 41 52 20 36" not in text and "42 31 20 52 36" not in text


def test_the_table_prints_in_the_documents_language(analysed) -> None:  # noqa: F811
    document = build.build(analysed, Kind.TRAVELLERS, round_number=1, language="en")
    text = " ".join(words(page_texts(render(document))[0]))
    assert "NS 30 41 52 20 36" in text and "EW 42 31 20 52 36" in text
