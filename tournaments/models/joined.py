"""Reads of the result save's hot path in fixed SQL statements: a seating with its
round, championship, table (and pairs) in one, a table's result of a board locked.

Django's ``select_related`` gives the same objects, but building its SQL (the joins,
the selected columns, the ordering) cost a result save more CPU than PostgreSQL spent
answering it; this module writes the statement once, from the models' own field lists,
and builds the instances as a queryset would (:func:`from_row`: the database's
converters, then ``Model.from_db``), so they are ordinary, saved instances.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Model

from tournaments.models.championships import Championship, Pair
from tournaments.models.results import Result
from tournaments.models.rounds import Board, Round, Seating, Table

#: The seating table's own name is its alias, so subqueries written against
#: ``<seating table>.round_id`` work inside the statement.
SEATING = Seating._meta.db_table


def _columns(model: type[Model], alias: str) -> tuple[list[str], list[str]]:
    fields = model._meta.concrete_fields
    return [f'{alias}."{f.column}"' for f in fields], [f.attname for f in fields]


def columns(model: type[Model], alias: str) -> list[str]:
    """``alias."column"`` of each of ``model``'s concrete fields, in the order
    :func:`from_row` reads them."""
    return _columns(model, alias)[0]


#: ``{(database alias, model): (attnames, [(converters, column) per concrete field])}``.
_CONVERTERS: dict[tuple[str, type[Model]],
                  tuple[list[str], list[tuple[list[Any], Any]]]] = {}


def _converters(model: type[Model], connection: Any
                ) -> tuple[list[str], list[tuple[list[Any], Any]]]:
    key = (connection.alias, model)
    found = _CONVERTERS.get(key)
    if found is None:
        fields = model._meta.concrete_fields
        per_field = []
        for field in fields:
            column = field.get_col(model._meta.db_table)
            # What the ORM's compiler applies to a value read: the backend's converters,
            # then the field's (aware datetimes and booleans on SQLite, JSON, ...).
            per_field.append((connection.ops.get_db_converters(column)
                              + field.get_db_converters(connection), column))
        found = _CONVERTERS[key] = ([f.attname for f in fields], per_field)
    return found


def from_row(model: type[Model], values: Sequence[Any], using: str = "default") -> Any:
    """The saved instance of ``model`` whose concrete fields' column values, as the
    database driver returned them, are ``values`` (in :func:`columns`' order): the
    values go through the converters the ORM applies to a queryset's rows, then
    ``Model.from_db``. Raises ``ValueError`` when the count of values is not the count
    of fields."""
    connection = connections[using]
    attnames, per_field = _converters(model, connection)
    converted = []
    for value, (converters, column) in zip(values, per_field, strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(using, attnames, converted)


_PARTS: list[tuple[type[Model], str]] = [
    (Seating, SEATING), (Round, "jr"), (Championship, "jc"), (Table, "jt"),
]
_PAIRS: list[tuple[type[Model], str]] = [(Pair, "jn"), (Pair, "je")]
_JOINS = (
    f" FROM {SEATING}"
    f" INNER JOIN {Round._meta.db_table} jr ON jr.id = {SEATING}.round_id"
    f" INNER JOIN {Championship._meta.db_table} jc ON jc.id = jr.championship_id"
    f" INNER JOIN {Table._meta.db_table} jt ON jt.id = {SEATING}.table_id"
)
_PAIR_JOINS = (
    f" INNER JOIN {Pair._meta.db_table} jn ON jn.id = {SEATING}.ns_pair_id"
    f" INNER JOIN {Pair._meta.db_table} je ON je.id = {SEATING}.ew_pair_id"
)


#: :func:`seating_joined`'s statements and the attnames of each part, built once per
#: ``(where, extra, pairs, lock, database alias)`` (every result save reads one).
_STATEMENTS: dict[tuple[Any, ...], tuple[str, list[list[str]]]] = {}


def _statement(connection: Any, parts: list[tuple[type[Model], str]], where: str,
               extra: Sequence[tuple[str, str]], pairs: bool, lock: bool,
               ) -> tuple[str, list[list[str]]]:
    columns: list[str] = []
    names: list[list[str]] = []
    for model, alias in parts:
        sql, attnames = _columns(model, alias)
        columns += sql
        names.append(attnames)
    columns += [f"({sql}) AS {name}" for name, sql in extra]
    statement = (
        "SELECT " + ", ".join(columns) + _JOINS + (_PAIR_JOINS if pairs else "")
        + f" WHERE {where} LIMIT 1"
    )
    if lock and connection.vendor == "postgresql":
        # The championship's and round's rows too, in that order, before the seating's:
        # whoever locks them FOR UPDATE (closing the round, finishing the championship,
        # a draw, a registration: each locks the championship's row first) runs before
        # this save, whose read then waits and sees what it wrote, or after it. KEY
        # SHARE, the lock of a foreign key's check, lets saves run side by side.
        statement += f" FOR KEY SHARE OF jc, jr FOR UPDATE OF {SEATING}"
    elif lock and connection.features.has_select_for_update:
        statement += (f" FOR UPDATE OF {SEATING}"
                      if connection.features.has_select_for_update_of else " FOR UPDATE")
    return statement, names


def seating_joined(
    where: str, params: Sequence[Any], *, extra: Sequence[tuple[str, str]] = (),
    extra_params: Sequence[Any] = (), pairs: bool = False, lock: bool = False,
    using: str = "default",
) -> Seating | None:
    """The one seating matching ``where`` (SQL over the aliases ``<seating table>``,
    ``jr`` round, ``jc`` championship, ``jt`` table; ``params`` its parameters), with
    ``seating.round``, ``seating.round.championship`` and ``seating.table`` (and
    ``ns_pair``/``ew_pair`` with ``pairs``) filled; each ``extra`` ``(name, sql)``
    column (parameters ``extra_params``, before ``params``) set as an attribute of the
    seating. ``lock``: on PostgreSQL ``FOR UPDATE`` of the seating's row and ``FOR KEY
    SHARE`` of its championship's and round's (a close or finish waiting for the save,
    or the save seeing the closed round); elsewhere ``FOR UPDATE`` where supported.
    ``None`` when nothing matches."""
    parts = _PARTS + (_PAIRS if pairs else [])
    connection = connections[using]
    key = (where, tuple(extra), pairs, lock, using)
    built = _STATEMENTS.get(key)
    if built is None:
        built = _STATEMENTS[key] = _statement(connection, parts, where, extra, pairs, lock)
    statement, names = built
    with connection.cursor() as cursor:
        cursor.execute(statement, [*extra_params, *params])
        row = cursor.fetchone()
    if row is None:
        return None
    instances: list[Any] = []
    start = 0
    for (model, _alias), attnames in zip(parts, names, strict=True):
        instances.append(from_row(model, row[start:start + len(attnames)], using))
        start += len(attnames)
    seating, round_, championship, table = instances[:4]
    round_.championship = championship
    seating.round, seating.table = round_, table
    if pairs:
        seating.ns_pair, seating.ew_pair = instances[4], instances[5]
    for (name, _sql), value in zip(extra, row[start:], strict=True):
        setattr(seating, name, value)
    return seating


#: The id of the board numbered %s of the seating's round (a subquery written out:
#: Django's building of it cost a save more than PostgreSQL's answering it).
BOARD_OF_ROUND = (
    f"SELECT b.id FROM {Board._meta.db_table} b"  # noqa: S608
    f" WHERE b.round_id = {SEATING}.round_id AND b.number = %s"
)


_C, _R, _T = (Championship._meta.db_table, Round._meta.db_table, Table._meta.db_table)
#: The seating at (slug, round number, slug, table number), by the round's and the
#: table's ids, each found through its unique (championship, number) key, then the
#: seating's own (round, table) key. Written as conditions on the joined rows
#: (``jc.slug = %s AND jr.number = %s AND jt.number = %s``), PostgreSQL read every
#: seating of the round and every championship's tables to match them (a third of the
#: statement's CPU with 100 tables).
_AT = (
    f"{SEATING}.round_id = (SELECT r0.id FROM {_R} r0 WHERE r0.championship_id ="  # noqa: S608
    f" (SELECT c0.id FROM {_C} c0 WHERE c0.slug = %s) AND r0.number = %s)"
    f" AND {SEATING}.table_id = (SELECT t0.id FROM {_T} t0 WHERE t0.championship_id ="
    f" (SELECT c0.id FROM {_C} c0 WHERE c0.slug = %s) AND t0.number = %s)"
)


def seating_at(
    slug: str, round_number: int, table_number: int, board_number: int, *,
    extra: Sequence[tuple[str, str]] = (), extra_params: Sequence[Any] = (),
    lock: bool = False, using: str = "default",
) -> tuple[Seating, Board] | None:
    """The seating of table ``table_number`` in round ``round_number`` of the
    championship ``slug`` (as :func:`seating_joined` gives it, with its pairs and the
    ``extra`` columns, whose parameters ``extra_params`` come after the board's number)
    and that round's board numbered ``board_number`` (its row without the deal, which
    the callers do not read, with its championship and round set), in one query.
    ``None`` when any of the four names nothing."""
    seating = seating_joined(
        _AT, (slug, round_number, slug, table_number),
        extra=[("board_id", BOARD_OF_ROUND), *extra],
        extra_params=(board_number, *extra_params), pairs=True, lock=lock, using=using,
    )
    if seating is None or seating.board_id is None:  # type: ignore[attr-defined]
        return None
    championship = seating.round.championship
    board = Board.from_db(
        using, ["id", "championship_id", "round_id", "number"],
        [seating.board_id, championship.pk, seating.round_id, board_number],  # type: ignore[attr-defined]
    )
    board.championship, board.round = championship, seating.round
    return seating, board


_RESULT_COLUMNS = columns(Result, Result._meta.db_table)
#: A table's result of a board (at most one row).
_RESULT_SELECT = (
    f"SELECT {', '.join(_RESULT_COLUMNS)} FROM {Result._meta.db_table}"  # noqa: S608
    f" WHERE {Result._meta.get_field('seating').column} = %s"
    f" AND {Result._meta.get_field('board').column} = %s"
)


def result_locked(seating_id: int, board_id: int, *, using: str = "default") -> Result | None:
    """The ``Result`` of ``board_id`` at ``seating_id``'s table, its row locked until the
    transaction ends (``FOR UPDATE`` where the database has it), or ``None``: the
    instance ``Result.objects.select_for_update().filter(...).first()`` gives, without
    building its SQL on every save (a unique constraint keeps it to one row)."""
    connection = connections[using]
    statement = _RESULT_SELECT
    if connection.features.has_select_for_update:
        statement += " FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(statement, [seating_id, board_id])
        row = cursor.fetchone()
    return None if row is None else from_row(Result, row, using)
