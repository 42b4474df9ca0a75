"""A result's save in fixed SQL: what it reads of its table and board, locked, in one
statement (:class:`SaveContext`), the current result locked (:func:`result_locked`), and
a new result with its two pair-board rows, its audit row and the championship's results
version in one statement (:func:`insert_result`).

Reads. A save needs the table's seating with its round, championship, table and pairs,
the board, three checks (the board belongs to the round, the round has a result, a pair
of the table already played the board elsewhere) and the acting user's roles. Django's
``select_related`` and subqueries give the same, but building their SQL cost a save
more CPU than PostgreSQL spent answering it; here each statement is written once from
the models' field lists, and the instances are built as a queryset builds them
(:func:`tournaments.db.rows.from_row`), so they are ordinary, saved instances
(tests/tournaments/db/test_reads.py compares every field with the ORM's).

Writes. A new result is the hot write of a championship (every table, every board).
Through the ORM it took four statements (``Result.save``, ``PairBoard.objects.bulk_create``,
``AuditEntry.save``, the version bump), and building them cost more CPU than the rest of
the save; written once here, with every value prepared by its field as the ORM prepares
it (``pre_save``, ``get_db_prep_save``), the rows stored are the same
(tests/tournaments/db/test_writes.py compares them column by column). Databases without
data-modifying ``WITH`` (SQLite) take the ORM's statements, in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Field, Model
from django.utils import timezone

from tournaments.db.rows import columns, fields_of, from_row
from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Membership,
    Pair,
    PairBoard,
    Result,
    Round,
    Seating,
    Table,
    TableEntry,
)


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """``model``'s concrete field ``name`` (a ``TypeError`` at import for anything else)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a concrete field")
    return field


# --------------------------------------------------------------------------- reads


@dataclass(frozen=True, slots=True)
class SaveContext:
    """What a result's save reads of its table and board, in one statement that locks
    the seating's row (:func:`save_context`, :func:`save_context_at`).

    ``seating``: saved instance with ``round`` (its ``championship`` set), ``table``,
    ``ns_pair`` and ``ew_pair`` set, read in the same statement. ``board``: the board
    (by address: its row without the deal, with ``championship`` and ``round`` set).
    ``board_fits``: the board is one of the seating's round, or of no round of the
    championship. ``round_started``: the round has a result, at any table.
    ``played_by``: the number of this table's pair that already played the board at
    another table, or ``None``. ``roles``: the ``Membership.Role`` values the user
    named by the read holds in the championship (none: empty), ``None`` when not read
    (no user given, or a database without ``string_agg``). ``table_waiting``: the
    table's players entered the board through its link and it waits for the opponents
    or a referee (a referee's save supersedes it: ``services.tables``).
    """

    seating: Seating
    board: Board
    board_fits: bool
    round_started: bool
    played_by: int | None
    roles: frozenset[str] | None
    table_waiting: bool = False

    @property
    def round(self) -> Round:
        return self.seating.round

    @property
    def championship(self) -> Championship:
        return self.seating.round.championship


#: The seating table's own name is its alias, so subqueries written against
#: ``<seating table>.round_id`` work inside the statement.
SEATING = Seating._meta.db_table

_PARTS: list[tuple[type[Model], str]] = [
    (Seating, SEATING), (Round, "jr"), (Championship, "jc"), (Table, "jt"),
    (Pair, "jn"), (Pair, "je"),
]
_JOINS = (
    f" FROM {SEATING}"
    f" INNER JOIN {Round._meta.db_table} jr ON jr.id = {SEATING}.round_id"
    f" INNER JOIN {Championship._meta.db_table} jc ON jc.id = jr.championship_id"
    f" INNER JOIN {Table._meta.db_table} jt ON jt.id = {SEATING}.table_id"
    f" INNER JOIN {Pair._meta.db_table} jn ON jn.id = {SEATING}.ns_pair_id"
    f" INNER JOIN {Pair._meta.db_table} je ON je.id = {SEATING}.ew_pair_id"
)

#: Each statement of :func:`_seating_row` and the attnames of each part, built once per
#: ``(where, extra, lock, database alias)`` (every result save reads one).
_STATEMENTS: dict[tuple[Any, ...], tuple[str, list[list[str]]]] = {}


def _statement(connection: Any, where: str, extra: Sequence[str], lock: bool
               ) -> tuple[str, list[list[str]]]:
    selected: list[str] = []
    names: list[list[str]] = []
    for model, alias in _PARTS:
        sql, attnames = fields_of(model, alias)
        selected += sql
        names.append(attnames)
    selected += [f"({sql})" for sql in extra]
    statement = "SELECT " + ", ".join(selected) + _JOINS + f" WHERE {where} LIMIT 1"
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


def _seating_row(where: str, params: Sequence[Any], *, extra: Sequence[str] = (),
                 extra_params: Sequence[Any] = (), lock: bool = False,
                 using: str = "default") -> tuple[Seating, tuple[Any, ...]] | None:
    """The one seating matching ``where`` (SQL over the aliases ``<seating table>``,
    ``jr`` round, ``jc`` championship, ``jt`` table, ``jn``/``je`` the NS/EW pair;
    ``params`` its parameters) with its round, championship, table and pairs set, and
    the values of the ``extra`` columns (SQL expressions whose parameters,
    ``extra_params``, come before ``params``). ``lock``: on PostgreSQL ``FOR UPDATE``
    of the seating's row and ``FOR KEY SHARE`` of its championship's and round's (a
    close or finish waiting for the save, or the save seeing the closed round);
    elsewhere ``FOR UPDATE`` where supported. ``None`` when nothing matches."""
    connection = connections[using]
    key = (where, tuple(extra), lock, using)
    built = _STATEMENTS.get(key)
    if built is None:
        built = _STATEMENTS[key] = _statement(connection, where, extra, lock)
    statement, names = built
    with connection.cursor() as cursor:
        cursor.execute(statement, [*extra_params, *params])
        row = cursor.fetchone()
    if row is None:
        return None
    instances: list[Any] = []
    start = 0
    for (model, _alias), attnames in zip(_PARTS, names, strict=True):
        instances.append(from_row(model, row[start:start + len(attnames)], using))
        start += len(attnames)
    seating, round_, championship, table, ns_pair, ew_pair = instances
    round_.championship = championship
    seating.round, seating.table = round_, table
    seating.ns_pair, seating.ew_pair = ns_pair, ew_pair
    return seating, tuple(row[start:])


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

_S, _B = Seating._meta.db_table, Board._meta.db_table
_X, _PB, _P = Result._meta.db_table, PairBoard._meta.db_table, Pair._meta.db_table
#: Whether the board (parameter: its id) fits the seating's round.
_BOARD_FITS = (
    f"EXISTS (SELECT 1 FROM {_B} b WHERE b.id = %s AND (b.round_id = {_S}.round_id"  # noqa: S608
    f" OR (b.round_id IS NULL AND b.championship_id ="
    f" (SELECT r.championship_id FROM {_R} r WHERE r.id = {_S}.round_id))))"
)
#: Whether the seating's round has a result. From the round's seatings to their results'
#: index: written as a join, PostgreSQL read every result of the database (every
#: championship's) in its table's order until one of this round came up, 2-3 ms a save
#: with 5,000 rows stored.
_ROUND_STARTED = (
    f"EXISTS (SELECT 1 FROM {_S} s WHERE s.round_id = {_S}.round_id"  # noqa: S608
    f" AND EXISTS (SELECT 1 FROM {_X} x WHERE x.seating_id = s.id))"
)
#: The number of a pair of the seating that played the board (parameter: its id) at
#: another table.
_PLAYED_BY = (
    f"SELECT p.number FROM {_PB} pb INNER JOIN {_P} p ON p.id = pb.pair_id"  # noqa: S608
    f" INNER JOIN {_X} x ON x.id = pb.result_id WHERE pb.board_id = %s"
    f" AND pb.pair_id IN ({_S}.ns_pair_id, {_S}.ew_pair_id) AND x.seating_id <> {_S}.id LIMIT 1"
)
#: The same for a board named by its number in the seating's round (parameter: the number).
_PLAYED_BY_AT = _PLAYED_BY.replace("%s", f"({BOARD_OF_ROUND})", 1)
#: Whether the table has an entry of its players on the board (parameter: its id) still
#: waiting (provisional or disputed): one column more here, no statement more a save.
_TABLE_WAITING = (
    f"EXISTS (SELECT 1 FROM {TableEntry._meta.db_table} te"  # noqa: S608
    f" WHERE te.round_id = {_S}.round_id AND te.table_number = jt.number"
    f" AND te.board_id = %s AND te.status IN ('provisional', 'disputed'))"
)
_TABLE_WAITING_AT = _TABLE_WAITING.replace("%s", f"({BOARD_OF_ROUND})", 1)
_ROLE = Membership._meta.get_field("role").column
#: The user's (parameter: the id) roles in the seating's championship, comma-separated
#: (none: NULL): what ``permissions.roles_of`` reads, one statement fewer a save.
_ROLES = (
    f"SELECT string_agg({_ROLE}, ',') FROM {Membership._meta.db_table}"  # noqa: S608
    f" WHERE {Membership._meta.get_field('championship').column} = jc.id"
    f" AND {Membership._meta.get_field('user').column} = %s"
)


def _with_roles(extra: list[str], params: list[Any], user_id: int | None,
                using: str) -> bool:
    """Add the roles' column to ``extra`` where it can be read in the same statement
    (PostgreSQL) for a user; whether it was added."""
    if user_id is None or connections[using].vendor != "postgresql":
        return False
    extra.append(_ROLES)
    params.append(user_id)
    return True


def _roles(joined: str | None) -> frozenset[str]:
    return frozenset(joined.split(",") if joined else ())


def save_context(seating_id: int, board: Board, *, user_id: int | None,
                 using: str = "default") -> SaveContext | None:
    """The :class:`SaveContext` of ``board`` at seating ``seating_id``, the seating's row
    locked (``FOR UPDATE``) and its championship's and round's ``FOR KEY SHARE`` until
    the transaction ends; the roles those of ``user_id`` (``None``: not read). ``None``
    when the seating no longer exists (the table drawn again meanwhile)."""
    extra = [_BOARD_FITS, _ROUND_STARTED, _PLAYED_BY, _TABLE_WAITING]
    params: list[Any] = [board.pk, board.pk, board.pk]
    read_roles = _with_roles(extra, params, user_id, using)
    found = _seating_row(f"{SEATING}.id = %s", (seating_id,), extra=extra,
                         extra_params=params, lock=True, using=using)
    if found is None:
        return None
    seating, values = found
    return SaveContext(
        seating=seating, board=board, board_fits=bool(values[0]),
        round_started=bool(values[1]), played_by=values[2],
        roles=_roles(values[4]) if read_roles else None, table_waiting=bool(values[3]),
    )


def save_context_at(slug: str, round_number: int, table_number: int, board_number: int,
                    *, user_id: int | None, using: str = "default") -> SaveContext | None:
    """The :class:`SaveContext` of table ``table_number`` in round ``round_number`` of
    the championship ``slug`` and that round's board numbered ``board_number`` (so it
    fits by construction), locked as :func:`save_context` locks it, in one statement.
    ``None`` when any of the four names nothing, or when another transaction changed the
    seating's row while this one waited for its lock (PostgreSQL then drops the row
    whose joins no longer hold: :func:`seating_at` tells which)."""
    extra = [BOARD_OF_ROUND, _ROUND_STARTED, _PLAYED_BY_AT, _TABLE_WAITING_AT]
    params: list[Any] = [board_number, board_number, board_number]
    read_roles = _with_roles(extra, params, user_id, using)
    found = _seating_row(_AT, (slug, round_number, slug, table_number), extra=extra,
                         extra_params=params, lock=True, using=using)
    if found is None or found[1][0] is None:
        return None
    seating, values = found
    return SaveContext(
        seating=seating, board=_board(seating, values[0], board_number, using),
        board_fits=True, round_started=bool(values[1]), played_by=values[2],
        roles=_roles(values[4]) if read_roles else None, table_waiting=bool(values[3]),
    )


def _board(seating: Seating, board_id: int, number: int, using: str) -> Board:
    """The board ``board_id`` of ``seating``'s round without its deal, which the save and
    the API do not read (its championship and round set)."""
    championship = seating.round.championship
    board = Board.from_db(using, ["id", "championship_id", "round_id", "number"],
                          [board_id, championship.pk, seating.round_id, number])
    board.championship, board.round = championship, seating.round
    return board


def seating_at(slug: str, round_number: int, table_number: int, board_number: int, *,
               using: str = "default") -> tuple[Seating, Board] | None:
    """The seating of table ``table_number`` in round ``round_number`` of the
    championship ``slug`` (with its round, championship, table and pairs) and that
    round's board numbered ``board_number`` (its row without the deal, with its
    championship and round set), in one unlocked statement. ``None`` when any of the
    four names nothing."""
    found = _seating_row(_AT, (slug, round_number, slug, table_number),
                         extra=[BOARD_OF_ROUND], extra_params=[board_number], using=using)
    if found is None or found[1][0] is None:
        return None
    seating, values = found
    return seating, _board(seating, values[0], board_number, using)


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


# --------------------------------------------------------------------------- writes

_VERSION = _field(Championship, "results_version")
_CHANGED_AT = _field(Championship, "results_changed_at")

#: Adds one to a championship's ``results_version`` and stamps ``results_changed_at``:
#: parameters the stamp (prepared by the field) and the championship's id. Written once:
#: every result save runs it, and building the ORM's ``update()`` cost more CPU than the
#: database's answer.
_BUMP = (
    f'UPDATE "{Championship._meta.db_table}" SET'  # noqa: S608
    f' "{_VERSION.column}" = "{_VERSION.column}" + 1, "{_CHANGED_AT.column}" = %s'
    f' WHERE "id" = %s'
)


def _insert_fields(model: type[Model]) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


_RESULT_FIELDS = _insert_fields(Result)
_AUDIT_FIELDS = _insert_fields(AuditEntry)
_AUDIT_RESULT = _field(AuditEntry, "result")
#: The audit row's fields given as parameters (its result comes from the result's insert).
_AUDIT_GIVEN = [f for f in _AUDIT_FIELDS if f is not _AUDIT_RESULT]
_PAIR_BOARD = [_field(PairBoard, name) for name in ("pair", "board", "result")]
_NEW_ID = "(SELECT \"id\" FROM r)"


def _names(fields: list[Field[Any, Any]]) -> str:
    return ", ".join(f'"{f.column}"' for f in fields)


#: Parameters: the result's fields (``_RESULT_FIELDS``), the two pairs and the board,
#: the audit row's fields but its result (``_AUDIT_FIELDS``), then the version bump's.
_INSERT_ALL = (
    f'WITH r AS (INSERT INTO "{Result._meta.db_table}" ({_names(_RESULT_FIELDS)})'  # noqa: S608
    f' VALUES ({", ".join(["%s"] * len(_RESULT_FIELDS))}) RETURNING "id"),'
    f' p AS (INSERT INTO "{PairBoard._meta.db_table}" ({_names(_PAIR_BOARD)})'
    f" VALUES (%s, %s, {_NEW_ID}), (%s, %s, {_NEW_ID})),"
    f' a AS (INSERT INTO "{AuditEntry._meta.db_table}" ({_names(_AUDIT_FIELDS)}) VALUES ('
    + ", ".join(_NEW_ID if f is _AUDIT_RESULT else "%s" for f in _AUDIT_FIELDS)
    + ') RETURNING "id") '
    + _BUMP
    + f' RETURNING {_NEW_ID}, (SELECT "id" FROM a)'  # noqa: S608
)


def _stamp(connection: Any) -> Any:
    """Now, as ``results_changed_at`` is sent to ``connection``."""
    return _CHANGED_AT.get_db_prep_value(timezone.now(), connection)


#: The bump that also answers the championship's status, in the same statement.
_BUMP_STATUS = _BUMP + f' RETURNING "{_field(Championship, "status").column}"'


def bump_results_version(championship_id: int, *, using: str = "default") -> str | None:
    """One more ``results_version`` of the championship, ``results_changed_at`` now
    (``services.common.bump_results_version`` says when and why). Returns the
    championship's status (``None``: no such row), read by the same statement, so that
    the caller knows a finished championship changed at no extra query."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_BUMP_STATUS, [_stamp(connection), championship_id])
        row = cursor.fetchone()
    return None if row is None else str(row[0])


def _values(instance: Model, fields: list[Field[Any, Any]], connection: Any) -> list[Any]:
    """Each field's value as the ORM's insert sends it (``pre_save`` with ``add``, then
    ``get_db_prep_save``)."""
    return [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]


def _saved(instance: Model, pk: int, using: str) -> None:
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = using


def insert_result(result: Result, *, ns_pair_id: int, ew_pair_id: int, entry: AuditEntry,
                  using: str = "default") -> None:
    """Store the new ``result`` (unsaved, its fields set), a ``PairBoard`` row for each
    of its two pairs on its board, the audit row ``entry`` (unsaved; its ``result``
    becomes ``result``) and one more results version of ``entry``'s championship, in
    the caller's transaction. Afterwards both instances are saved ones (ids set).
    Raises ``IntegrityError`` as the ORM's inserts would (the result of that table and
    board, or a pair's row of that board, already stored); nothing is then written."""
    write = (in_one_statement if connections[using].vendor == "postgresql"
             else with_the_orm)
    write(result, ns_pair_id=ns_pair_id, ew_pair_id=ew_pair_id, entry=entry, using=using)


def with_the_orm(result: Result, *, ns_pair_id: int, ew_pair_id: int, entry: AuditEntry,
                 using: str = "default") -> None:
    """:func:`insert_result` by the ORM's four statements (any database)."""
    result.save(using=using)
    PairBoard.objects.using(using).bulk_create([
        PairBoard(pair_id=ns_pair_id, board_id=result.board_id, result=result),
        PairBoard(pair_id=ew_pair_id, board_id=result.board_id, result=result),
    ])
    entry.result = result
    entry.save(using=using)
    bump_results_version(entry.championship_id, using=using)


def in_one_statement(result: Result, *, ns_pair_id: int, ew_pair_id: int,
                     entry: AuditEntry, using: str = "default") -> None:
    """:func:`insert_result` in one statement (PostgreSQL: ``WITH ... INSERT``)."""
    connection = connections[using]
    params = [*_values(result, _RESULT_FIELDS, connection),
              ns_pair_id, result.board_id, ew_pair_id, result.board_id,
              *_values(entry, _AUDIT_GIVEN, connection), _stamp(connection),
              entry.championship_id]
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_ALL, params)
        row = cursor.fetchone()
    if row is None:  # no championship row to count it: the caller's transaction ends
        raise RuntimeError(f"championship {entry.championship_id} does not exist")
    _saved(result, row[0], using)
    entry.result = result
    _saved(entry, row[1], using)
