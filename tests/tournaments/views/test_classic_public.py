"""The public pages of a classic championship: the standings (games won with halves, the
order, the marks, "—" places, the ranking order in words, after a round), their ETag and
304, the pair card's lines and chart, the round page, the hall screen, no travellers,
and the standings' queries that do not grow with the pairs."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import pytest
from django.urls import reverse

from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import Championship, Pair, Seating

pytestmark = pytest.mark.django_db


def _tables(classic: Classic, number: int) -> list[Seating]:
    return list(Seating.objects.filter(round=classic.rounds[number - 1])
                .select_related("table", "ns_pair", "ew_pair", "round__championship")
                .order_by("table__number"))


def _game(classic: Classic, seating: Seating, ns: int, ew: int, *, deals: int = 9,
          ended_by: str = "target") -> None:
    services.game_record(seating=seating, ns_points=ns, ew_points=ew, deals=deals,
                         ended_by=ended_by, hands=None, note="", expected_version=None,
                         acting_user=classic.organiser)


@dataclass
class Played:
    """Round 1 played: table 1 NS won 150 to 64 (counts 121), table 2 level 80 to 80
    after 12 deals (half each), ``bye`` sat out; ``loser`` then withdrew; pair 6 came
    late (joins round 2)."""

    classic: Classic
    winner: int
    loser: int
    level: tuple[int, int]
    bye: int

    @property
    def slug(self) -> str:
        return self.classic.championship.slug


def _play_round_1(classic: Classic) -> Played:
    services.round_draw(round=classic.rounds[0], seed=1, acting_user=classic.organiser)
    first, second = _tables(classic, 1)
    _game(classic, first, 150, 64)
    _game(classic, second, 80, 80, deals=12, ended_by="deals")
    seated = {first.ns_pair.number, first.ew_pair.number, second.ns_pair.number,
              second.ew_pair.number}
    (bye,) = {1, 2, 3, 4, 5} - seated
    return Played(classic, first.ns_pair.number, first.ew_pair.number,
                  (second.ns_pair.number, second.ew_pair.number), bye)


@pytest.fixture
def played(db: None) -> Played:
    classic = make_classic()
    played = _play_round_1(classic)
    c = classic.championship
    services.pair_withdraw(pair=Pair.objects.get(championship=c, number=played.loser),
                           after_round=1, reason="Malaltia", acting_user=classic.organiser)
    services.pair_register(championship=c, number=6, player1="Tardà Sis",
                           player2="Tardana Sis", acting_user=classic.organiser)
    return played


def _rows(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-pair="(\d+)"', html)]


def _row(html: str, pair: int) -> str:
    match = re.search(rf'<tr data-pair="{pair}".*?</tr>', html, re.S)
    assert match is not None
    return match.group(0)


def _cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r'<td class="num">(.*?)</td>', row, re.S)]


# --------------------------------------------------------------------------- standings


def test_the_standings_show_games_won_with_halves_in_the_ranking_order(client, played):
    response = client.get(reverse("standings", args=[played.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    a, b = sorted(played.level)
    # Won (1, +57 counted) before the bye (1, 0 to 0), then the level pair (½ each),
    # then the rows with no place: the late pair, the withdrawn one.
    assert _rows(html) == [played.winner, played.bye, a, b, 6, played.loser]
    # place, wins, played, for, against, difference
    assert _cells(_row(html, played.winner)) == ["1", "1", "1", "121", "64", "+57"]
    assert _cells(_row(html, played.bye)) == ["2", "1", "0", "0", "0", "0"]
    assert _cells(_row(html, a)) == ["3", "½", "1", "80", "80", "0"]
    assert _cells(_row(html, b))[0] == "3"
    assert _cells(_row(html, 6)) == ["—", "—", "0", "—", "—", "—"]
    assert _cells(_row(html, played.loser)) == ["—", "0", "1", "64", "121", "−57"]
    assert "descans" in _row(html, played.bye)
    assert "ret." in _row(html, played.loser)
    assert "entra a la ronda 2" in _row(html, 6)
    assert "Partides: 2 de 2" in html
    assert ("Ordenat per partides guanyades, després diferència, després punts a favor; "
            "una partida empatada val mitja victòria; el descans compta com una victòria "
            "0 a 0; com a màxim 121 punts per partida.") in html
    assert 'data-col="buchholz"' not in html and "/boards/" not in html
    assert f'href="{reverse("round_games", args=[played.slug, 1])}"' in html


def test_the_tiebreaks_in_use_get_their_columns_and_words(client) -> None:
    classic = make_classic(tiebreaks=["wins", "buchholz", "head_to_head"], score_cap=None,
                           level_game="not_broken")
    _play_round_1(classic)
    html = client.get(reverse("standings", args=[classic.championship.slug])).content.decode()
    assert html.index('data-col="buchholz"') < html.index('data-col="head_to_head"')
    assert ("Ordenat per partides guanyades, després Buchholz (suma de les partides "
            "guanyades pels rivals), després enfrontaments directes entre les parelles "
            "empatades; una partida empatada no dona cap victòria;") in html
    assert "com a màxim" not in html
    rows = re.findall(r'<tr data-pair="\d+".*?</tr>', html, re.S)
    assert all(len(_cells(r)) == 8 for r in rows)  # place, 5 numbers, 2 tiebreaks


def test_after_a_round_and_a_round_alone(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    first = _tables(c, 2)[0]
    _game(c, first, 101, 30)
    url = reverse("standings", args=[played.slug])
    overall = client.get(url).content.decode()
    assert "Partides: 3 de 4" in overall
    after = client.get(url, {"through": 1}).content.decode()
    assert "Partides: 2 de 2" in after and "després de la ronda 1" in after
    assert _cells(_row(after, played.winner))[:2] == ["1", "1"]
    # A round alone is its games: the round's page.
    alone = client.get(url, {"round": 2})
    assert alone.status_code == 302
    assert alone["Location"] == reverse("round_games", args=[played.slug, 2])
    assert client.get(url, {"through": 9}).status_code == 404
    found = client.get(url, {"find": "tarda"}).content.decode()
    assert f'href="{reverse("pair_card", args=[played.slug, 6])}"' in found.split(
        'id="found"')[1]


def test_the_standings_answer_a_conditional_get_with_304(client, played) -> None:
    url = reverse("standings", args=[played.slug])
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    live = reverse("live_standings", args=[played.slug])
    version = Championship.objects.get(pk=played.classic.championship.pk).results_version
    assert client.get(live, {"v": version}).status_code == 204
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    polled = client.get(live, {"v": version})
    assert polled.status_code == 200 and 'id="standings"' in polled.content.decode()


@pytest.mark.parametrize("pairs", [10, 200])
def test_the_public_pages_queries_do_not_grow_with_the_pairs(
    client, django_assert_num_queries, pairs: int
) -> None:
    championship = services.championship_create(
        name=f"Clàssic {pairs}", date=datetime.date(2026, 12, 5), format="classic",
        acting_user=None)
    services.pairs_import_csv(championship=championship, acting_user=None, text="\n".join(
        f"{n};Jugador {n}A;Jugador {n}B" for n in range(1, pairs + 1)))
    (first, _second) = services.rounds_setup(championship=championship, rounds=2,
                                             boards_per_round=0, acting_user=None)
    services.round_draw(round=first, seed=1, acting_user=None)
    seatings = Seating.objects.filter(round=first).select_related(
        "table", "ns_pair", "ew_pair", "round__championship").order_by("table__number")
    for k, seating in enumerate(seatings[:20]):  # some games in: their count costs nothing
        services.game_record(seating=seating, ns_points=101, ew_points=40 + k,
                             deals=9, ended_by="target", expected_version=None,
                             acting_user=None)
    url = reverse("standings", args=[championship.slug])
    # The row; the games, byes, tables, pairs; the pair names; the stages (the
    # navigation's "Grups" and "Quadre"); whether a knockout has started (the note
    # above the standings).
    with django_assert_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200
    assert len(_rows(response.content.decode())) == pairs
    with django_assert_num_queries(1):  # rendered for this version: the row only
        assert client.get(url).status_code == 200
    # After the championship's row, the pair card: the names, the standings' games (4)
    # and names, the card's games (4), names and seats (2), the pair's seats and byes;
    # the round: the round, its tables with their games, its byes, the names, the
    # rounds around it; the hall: the standings and its current round. Each page but
    # the hall reads the stages for its navigation; the card its place in the stages,
    # the hall whether a knockout has started.
    for name, args, queries in (("pair_card", [7], 17), ("round_games", [1], 7),
                                ("hall", [], 11)):
        with django_assert_num_queries(queries):
            assert client.get(reverse(name, args=[championship.slug, *args])).status_code == 200


# --------------------------------------------------------------------------- pair card


def test_the_pair_card_lists_each_round(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    html = client.get(reverse("pair_card", args=[played.slug, played.winner])).content.decode()
    line = re.search(r'<tr data-round="1".*?</tr>', html, re.S)
    assert line is not None
    text = re.sub(r"<[^>]+>", " ", line.group(0))
    assert "150 – 64" in text and "(121 – 64)" in text and "guanyada" in text
    assert str(played.loser) in text
    second = re.search(r'<tr data-round="2".*?</tr>', html, re.S)
    assert second is not None and "en joc" in second.group(0)
    assert "/boards/" not in html
    bye = client.get(reverse("pair_card", args=[played.slug, played.bye])).content.decode()
    assert 'class="result-bye"' in bye and "descans" in bye
    level = client.get(reverse("pair_card", args=[played.slug, played.level[0]]))
    assert "empatada" in level.content.decode() and "½" in level.content.decode()
    assert client.get(reverse("pair_card", args=[played.slug, 99])).status_code == 404


def test_the_pair_card_charts_the_rank_after_each_round(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    for seating in _tables(c, 2):
        _game(c, seating, 101, 50)
    html = client.get(reverse("pair_card", args=[played.slug, played.winner])).content.decode()
    assert 'id="rank-chart"' in html and "Posició després de cada ronda: R1 1, R2" in html
    assert "perduda" in html or "guanyada" in html.split('data-round="2"')[1]


def test_the_rank_chart_leaves_out_a_round_still_being_played(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    first, *rest = _tables(c, 2)
    in_play = next(s for s in [first, *rest]
                   if played.winner in (s.ns_pair.number, s.ew_pair.number))
    for seating in [first, *rest]:
        if seating != in_play:
            _game(c, seating, 101, 50)
    response = client.get(reverse("pair_card", args=[played.slug, played.winner]))
    html = response.content.decode()
    assert "en joc" in html.split('data-round="2"')[1]
    assert [n for n, _rank in response.context["card"].ranks] == [1]
    assert 'id="rank-chart"' not in html  # one point is no chart
    _game(c, in_play, 101, 50)
    response = client.get(reverse("pair_card", args=[played.slug, played.winner]))
    assert [n for n, _rank in response.context["card"].ranks] == [1, 2]
    assert "Posició després de cada ronda: R1 1, R2" in response.content.decode()


# --------------------------------------------------------------------------- round


def test_the_round_page_shows_the_pairings_the_games_and_the_bye(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    first, second = _tables(c, 2)
    _game(c, first, 101, 77)
    response = client.get(reverse("round_games", args=[played.slug, 2]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Partides: 1 de 2 taules" in html and "101 – 77" in html and "en joc" in html
    assert 'id="byes"' in html
    for pair in (first.ns_pair.number, first.ew_pair.number, second.ns_pair.number):
        assert f'href="{reverse("pair_card", args=[played.slug, pair])}"' in html
    undrawn = client.get(reverse("round_games", args=[played.slug, 3])).content.decode()
    assert 'id="not-drawn"' in undrawn
    assert client.get(reverse("round_games", args=[played.slug, 4])).status_code == 404
    etag = response["ETag"]
    url = reverse("round_games", args=[played.slug, 2])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    live = client.get(reverse("live_round_games", args=[played.slug, 2]))
    assert live.status_code == 200 and 'id="round-games"' in live.content.decode()


def test_a_duplicate_championship_has_no_round_games_page(client, web) -> None:
    url = reverse("round_games", args=[web.championship.slug, 1])
    assert client.get(url).status_code == 404


# --------------------------------------------------------------------------- hall


def test_the_hall_shows_the_standings_and_the_games_still_played(client, played) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    first, second = _tables(c, 2)
    _game(c, first, 101, 77)
    page = client.get(reverse("hall", args=[played.slug])).content.decode()
    assert 'class="hall"' in page and 'id="standings"' in page
    assert "Ronda 2" in page and "1 de 2 partides" in page
    playing = re.search(r'id="hall-playing".*?</table>', page, re.S)
    assert playing is not None
    assert re.findall(r'data-table="(\d+)"', playing.group(0)) == [str(second.table.number)]
    assert "<form" not in page.split("<main>")[1]


# --------------------------------------------------------------------------- boards


def test_a_classic_championship_has_no_travellers(client, played) -> None:
    assert client.get(reverse("traveller", args=[played.slug, 1])).status_code == 404
    assert client.get(reverse("live_traveller", args=[played.slug, 1])).status_code == 404
    page = client.get(reverse("championship", args=[played.slug])).content.decode()
    assert "/boards/" not in page


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_classic_page_answers_in_each_language(client, played, language) -> None:
    c = played.classic
    services.round_draw(round=c.rounds[1], seed=2, acting_user=c.organiser)
    for name, args in (("standings", []), ("pair_card", [played.winner]),
                       ("round_games", [2]), ("hall", [])):
        response = client.get(reverse(name, args=[played.slug, *args]),
                              HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, name


def test_numbers_too_large_for_the_database_are_a_404(client, played) -> None:
    huge = 10 ** 20
    for name in ("round_games", "pair_card", "traveller", "live_round_games"):
        assert client.get(reverse(name, args=[played.slug, huge])).status_code == 404, name
