"""Health check and database-outage handling for a deployed site.

``/healthz`` answers ``{"status": "ok"|"degraded"|"down", "database": "ok"|"error",
"page": "ok"|"error", "broker": "ok"|"error"|"none", "cache": "ok"|"error"|"none"}``,
each part apart (``"none"``: not configured, e.g. no broker means tasks run
in-process). What serves a page is the database and a page rendered with its static
files (the layout every page extends, whose ``{% static %}`` names must be in the
collected manifest when ``DEBUG`` is off): either failing is ``"down"``, 503. The
cache and the broker only spare work or run prints: the pages are served without them,
so either failing is ``"degraded"``, still 200 (a load balancer keeps the process), and
the part itself says ``"error"``. It is cheap (one ``SELECT 1``, one template render,
one broker connection, one cache read, each bounded to about a second) and needs no
login and no session: :class:`HealthCheckMiddleware` answers it
before the host check, the https redirect and the session middleware, so a container or
load balancer can ask it over plain http by IP address.

:class:`DatabaseUnavailableMiddleware` turns a lost database connection (PostgreSQL
restarting, failing over) into a 503 page that says to try again, instead of a 500 with
a traceback. Writes are transactions, so the failed request stored nothing; the next
request opens a fresh connection (``CONN_HEALTH_CHECKS``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from tournaments.cache import RedisCacheOrNothing, log_once_a_minute

log = logging.getLogger(__name__)

#: Seconds a part may take to answer before it counts as down.
TIMEOUT = 1.0
PATH = "/healthz"


def check_database() -> str:
    """``"ok"`` when the default database answers ``SELECT 1``, else ``"error"``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        log.warning("health: database: %s", exc)
        # A broken connection must not be reused by the next request of this thread.
        connection.close_if_unusable_or_obsolete()
        return "error"
    return "ok"


def check_broker() -> str:
    """``"none"`` without ``CELERY_BROKER_URL`` (tasks run in-process); ``"ok"`` when a
    connection to the broker opens within :data:`TIMEOUT`; ``"error"`` otherwise."""
    url = settings.CELERY_BROKER_URL
    if not url:
        return "none"
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=TIMEOUT,
                        transport_options={"socket_timeout": TIMEOUT}) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0,
                timeout=TIMEOUT)  # type: ignore[arg-type]  # kombu takes float seconds

    except Exception as exc:
        log_once_a_minute("health-broker", "health: broker: %s", exc)  # probes come often
        return "error"
    return "ok"


def check_cache() -> str:
    """``"none"`` for a per-process cache (local memory); for a shared one (Redis),
    ``"ok"`` when a read answers, ``"error"`` otherwise."""
    backend = str(settings.CACHES["default"]["BACKEND"])
    if backend.endswith(("LocMemCache", "DummyCache")):
        return "none"
    cache = caches["default"]
    try:
        if isinstance(cache, RedisCacheOrNothing):
            cache.ping()  # its get() hides a Redis that is down
        else:
            cache.get("healthz")
    except Exception as exc:
        log_once_a_minute("health-cache", "health: cache: %s", exc)  # probes come often
        return "error"
    return "ok"


#: The layout every HTML page extends: rendering it proves the templates load and its
#: static files resolve (``Missing staticfiles manifest entry`` otherwise).
PAGE_TEMPLATE = "base.html"
#: Parts without which no page is served (``"down"``, 503); the others degrade it.
VITAL = ("database", "page")


def check_page() -> str:
    """``"ok"`` when :data:`PAGE_TEMPLATE` renders, static file URLs included, else
    ``"error"`` (e.g. ``DEBUG`` off and ``collectstatic`` not run: every page would be a
    500)."""
    try:
        render_to_string(PAGE_TEMPLATE, {"user": AnonymousUser()})
    except Exception as exc:
        log.warning("health: page: %s", exc)
        return "error"
    return "ok"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """The health document (module docstring): 503 when a vital part fails, else 200."""
    parts = {"database": check_database(), "page": check_page(),
             "broker": check_broker(), "cache": check_cache()}
    if any(parts[name] == "error" for name in VITAL):
        overall = "down"
    elif "error" in parts.values():
        overall = "degraded"
    else:
        overall = "ok"
    return JsonResponse({"status": overall, **parts}, status=503 if overall == "down" else 200)


class HealthCheckMiddleware:
    """Answer ``GET/HEAD /healthz`` at once, before any other middleware: no host
    check (a probe asks by IP), no https redirect, no session, no language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.rstrip("/") == PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A request whose database connection failed gets a 503 page with ``Retry-After``
    (the database is restarting: try again in a few seconds), never a traceback."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.error("database unavailable for %s %s: %s", request.method, request.path, exception)
        # Drop the broken connection so that the next request opens a new one.
        connection.close_if_unusable_or_obsolete()
        if request.path.startswith("/api/") or "application/json" in request.headers.get(
            "Accept", ""
        ):
            response: HttpResponse = JsonResponse(
                {"detail": gettext("La base de dades no respon: torneu-ho a provar d'aquí a "
                                   "uns segons.")},
                status=503,
            )
        else:
            response = HttpResponse(render_to_string("503.html", request=None), status=503)
        response["Retry-After"] = "5"
        return response
