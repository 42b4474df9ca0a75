"""Many rows of one model at once, inside the caller's transaction.

On PostgreSQL the rows go through ``COPY ... FROM STDIN`` (psycopg 3's ``cursor.copy()``),
with their primary keys drawn beforehand from the table's own sequence, so that the rows
that point at them can be written the same way; elsewhere (SQLite) through
``bulk_create`` in batches. Both paths write the same rows: the database checks every
constraint either way (COPY fires the same checks, unique indexes and foreign keys), and
a refused row raises Django's ``IntegrityError``/``DataError`` like ``bulk_create`` does.

An import of 200,000 results went from 110 s to a few seconds this way (Django's
``bulk_create`` builds a model instance per row and quotes every value on the client;
docs/performance.md "Import").
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models

#: Rows per ``INSERT`` when COPY is not available (SQLite allows 32,766 parameters).
BATCH_SIZE = 1000


def copy_supported() -> bool:
    """Whether :func:`insert_rows` uses COPY (the default connection is PostgreSQL)."""
    return connection.vendor == "postgresql"


def insert_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    with_ids: bool = False,
    count: int | None = None,
) -> list[int]:
    """Insert ``rows`` into ``model``'s table; returns their primary keys, in row order,
    when ``with_ids`` (else ``[]``).

    ``fields``: attribute names (``"seating_id"`` for a foreign key), the order of the
    values in each row; a row holds Python values as the model field takes them (a
    ``dict`` for a ``JSONField``, an aware ``datetime``, ``None`` for NULL). Fields left
    out take their database default, so give every column that has only a Python-side
    default. ``count``: how many rows (needed with ``with_ids`` when ``rows`` is not a
    ``Sequence``). Must run inside a transaction (``transaction.atomic``): COPY writes
    its rows one by one and only the transaction makes them all or nothing. Raises
    ``django.db.IntegrityError`` (a constraint), ``django.db.DataError`` (a value its
    column cannot hold).
    """
    opts = model._meta
    columns = [opts.get_field(name) for name in fields]
    if not copy_supported():
        objs = [model(**dict(zip(fields, row, strict=True))) for row in rows]
        model.objects.bulk_create(objs, batch_size=BATCH_SIZE)
        return [obj.pk for obj in objs] if with_ids else []
    if not isinstance(rows, Sequence):
        rows = list(rows)
    n = len(rows) if count is None else count
    ids = _next_ids(model, n) if with_ids else []
    jsons = [
        (i, field.encoder) for i, field in enumerate(columns)
        if isinstance(field, models.JSONField)
    ]
    names = ", ".join(connection.ops.quote_name(f.column) for f in columns)
    if with_ids:
        names = f"{connection.ops.quote_name(opts.pk.column)}, {names}"
    sql = f"COPY {connection.ops.quote_name(opts.db_table)} ({names}) FROM STDIN"
    with connection.cursor() as cursor, connection.wrap_database_errors:
        raw = cursor.cursor  # psycopg's own cursor: Django's has no copy()
        with raw.copy(sql) as copy:
            for i, row in enumerate(rows):
                if jsons:
                    row = list(row)
                    for j, encoder in jsons:
                        if row[j] is not None:
                            row[j] = json.dumps(row[j], cls=encoder)
                copy.write_row((ids[i], *row) if with_ids else row)
    return ids


def _next_ids(model: type[models.Model], n: int) -> list[int]:
    """``n`` primary keys from the table's sequence, ascending (each taken by this
    transaction alone, as an ``INSERT`` would take it)."""
    if n == 0:
        return []
    opts = model._meta
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [opts.db_table, opts.pk.column, n],
        )
        return sorted(row[0] for row in cursor.fetchall())
