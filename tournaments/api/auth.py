"""Tokens for devices: ``POST /api/v1/token/`` with a username and password returns
``{"token": ...}``; the device then sends ``Authorization: Token <key>`` and acts as that
user (a referee's token enters results as that referee).

The password is checked by ``django.contrib.auth.authenticate`` with the request, so the
attempts count towards django-axes' lockout like the login page's (429 once locked out,
``tournaments.lockouts``); a right password sets the device cookie like the login page
(``tournaments.devices``), for a client that keeps cookies.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import devices, lockouts
from tournaments.api.serializers import TokenRequestSerializer, TokenSerializer
from tournaments.services import access


class TokenApi(APIView):
    """Trade a username and password for the user's API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []  # a login: no session, so no CSRF token

    @extend_schema(request=TokenRequestSerializer, responses={200: TokenSerializer})
    def post(self, request: Request) -> Response:
        incoming = TokenRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        django_request = request._request
        user = authenticate(
            django_request, username=incoming.validated_data["username"],
            password=incoming.validated_data["password"],
        )
        if getattr(django_request, "axes_locked_out", False):
            raise exceptions.Throttled(detail=lockouts.lockout_message())
        if user is None:
            raise exceptions.ValidationError(
                {"non_field_errors": [_("Nom d'usuari o contrasenya incorrectes.")]}
            )
        devices.remember(django_request, user.get_username())
        return Response(TokenSerializer({"token": access.token_for(user=user)}).data)
