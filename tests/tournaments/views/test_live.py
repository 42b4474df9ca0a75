"""Live pages: the results version, ETags and 304s, the polled fragments, the hall
screen, the prints' "out of date"; the referee form's hand score as typed, its unusual
results asked once, its conflict message shown once."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import build_championship
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import entry_url, form_data, fresh_get, record
from tournaments import selectors, services
from tournaments.models import Championship, PrintJob, Result
from tournaments.reports import services as jobs
from tournaments.selectors import live as live_reads

pytestmark = pytest.mark.django_db


def _version(championship: Championship) -> int:
    return Championship.objects.get(pk=championship.pk).results_version


# --------------------------------------------------------------------------- version


def test_every_accepted_change_bumps_the_results_version_once(web: Small) -> None:
    c = web.championship
    before = _version(c)
    result = record(web.seatings[0], web.boards[0], 40)
    assert _version(c) == before + 1
    services.result_record(seating=web.seatings[0], board=web.boards[0], trump="O",
                           ns_points_taken=41, expected_version=result.version,
                           acting_user=None)
    assert _version(c) == before + 2
    services.round_draw(round=web.round2, seed=3, acting_user=None)
    assert _version(c) == before + 3


def test_a_refused_change_leaves_the_version_alone(web: Small) -> None:
    before = _version(web.championship)
    with pytest.raises(ValueError):
        record(web.seatings[0], web.boards[0], 99)  # points outside 0..72
    assert _version(web.championship) == before


def test_saving_the_same_values_again_does_not_bump(web: Small) -> None:
    record(web.seatings[0], web.boards[0], 40)
    before = _version(web.championship)
    record(web.seatings[0], web.boards[0], 40, expected_version=1)
    assert _version(web.championship) == before


def test_an_admin_edit_is_refused_and_leaves_the_version_alone(
    admin_client, web: Small
) -> None:
    # The admin is read-only for players: a name changes through the services, which
    # bump the version (tests/tournaments/admin/test_admin_writes.py).
    pair = web.championship.pairs.get(number=1)
    before = _version(web.championship)
    player = pair.player1
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    response = admin_client.post(url, {"name": "Nom Nou", "code": player.code or "",
                                       "championship": web.championship.pk})
    assert response.status_code == 403
    assert _version(web.championship) == before


# --------------------------------------------------------------------------- pages


def test_an_unchanged_standings_page_answers_a_conditional_get_with_304(client, web) -> None:
    url = reverse("standings", args=[web.championship.slug])
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    assert "no-cache" in first["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    record(web.seatings[0], web.boards[0], 40)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_etag_differs_by_language_and_viewer(client, web) -> None:
    url = reverse("standings", args=[web.championship.slug])
    anon = client.get(url)["ETag"]
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    client.force_login(web.organiser)
    organiser = client.get(url)["ETag"]
    assert len({anon, english, organiser}) == 3


def test_the_result_that_completes_a_board_shows_in_the_public_standings(client, web):
    """Table 1 plays board 1 (hidden: table 2 still to play it), then table 2: the poll
    of the standings fragment, at the version the page was drawn at, gets the new
    fragment with the board counted."""
    url = reverse("live_standings", args=[web.championship.slug])
    record(web.seatings[0], web.boards[0], 44)
    page = client.get(reverse("standings", args=[web.championship.slug]))
    version = _version(web.championship)
    assert 'id="standings"' not in page.content.decode()  # nothing public yet
    assert client.get(url, {"v": version}).status_code == 204
    record(web.seatings[1], web.boards[0], 30)
    polled = client.get(url, {"v": version})
    assert polled.status_code == 200
    html = polled.content.decode()
    assert 'id="standings"' in html and "Resultats: 2 de 4" in html
    assert f"v={version + 1}" in html  # the next poll asks from the new version


def test_the_hall_screen_is_served_with_progress_and_the_latest_complete_board(client):
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                                      played_rounds=1)
    response = client.get(reverse("hall", args=[championship.slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="hall"' in page and 'id="standings"' in page
    assert "4 de 4 resultats" in page and "2 de 2 taulers complets" in page
    assert 'id="hall-latest"' in page
    assert "<form" not in page.split("<main>")[1]  # no controls


def test_the_standings_rows_are_one_line_with_even_decimals(client) -> None:
    championship = build_championship(pairs=8, rounds=1, boards_per_round=3, drawn_rounds=1,
                                      played_rounds=1)
    data = fresh_get(client, reverse("standings", args=[championship.slug])).context[
        "standings"]
    for values in ([r.total_text for r in data.rows], [r.average_text for r in data.rows]):
        decimals = {len(v.split(",")[1]) if "," in v else 0 for v in values}
        assert len(decimals) == 1
    assert all(" – " in r.pair.short and len(r.pair.short) < len(r.pair.names)
               for r in data.rows)


def test_column_keeps_the_same_decimals_and_rounds_half_up() -> None:
    from fractions import Fraction

    from django.utils import translation

    from scoring.model import ScoringRules

    with translation.override("ca"):
        assert live_reads.column([Fraction(1, 3), Fraction(2), Fraction(5, 4)], ScoringRules()) == [
            "0,33", "2,00", "1,25"]
        assert live_reads.column([Fraction(2), Fraction(3)], ScoringRules()) == ["2", "3"]


def test_traveller_is_a_compass_with_dealer_leader_and_neighbours(client) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=3, drawn_rounds=1,
                                      played_rounds=1)
    response = fresh_get(client, reverse("traveller", args=[championship.slug, 2]))
    sheet = response.context["traveller"]
    assert (sheet.previous, sheet.next) == (1, 3)
    assert sheet.dealer.value == "W" and sheet.hands["W"].is_dealer
    assert sheet.hands[sheet.leader.value].is_leader
    assert sum(len(r) for h in sheet.hands.values() for _s, r in h.suits) == 48
    page = response.content.decode()
    for seat in ("N", "W", "E", "S"):
        assert f"hand hand-{seat}" in page
    assert page.index("hand hand-N") < page.index("hand hand-W") < page.index(
        "hand hand-E") < page.index("hand hand-S")
    assert 'rel="prev"' in page and 'rel="next"' in page


def test_pair_card_draws_the_rank_after_each_round(client) -> None:
    championship = build_championship(pairs=4, rounds=3, boards_per_round=2, drawn_rounds=3,
                                      played_rounds=3)
    response = fresh_get(client, reverse("pair_card", args=[championship.slug, 1]))
    card = response.context["card"]
    assert [n for n, _r in card.ranks] == [1, 2, 3]
    progressive = selectors.standings_after_each_round(championship, for_public=True)
    assert card.ranks == tuple((n, next(r.rank for r in rows if r.number == 1))
                               for n, rows in sorted(progressive.items()))
    page = response.content.decode()
    assert page.count("<circle") == 3 and 'class="rank-chart"' in page


def test_unknown_board_pair_fragment_are_404(client, web) -> None:
    slug = web.championship.slug
    assert client.get(reverse("traveller", args=[slug, 99])).status_code == 404
    assert client.get(reverse("live_pair_card", args=[slug, 99])).status_code == 404
    assert client.get(reverse("hall", args=["no-such"])).status_code == 404


def test_version_json(client, web) -> None:
    record(web.seatings[0], web.boards[0], 40)
    data = client.get(reverse("live_version", args=[web.championship.slug])).json()
    assert data["version"] == _version(web.championship) and data["changed_at"]


# --------------------------------------------------------------------------- prints


def test_a_standings_pdf_built_before_a_change_reports_out_of_date(client, web) -> None:
    record(web.seatings[0], web.boards[0], 40)
    job, _created = jobs.print_job_request(championship=web.championship, kind="standings",
                                           acting_user=None)
    job = jobs.print_job_run(job_id=job.pk)
    assert job.status == PrintJob.Status.DONE
    status = reverse("print_job_status", args=[web.championship.slug, job.pk])
    fresh = client.get(status).json()
    assert fresh["out_of_date"] is False
    assert fresh["results_version"] == str(_version(web.championship))
    record(web.seatings[1], web.boards[0], 30)
    assert client.get(status).json()["out_of_date"] is True
    page = client.get(reverse("print_jobs", args=[web.championship.slug])).content.decode()
    assert "job-out-of-date" in page


# --------------------------------------------------------------------------- referee


def test_the_hand_score_as_typed_is_the_servers(client, web: Small) -> None:
    client.force_login(web.referee)
    seating, board = web.seatings[0], web.boards[0]
    url = reverse("result_hand_score", args=[web.championship.slug, 1,
                                             seating.table.number, board.number])
    typed = client.get(url, {"trump": "O", "ns_points_taken": "44", "contro": "1"}).json()
    saved = record(seating, board, 44, contro=True)
    assert typed == selectors.result_hand_score(web.championship, saved) == {
        "ns": 8, "ew": -16}
    wrong = client.get(url, {"trump": "O", "ns_points_taken": "44", "recontro": "1"}).json()
    assert wrong["ns"] is None and wrong["error"]


def test_the_hand_score_endpoint_is_for_referees_only(client, web: Small) -> None:
    url = reverse("result_hand_score", args=[web.championship.slug, 1, 1, 1])
    assert client.get(url).status_code == 302  # to the login page


@pytest.mark.parametrize("data,code", [
    ({"ns_points_taken": "72"}, "all_points"),
    ({"ns_points_taken": "0"}, "all_points"),
    ({"ns_points_taken": "40", "contro": "on", "recontro": "on", "sant_vicenc": "on"},
     "sant_vicenc"),
])
def test_an_unusual_result_asks_for_a_confirmation_before_saving(
    client, web: Small, data, code
) -> None:
    client.force_login(web.referee)
    Championship.objects.filter(pk=web.championship.pk).update(sant_vicenc=True)
    seating, board = web.seatings[0], web.boards[0]
    url = entry_url(web, seating, board)
    asked = client.post(url, form_data(**data))
    assert asked.status_code == 200
    assert [c for c, _m in asked.context["unusual"]] == [code]
    assert f'data-code="{code}"' in asked.content.decode()
    assert not Result.objects.filter(seating=seating, board=board).exists()
    confirmed = client.post(url, form_data(confirm_unusual="1", **data))
    assert confirmed.status_code == 302
    assert Result.objects.get(seating=seating, board=board).ns_points_taken == int(
        data["ns_points_taken"])


def test_a_result_far_from_the_boards_others_asks_for_a_confirmation(client) -> None:
    championship = build_championship(pairs=8, rounds=1, boards_per_round=2, drawn_rounds=1)
    from tests.factories import UserFactory
    from tournaments.models import Board, Seating

    user = UserFactory(username="arbitre-lluny")
    user.save()
    services.membership_grant(championship=championship, user=user, role="referee",
                              acting_user=None)
    seatings = list(Seating.objects.filter(round__championship=championship)
                    .order_by("table__number"))
    board = Board.objects.get(championship=championship, number=1)
    for seating, points in zip(seatings[1:], (40, 42, 38), strict=True):
        record(seating, board, points)
    client.force_login(user)
    url = reverse("result_entry", args=[championship.slug, 1, seatings[0].table.number, 1])
    asked = client.post(url, form_data(ns_points_taken="5"))
    assert [c for c, _m in asked.context["unusual"]] == ["far_from_field"]
    near = client.post(url, form_data(ns_points_taken="30"))
    assert near.status_code == 302  # 10 from the median: saved at once


def test_an_infractions_points_do_not_make_a_result_look_far_from_the_field(client) -> None:
    championship = build_championship(pairs=8, rounds=1, boards_per_round=2, drawn_rounds=1)
    from tests.factories import UserFactory
    from tournaments.models import Board, Seating

    user = UserFactory(username="arbitre-infraccio-lluny")
    user.save()
    services.membership_grant(championship=championship, user=user, role="referee",
                              acting_user=None)
    seatings = list(Seating.objects.filter(round__championship=championship)
                    .order_by("table__number"))
    board = Board.objects.get(championship=championship, number=1)
    record(seatings[1], board, 40)
    record(seatings[2], board, 70)
    # Points recorded at an infraction count for nothing: not part of the median either.
    record(seatings[3], board, 5, infraction="NS")
    client.force_login(user)
    url = reverse("result_entry", args=[championship.slug, 1, seatings[0].table.number, 1])
    near = client.post(url, form_data(ns_points_taken="71"))
    # 16 from the regular results' median 55; with the 5 it would be 31 from 40.
    assert near.status_code == 302, near.context["unusual"]


def test_the_conflict_message_is_shown_once(client, web: Small) -> None:
    seating, board = web.seatings[0], web.boards[0]
    client.force_login(web.referee)
    url = entry_url(web, seating, board)
    record(seating, board, 52, trump="C")
    response = client.post(url, form_data(ns_points_taken="20"))
    page = response.content.decode()
    assert 'id="conflict"' in page
    assert page.count("Un altre àrbitre ja ha desat") + page.count(
        "un altre àrbitre") == 1, json.dumps(page.count("àrbitre"))


def test_the_save_button_ends_the_form_and_the_next_board_is_at_the_top(client, web) -> None:
    client.force_login(web.referee)
    seating, board = web.seatings[0], web.boards[0]
    record(seating, board, 40)
    page = client.get(entry_url(web, seating, board)).content.decode()
    assert 'class="btn wide save"' in page
    assert page.index('id="next-board-top"') < page.index("<form method=\"post\" class")
    cache.clear()
