"""Many rows of one model at once, inside the caller's transaction.

On PostgreSQL the rows go through ``COPY ... FROM STDIN`` (psycopg 3's ``cursor.copy()``),
with their primary keys drawn beforehand from the table's own sequence, so that the rows
that point at them can be written the same way; elsewhere (SQLite) through
``bulk_create`` in batches. Both paths write the same rows: the database checks every
constraint either way (COPY fires the same checks, unique indexes and foreign keys), and
a refused row raises Django's ``IntegrityError``/``DataError`` like ``bulk_create`` does.

An import of 200,000 results went from 110 s and 936 MB to 62 s and 384 MB this way on a
busy 2-core machine (Django's ``bulk_create`` builds a model instance per row and quotes
every value on the client; docs/performance.md "Import").
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import connection, models
from django.db.models import ForeignObjectRel

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
        objs = [
            model(**{name: json.loads(value) if isinstance(value, JsonText) else value
                     for name, value in zip(fields, row, strict=True)})
            for row in rows
        ]
        model._default_manager.bulk_create(objs, batch_size=BATCH_SIZE)
        return [obj.pk for obj in objs] if with_ids else []
    if not isinstance(rows, Sequence):
        rows = list(rows)
    n = len(rows) if count is None else count
    ids = _next_ids(model, n) if with_ids else []
    encoders = [
        field.encoder if isinstance(field, models.JSONField) else None for field in columns
    ]
    names = ", ".join(connection.ops.quote_name(_column(f)) for f in columns)
    if with_ids:
        names = f"{connection.ops.quote_name(_column(opts.pk))}, {names}"
    sql = f"COPY {connection.ops.quote_name(opts.db_table)} ({names}) FROM STDIN"
    with connection.cursor() as cursor, connection.wrap_database_errors:
        raw = cursor.cursor  # psycopg's own cursor: Django's has no copy()
        with raw.copy(sql) as copy:
            chunk: list[str] = []
            for i, row in enumerate(rows):
                line = "\t".join(
                    _text(value) if encoder is None else _json_text(value, encoder)
                    for value, encoder in zip(row, encoders, strict=True)
                )
                chunk.append(f"{ids[i]}\t{line}\n" if with_ids else f"{line}\n")
                if len(chunk) == _CHUNK_ROWS:
                    copy.write("".join(chunk))
                    chunk.clear()
            if chunk:
                copy.write("".join(chunk))
    return ids


def _column(field: models.Field[Any, Any] | ForeignObjectRel) -> str:
    """The column a field is stored in: COPY names the columns it fills."""
    if not isinstance(field, models.Field) or not field.column:
        raise TypeError(f"{field!r} is not a column")
    return field.column


class JsonText(str):
    """A value for a ``JSONField`` column that is already JSON text (e.g. one built once
    and reused for many rows): COPY sends it as it is, ``bulk_create`` gets it parsed."""


#: Rows per write to the COPY stream.
_CHUNK_ROWS = 5000
#: COPY's text format: a backslash, tab, newline or carriage return in a value is escaped.
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _text(value: Any) -> str:
    """``value`` in COPY's text format (``\\N`` for NULL)."""
    convert = _TEXT.get(type(value))
    if convert is not None:
        return convert(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    return str(value).translate(_ESCAPES)


_TEXT: dict[type, Callable[[Any], str]] = {
    type(None): lambda _value: "\\N",
    bool: lambda value: "t" if value else "f",
    int: str,
    str: lambda value: value.translate(_ESCAPES),
}


def _json_text(value: Any, encoder: type[json.JSONEncoder] | None) -> str:
    if value is None:  # what JSONField stores for None: SQL NULL
        return "\\N"
    text: str = value if isinstance(value, JsonText) else json.dumps(value, cls=encoder)
    return text.translate(_ESCAPES)


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
