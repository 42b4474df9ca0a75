"""config/settings.py and manage.py read the environment: each case runs the settings
module in a fresh subprocess with the environment set, as a deployment would start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
#: Variables the settings read; each test starts without any of them.
SETTINGS_VARIABLES = (
    "DEBUG", "DJANGO_SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "DATABASE_CONN_MAX_AGE",
    "DATABASE_SERVER_SIDE_BINDING", "DATABASE_PREPARE_THRESHOLD",
    "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "SITE_URL",
)
PRINT_SETTINGS = (
    "import json, config.settings as s; "
    "print(json.dumps({'db': s.DATABASES['default'], 'debug': s.DEBUG, "
    "'hosts': s.ALLOWED_HOSTS, 'site_url': s.SITE_URL}, default=str))"
)


def environment(**env: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    return {**base, **env}


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
        env=environment(**env), timeout=120, check=False,
    )


def settings_with(**env: str) -> dict[str, Any]:
    done = run(["-c", PRINT_SETTINGS], **env)
    assert done.returncode == 0, done.stderr
    loaded: dict[str, Any] = json.loads(done.stdout)
    return loaded


def refusal(**env: str) -> str:
    """The ImproperlyConfigured message the settings stop with."""
    done = run(["-c", PRINT_SETTINGS], **env)
    assert done.returncode != 0, done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: "), done.stderr
    return last.removeprefix("django.core.exceptions.ImproperlyConfigured: ")


def test_server_side_binding_is_off_unless_asked_and_only_for_postgresql(
    tmp_path: Path,
) -> None:
    url = "postgres://u@127.0.0.1:5432/bd"
    assert "server_side_binding" not in settings_with(DATABASE_URL=url)["db"].get("OPTIONS", {})
    on = settings_with(DATABASE_URL=url, DATABASE_SERVER_SIDE_BINDING="1")["db"]["OPTIONS"]
    assert on == {"server_side_binding": True, "prepare_threshold": 5}
    three = settings_with(DATABASE_URL=url, DATABASE_SERVER_SIDE_BINDING="1",
                          DATABASE_PREPARE_THRESHOLD="3")["db"]["OPTIONS"]
    assert three["prepare_threshold"] == 3
    sqlite = settings_with(DATABASE_URL=f"sqlite:///{tmp_path}/bd.sqlite3",
                           DATABASE_SERVER_SIDE_BINDING="1")["db"]["OPTIONS"]
    assert "server_side_binding" not in sqlite
    assert "is not a boolean" in refusal(DATABASE_URL=url, DATABASE_SERVER_SIDE_BINDING="si")


def test_a_sqlite_url_waits_for_the_lock_like_the_default_database(tmp_path: Path) -> None:
    default = settings_with()["db"]
    from_url = settings_with(DATABASE_URL=f"sqlite:///{tmp_path}/bd.sqlite3")["db"]
    assert default["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    assert from_url["OPTIONS"] == default["OPTIONS"]
    assert from_url["NAME"] == f"{tmp_path}/bd.sqlite3"


def test_a_postgres_url_gets_no_sqlite_options() -> None:
    db = settings_with(DATABASE_URL="postgres://u@db.example:5432/bd")["db"]
    assert (db["ENGINE"], db["NAME"], db.get("OPTIONS", {})) == (
        "django.db.backends.postgresql", "bd", {}
    )


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_sqlite_database_is_refused(url: str) -> None:
    assert refusal(DATABASE_URL=url).startswith(
        f"DATABASE_URL={url!r} is an in-memory SQLite database: every restart would lose"
    )


def test_debug_off_with_no_allowed_hosts_is_refused() -> None:
    assert refusal(DEBUG="0", DJANGO_SECRET_KEY="k", ALLOWED_HOSTS="").startswith(
        "ALLOWED_HOSTS is empty while DEBUG is off"
    )
    assert refusal(DEBUG="0", DJANGO_SECRET_KEY="k", ALLOWED_HOSTS=" , ").startswith(
        "ALLOWED_HOSTS is empty while DEBUG is off"
    )
    loaded = settings_with(DEBUG="0", DJANGO_SECRET_KEY="k", ALLOWED_HOSTS="bd.example.org")
    assert (loaded["debug"], loaded["hosts"]) == (False, ["bd.example.org"])


@pytest.mark.parametrize("url", ["192.168.1.20:8000", "ftp://h", "http://", "http://h/c/x"])
def test_a_site_url_that_is_not_scheme_host_and_port_is_refused(url: str) -> None:
    assert refusal(SITE_URL=url).startswith(f"SITE_URL={url!r} is not a site address")


def test_the_site_url_loses_its_trailing_slash_and_defaults_to_empty() -> None:
    assert settings_with(SITE_URL="http://192.168.1.20:8000/")["site_url"] == (
        "http://192.168.1.20:8000")
    assert settings_with()["site_url"] == ""


def test_debug_on_may_leave_allowed_hosts_empty() -> None:
    assert settings_with(DEBUG="1", ALLOWED_HOSTS="")["hosts"] == []


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean (use 1/0, true/false)"),
        ({"DATABASE_URL": "sqlite://"}, "DATABASE_URL='sqlite://' is an in-memory SQLite"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL='mysql://x/y': only postgres://"),
    ],
    ids=["debug", "in-memory", "mysql"],
)
def test_manage_py_shows_a_bad_setting_in_one_line_and_exits_2(
    env: dict[str, str], message: str
) -> None:
    done = run(["manage.py", "check"], **env)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"manage.py: bad setting: {message}")


def test_manage_py_keeps_the_traceback_of_any_other_error() -> None:
    done = run(["manage.py", "check"], DJANGO_SETTINGS_MODULE="config.no_such_settings")
    assert done.returncode == 1
    assert "Traceback" in done.stderr
    assert "ModuleNotFoundError: No module named 'config.no_such_settings'" in done.stderr
