"""The result save's writes in fixed SQL: a new result, the two rows that keep a pair
from playing its board twice, its audit row and the championship's results version, in
one statement on PostgreSQL.

A new result is the hot write of a championship (every table, every board). Through
the ORM it took four statements (``Result.save``, ``PairBoard.objects.bulk_create``,
``AuditEntry.save``, the version bump), and building them cost more CPU than the rest
of the save; written once here from the models' own field lists, with every value
prepared by its field as the ORM prepares it (``pre_save``, ``get_db_prep_save``), the
rows stored are the same (tests/tournaments/test_fixed_sql_writes.py compares them
column by column). Databases without data-modifying ``WITH`` (SQLite) take the ORM's
statements, in the same order.
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import Field, Model
from django.utils import timezone

from tournaments.models.audit import AuditEntry
from tournaments.models.championships import Championship
from tournaments.models.results import PairBoard, Result

_VERSION = Championship._meta.get_field("results_version")
_CHANGED_AT = Championship._meta.get_field("results_changed_at")

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
_AUDIT_RESULT = AuditEntry._meta.get_field("result")
#: The audit row's fields given as parameters (its result comes from the result's insert).
_AUDIT_GIVEN = [f for f in _AUDIT_FIELDS if f is not _AUDIT_RESULT]
_PAIR_BOARD = [PairBoard._meta.get_field(name) for name in ("pair", "board", "result")]
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


def bump_results_version(championship_id: int, *, using: str = "default") -> None:
    """One more ``results_version`` of the championship, ``results_changed_at`` now
    (``services.common.bump_results_version`` says when and why)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_BUMP, [_stamp(connection), championship_id])


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
