"""The referees' dashboard of a round (web/referee_dashboard.py): who sees it, the
states it shows, its live fragment and the referees' actions through it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.tables.conftest import Table
from tournaments import services
from tournaments.models import AuditEntry, Membership, Result, TableEntry

pytestmark = pytest.mark.django_db


def url(table: Table, name: str = "referee_round", *extra: int) -> str:
    return reverse(name, args=[table.small.championship.slug, table.small.round1.number,
                               *extra])


def logged(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def enter(table: Table, index: int, points: int = 50) -> None:
    services.table_entry_enter(secret=table.secret, board_number=table.board(index),
                               values={"trump": "O", "ns_points_taken": points},
                               entered_by=table.ns)


def test_referees_and_organisers_see_it_others_do_not(table: Table) -> None:
    small = table.small
    head = UserFactory(username="principal")
    services.membership_grant(championship=small.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=None)
    for user in (small.referee, small.organiser, head):
        assert logged(user).get(url(table)).status_code == 200
    assert logged(UserFactory(username="jugador")).get(url(table)).status_code == 403
    assert Client().get(url(table)).status_code == 302  # to the login page
    assert logged(small.referee).get(reverse(
        "referee_round", args=[small.championship.slug, 9])).status_code == 404


def test_it_shows_each_state_the_note_and_one_tap_to_the_form(table: Table) -> None:
    small = table.small
    enter(table, 0)
    enter(table, 1, points=60)
    services.table_entry_dispute(secret=table.secret, board_number=table.board(1),
                                 pair=table.ew, note="Eren seixanta-nou")
    services.result_record(seating=small.seatings[1], board=small.boards[0], trump="C",
                           ns_points_taken=30, expected_version=None,
                           acting_user=small.referee)
    page = logged(small.referee).get(url(table)).content.decode()
    number = table.seating.table.number
    assert f"provisional (parella {table.ns})" in page
    assert "fa 0 min" in page
    assert "discutit" in page and "Eren seixanta-nou" in page
    assert "entrat per un àrbitre" in page and "falta" in page
    form = reverse("result_entry", args=[small.championship.slug, 1, number, table.board(1)])
    assert f'href="{form}"' in page
    # The table with a dispute comes before the other.
    assert page.index(f'id="dash-table-{number}"') < page.index(
        f'id="dash-table-{small.seatings[1].table.number}"')


def test_the_fragment_is_204_until_an_entry_changes(table: Table) -> None:
    client = logged(table.small.referee)
    first = client.get(url(table, "referee_round_live"))
    assert first.status_code == 200
    version = first.content.decode().split('data-version="')[1].split('"')[0]
    again = client.get(url(table, "referee_round_live") + f"?v={version}")
    assert again.status_code == 204
    enter(table, 0)
    changed = client.get(url(table, "referee_round_live") + f"?v={version}")
    assert changed.status_code == 200
    assert "provisional" in changed.content.decode()


def test_a_referee_confirms_through_the_dashboard_and_it_counts(table: Table) -> None:
    small = table.small
    enter(table, 0)
    number = table.seating.table.number
    player = logged(UserFactory(username="jugador"))
    assert player.post(url(table, "table_entry_accept", number),
                       {"board": table.board(0), "confirm": "on"}).status_code == 403
    referee = logged(small.referee)
    response = referee.post(url(table, "table_entry_accept", number),
                            {"board": table.board(0), "confirm": "on"})
    assert response.status_code == 302
    assert Result.objects.get(seating=table.seating, board=small.boards[0]).ns_points_taken == 50
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_ENTRY_ACCEPT).count() == 1
    page = referee.get(url(table)).content.decode()
    assert "resultat acceptat" in page
    assert "entrat per un àrbitre" in page


def test_a_referee_clears_a_table_through_the_dashboard(table: Table) -> None:
    enter(table, 0)
    number = table.seating.table.number
    response = logged(table.small.referee).post(url(table, "table_entries_clear", number),
                                                {"confirm": "on"})
    assert response.status_code == 302
    assert TableEntry.objects.get().status == TableEntry.Status.SUPERSEDED
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_ENTRY_CLEAR).exists()
    nothing = logged(table.small.referee).post(url(table, "table_entry_accept", number),
                                               {"board": table.board(0), "confirm": "on"},
                                               follow=True)
    assert "no hi ha cap resultat de la taula per acceptar" in nothing.content.decode()


def test_a_classic_rounds_dashboard_shows_the_game_and_accepts_it() -> None:
    from tests.tournaments.classic.conftest import make_classic
    from tournaments.models import Game, Seating

    classic = make_classic()
    championship = classic.championship
    rnd = classic.rounds[0]
    services.round_draw(round=rnd, seed=3, acting_user=classic.organiser)
    seating = Seating.objects.filter(round=rnd).order_by("table__number").first()
    assert seating is not None
    number = seating.table.number
    secret = services.table_secret(championship=championship, table_number=number).secret
    services.table_entry_enter(
        secret=secret, board_number=None, entered_by=seating.ew_pair.number,
        values={"ns_points": 101, "ew_points": 64, "deals": 9, "ended_by": "target"})
    client = logged(classic.organiser)
    page = client.get(reverse("referee_round", args=[championship.slug, 1])).content.decode()
    assert f"provisional (parella {seating.ew_pair.number})" in page
    assert reverse("game_entry", args=[championship.slug, 1, number]) in page
    response = client.post(reverse("table_entry_accept", args=[championship.slug, 1, number]),
                           {"confirm": "on"})
    assert response.status_code == 302
    assert Game.objects.get(seating=seating).ns_points == 101
    page = client.get(reverse("referee_round", args=[championship.slug, 1])).content.decode()
    assert "entrat per un àrbitre" in page


def test_accept_and_clear_ask_for_a_confirmation_first_without_javascript(
        table: Table) -> None:
    enter(table, 0, points=44)
    number = table.seating.table.number
    referee = logged(table.small.referee)
    dashboard = referee.get(url(table)).content.decode()
    assert dashboard.count("data-confirm=") == 2  # accept and clear ask in a dialog
    assert 'name="confirm"' in dashboard and "tournaments/confirm.js" in dashboard
    # Without JavaScript the POST comes unticked: the step shows what would be done.
    for step in (referee.get(url(table, "table_entry_accept", number) +
                             f"?board={table.board(0)}"),
                 referee.post(url(table, "table_entry_accept", number),
                              {"board": table.board(0)})):
        page = step.content.decode()
        assert step.status_code == 200 and 'id="table-entry-confirm"' in page
        assert "Punts NS 44" in page and f"entrat per la parella {table.ns}" in page
        assert "Ho confirmo" in page
    unticked = referee.post(url(table, "table_entry_accept", number),
                            {"board": table.board(0), "step": "1"})
    assert "Marqueu «Ho confirmo»" in unticked.content.decode()
    cleared = referee.post(url(table, "table_entries_clear", number))
    assert cleared.status_code == 200 and "Esborrar les entrades" in cleared.content.decode()
    assert TableEntry.objects.get().status == TableEntry.Status.PROVISIONAL
    assert not Result.objects.exists()
    assert not AuditEntry.objects.filter(action__in=[AuditEntry.Action.TABLE_ENTRY_ACCEPT,
                                                     AuditEntry.Action.TABLE_ENTRY_CLEAR]
                                         ).exists()


def _dashboard_queries(championship: object, user: object) -> tuple[int, int, int]:
    """The queries of the dashboard's page, of its changed fragment and of its 204."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = logged(user)
    slug = championship.slug  # type: ignore[attr-defined]
    page_url = reverse("referee_round", args=[slug, 1])
    live_url = reverse("referee_round_live", args=[slug, 1])
    client.get(page_url)  # the session and the language, once
    counts = []
    for path in (page_url, live_url):
        with CaptureQueriesContext(connection) as queries:
            html = client.get(path).content.decode()
        counts.append(len(queries.captured_queries))
    version = html.split('data-version="')[1].split('"')[0]
    with CaptureQueriesContext(connection) as queries:
        assert client.get(live_url + f"?v={version}").status_code == 204
    return counts[0], counts[1], len(queries.captured_queries)


def test_the_dashboard_costs_the_same_queries_at_50_tables_as_at_2(table: Table) -> None:
    from tests.factories import build_championship
    from tournaments.models import Board, Round, Seating

    enter(table, 0)
    small = _dashboard_queries(table.small.championship, table.small.referee)
    big = build_championship(pairs=100, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-gran")
    Membership.objects.create(championship=big, user=referee, role="referee")
    rnd = Round.objects.get(championship=big, number=1)
    seatings = list(Seating.objects.filter(round=rnd).select_related("table", "ns_pair"))
    boards = list(Board.objects.filter(round=rnd).order_by("number"))
    assert len(seatings) == 50
    TableEntry.objects.bulk_create([
        TableEntry(championship=big, round=rnd, table_number=s.table.number, board=b,
                   values={"trump": "O", "ns_points_taken": 40},
                   entered_by_pair=s.ns_pair.number,
                   status="disputed" if k % 7 == 0 else "provisional")
        for k, s in enumerate(seatings[:40]) for b in boards[:2]])
    assert _dashboard_queries(big, referee) == small
