"""How a device authenticates: DRF's token scheme (``Authorization: Token <key>``) with
the token and its user read by one fixed SQL statement.

A module of its own: DRF imports its authentication classes while ``rest_framework.views``
is still loading, so this one imports no view.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from tournaments.models.joined import columns, from_row


class DeviceTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, with the same answers and checks (an unknown key or an
    inactive user is 401), reading the token and its user by one fixed SQL statement
    built once from the models' fields: DRF's ``select_related("user")`` cost every
    request more CPU building its SQL than the database spent answering it."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        if "\x00" in key:  # PostgreSQL refuses NUL in text: no key holds one
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user_model = get_user_model()
        token_fields = Token._meta.concrete_fields
        with connection.cursor() as cursor:
            cursor.execute(_token_sql(), [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = from_row(Token, row[:len(token_fields)], connection.alias)
        user = from_row(user_model, row[len(token_fields):], connection.alias)
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


_SQL: list[str] = []


def _token_sql() -> str:
    """``SELECT <token columns>, <user columns> ... WHERE key = %s``, built once."""
    if not _SQL:
        user_model = get_user_model()
        selected = columns(Token, "t") + columns(user_model, "u")
        _SQL.append(
            f"SELECT {', '.join(selected)} FROM {Token._meta.db_table} t"  # noqa: S608
            f' INNER JOIN {user_model._meta.db_table} u'
            f' ON u."{user_model._meta.pk.column}" = t.user_id WHERE t.key = %s'
        )
    return _SQL[0]
