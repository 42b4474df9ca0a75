"""Settings for Botifarra Duplicate, all read from environment variables.

Every variable has a safe default for a newcomer's first run (SQLite under ``var/``,
Celery tasks run in-process). A malformed value stops the program at start-up with a
message naming the variable, rather than running half-configured.

Variables:
    DEBUG                 "1"/"0" (default "1" unless DJANGO_SECRET_KEY is set)
    DJANGO_SECRET_KEY     required when DEBUG is off
    ALLOWED_HOSTS         comma-separated (default "127.0.0.1,localhost,testserver");
                          must not be empty when DEBUG is off (every request would be
                          refused with 400)
    DATABASE_URL          postgres://user@host:port/name or sqlite:////absolute/path
                          (default: SQLite file var/db.sqlite3; an in-memory SQLite
                          database is refused: every restart would lose the data)
    DATABASE_CONN_MAX_AGE seconds a connection is kept between requests (default 0)
    DATABASE_SERVER_SIDE_BINDING  "1": PostgreSQL gets the parameters apart from the
                          SQL (psycopg's server-side binding) and a statement is
                          prepared once it ran DATABASE_PREPARE_THRESHOLD times (default
                          5) on a connection, so PostgreSQL parses and plans it once:
                          half the database's CPU of a result save (docs/decisions.md
                          45). Default "0"; the production env example sets "1" with
                          DATABASE_CONN_MAX_AGE. Not behind a pooler in transaction
                          mode (pgbouncer): a prepared statement lives in one connection
    DATABASE_REPLAN_SECONDS  a result save asks PostgreSQL to plan its statements again
                          when its connection's plans are older than this (default 5;
                          0: never): plans made while the results tables were nearly
                          empty read them whole (tournaments/db/plans.py)
    CELERY_BROKER_URL     e.g. redis://127.0.0.1:6379/0; absent -> tasks run eagerly in-process
    CELERY_VISIBILITY_TIMEOUT  seconds before Redis redelivers a dead worker's task (900)
    CELERY_RESULT_BACKEND optional; the jobs keep their state in PrintJob rows
    CELERY_WORKER_CONCURRENCY  processes per Celery worker (default: one per CPU)
    CELERY_TASK_DEFAULT_QUEUE  queue the tasks go to and the workers read (default celery)
    PRINT_JOB_STALL_SECONDS  a running print job whose heartbeat is older than this is
                          stalled (its worker died) and is run again (default 15)
    PRINT_JOB_SWEEP_SECONDS  how often each worker looks for stalled jobs (default 5;
                          0: only on page views and worker start)
    BOARD_ANALYSIS_ON_CLOSE  closing a round computes its boards' double-dummy tables:
                          on a worker, or without a broker on the web process's one
                          background thread (default on; 0 turns it off)
    REDIS_URL / CACHE_URL redis://host:port/db for the shared cache (several web
                          processes see the same cached values); absent -> local memory
    MEDIA_ROOT            where generated files go (default var/media); never served as
                          such: downloads go through the app's permission check
    STATIC_ROOT           where collectstatic puts the static files (default var/static),
                          served by whitenoise
    LOG_LEVEL             root log level (default INFO)
    AXES_FAILURE_LIMIT    failed logins that lock a user name for the clients without its
                          device cookie, or one device with it (default 5)
    AXES_COOLOFF_MINUTES  how long a lockout lasts unless the organiser unlocks (15)
    PRINT_JOBS_PER_MINUTE print jobs one address may start per minute (default 10)
    TABLE_ENTRY_RATE_PER_TABLE    requests one table's link may make (default 60/min)
    TABLE_ENTRY_RATE_PER_ADDRESS  requests one address may make to the tables' links
                          (default 120/min)
    TABLE_LINK_BASE_URL   the site's address the tables' links start with (manage.py
                          table_links; default http://127.0.0.1:8000)
    SIGNUPS_PER_HOUR      sign-ups one address may send per hour on the public form
                          (default 20)

E-mail (the public sign-up's confirmations):
    EMAIL_HOST            the SMTP server; absent -> e-mails are written to the console
                          (the demo, a newcomer's first run)
    EMAIL_PORT            (default 587), EMAIL_HOST_USER, EMAIL_HOST_PASSWORD
    EMAIL_USE_TLS         (default 1)
    DEFAULT_FROM_EMAIL    the sender (default botifarra@localhost)

Security (HTTPS behind a proxy; see deploy/README.md and deploy/production.env.example):
    SECURE_SSL_REDIRECT           redirect http to https (default 0)
    SECURE_PROXY_SSL_HEADER       "HEADER,value" the proxy sets on https requests,
                                  e.g. "HTTP_X_FORWARDED_PROTO,https" (default none)
    SECURE_HSTS_SECONDS           Strict-Transport-Security max-age (default 0: none)
    SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD   (default 0)
    SESSION_COOKIE_SECURE, CSRF_COOKIE_SECURE   cookies over https only
                                  (default: on when DEBUG is off)
    SESSION_COOKIE_HTTPONLY, CSRF_COOKIE_HTTPONLY   no script reads them (default 1)
    CSRF_TRUSTED_ORIGINS          comma-separated https://host origins

Phones in the hall:
    SITE_URL              the address phones reach the site at, e.g.
                          http://192.168.1.20:8000: the one-time sign-in links and their
                          QR codes use it (default: the address the organiser's browser
                          used, which may be 127.0.0.1, unreachable from a phone)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from csp import constants as csp_constants
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    """Read a boolean variable; anything but the usual spellings is an error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false)")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Several referees may save at once: wait for SQLite's lock instead of failing with
# "database is locked", and take it when a transaction starts (IMMEDIATE), so two saves
# never both read and then both try to upgrade to writing (a deadlock SQLite breaks by
# failing one of them).
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}


#: PostgreSQL's server-side binding with prepared statements, unless
#: DATABASE_SERVER_SIDE_BINDING says otherwise.
SERVER_SIDE_BINDING_DEFAULT = False


def database_from_env() -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        (BASE_DIR / "var").mkdir(exist_ok=True)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "var" / "db.sqlite3"),
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    if not url.startswith(("postgres://", "postgresql://", "sqlite://")):
        raise ImproperlyConfigured(
            f"DATABASE_URL={url!r}: only postgres://... and sqlite:///... are supported"
        )
    try:
        config: dict[str, Any] = dict(
            dj_database_url.parse(url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0))
        )
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL={url!r} is malformed: {exc}") from None
    if config["ENGINE"].endswith("postgresql") and not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no database")
    # A kept connection that PostgreSQL dropped (restart, failover) is tested before a
    # request uses it and replaced, instead of failing that request.
    config["CONN_HEALTH_CHECKS"] = True
    if config["ENGINE"].endswith("postgresql") and envbool(
        "DATABASE_SERVER_SIDE_BINDING", SERVER_SIDE_BINDING_DEFAULT
    ):
        config["OPTIONS"] = {
            **dict(config.get("OPTIONS") or {}),
            "server_side_binding": True,
            "prepare_threshold": envint("DATABASE_PREPARE_THRESHOLD", 5),
        }
    if config["ENGINE"].endswith("sqlite3"):
        name = str(config.get("NAME") or "")
        if name in ("", ":memory:") or name.startswith("file::memory:") or "mode=memory" in name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r} is an in-memory SQLite database: every restart "
                "would lose the championships; give a file, e.g. sqlite:////srv/bd/db.sqlite3"
            )
        config["OPTIONS"] = {**SQLITE_OPTIONS, **dict(config.get("OPTIONS") or {})}
    return config


def caches_from_env(environ: Mapping[str, str] | None = None) -> dict[str, dict[str, object]]:
    """``CACHES`` from ``REDIS_URL`` (or ``CACHE_URL``): Django's Redis cache, shared by
    every web process and host; absent: local memory (one cache per process).

    >>> caches_from_env({})["default"]["BACKEND"]
    'django.core.cache.backends.locmem.LocMemCache'
    >>> caches_from_env({"REDIS_URL": "redis://r:6379/1"})["default"]["LOCATION"]
    'redis://r:6379/1'
    """
    environ = os.environ if environ is None else environ
    url = (environ.get("CACHE_URL") or environ.get("REDIS_URL") or "").strip()
    if not url:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    if not url.startswith(("redis://", "rediss://", "unix://")):
        name = "CACHE_URL" if environ.get("CACHE_URL") else "REDIS_URL"
        raise ImproperlyConfigured(
            f"{name}={url!r}: only redis://, rediss:// and unix:// caches are supported"
        )
    return {
        "default": {
            # Django's Redis cache, but a Redis down is an empty cache, not a 500.
            "BACKEND": "tournaments.cache.RedisCacheOrNothing",
            "LOCATION": url,
            # A cache that does not answer costs a request a second, not a hang.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


#: The placeholder of deploy/production.env.example: refused, so that a copied example
#: never runs a site with a published key.
EXAMPLE_SECRET_KEY_PREFIX = "change-me"  # noqa: S105

DEBUG = envbool("DEBUG", default="DJANGO_SECRET_KEY" not in os.environ)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-not-for-production"  # noqa: S105
elif not DEBUG and SECRET_KEY.startswith(EXAMPLE_SECRET_KEY_PREFIX):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is still the example's placeholder; set a long random one, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is empty while DEBUG is off: every request would be refused; "
        "set it to the site's host names, e.g. ALLOWED_HOSTS=botifarra.example.org"
    )
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# The refusal's page in the site's words and the request's language (Django's is English).
CSRF_FAILURE_VIEW = "tournaments.web.errors.csrf_failure"


def site_url(name: str) -> str:
    """``"http://192.168.1.20:8000/"`` -> ``"http://192.168.1.20:8000"``; empty if unset."""
    given = os.environ.get(name, "").strip()
    url = given.rstrip("/")
    parts = urlsplit(url)
    if url and (parts.scheme not in {"http", "https"} or not parts.hostname
                or parts.path or parts.query or parts.fragment):
        raise ImproperlyConfigured(
            f"{name}={given!r} is not a site address like http://192.168.1.20:8000 "
            "(scheme, host and port only)")
    return url


#: The address phones reach the site at (the one-time sign-in links and their QR codes);
#: empty: the address the organiser's own browser used.
SITE_URL = site_url("SITE_URL")


def proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """``"HTTP_X_FORWARDED_PROTO,https"`` -> ``("HTTP_X_FORWARDED_PROTO", "https")``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    header, _comma, value = raw.partition(",")
    if not header.strip() or not value.strip():
        raise ImproperlyConfigured(
            f"{name}={raw!r}: give the header and its value, e.g. HTTP_X_FORWARDED_PROTO,https"
        )
    return header.strip(), value.strip()


# HTTPS: every setting `manage.py check --deploy` asks about comes from the environment.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", False)
# The health check is asked over plain http from inside the container or host.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_PROXY_SSL_HEADER = proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SESSION_COOKIE_HTTPONLY = envbool("SESSION_COOKIE_HTTPONLY", True)
CSRF_COOKIE_HTTPONLY = envbool("CSRF_COOKIE_HTTPONLY", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    # Serves htmx (the live pages' polling) from the site itself: {% htmx_script %}.
    "django_htmx",
    "tournaments",
]

# Content-Security-Policy on every page: scripts, styles, images and fonts from the site
# itself only, no inline script or style (the pages need none: their scripts are
# static files, htmx's indicator style is off), no plugin, no framing elsewhere, forms
# posted only here. The API's own docs (Swagger UI, ReDoc) are exempt: their vendored
# pages start themselves with an inline script (docs/decisions.md 81).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp_constants.SELF],
        "script-src": [csp_constants.SELF],
        "style-src": [csp_constants.SELF],
        "img-src": [csp_constants.SELF, "data:"],
        "font-src": [csp_constants.SELF],
        "connect-src": [csp_constants.SELF],
        "object-src": [csp_constants.NONE],
        "base-uri": [csp_constants.SELF],
        "form-action": [csp_constants.SELF],
        "frame-ancestors": [csp_constants.SELF],
    },
}

MIDDLEWARE = [
    # First: /healthz answers before the host check, the https redirect and the session.
    "tournaments.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Cache-Control: private and Vary: Authorization, Cookie where the answer depends on
    # who asks.
    "tournaments.web.who_asks.WhoAsksMiddleware",
    # Content-Security-Policy (django-csp; Django 5.2 has none of its own).
    "csp.middleware.CSPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A database that is restarting gives a 503 page, not a 500 with a traceback.
    "tournaments.health.DatabaseUnavailableMiddleware",
    # Reads the device cookie for django-axes and sets it after a sign-in (just before
    # AxesMiddleware: its answer to a lockout carries no cookie).
    "tournaments.devices.DeviceCookieMiddleware",
    # Last: turns a refused login of a locked-out user or address into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login attempts (the login page, the admin's, the API's token request) are counted by
# django-axes first, with device cookies (OWASP's remedy for lockout denial of service,
# tournaments/devices.py): AXES_FAILURE_LIMIT failures lock a user name, wherever they
# come from, for every client that never signed in as that user; a client that did (it
# carries that user's signed device cookie) is counted apart, per (user name, device). So
# strangers in the hall typing wrong passwords for a referee never lock the referee's own
# phone out; a stranger tries at most AXES_FAILURE_LIMIT passwords per cool-off for a
# user, and refused attempts do not restart the cool-off (docs/decisions.md 46, 79).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_LOCKOUT_PARAMETERS = "tournaments.devices.lockout_parameters"
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournaments.lockouts.lockout_response"
AXES_VERBOSE = False
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
# The client's address: behind the proxy (SECURE_PROXY_SSL_HEADER set), the last entry
# of X-Forwarded-For, which the proxy appends; else REMOTE_ADDR. The print-job limit
# counts by the same address.
AXES_CLIENT_IP_CALLABLE = "tournaments.lockouts.client_address"
# Print jobs one address may start per minute (a public document already made from the
# current results is reused and not counted); a user with a role in the championship is
# not limited.
PRINT_JOBS_PER_MINUTE = envint("PRINT_JOBS_PER_MINUTE", 10)
RATELIMIT_FAIL_OPEN = True  # a cache that does not answer must not stop the printing
# Sign-ups one address may send per hour on a championship's public form.
SIGNUPS_PER_HOUR = envint("SIGNUPS_PER_HOUR", 20)

# E-mail: the sign-up's confirmations. Without an SMTP server they are printed on the
# console (the demo and a first run need none).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = envint("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "botifarra@localhost")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_from_env()}
DATABASE_REPLAN_SECONDS = envint("DATABASE_REPLAN_SECONDS", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
# A user with roles in one championship lands on its page for the role (views.after_login).
LOGIN_REDIRECT_URL = "after_login"
LOGOUT_REDIRECT_URL = "home"

# Catalan first, then Spanish and English (docs/architecture.md).
LANGUAGE_CODE = "ca"
LANGUAGES = [("ca", _("Catalan")), ("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Madrid"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "var" / "static")
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
# Whitenoise serves STATIC_ROOT from the app (no proxy rule needed). With DEBUG off the
# names carry a content hash (collectstatic's manifest: the image builds it) and are
# cached for ever; in development the files are served as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage" if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
# Generated files (PDFs: board sheets hold every deal) are never served from a URL of
# their own: nothing routes MEDIA_URL, and downloads go through the app's permission
# check (tournaments.reports.views.download). Do not point a proxy at MEDIA_ROOT.
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "var" / "media")))

CACHES = caches_from_env()

# Results entered at the table (tournaments/api/tables.py): requests allowed per table's
# secret and per client address (DRF rates: "60/min"); over them, 429 with Retry-After.
# TABLE_LINK_BASE_URL: the site's address as the tables' links start (manage.py
# table_links), e.g. https://botifarra.example.org; empty: http://127.0.0.1:8000.
TABLE_ENTRY_RATE_PER_TABLE = os.environ.get("TABLE_ENTRY_RATE_PER_TABLE", "60/min")
TABLE_ENTRY_RATE_PER_ADDRESS = os.environ.get("TABLE_ENTRY_RATE_PER_ADDRESS", "120/min")
TABLE_LINK_BASE_URL = os.environ.get("TABLE_LINK_BASE_URL", "")

# The live public pages (tournaments/web/live.py, docs/performance.md): each process keeps a
# championship's row (its results version) this many seconds, so a cached page, a 304 or
# a 204 poll reads no database; and a fragment built less than LIVE_STALE_SECONDS ago is
# served as it is while a newer version exists (rebuilt at most about once a second,
# whatever the number of phones and results). A saved result shows within about 2 s.
LIVE_VERSION_MEMO_SECONDS = 0.5
LIVE_STALE_SECONDS = 1.0

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # A device's token ("Authorization: Token <key>") and the pages' session (with its
    # CSRF check).
    # The token first: a request with neither gets 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.api.authentication.DeviceTokenAuthentication",
        "tournaments.api.authentication.PageSessionAuthentication",
    ],
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
    # JSON nested too deeply is a 400 like any unreadable body, not a RecursionError.
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.JSONBodyParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Botifarra Duplicate API",
    "VERSION": "1",
    "DESCRIPTION": "Championships, rounds, boards, results, standings and print jobs "
    "(docs/architecture.md \"API\").",
    # Swagger UI and Redoc from the package's own files: the docs work with no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A score sheet's chooser and revoke are both a side: one enum.
    "ENUM_NAME_OVERRIDES": {"SideEnum": ["NS", "EW"],
                            "StageKindEnum": ["swiss", "groups", "knockout", "finals"],
                            "QualifiedHowEnum": ["group", "second_chance"],
                            "TableEntryStatusEnum": ["provisional", "confirmed", "disputed",
                                                     "superseded"],
                            "PairStatusEnum": ["playing", "withdrawn", "bye", "late"]},
    # Every operation documents every error it may answer, in one shape.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.errors.add_error_responses",
    ],
}

# Celery: with no broker the tasks run eagerly in-process, so `make demo` needs no Redis.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip()
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "").strip() or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True  # jobs keep their state in PrintJob rows
# Processes per worker (absent: one per CPU); the queue lets two sites share a Redis.
CELERY_WORKER_CONCURRENCY = envint("CELERY_WORKER_CONCURRENCY", 0) or None
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "").strip() or "celery"
# Redis redelivers an unacknowledged message (its worker died) after this many seconds;
# keep it above the task time limit so a slow job is never run twice at once.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 900),
}
# A broker that does not answer: the page that asked for a job learns it in seconds
# (the job is marked failed with the reason) instead of hanging.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1,
}
# A running print job writes a heartbeat at least every PRINT_JOB_HEARTBEAT_SECONDS;
# one silent for PRINT_JOB_STALL_SECONDS lost its worker and is run again
# (tournaments.reports.services.print_jobs_requeue_stalled).
# Every worker looks for such jobs every PRINT_JOB_SWEEP_SECONDS (tournaments.tasks.
# StallSweeper), so a job whose worker died is redone within about STALL + SWEEP seconds
# with no page open.
PRINT_JOB_HEARTBEAT_SECONDS = 3
PRINT_JOB_STALL_SECONDS = envint("PRINT_JOB_STALL_SECONDS", 15)
PRINT_JOB_SWEEP_SECONDS = envint("PRINT_JOB_SWEEP_SECONDS", 5)
# Closing a round computes the double-dummy tables of its boards (tournaments.services.
# analysis): with a broker one task per board on a worker; without one on the web
# process's single background thread (tournaments.enqueue.in_background), never inside
# the request, within CELERY_TASK_SOFT_TIME_LIMIT seconds a round.
BOARD_ANALYSIS_ON_CLOSE = envbool("BOARD_ANALYSIS_ON_CLOSE", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
