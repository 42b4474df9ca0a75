"""The referees' actions on the table entries (services.tables: table_entry_accept,
table_entries_clear) and the round-wide state they read (selectors.tables.round_tables)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.classic.conftest import make_classic
from tests.tournaments.tables.conftest import Table
from tournaments import services
from tournaments.models import AuditEntry, Game, Result, Seating, TableEntry
from tournaments.selectors.tables import (
    EntryState,
    round_tables,
    round_tables_version,
)

pytestmark = pytest.mark.django_db


def enter(table: Table, board_index: int = 0, points: int = 50) -> TableEntry:
    return services.table_entry_enter(
        secret=table.secret, board_number=table.board(board_index),
        values={"trump": "O", "ns_points_taken": points}, entered_by=table.ns).entry


def states(table: Table) -> dict[int, list[str]]:
    view = round_tables(table.small.round1)
    return {t.table: [i.state.value for i in t.items] for t in view.tables}


def test_the_round_shows_each_tables_boards_with_their_state(table: Table) -> None:
    small = table.small
    number = table.seating.table.number
    other = small.seatings[1].table.number
    assert states(table) == {number: ["missing", "missing"], other: ["missing", "missing"]}
    enter(table, 0)
    enter(table, 1, points=60)
    services.table_entry_dispute(secret=table.secret, board_number=table.board(1),
                                 pair=table.ew, note="Eren 70")
    services.result_record(seating=small.seatings[1], board=small.boards[0], trump="C",
                           ns_points_taken=30, expected_version=None,
                           acting_user=small.referee)
    view = round_tables(small.round1)
    assert {t.table: [i.state.value for i in t.items] for t in view.tables} == {
        number: ["provisional", "disputed"], other: ["by_referee", "missing"]}
    first = view.tables[0]
    assert first.table == number  # a dispute first
    assert first.items[1].item.note == "Eren 70"
    assert first.waiting_since is not None
    assert (view.missing, view.provisional, view.disputed, view.counted) == (1, 1, 1, 1)


def test_the_version_changes_with_every_table_entry(table: Table) -> None:
    before = round_tables_version(table.small.round1)
    entry = enter(table)
    after_entry = round_tables_version(table.small.round1)
    assert after_entry != before
    TableEntry.objects.filter(pk=entry.pk).update(
        status=TableEntry.Status.SUPERSEDED, updated_at=timezone.now() + timedelta(seconds=1))
    assert round_tables_version(table.small.round1) != after_entry


def test_a_referee_confirms_a_provisional_entry_and_it_counts(table: Table) -> None:
    small = table.small
    enter(table, 0, points=50)
    entry = services.table_entry_accept(round=small.round1,
                                        table_number=table.seating.table.number,
                                        board_number=table.board(0), acting_user=small.referee)
    assert entry.status == TableEntry.Status.CONFIRMED
    result = Result.objects.get(seating=table.seating, board=small.boards[0])
    assert (result.ns_points_taken, result.entered_by_id) == (50, small.referee.pk)
    row = AuditEntry.objects.get(action=AuditEntry.Action.TABLE_ENTRY_ACCEPT)
    assert (row.acting_user_id, row.board_number, row.before["status"]) == (
        small.referee.pk, table.board(0), "provisional")
    assert str(table.ns) in row.reason
    assert states(table)[table.seating.table.number][0] == EntryState.BY_REFEREE


def test_a_referee_settles_a_dispute_with_the_tables_values(table: Table) -> None:
    small = table.small
    enter(table, 1, points=60)
    services.table_entry_dispute(secret=table.secret, board_number=table.board(1),
                                 pair=table.ew, note="No")
    services.table_entry_accept(round=small.round1, table_number=table.seating.table.number,
                                board_number=table.board(1), acting_user=small.organiser)
    assert Result.objects.get(seating=table.seating, board=small.boards[1]).ns_points_taken == 60
    row = AuditEntry.objects.get(action=AuditEntry.Action.TABLE_ENTRY_ACCEPT)
    assert row.before == {"status": "disputed", "note": "No"}


def test_accepting_needs_a_referee_and_an_entry(table: Table) -> None:
    small = table.small
    number = table.seating.table.number
    with pytest.raises(services.TableEntryMissing):
        services.table_entry_accept(round=small.round1, table_number=number,
                                    board_number=table.board(0), acting_user=small.referee)
    enter(table)
    stranger = UserFactory(username="espectador")
    with pytest.raises(services.NotAllowedError):
        services.table_entry_accept(round=small.round1, table_number=number,
                                    board_number=table.board(0), acting_user=stranger)
    assert not Result.objects.exists()
    assert TableEntry.objects.get().status == TableEntry.Status.PROVISIONAL


def test_a_referee_clears_a_tables_entries(table: Table) -> None:
    small = table.small
    enter(table, 0)
    enter(table, 1)
    services.table_entry_dispute(secret=table.secret, board_number=table.board(1),
                                 pair=table.ew, note="No")
    number = table.seating.table.number
    stranger = UserFactory(username="espectador")
    with pytest.raises(services.NotAllowedError):
        services.table_entries_clear(round=small.round1, table_number=number,
                                     acting_user=stranger)
    assert services.table_entries_clear(round=small.round1, table_number=number,
                                        acting_user=small.referee) == 2
    assert set(TableEntry.objects.values_list("status", flat=True)) == {"superseded"}
    row = AuditEntry.objects.get(action=AuditEntry.Action.TABLE_ENTRY_CLEAR)
    assert (row.table_number, len(row.before["entries"])) == (number, 2)
    assert states(table)[number] == ["missing", "missing"]
    assert services.table_entries_clear(round=small.round1, table_number=number,
                                        acting_user=small.referee) == 0
    enter(table, 0)  # the table may enter again
    assert states(table)[number][0] == "provisional"


def test_a_classic_game_is_accepted_and_a_late_table_comes_first() -> None:
    classic = make_classic()
    championship = classic.championship
    services.round_draw(round=classic.rounds[0], seed=3, acting_user=classic.organiser)
    seatings = list(Seating.objects.filter(round=classic.rounds[0]).order_by("table__number"))
    last = seatings[-1]
    secret = services.table_secret(championship=championship,
                                   table_number=last.table.number).secret
    services.table_entry_enter(
        secret=secret, board_number=None, entered_by=last.ns_pair.number,
        values={"ns_points": 101, "ew_points": 64, "deals": 9, "ended_by": "target"})
    rnd = classic.rounds[0]
    rnd.refresh_from_db()
    limit = championship.time_limit_minutes
    assert limit
    view = round_tables(rnd, now=timezone.now() + timedelta(minutes=limit + 1))
    assert view.deadline is not None and all(t.late for t in view.tables)
    assert view.tables[0].table == last.table.number  # waiting the longest
    early = round_tables(rnd)
    assert not any(t.late for t in early.tables)
    services.table_entry_accept(round=rnd, table_number=last.table.number, board_number=None,
                                acting_user=classic.organiser)
    assert Game.objects.get(seating=last).ns_points == 101
    assert round_tables(rnd).tables[-1].table == last.table.number  # done: last
