"""Every registered pair, marked alike everywhere: the pair with a bye ("descans"), a
withdrawn pair ("ret."), a late pair ("entra a la ronda N") on the standings page, in
the API (``status``, ``withdrawn``, ``bye``, ``joined_round``) and on the championship's
pair list; the page's number columns in the order the rows rank by."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import build_championship
from tests.tournaments.readers import html_tables
from tournaments import services
from tournaments.models import Championship, Pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def field() -> tuple[Championship, int, int]:
    """Five pairs, round 1 played (one bye), the first pair that played withdrawn after
    it, pair 6 registered late (it joins round 2). Returns the championship, the pair
    with the bye and the withdrawn pair."""
    championship = build_championship(pairs=5, rounds=3, drawn_rounds=1, played_rounds=1)
    rested = championship.rounds.get(number=1).byes.get().pair.number
    withdrawn = min(n for n in range(1, 6) if n != rested)
    services.pair_withdraw(pair=Pair.objects.get(championship=championship, number=withdrawn),
                           after_round=1, reason="malalt", acting_user=None)
    services.pair_register(championship=championship, number=6, player1="Pau Mas",
                           player2="Eva Soler", acting_user=None)
    return championship, rested, withdrawn


def test_the_standings_page_lists_and_marks_every_registered_pair(
    client: Client, field: tuple[Championship, int, int],
) -> None:
    championship, rested, withdrawn = field
    # The overall standings (after round 1, the last with results) mark the withdrawal;
    # the standings after round 1 do not: the pair was in play then.
    html = client.get(reverse("standings", args=[championship.slug])).content.decode()
    after_one = client.get(reverse("standings", args=[championship.slug]),
                           {"through": 1}).content.decode()
    assert "ret." not in {int(r.attrs["data-pair"]): r.cells
                          for r in html_tables(after_one)["standings"]}[withdrawn][1]
    rows = {int(r.attrs["data-pair"]): r.cells for r in html_tables(html)["standings"]}
    assert sorted(rows) == [1, 2, 3, 4, 5, 6]
    assert "descans" in rows[rested][1]
    assert "ret." in rows[withdrawn][1]
    assert "entra a la ronda 2" in rows[6][1]
    # A bye and a late entry: ranked by average, which leads each row.
    assert html.index('data-col="average"') < html.index('data-col="total"')
    assert rows[rested][2:] == ["—", "—", "—"] and rows[6][2:] == ["—", "—", "—"]
    assert list(rows)[-1] == withdrawn  # listed after every pair in play
    # No place for a row with no score or a withdrawn pair; the others 1..k.
    places = {pair: cells[0] for pair, cells in rows.items()}
    assert places[rested] == places[6] == places[withdrawn] == "—"
    in_play = sorted(places[p] for p in places if p not in (rested, 6, withdrawn))
    assert len(in_play) == 3 and in_play[0] == "1" and "—" not in in_play


def test_the_api_names_each_rows_mark(client: Client, field: tuple[Championship, int, int],
                                      ) -> None:
    championship, rested, withdrawn = field
    data = client.get(reverse("api_standings", args=[championship.slug])).json()
    assert data["ranked_by"] == "average"
    by_pair = {r["pair"]: r for r in data["standings"]}
    assert {p: r["status"] for p, r in by_pair.items() if r["status"] != "playing"} == {
        rested: "bye", withdrawn: "withdrawn", 6: "late"}
    assert [p for p, r in by_pair.items() if r["withdrawn"]] == [withdrawn]
    assert [p for p, r in by_pair.items() if r["bye"]] == [rested]
    assert by_pair[6]["joined_round"] == 2 and by_pair[rested]["joined_round"] is None
    assert (by_pair[6]["total"], by_pair[6]["average"], by_pair[6]["percentage"]) == (
        None, None, None)
    assert by_pair[6]["rank"] is by_pair[rested]["rank"] is by_pair[withdrawn]["rank"] is None
    in_play = sorted(r["rank"] for r in data["standings"] if r["rank"] is not None)
    assert len(in_play) == 3 and in_play[0] == 1
    # The keys clients already read are all there, numbers where there is a score.
    assert isinstance(by_pair[withdrawn]["total"], int | float)


def test_the_championships_pair_list_marks_the_withdrawn_and_the_late_pair(
    client: Client, field: tuple[Championship, int, int],
) -> None:
    championship, _rested, withdrawn = field
    html = client.get(reverse("championship", args=[championship.slug])).content.decode()
    tiles = html[html.index('<ul class="tiles">'):]
    tiles = tiles[:tiles.index("</ul>")]
    items = {int(item.split("<strong>")[1].split("</strong>")[0]): item
             for item in tiles.split("<li>")[1:]}
    assert "ret." in items[withdrawn] and "retirada després de la ronda 1" in items[withdrawn]
    assert "entra a la ronda 2" in items[6]
    assert not any("ret." in item or "entra a la ronda" in item
                   for n, item in items.items() if n not in (withdrawn, 6))
