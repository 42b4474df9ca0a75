"""A device's API token and its user, in one fixed SQL statement built once from the
models' fields: DRF's ``select_related("user")`` cost every API request more CPU
building its SQL than the database spent answering it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections
from rest_framework.authtoken.models import Token

from tournaments.db.rows import columns, from_row

_SQL: list[str] = []


def _token_sql() -> str:
    """``SELECT <token columns>, <user columns> ... WHERE key = %s``, built once (the
    user model is known only once the apps are loaded)."""
    if not _SQL:
        user_model = get_user_model()
        selected = columns(Token, "t") + columns(user_model, "u")
        _SQL.append(
            f"SELECT {', '.join(selected)} FROM {Token._meta.db_table} t"  # noqa: S608
            f' INNER JOIN {user_model._meta.db_table} u'
            f' ON u."{user_model._meta.pk.column}" = t.user_id WHERE t.key = %s'
        )
    return _SQL[0]


def token_with_user(key: str, *, using: str = "default") -> tuple[Token, Any] | None:
    """The token whose key is ``key`` with its ``user`` set, as
    ``Token.objects.select_related("user").get(key=key)`` gives it, or ``None`` (no such
    key). ``key`` must hold no NUL, which PostgreSQL refuses in text."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    count = len(Token._meta.concrete_fields)
    token = from_row(Token, row[:count], using)
    token.user = from_row(get_user_model(), row[count:], using)
    return token, token.user
