"""Doors: the client's address, the login lockout (django-axes) and its unlocking, the
print-job limit per address and the table page's limits per table and per address
(django-ratelimit).

A user name with ``AXES_FAILURE_LIMIT`` failed logins (the login page, the admin's, the
API's token request) is locked out for ``AXES_COOLOFF_TIME`` for every client without
that user's device cookie, and a device with it only by its own failures
(``tournaments.devices``, docs/decisions.md 79); the lockout page says so in the user's
language, and the organiser sees who is being tried and can unlock sooner from
``accounts/lockouts/`` (docs/decisions.md "Doors").
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from django_ratelimit.core import get_usage

from tournaments import selectors
from tournaments.cache import RedisCacheOrNothing, log_once_a_minute
from tournaments.services import access

#: Where the API lives: a lockout there is answered in JSON, elsewhere with the page.
API_PREFIX = "/api/"


def client_address(request: HttpRequest) -> str:
    """The client's IP address. Behind the proxy (``SECURE_PROXY_SSL_HEADER`` set, see
    deploy/README.md) the last entry of ``X-Forwarded-For``, the one the proxy appended
    (the entries before it are the client's word); else ``REMOTE_ADDR``."""
    if settings.SECURE_PROXY_SSL_HEADER:
        forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", ""))
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR") or "")


def lockout_message() -> str:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return ngettext(
        "Massa intents d'entrada fallits amb aquest nom d'usuari. Entreu des d'un "
        "dispositiu on ja hàgiu entrat abans, torneu-ho a provar d'aquí a %(minutes)s "
        "minut o demaneu a l'organitzador que us desbloquegi.",
        "Massa intents d'entrada fallits amb aquest nom d'usuari. Entreu des d'un "
        "dispositiu on ja hàgiu entrat abans, torneu-ho a provar d'aquí a %(minutes)s "
        "minuts o demaneu a l'organitzador que us desbloquegi.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a locked-out login (``AXES_LOCKOUT_CALLABLE``): 429 with
    the page in the user's language, or ``{"detail": ...}`` under /api/."""
    message = lockout_message()
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": message, "code": "locked_out"}, status=429)
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


def _address_key(group: str, request: HttpRequest) -> str:
    return client_address(request)


def _print_usage(request: Any, *, increment: bool) -> dict[str, Any] | None:
    """The address's print-job count (django-ratelimit), or ``None`` when the cache that
    holds it does not answer: the limit then fails open (``RATELIMIT_FAIL_OPEN``), with
    a log line at most once a minute, rather than stopping the printing or a 500."""
    django_request = getattr(request, "_request", request)
    try:
        usage: dict[str, Any] | None = get_usage(
            django_request, group="print-jobs", key=_address_key,
            rate=f"{settings.PRINT_JOBS_PER_MINUTE}/m", increment=increment,
        )
    except Exception as exc:  # a cache backend that raises instead of missing
        usage = None
        log_once_a_minute("ratelimit", "print-job limit not counted, the cache fails "
                          "(%s): every address may print", exc)
    cache = caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]
    if isinstance(cache, RedisCacheOrNothing) and cache.is_down():
        log_once_a_minute("ratelimit", "print-job limit not counted, the cache does not "
                          "answer: every address may print")
        return None
    return usage


def print_jobs_exhausted(request: Any, championship: Any) -> bool:
    """Whether this request's address already started its ``PRINT_JOBS_PER_MINUTE``
    print jobs this minute (counted by :func:`print_job_started`). A user with a role in
    ``championship`` is never limited; ``championship`` ``None`` (a circuit's ranking):
    everyone is. ``request``: a Django or DRF request. The count lives in the cache; a
    cache that does not answer limits nobody."""
    if championship is not None and selectors.user_roles(getattr(request, "user", None),
                                                         championship):
        return False
    usage = _print_usage(request, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def print_job_started(request: Any) -> None:
    """Count one print job started from this request's address."""
    _print_usage(request, increment=True)


def table_page_wait(request: HttpRequest, secret: str) -> int | None:
    """Count one request of a table's page (``/t/<secret>/`` and its live hand score)
    per table (``TABLE_ENTRY_RATE_PER_TABLE``, by the secret's hash) and per address
    (``TABLE_ENTRY_RATE_PER_ADDRESS``), as the table's API counts its own (its counters
    apart, so that a pair typing never uses up the table's entries). The seconds to
    wait when either limit is reached, else ``None``. Never a login attempt, so never a
    lockout; a cache that does not answer limits nobody."""
    digest = hashlib.sha256(secret.encode()).hexdigest()
    wait: int | None = None
    for group, key, rate in (
        ("table-page", lambda _group, _request: digest, settings.TABLE_ENTRY_RATE_PER_TABLE),
        ("table-page-address", _address_key, settings.TABLE_ENTRY_RATE_PER_ADDRESS),
    ):
        try:
            usage = get_usage(request, group=group, key=key, rate=str(rate), increment=True)
        except Exception as exc:  # a cache backend that raises instead of missing
            log_once_a_minute("ratelimit", "table page limit not counted, the cache fails "
                              "(%s)", exc)
            return None
        if usage is not None and usage["should_limit"]:
            wait = max(wait or 0, int(usage["time_left"]) + 1)
    return wait


@login_required
@require_http_methods(["GET", "POST"])
def lockouts(request: HttpRequest) -> HttpResponse:
    """The user names being tried that this user may unlock (:func:`access.lockouts_for`:
    addresses, counts, last time, locked or not), each with an "unlock" button; POST
    ``username`` or ``ip_address`` unlocks it."""
    if not access.may_unlock_any(request.user):
        raise PermissionDenied(_("Només un organitzador pot desbloquejar usuaris."))
    if request.method == "POST":
        try:
            access.lockout_reset(
                username=request.POST.get("username", "").strip() or None,
                ip_address=request.POST.get("ip_address", "").strip() or None,
                acting_user=request.user,
            )
        except ValueError as exc:  # every refusal of a service (NotAllowedError, UnlockError)
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Desbloquejat."))
        return redirect("lockouts")
    return render(
        request, "registration/lockouts.html",
        {"lockouts": access.lockouts_for(request.user)},
    )


def _signup_usage(request: HttpRequest, *, increment: bool) -> dict[str, Any] | None:
    """The address's sign-ups this hour (django-ratelimit), or ``None`` when the cache
    does not answer: the limit then fails open, as the print jobs' does."""
    try:
        usage: dict[str, Any] | None = get_usage(
            request, group="signups", key=_address_key,
            rate=f"{settings.SIGNUPS_PER_HOUR}/h", increment=increment,
        )
    except Exception as exc:  # a cache backend that raises instead of missing
        log_once_a_minute("ratelimit", "sign-up limit not counted, the cache fails (%s)", exc)
        return None
    cache = caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]
    if isinstance(cache, RedisCacheOrNothing) and cache.is_down():
        return None
    return usage


def signups_exhausted(request: HttpRequest) -> bool:
    """Whether this request's address already sent its ``SIGNUPS_PER_HOUR`` sign-ups
    this hour (the public form; counted by :func:`signup_sent`)."""
    usage = _signup_usage(request, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def signup_sent(request: HttpRequest) -> None:
    """Count one sign-up sent from this request's address."""
    _signup_usage(request, increment=True)
