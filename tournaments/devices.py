"""Device cookies (OWASP's remedy for lockout denial of service, docs/decisions.md 79):
a browser or device that has signed in as a user carries a signed cookie naming it (a
random device id) and the users who signed in on it. django-axes then counts failed
logins:

- for a user name, from any client without that user's device cookie, wherever it is
  (``AXES_FAILURE_LIMIT`` a cool-off, the address does not matter), and
- for a (user name, device) pair, from a client that carries that user's device cookie.

So strangers in the hall, however many wrong passwords they type for a referee, lock out
only the clients that never signed in as that referee: the referee's own phone still
signs in with the right password. The device id is stored as the attempt's
``user_agent`` (``device:<id>``), the one field of django-axes' rows that the lockout
parameters may name besides the user name and the address.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from tournaments.services.access import DEVICE_PREFIX

COOKIE_NAME = "botifarra_device"
_SALT = "tournaments.devices"
#: A device cookie lasts a year from the last sign-in on that device.
MAX_AGE_SECONDS = 365 * 24 * 3600
#: The users one device remembers (the most recent kept): a shared tablet at a table.
MAX_USERS = 20

#: The request attribute that holds the user name whose device cookie this answer sets.
_SIGNED_IN = "_device_cookie_user"


def _read(request: HttpRequest) -> tuple[str, list[str]] | None:
    """The device id and the users of this request's device cookie, or None (none, a
    forged or an expired one)."""
    raw = request.COOKIES.get(COOKIE_NAME)
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=_SALT, max_age=MAX_AGE_SECONDS)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict):
        return None
    device, users = value.get("d"), value.get("u")
    if not isinstance(device, str) or not isinstance(users, list):
        return None
    return device, [u for u in users if isinstance(u, str)]


def device_of(request: HttpRequest, username: str | None) -> str | None:
    """The id of this request's device if it carries ``username``'s device cookie."""
    found = _read(request)
    if found is None or not username or username not in found[1]:
        return None
    return found[0]


def lockout_parameters(request: Any, credentials: dict[str, Any] | None = None) -> list[Any]:
    """``AXES_LOCKOUT_PARAMETERS``: the (user name, device) pair for a client with that
    user's device cookie, the user name alone for any other."""
    if isinstance(request, HttpRequest):
        username = get_client_username(request, credentials)
        if device_of(request, username) is not None:
            return [["username", "user_agent"]]
    return ["username"]


def remember(request: HttpRequest, username: str) -> None:
    """Have this request's answer carry ``username``'s device cookie (after a sign-in
    with the right password: the login page, the admin's, the API's token request)."""
    setattr(request, _SIGNED_IN, username)


@receiver(user_logged_in, dispatch_uid="tournaments.devices.remember")
def _on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None:
        remember(request, user.get_username())


def _set_cookie(request: HttpRequest, response: HttpResponseBase, username: str) -> None:
    found = _read(request)
    device, users = found if found is not None else (secrets.token_urlsafe(16), [])
    users = [*[u for u in users if u != username][-(MAX_USERS - 1):], username]
    response.set_cookie(
        COOKIE_NAME, signing.dumps({"d": device, "u": users}, salt=_SALT, compress=True),
        max_age=MAX_AGE_SECONDS, secure=settings.SESSION_COOKIE_SECURE, httponly=True,
        samesite="Lax",
    )


class DeviceCookieMiddleware:
    """Before the login is checked: the attempt's ``user_agent`` is the device id when
    the request carries a device cookie (django-axes reads its request attributes once,
    :meth:`AxesProxyHandler.update_request`). After: a sign-in with the right password
    sets or extends the device cookie. Placed just before ``AxesMiddleware``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # A password arrives by POST only: other requests skip the signature check.
        found = _read(request) if request.method == "POST" else None
        if found is not None:
            AxesProxyHandler.update_request(request)
            request.axes_user_agent = DEVICE_PREFIX + found[0]  # type: ignore[attr-defined]  # django-axes' own request attribute
        response = self.get_response(request)
        username = getattr(request, _SIGNED_IN, None)
        if username and response.status_code < 400:
            _set_cookie(request, response, username)
        return response
