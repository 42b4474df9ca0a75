"""Production settings: `check --deploy` is silent with deploy/production.env.example,
every security setting comes from the environment, the cache is shared with REDIS_URL."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import caches_from_env
from tests.deploy.compose import ROOT, env_file

#: Variables the settings read that a developer's shell may have set.
CLEARED = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL",
           "CACHE_URL", "DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in CLEARED}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120, check=False)


def production_env(**changes: str) -> dict[str, str]:
    """The example's variables, with a real random key (its placeholder is refused)."""
    env = env_file()
    env["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    env.update(changes)
    return env


def test_check_deploy_prints_no_warning_with_the_production_env_example() -> None:
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
    assert "WARNING" not in done.stderr and "?:" not in done.stderr


def test_check_deploy_warns_when_the_security_variables_are_missing() -> None:
    env = {k: v for k, v in production_env().items()
           if not k.startswith(("SECURE_", "SESSION_COOKIE", "CSRF_COOKIE"))}
    env.update(SESSION_COOKIE_SECURE="0")
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode != 0
    for code in ("security.W004", "security.W008", "security.W012"):
        assert code in done.stderr


def test_the_example_secret_key_placeholder_is_refused() -> None:
    env = production_env(DJANGO_SECRET_KEY=env_file()["DJANGO_SECRET_KEY"])
    done = run(["manage.py", "check"], env)
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY is still the example's placeholder" in done.stderr


PRINT = (
    "import json, config.settings as s; print(json.dumps({k: getattr(s, k) for k in ("
    "'SECURE_SSL_REDIRECT', 'SECURE_PROXY_SSL_HEADER', 'SECURE_HSTS_SECONDS', "
    "'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_HSTS_PRELOAD', 'SESSION_COOKIE_SECURE', "
    "'CSRF_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', 'CSRF_COOKIE_HTTPONLY', "
    "'CSRF_TRUSTED_ORIGINS', 'ALLOWED_HOSTS', 'CACHES', 'DATABASES')}, default=str))"
)


def loaded(env: dict[str, str]) -> dict[str, object]:
    done = run(["-c", PRINT], env)
    assert done.returncode == 0, done.stderr
    values: dict[str, object] = json.loads(done.stdout)
    return values


def test_every_security_setting_is_read_from_the_environment() -> None:
    values = loaded(production_env())
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SECURE_HSTS_SECONDS"] == 31536000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SECURE_HSTS_PRELOAD"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True and values["CSRF_COOKIE_HTTPONLY"] is True
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://botifarra.example.cat"]
    assert values["ALLOWED_HOSTS"] == ["botifarra.example.cat"]
    db = values["DATABASES"]["default"]  # type: ignore[index]
    assert db["CONN_HEALTH_CHECKS"] is True and db["CONN_MAX_AGE"] == 60
    off = loaded(production_env(SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0",
                                SESSION_COOKIE_SECURE="0", SECURE_PROXY_SSL_HEADER=""))
    assert off["SECURE_SSL_REDIRECT"] is False and off["SECURE_HSTS_SECONDS"] == 0
    assert off["SESSION_COOKIE_SECURE"] is False and off["SECURE_PROXY_SSL_HEADER"] is None


def test_a_malformed_proxy_header_stops_the_settings_with_its_name() -> None:
    done = run(["-c", PRINT], production_env(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"))
    assert done.returncode != 0
    assert "SECURE_PROXY_SSL_HEADER='X-Forwarded-Proto': give the header and its value" in (
        done.stderr
    )


def test_the_cache_is_redis_with_redis_url_and_local_memory_without() -> None:
    assert caches_from_env({}) == {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }
    shared = caches_from_env({"REDIS_URL": "redis://redis:6379/1"})["default"]
    assert shared["BACKEND"] == "tournaments.cache.RedisCacheOrNothing"
    assert shared["LOCATION"] == "redis://redis:6379/1"
    # CACHE_URL wins over REDIS_URL (a cache on another Redis than the broker's).
    both = caches_from_env({"REDIS_URL": "redis://a:6379/1", "CACHE_URL": "redis://b:6379/2"})
    assert both["default"]["LOCATION"] == "redis://b:6379/2"


def test_a_cache_url_of_another_kind_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match=r"CACHE_URL='memcached://m:11211'"):
        caches_from_env({"CACHE_URL": "memcached://m:11211"})


def test_the_settings_module_reads_redis_url_into_caches() -> None:
    values = loaded(production_env(REDIS_URL="redis://127.0.0.1:6379/9"))
    cache = values["CACHES"]["default"]  # type: ignore[index]
    assert cache["BACKEND"] == "tournaments.cache.RedisCacheOrNothing"
    assert cache["LOCATION"] == "redis://127.0.0.1:6379/9"
