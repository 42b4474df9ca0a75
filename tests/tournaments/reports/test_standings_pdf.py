"""The printed standings read the way they rank: the number the rows rank by first, the
same decimals down each column, and each row's mark (withdrawn, bye, late entry) next
to the players, for a document built by hand (the build's own texts are checked
against the page in tests/tournaments/test_read_model_parity.py)."""

from __future__ import annotations

import dataclasses

from tests.tournaments.readers import pdf_rows
from tests.tournaments.reports.samples import HEADER
from tournaments.reports.documents import StandingRow, Standings, StandingsTable
from tournaments.reports.render import render


def _document(*, by_average: bool, language: str = "ca") -> Standings:
    rows = (
        StandingRow(rank=1, pair=4, players="Anna Puig – Pere Font", total=12.2, boards=4,
                    average=3.05, percentage=62.5),
        StandingRow(rank=2, pair=1, players="Jordi Vila – Marta Serra", total=17.9506,
                    boards=6, average=2.9918, percentage=60.1, status="bye"),
        StandingRow(rank=3, pair=2, players="Joan Pujol – Josep Roca", total=16.75, boards=6,
                    average=2.7917, percentage=55.0),
        StandingRow(rank=4, pair=5, players="Núria Casals – Laia Vidal", total=None,
                    boards=0, average=None, percentage=None, status="late", joins=3),
        StandingRow(rank=5, pair=3, players="Eva Soler – Pau Mas", total=3, boards=2,
                    average=1.5, percentage=25.0, status="withdrawn"),
    )
    return Standings(
        header=dataclasses.replace(HEADER, language=language),
        tables=(StandingsTable(title="", through_round=1, rows=rows, by_average=by_average),),
        progress="10/10",
    )


def _lines(data: bytes) -> list[list[str]]:
    """The header's line with the number columns, then the table's rows (those starting
    with a rank and a pair number)."""
    page = pdf_rows(data)[0]
    return [cells for cells in page if "Jugadors" in cells
            or (len(cells) >= 6 and cells[0].isdigit() and cells[1].isdigit())]


def test_a_hand_built_document_prints_the_same_decimals_down_each_column() -> None:
    header, *rows = _lines(render(_document(by_average=False)))
    assert header[-4:] == ["Total", "Taulers", "Mitjana", "%"]
    totals = [cells[-4] for cells in rows]
    averages = [cells[-2] for cells in rows]
    # Never 16,75 next to 17,9506: two decimals down the column, half up.
    assert totals == ["12,20", "17,95", "16,75", "—", "3,00"]
    assert averages == ["3,05", "2,99", "2,79", "—", "1,50"]
    assert [cells[-1] for cells in rows] == ["62,5", "60,1", "55,0", "—", "25,0"]


def test_ranked_by_average_the_average_is_the_first_number() -> None:
    header, *rows = _lines(render(_document(by_average=True)))
    assert header[-4:] == ["Mitjana", "Total", "Taulers", "%"]
    assert [cells[-4] for cells in rows] == ["3,05", "2,99", "2,79", "—", "1,50"]
    assert [cells[-3] for cells in rows] == ["12,20", "17,95", "16,75", "—", "3,00"]


def test_each_row_is_marked_in_the_documents_language() -> None:
    for language, bye, late, retired in (("ca", "descans", "entra a la ronda 3", "ret."),
                                         ("en", "bye", "joins in round 3", "wd.")):
        text = " ".join(" ".join(cells) for cells in pdf_rows(
            render(_document(by_average=False, language=language)))[0])
        assert f"Jordi Vila – Marta Serra ({bye})" in text, language
        assert f"({late})" in text, language
        assert f"({retired})" in text, language
        assert text.count("(") == 3, text
