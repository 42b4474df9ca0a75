"""The traveller page shows the stored double-dummy table under the deal, and marks each
played result against it; nothing of it shows while the deal is hidden."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.dd_helpers import (  # noqa: F401
    ONE_SUIT_EACH,
    STORED_TABLE,
    analysed,
    fake_solver,
)
from tournaments import services
from tournaments.models import Board, Championship, Membership, Result

pytestmark = pytest.mark.django_db

MARK = re.compile(
    r'<span class="dd-mark dd-(above|below|equal)" title="[^"]*">'
    r'<span aria-hidden="true">([^<]*)</span>'
)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()  # fragments are cached per championship id and version


def page(client: Client, championship: Championship, number: int) -> str:
    response = client.get(reverse("traveller", args=[championship.slug, number]))
    assert response.status_code == 200
    return response.content.decode()


def table_cells(html: str) -> list[list[str]]:
    """The double-dummy table's body rows, cell texts (tags stripped)."""
    body = html.split('id="double-dummy"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>",
                                                                     row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_the_public_sees_the_table_under_the_deal_with_par_marked(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    html = page(client, analysed, 1)
    assert "Anàlisi a cartes vistes" in html
    assert html.index('class="compass"') < html.index('id="double-dummy"') < html.index(
        'id="traveller"')
    assert table_cells(html) == [
        ["NS", "30", "41", "52", "20", "36"],
        ["EO", "42", "31", "20", "52", "36"],
    ]
    # Board 1: dealer N, so NS name trump; espases (52) is par, +16 for NS.
    header = html.split('id="double-dummy"', 1)[1].split("</thead>", 1)[0]
    par_cells = re.findall(r'<th class="num dd-par"[^>]*>(.*?)</th>', header, re.S)
    assert len(par_cells) == 1 and "Espases" in par_cells[0] and "Par" in par_cells[0]
    assert "Par: " in html and "+16 per a NS sense contro" in html


def test_each_played_result_is_marked_against_its_declaration_and_incidents_are_not(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    html = page(client, analysed, 1)
    rows = html.split('id="traveller"', 1)[1].split("<tbody>", 1)[1].split("</tbody>")[0]
    by_table = dict(re.findall(r'<tr><td class="num">(\d+)</td>(.*?)</tr>', rows, re.S))
    assert sorted(by_table) == ["1", "2", "3", "4"]
    assert not MARK.search(by_table["1"])  # adjusted score
    assert not MARK.search(by_table["2"])  # infraction
    for table in ("3", "4"):
        result = Result.objects.get(board__championship=analysed, board__number=1,
                                    seating__table__number=int(table))
        difference = result.ns_points_taken - STORED_TABLE[result.trump]
        kind, text = MARK.search(by_table[table]).groups()
        if difference > 0:
            assert (kind, text) == ("above", f"+{difference}")
        elif difference < 0:
            assert (kind, text) == ("below", f"\u2212{-difference}")
        else:
            assert (kind, text) == ("equal", "=")


def test_the_marks_say_above_below_and_equal(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    """Tables 3 and 4 at board 1 made to score above and exactly the table."""
    at = Result.objects.filter(board__championship=analysed, board__number=1)
    at.filter(seating__table__number=3).update(trump="E", ns_points_taken=55)
    at.filter(seating__table__number=4).update(trump="botifarra", ns_points_taken=36)
    html = page(client, analysed, 1)
    assert MARK.findall(html) == [("above", "+3"), ("equal", "=")]
    at.filter(seating__table__number=4).update(trump="C", ns_points_taken=40)
    Championship.objects.filter(pk=analysed.pk).update(results_version=999)
    assert MARK.findall(page(client, analysed, 1)) == [("above", "+3"), ("below", "\u22121")]


def test_nothing_of_the_table_shows_on_a_hidden_board_to_the_public(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    assert Board.objects.get(championship=analysed, number=3).analysis is not None
    html = page(client, analysed, 3)
    assert 'id="hidden-board"' in html
    for text in ("double-dummy", "cartes vistes", "dd-mark"):
        assert text not in html
    # Nor the table's values in a cell of their own (a CSRF token or the time may hold
    # the same digits).
    assert re.search(r">\s*52\s*<", html) is None


def test_the_organiser_sees_the_table_of_a_hidden_board_with_its_deal(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    organiser = UserFactory(username="org-dd")
    services.membership_grant(championship=analysed, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(organiser)
    html = page(client, analysed, 3)
    assert 'class="compass"' in html and 'id="double-dummy"' in html
    assert re.search(r">\s*52\s*<", html)  # the value the public may not see


def test_a_board_without_a_table_or_with_a_stale_one_shows_none(
    client: Client, analysed: Championship  # noqa: F811
) -> None:
    html = page(client, analysed, 2)  # public, never analysed
    assert 'class="compass"' in html and "double-dummy" not in html and "dd-mark" not in html
    Board.objects.filter(championship=analysed, number=1).update(deal=ONE_SUIT_EACH.to_json())
    Championship.objects.filter(pk=analysed.pk).update(results_version=999)
    html = page(client, analysed, 1)
    assert 'class="compass"' in html and "double-dummy" not in html and "dd-mark" not in html
