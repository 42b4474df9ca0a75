"""What a table's own link shows (tournaments.services.tables): its round, its two
pairs, and each of its boards (a classic championship: its game) with what is in:
missing, provisional (waiting for the opponents), disputed, confirmed (entered at the
table and confirmed), by_referee (stored by a referee). Three queries for the state."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tournaments.models import Board, Game, Result, Seating, TableEntry


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
