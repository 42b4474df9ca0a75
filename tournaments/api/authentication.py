"""How a device authenticates: DRF's token scheme (``Authorization: Token <key>``) with
the token and its user read by one fixed SQL statement (:mod:`tournaments.db.tokens`).

A module of its own: DRF imports its authentication classes while ``rest_framework.views``
is still loading, so this one imports no view.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token

from tournaments.db.tokens import token_with_user


class DeviceTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, with the same answers and checks (an unknown key or an
    inactive user is 401), reading the token and its user by one fixed SQL statement:
    DRF's ``select_related("user")`` cost every request more CPU building its SQL than
    the database spent answering it."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        if "\x00" in key:  # PostgreSQL refuses NUL in text: no key holds one
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        found = token_with_user(key, using=connection.alias)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, user = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


class PageSessionAuthentication(SessionAuthentication):
    """DRF's session authentication (the pages' session, with its CSRF check), refusing
    a request without a valid CSRF token in the request's language: DRF's "CSRF Failed:
    ..." has no Catalan or Spanish."""

    def enforce_csrf(self, request: Any) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(_(
                "Falta el testimoni CSRF de la sessió, o ha caducat: torneu a carregar la "
                "pàgina i repetiu-ho (o envieu-hi un testimoni d'API)."
            )) from None
