"""Public pages: standings with progress, travellers (hidden until every table played the
board), score cards, the championship page with its deal commitment."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import fresh_get, record
from tournaments import services

pytestmark = pytest.mark.django_db


def test_home_lists_the_championships(client, web: Small) -> None:
    page = fresh_get(client, reverse("home")).content.decode()
    assert web.championship.name in page
    assert reverse("championship", args=[web.championship.slug]) in page


def test_championship_page_shows_the_deal_commitment_once_boards_exist(client, web: Small):
    commitment = web.championship.deal_commitment
    assert len(commitment) == 64
    page = fresh_get(client, reverse("championship", args=[web.championship.slug])).content.decode()
    assert commitment in page
    assert web.championship.deal_secret not in page


def test_deal_secret_shows_only_after_it_is_published(client, web: Small) -> None:
    services.championship_finish(championship=web.championship, acting_user=None)
    url = reverse("championship", args=[web.championship.slug])
    assert web.championship.deal_secret not in fresh_get(client, url).content.decode()
    services.deal_secret_publish(championship=web.championship, acting_user=None)
    assert web.championship.deal_secret in fresh_get(client, url).content.decode()


def test_standings_show_progress_results_in_over_expected(client, web: Small) -> None:
    record(web.seatings[0], web.boards[0], 44)
    page = fresh_get(client, reverse("standings", args=[web.championship.slug])).content.decode()
    # Round 1 only is drawn: 2 tables x 2 boards expected, 1 in.
    assert "Resultats: 1 de 4" in page


def test_standings_change_when_a_result_is_saved(client, web: Small) -> None:
    url = reverse("standings", args=[web.championship.slug])
    record(web.seatings[0], web.boards[0], 50)
    record(web.seatings[1], web.boards[0], 30)
    first = fresh_get(client, url).context["standings"]
    assert [row.rank for row in first.rows] == [1, 1, 3, 3]
    record(web.seatings[1], web.boards[1], 60)
    hidden = fresh_get(client, url).context["standings"]  # board 2 hidden: table 1 to play it
    assert hidden.progress.results_in == 3
    assert [(r.number, r.total) for r in hidden.rows] == [(r.number, r.total) for r in first.rows]
    record(web.seatings[0], web.boards[1], 20)
    second = fresh_get(client, url).context["standings"]
    assert second.progress.results_in == 4
    assert [(r.number, r.total) for r in second.rows] != [(r.number, r.total) for r in first.rows]


def test_standings_of_one_round_only(client, web: Small) -> None:
    record(web.seatings[0], web.boards[0], 50)
    response = fresh_get(client, reverse("standings", args=[web.championship.slug]), {"round": 1})
    assert response.context["standings"].round_only == 1
    assert "ronda 1" in response.content.decode()


def test_a_hidden_board_shows_neither_deal_nor_results_to_the_public(client, web: Small):
    board = web.boards[0]
    record(web.seatings[0], board, 44)  # table 2 has not played it yet
    response = fresh_get(client, reverse("traveller", args=[web.championship.slug, board.number]))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="hidden-board"' in page
    assert 'id="traveller"' not in page
    assert response.context["traveller"].deal is None
    assert response.context["traveller"].rows == ()
    assert 'class="deal"' not in page


def test_a_board_becomes_public_when_every_table_has_a_result(client, web: Small) -> None:
    board = web.boards[0]
    record(web.seatings[0], board, 44)
    record(web.seatings[1], board, 30)
    response = fresh_get(client, reverse("traveller", args=[web.championship.slug, board.number]))
    page = response.content.decode()
    assert 'id="traveller"' in page
    sheet = response.context["traveller"]
    assert sheet.deal is not None and len(sheet.rows) == 2
    # NS 44 vs NS 30 with oros, undoubled: hand scores +8 and -6.
    assert [row.score.ns_score for row in sheet.rows] == [8, -6]
    assert "+8" in page and "-6" in page


def test_a_plain_referee_sees_a_hidden_board_as_the_public_does(client, web: Small) -> None:
    board = web.boards[0]
    record(web.seatings[0], board, 44)
    client.force_login(web.referee)
    response = fresh_get(client, reverse("traveller", args=[web.championship.slug, board.number]))
    assert response.context["traveller"].deal is None
    assert response.context["traveller"].rows == ()


@pytest.mark.parametrize("role", ["organiser", "head_referee"])
def test_the_organiser_and_the_head_referee_see_a_hidden_board(client, web: Small, role):
    from tests.factories import UserFactory

    user = UserFactory(username=f"veu-{role}")
    user.save()
    services.membership_grant(championship=web.championship, user=user, role=role,
                              acting_user=None)
    board = web.boards[0]
    record(web.seatings[0], board, 44)
    client.force_login(user)
    response = fresh_get(client, reverse("traveller", args=[web.championship.slug, board.number]))
    assert response.context["traveller"].deal is not None
    assert len(response.context["traveller"].rows) == 1
    # The standings, projected in the room, leave the hidden board out even for them.
    standings = fresh_get(client, reverse("standings", args=[web.championship.slug]))
    assert standings.context["standings"].rows == ()
    assert standings.context["standings"].progress.results_in == 1


def test_public_standings_leave_out_a_hidden_board(client, web: Small) -> None:
    url = reverse("standings", args=[web.championship.slug])
    record(web.seatings[0], web.boards[0], 44)  # hidden: table 2 has not played it
    view = fresh_get(client, url).context["standings"]
    assert view.rows == () and view.progress.results_in == 1
    client.force_login(web.referee)
    assert fresh_get(client, url).context["standings"].rows == ()


def test_pair_card_leaves_out_boards_still_hidden(client, web: Small) -> None:
    seating = web.seatings[0]
    record(seating, web.boards[0], 44)
    record(web.seatings[1], web.boards[0], 30)
    record(seating, web.boards[1], 20)  # board 2 still hidden: table 2 has not played it
    number = seating.ns_pair.number
    response = fresh_get(client, reverse("pair_card", args=[web.championship.slug, number]))
    rows = response.context["card"].rows
    assert [row.board for row in rows] == [web.boards[0].number]
    assert response.context["card"].boards == 1  # nor does the total count it


def test_unknown_board_or_pair_is_404(client, web: Small) -> None:
    slug = web.championship.slug
    assert fresh_get(client, reverse("traveller", args=[slug, 999])).status_code == 404
    assert fresh_get(client, reverse("pair_card", args=[slug, 999])).status_code == 404
    assert fresh_get(client, reverse("standings", args=["no-such"])).status_code == 404


def test_language_switcher_changes_the_page_language(client, web: Small) -> None:
    url = reverse("standings", args=[web.championship.slug])
    client.post(reverse("set_language"), {"language": "en", "next": url})
    page = fresh_get(client, url).content.decode()
    assert "Standings" in page
    client.post(reverse("set_language"), {"language": "es", "next": url})
    assert "Clasificación" in fresh_get(client, url).content.decode()


def test_standings_after_a_round_count_only_rounds_up_to_it(client) -> None:
    from tests.factories import build_championship

    championship = build_championship(
        pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2, played_rounds=2
    )
    url = reverse("standings", args=[championship.slug])
    after_one = fresh_get(client, url, {"through": 1})
    overall = fresh_get(client, url)
    assert after_one.context["standings"].through_round == 1
    assert after_one.context["standings"].progress.results_in == 4
    assert overall.context["standings"].progress.results_in == 8
    assert {row.boards for row in after_one.context["standings"].rows} == {2}
    assert "through=1" in overall.content.decode()  # the round selector offers it


@pytest.mark.parametrize("query", [{"round": "²"}, {"through": "²"}, {"round": "abc"},
                                   {"round": "-1"}, {"through": "1.5"}, {"round": "٣"}])
def test_a_malformed_round_in_the_standings_is_ignored(client, web: Small, query) -> None:
    response = fresh_get(client, reverse("standings", args=[web.championship.slug]), query)
    assert response.status_code == 200
    assert (response.context["round_only"], response.context["through"]) == (None, None)


@pytest.mark.parametrize("query", [{"round": "9"}, {"through": "9"}, {"round": "0"}])
def test_a_round_the_championship_lacks_is_404_in_the_standings(client, web: Small, query):
    response = fresh_get(client, reverse("standings", args=[web.championship.slug]), query)
    assert response.status_code == 404


def test_a_round_not_yet_drawn_has_empty_standings_not_404(client, web: Small) -> None:
    response = fresh_get(client, reverse("standings", args=[web.championship.slug]), {"round": "2"})
    assert response.status_code == 200
    assert response.context["round_only"] == 2
    assert response.context["standings"].rows == ()
