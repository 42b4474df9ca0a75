"""A row's columns, read by a fixed SQL statement, into a saved model instance that is
the one a queryset would give (:func:`from_row`: the database's converters, then
``Model.from_db``), and the column list such a statement selects (:func:`columns`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connections
from django.db.models import Model

M = TypeVar("M", bound=Model)


def fields_of(model: type[Model], alias: str) -> tuple[list[str], list[str]]:
    """``alias."column"`` and the attname of each of ``model``'s concrete fields, in the
    order :func:`from_row` reads them."""
    fields = model._meta.concrete_fields
    return [f'{alias}."{f.column}"' for f in fields], [f.attname for f in fields]


def columns(model: type[Model], alias: str) -> list[str]:
    """``alias."column"`` of each of ``model``'s concrete fields, in the order
    :func:`from_row` reads them."""
    return fields_of(model, alias)[0]


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


def from_row(model: type[M], values: Sequence[Any], using: str = "default") -> M:
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
