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
                       {"board": table.board(0)}).status_code == 403
    referee = logged(small.referee)
    response = referee.post(url(table, "table_entry_accept", number), {"board": table.board(0)})
    assert response.status_code == 302
    assert Result.objects.get(seating=table.seating, board=small.boards[0]).ns_points_taken == 50
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_ENTRY_ACCEPT).count() == 1
    page = referee.get(url(table)).content.decode()
    assert "resultat acceptat" in page
    assert "entrat per un àrbitre" in page


def test_a_referee_clears_a_table_through_the_dashboard(table: Table) -> None:
    enter(table, 0)
    number = table.seating.table.number
    response = logged(table.small.referee).post(url(table, "table_entries_clear", number))
    assert response.status_code == 302
    assert TableEntry.objects.get().status == TableEntry.Status.SUPERSEDED
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_ENTRY_CLEAR).exists()
    nothing = logged(table.small.referee).post(url(table, "table_entry_accept", number),
                                               {"board": table.board(0)}, follow=True)
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
    response = client.post(reverse("table_entry_accept", args=[championship.slug, 1, number]))
    assert response.status_code == 302
    assert Game.objects.get(seating=seating).ns_points == 101
    page = client.get(reverse("referee_round", args=[championship.slug, 1])).content.decode()
    assert "entrat per un àrbitre" in page
