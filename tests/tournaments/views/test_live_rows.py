"""The live fragments' long rows, written as HTML in Python (tournaments/web/live_rows.py), are
character for character the markup the template loops wrote (live_rows_reference/), in
every language of the site: withdrawn pairs, boards counted as averages, names to escape,
every double, infractions, adjusted scores, delegation, results without points, and the
double-dummy marks."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.conf import settings
from django.utils import translation

from engine import Seat, Side
from scoring import ResultScore
from tests.tournaments.views.live_rows_reference import render
from tournaments.models import Championship
from tournaments.selectors import DoubleDummy, DoubleDummyLine, ResultValues
from tournaments.selectors.boards import Traveller, TravellerRow
from tournaments.selectors.standings import PairName, StandingRow
from tournaments.web.live_rows import standings_rows, traveller_rows

LANGUAGES = [code for code, _name in settings.LANGUAGES]

PAIRS = {
    1: PairName(1, "Anna <Roca>", "Pere & Fills", None),
    2: PairName(2, 'Joan "el Ros"', "Maria O'Neill", 2),
    3: PairName(3, "Núria Ibáñez", "Àlex Çelebi", None),
    4: PairName(4, "Jordi Puig", "Laia Vidal", 1),
    5: PairName(5, "Pau Mas", "Eva Soler", None),
}


def _row(rank: int | None, pair: int, boards: int, missed: int, withdrawn: bool,
         total: str, average: str, percent: str, *, has_score: bool = True,
         bye: bool = False, joins: int | None = None) -> StandingRow:
    # Only the texts and marks are written; the exact numbers are the texts' stand-ins.
    return StandingRow(rank, PAIRS[pair], boards, missed, withdrawn, Fraction(0), Fraction(0),
                       0.0, 0, 0.0, total, average, percent, has_score, bye, joins)


def _standings() -> list[StandingRow]:
    return [
        _row(1, 1, 8, 0, False, "12,5", "1,56", "62,5"),
        _row(2, 3, 6, 2, False, "9", "1,13", "56,3", bye=True),
        # No place: no score in the scope, or withdrawn ("—").
        _row(None, 5, 0, 0, False, "—", "—", "—", has_score=False, joins=3),
        _row(None, 2, 4, 4, True, "-3", "-0,38", "40"),
        _row(None, 4, 2, 6, True, "<0>", "0", "0", bye=True),
    ]


def _result(table: int, ns: int, ew: int, **values: object) -> ResultValues:
    fields: dict[str, object] = {
        "trump": "O", "ns_points_taken": 40, "delegated": False, "contro": False,
        "recontro": False, "sant_vicenc": False, "infraction": None,
        "adjusted_ns": None, "adjusted_ew": None,
    } | values
    return ResultValues(id=table, version=1, round=1, table=table, board=1, board_id=1,
                        board_round=1, ns_pair=ns, ew_pair=ew, **fields)  # type: ignore[arg-type]


def _text(value: Fraction) -> str:
    return f"{float(value):.2f}".replace(".", ",")


def _traveller(double_dummy: DoubleDummy | None) -> Traveller:
    lines = [
        (_result(1, 1, 2, delegated=True, contro=True),
         ResultScore(8, -8, Fraction(7, 2), Fraction(1, 2))),
        (_result(2, 3, 4, trump="botifarra", ns_points_taken=0, contro=True, recontro=True),
         ResultScore(-40, 40, Fraction(0), Fraction(4))),
        (_result(3, 2, 3, trump="E", ns_points_taken=72, contro=True, recontro=True,
                 sant_vicenc=True, delegated=True),
         ResultScore(96, -96, Fraction(4), Fraction(0))),
        (_result(4, 4, 1, trump="C", infraction="EW"),
         ResultScore(None, None, Fraction(13, 4), Fraction(3, 4))),
        (_result(5, 1, 3, trump=None, ns_points_taken=None, adjusted_ns="average_plus",
                 adjusted_ew="average_minus"),
         ResultScore(None, None, Fraction(12, 5), Fraction(8, 5))),
        (_result(6, 3, 1, trump="B", ns_points_taken=36, infraction="NS"),
         ResultScore(0, 0, Fraction(2), Fraction(2))),
    ]
    return Traveller(
        board=1, round=1, dealer=Seat.N, leader=Seat.E, public=True, deal=None, hands=None,
        rows=tuple(
            TravellerRow(1, r.table, PAIRS[r.ns_pair], PAIRS[r.ew_pair], r, score, 0, 0,
                         _text(score.ns_comparative), _text(score.ew_comparative),
                         None if double_dummy is None else double_dummy.difference(r))
            for r, score in lines),
        previous=None, next=2, double_dummy=double_dummy,
    )


DOUBLE_DUMMY = DoubleDummy(
    lines=(DoubleDummyLine("O", 44, False), DoubleDummyLine("C", 30, False),
           DoubleDummyLine("E", 72, True), DoubleDummyLine("B", 36, False),
           DoubleDummyLine("botifarra", 10, False)),
    declarer=Side.NS, par_score=96,
)


@pytest.mark.parametrize("by_average", [False, True], ids=["by-total", "by-average"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_rows_are_the_templates(language: str, by_average: bool) -> None:
    championship = Championship(slug="lliga-2026")
    rows = _standings()
    with translation.override(language):
        expected = render("standings_rows.html", championship=championship,
                          standings={"rows": rows, "by_average": by_average})
        written = standings_rows(championship.slug, rows, by_average=by_average)
    assert str(written) == expected
    if language == "ca":  # the withdrawal, bye and late-entry badges are there
        assert expected.count("ret.") == 2
        assert expected.count("descans") == 1  # a withdrawn pair's bye is not marked
        assert "entra a la ronda 3" in expected
    # The rows with no place show "—" where the others show their place.
    places = re.findall(r'data-names="[^"]*"><td class="num">([^<]*)</td>', expected)
    assert places == ["1", "2", "—", "—", "—"]
    # The number the rows rank by comes first: the average, else the total.
    first = "<strong>1,56</strong>" if by_average else "<strong>12,5</strong>"
    assert first in expected


@pytest.mark.parametrize("double_dummy", [DOUBLE_DUMMY, None], ids=["dd", "no-dd"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_traveller_rows_are_the_templates(language: str,
                                              double_dummy: DoubleDummy | None) -> None:
    championship = Championship(slug="lliga-2026")
    traveller = _traveller(double_dummy)
    with translation.override(language):
        expected = render("traveller_rows.html", championship=championship,
                          traveller=traveller)
        written = traveller_rows(championship.slug, traveller)
    assert str(written) == expected
    assert expected.count("<tr>") == 6


def test_every_language_of_the_site_is_compared() -> None:
    # A language added to the site must not go unchecked; the words differ by language.
    assert set(LANGUAGES) >= {"ca", "es", "en"}
    traveller = _traveller(DOUBLE_DUMMY)
    written = set()
    for language in LANGUAGES:
        with translation.override(language):
            written.add(str(traveller_rows("x", traveller)))
    assert len(written) == len(LANGUAGES)
