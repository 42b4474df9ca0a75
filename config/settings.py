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
    CELERY_BROKER_URL     e.g. redis://127.0.0.1:6379/0; absent -> tasks run eagerly in-process
    CELERY_VISIBILITY_TIMEOUT  seconds before Redis redelivers a dead worker's task (900)
    MEDIA_ROOT            where generated files go (default var/media)
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
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


def database_from_env() -> dict[str, object]:
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
        config = dict(
            dj_database_url.parse(url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0))
        )
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL={url!r} is malformed: {exc}") from None
    if config["ENGINE"].endswith("postgresql") and not config.get("NAME"):
        raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no database")
    if config["ENGINE"].endswith("sqlite3"):
        name = str(config.get("NAME") or "")
        if name in ("", ":memory:") or name.startswith("file::memory:") or "mode=memory" in name:
            raise ImproperlyConfigured(
                f"DATABASE_URL={url!r} is an in-memory SQLite database: every restart "
                "would lose the championships; give a file, e.g. sqlite:////srv/bd/db.sqlite3"
            )
        config["OPTIONS"] = {**SQLITE_OPTIONS, **dict(config.get("OPTIONS") or {})}
    return config


DEBUG = envbool("DEBUG", default="DJANGO_SECRET_KEY" not in os.environ)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "insecure-development-key-not-for-production"  # noqa: S105

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is empty while DEBUG is off: every request would be refused; "
        "set it to the site's host names, e.g. ALLOWED_HOSTS=botifarra.example.org"
    )
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
# A user with roles in one championship lands on its page for the role (views.after_login).
LOGIN_REDIRECT_URL = "after_login"
LOGOUT_REDIRECT_URL = "home"

# Catalan first, then Spanish and English (DEVELOPERS.md).
LANGUAGE_CODE = "ca"
LANGUAGES = [("ca", _("Catalan")), ("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Madrid"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "var" / "media")))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
}
SPECTACULAR_SETTINGS = {"TITLE": "Botifarra Duplicate API", "VERSION": "1"}

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
# Redis redelivers an unacknowledged message (its worker died) after this many seconds;
# keep it above the task time limit so a slow job is never run twice at once.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 900),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
