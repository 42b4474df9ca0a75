"""What a table's own link shows (tournaments.services.tables): its round, its two
pairs, and each of its boards (a classic championship: its game) with what is in:
missing, provisional (waiting for the opponents), disputed, confirmed (entered at the
table and confirmed), by_referee (stored by a referee). Three queries for the state."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from django.db.models import Count, Max, Q
from django.utils import timezone

from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Game,
    Result,
    Round,
    Seating,
    TableAccess,
    TableEntry,
)


class EntryState(StrEnum):
    MISSING = "missing"
    PROVISIONAL = "provisional"
    DISPUTED = "disputed"
    CONFIRMED = "confirmed"
    BY_REFEREE = "by_referee"


@dataclass(frozen=True, slots=True)
class TablePair:
    number: int
    names: str
    direction: str  # "NS" or "EW"


@dataclass(frozen=True, slots=True)
class TableItem:
    """One board of the table's round (``board`` ``None``: the classic game) and what
    is in: ``state``, the ``values`` (the body as the referee's API takes it) when
    provisional, disputed, confirmed or by a referee, who entered it and the note of a
    dispute."""

    board: int | None
    dealer: str | None
    state: EntryState
    values: dict[str, Any] | None
    entered_by: int | None
    confirmed_by: int | None
    note: str


@dataclass(frozen=True, slots=True)
class TableState:
    slug: str
    championship: str
    format: str
    round: int
    table: int
    pairs: tuple[TablePair, TablePair]
    items: tuple[TableItem, ...]


def result_values(result: Result) -> dict[str, Any]:
    """A stored result as the referee's API body."""
    return {
        "trump": result.trump, "ns_points_taken": result.ns_points_taken,
        "delegated": result.delegated, "contro": result.contro,
        "recontro": result.recontro, "sant_vicenc": result.sant_vicenc,
        "infraction": result.infraction,
        "adjusted": ({"NS": result.adjusted_ns, "EW": result.adjusted_ew}
                     if result.is_adjusted else None),
        "note": result.note,
    }


def game_values(game: Game) -> dict[str, Any]:
    """A stored game as the referee's API body."""
    return {"ns_points": game.ns_points, "ew_points": game.ew_points, "deals": game.deals,
            "ended_by": game.ended_by, "hands": list(game.hands) if game.hands else None,
            "note": game.note}


def _item(board: Board | None, stored: Result | Game | None,
          entries: list[TableEntry]) -> TableItem:
    """``entries``: the table's entries on that board, the latest first."""
    latest = entries[0] if entries else None
    dealer = board.dealer.value if board is not None else None
    number = board.number if board is not None else None
    if stored is not None:
        confirmed = next((e for e in entries if e.status == TableEntry.Status.CONFIRMED),
                         None)
        by_table = (confirmed is not None and stored.entered_by_id is None
                    and stored.version == 1)
        values = result_values(stored) if isinstance(stored, Result) else game_values(stored)
        return TableItem(
            board=number, dealer=dealer,
            state=EntryState.CONFIRMED if by_table else EntryState.BY_REFEREE,
            values=values,
            entered_by=confirmed.entered_by_pair if by_table and confirmed else None,
            confirmed_by=confirmed.confirmed_by_pair if by_table and confirmed else None,
            note="",
        )
    if latest is not None and latest.status in (TableEntry.Status.PROVISIONAL,
                                                TableEntry.Status.DISPUTED):
        return TableItem(
            board=number, dealer=dealer,
            state=(EntryState.PROVISIONAL if latest.status == TableEntry.Status.PROVISIONAL
                   else EntryState.DISPUTED),
            values=dict(latest.values), entered_by=latest.entered_by_pair,
            confirmed_by=None, note=latest.note,
        )
    return TableItem(board=number, dealer=dealer, state=EntryState.MISSING, values=None,
                     entered_by=None, confirmed_by=None, note="")


def table_state(seating: Seating, table_number: int) -> TableState:
    """The table's state in ``seating``'s round (round, championship, table and pairs
    with their players loaded)."""
    round = seating.round
    championship = round.championship
    entries: dict[int | None, list[TableEntry]] = {}
    for entry in TableEntry.objects.filter(round=round, table_number=table_number).order_by(
            "-created_at", "-pk"):
        entries.setdefault(entry.board_id, []).append(entry)
    items: list[TableItem]
    if championship.is_classic:
        game = Game.objects.filter(seating=seating).first()
        items = [_item(None, game, entries.get(None, []))]
    else:
        results = {r.board_id: r for r in Result.objects.filter(seating=seating)}
        items = [
            _item(board, results.get(board.pk), entries.get(board.pk, []))
            for board in Board.objects.filter(round=round).order_by("number")
        ]
    pairs = (
        TablePair(seating.ns_pair.number, seating.ns_pair.names, "NS"),
        TablePair(seating.ew_pair.number, seating.ew_pair.names, "EW"),
    )
    return TableState(slug=championship.slug, championship=championship.name,
                      format=championship.format, round=round.number, table=table_number,
                      pairs=pairs, items=tuple(items))


# ------------------------------------------------------------------ the whole round


@dataclass(frozen=True, slots=True)
class RoundItem:
    """One board (the game) of a table on the referees' dashboard: what the table's
    page shows (``item``) and since when it waits (``since``: the latest entry's time,
    when provisional or disputed)."""

    item: TableItem
    since: datetime | None

    @property
    def state(self) -> EntryState:
        return self.item.state


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of the round on the dashboard: its ``pairs``, each board's (the game's)
    ``items``, whether it is ``late`` (past the round's time limit with something not
    counted yet), how many items are not counted (``open``) and the oldest wait
    (``waiting_since``)."""

    table: int
    pairs: tuple[TablePair, TablePair]
    items: tuple[RoundItem, ...]
    late: bool
    waiting_since: datetime | None

    @property
    def open(self) -> int:
        return sum(1 for i in self.items
                   if i.state not in (EntryState.CONFIRMED, EntryState.BY_REFEREE))

    @property
    def disputed(self) -> int:
        return sum(1 for i in self.items if i.state == EntryState.DISPUTED)

    @property
    def provisional(self) -> int:
        return sum(1 for i in self.items if i.state == EntryState.PROVISIONAL)

    @property
    def done(self) -> bool:
        return self.open == 0


@dataclass(frozen=True, slots=True)
class RoundTables:
    """The referees' dashboard of a round: the tables, the late ones first, then those
    with a dispute, then by their oldest wait (or the most left to enter), the finished
    ones last; ``started_at`` (the draw) and ``deadline`` (the time limit's end, when
    the championship has one)."""

    round: int
    classic: bool
    started_at: datetime | None
    deadline: datetime | None
    tables: tuple[RoundTable, ...]

    def count(self, state: EntryState) -> int:
        return sum(1 for t in self.tables for i in t.items if i.state == state)

    @property
    def missing(self) -> int:
        return self.count(EntryState.MISSING)

    @property
    def provisional(self) -> int:
        return self.count(EntryState.PROVISIONAL)

    @property
    def disputed(self) -> int:
        return self.count(EntryState.DISPUTED)

    @property
    def counted(self) -> int:
        return self.count(EntryState.CONFIRMED) + self.count(EntryState.BY_REFEREE)

    @property
    def late(self) -> int:
        return sum(1 for t in self.tables if t.late)


def round_started_at(round: Round) -> datetime | None:
    """When the round was drawn (its latest draw's audit row), ``None`` if unknown."""
    return (AuditEntry.objects
            .filter(championship_id=round.championship_id, round_number=round.number,
                    action=AuditEntry.Action.ROUND_DRAW)
            .order_by("-at").values_list("at", flat=True).first())


def round_tables(round: Round, *, now: datetime | None = None) -> RoundTables:
    """Every table of ``round`` (its championship loaded) with each board's (the game's)
    state, as :func:`table_state` gives one table's, in a constant number of queries.
    A classic championship with a time limit: a table with its game not counted once the
    limit has passed since the draw is late."""
    now = now or timezone.now()
    championship = round.championship
    seatings = list(Seating.objects.filter(round=round).select_related(
        "table", "ns_pair__player1", "ns_pair__player2", "ew_pair__player1",
        "ew_pair__player2").order_by("table__number"))
    entries: dict[tuple[int, int | None], list[TableEntry]] = {}
    for entry in TableEntry.objects.filter(round=round).order_by("-created_at", "-pk"):
        entries.setdefault((entry.table_number, entry.board_id), []).append(entry)
    started = round_started_at(round)
    minutes = championship.time_limit_minutes if championship.is_classic else None
    deadline = started + timedelta(minutes=minutes) if started and minutes else None
    boards: list[Board] = []
    results: dict[tuple[int, int], Result] = {}
    games: dict[int, Game] = {}
    if championship.is_classic:
        games = {g.seating_id: g for g in Game.objects.filter(seating__round=round)}
    else:
        boards = list(Board.objects.filter(round=round).order_by("number"))
        results = {(r.seating_id, r.board_id): r
                   for r in Result.objects.filter(seating__round=round)}
    tables: list[RoundTable] = []
    for seating in seatings:
        number = seating.table.number
        rows: list[RoundItem] = []
        cells: list[tuple[Board | None, Result | Game | None]] = (
            [(None, games.get(seating.pk))] if championship.is_classic
            else [(b, results.get((seating.pk, b.pk))) for b in boards])
        for board, stored in cells:
            these = entries.get((number, board.pk if board is not None else None), [])
            item = _item(board, stored, these)
            waiting = item.state in (EntryState.PROVISIONAL, EntryState.DISPUTED)
            rows.append(RoundItem(item, these[0].updated_at if waiting and these else None))
        since = min((r.since for r in rows if r.since is not None), default=None)
        table = RoundTable(
            table=number,
            pairs=(TablePair(seating.ns_pair.number, seating.ns_pair.names, "NS"),
                   TablePair(seating.ew_pair.number, seating.ew_pair.names, "EW")),
            items=tuple(rows), late=False, waiting_since=since)
        late = deadline is not None and now > deadline and not table.done
        tables.append(replace(table, late=late))
    far = datetime.max.replace(tzinfo=UTC)
    tables.sort(key=lambda t: (t.done, not t.late, t.disputed == 0,
                               t.waiting_since or far, -t.open, t.table))
    return RoundTables(round=round.number, classic=championship.is_classic,
                       started_at=started, deadline=deadline, tables=tuple(tables))


@dataclass(frozen=True, slots=True)
class WaitingEntry:
    """A table's entry still waiting (provisional or disputed), for the referee's
    confirmation step: its ``board`` (``None``: the game), ``state``, the pair that
    entered it, its ``values`` and the dispute's ``note``."""

    board: int | None
    state: EntryState
    entered_by: int
    values: dict[str, Any]
    note: str


def waiting_entries(round: Round, table_number: int,
                    board_number: int | None = None, *, every_board: bool = True
                    ) -> list[WaitingEntry]:
    """The latest entry still waiting of table ``table_number`` in ``round`` on each
    board (on ``board_number`` only when not ``every_board``; ``None``: the game), by
    board. One query."""
    entries = (TableEntry.objects.select_related("board")
               .filter(round=round, table_number=table_number,
                       status__in=(TableEntry.Status.PROVISIONAL, TableEntry.Status.DISPUTED))
               .order_by("-created_at", "-pk"))
    if not every_board:
        entries = (entries.filter(board__number=board_number) if board_number is not None
                   else entries.filter(board__isnull=True))
    latest: dict[int | None, WaitingEntry] = {}
    for entry in entries:
        board = entry.board.number if entry.board is not None else None
        latest.setdefault(board, WaitingEntry(
            board=board,
            state=(EntryState.PROVISIONAL if entry.status == TableEntry.Status.PROVISIONAL
                   else EntryState.DISPUTED),
            entered_by=entry.entered_by_pair, values=dict(entry.values), note=entry.note))
    return sorted(latest.values(), key=lambda w: w.board or 0)


def round_tables_version(round: Round) -> str:
    """What changes whenever the dashboard of ``round`` may change: the championship's
    results version, and the latest write and count of the round's table entries (a
    table's entry does not bump the results version). One query."""
    row = (Championship.objects.filter(pk=round.championship_id)
           .annotate(latest=Max("table_entries__updated_at",
                                filter=Q(table_entries__round=round)),
                     entries=Count("table_entries", filter=Q(table_entries__round=round)))
           .values_list("results_version", "latest", "entries").first())
    if row is None:
        return ""
    version, latest, count = row
    stamp = latest.timestamp() if latest is not None else 0
    return f"{version}-{count}-{stamp:.6f}"


def live_table_secrets(championship: Championship) -> dict[int, str]:
    """Each table's live secret (its link's), for the QR codes printed on the table
    cards; empty when the championship takes no results from the tables. Read only: a
    table whose secret was never issued has none here."""
    if not championship.table_entry:
        return {}
    return dict(TableAccess.objects.filter(championship=championship, revoked_at__isnull=True)
                .values_list("table_number", "secret"))
