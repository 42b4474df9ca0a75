"""Faults a deployed site must survive, in-process: the broker down (results still save,
print requests say no job can start), the database failing mid-request (a 503 page,
nothing half-written), /healthz, and generated files never served from a guessed URL.
The live processes (gunicorn, a worker, PostgreSQL connections killed) are in
test_smoke.py."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.services import port_open, require, xdist_worker
from tests.tournaments.tasks.conftest import _forget_routing
from tests.tournaments.views.helpers import form_data
from tournaments import services as core
from tournaments.models import Championship, Membership, PrintJob, Result, Seating
from tournaments.reports import services as jobs

pytestmark = pytest.mark.django_db(transaction=True)


def of_this_worker(caches: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """``caches`` with keys of this pytest-xdist worker's own (a key prefix): the Redis
    database is shared with the other worker and with other test sessions."""
    return {name: {**conf, "KEY_PREFIX": f"faults-{xdist_worker() or 'main'}"}
            for name, conf in caches.items()}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def broker_down(settings: Any) -> Iterator[str]:
    """The site configured with a broker on a port where nothing listens."""
    from config.celery import app

    url = f"redis://127.0.0.1:{closed_port()}/0"
    saved = {key: app.conf.get(key) for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=url, task_always_eager=False)
    _forget_routing(app)
    settings.CELERY_BROKER_URL = url
    try:
        yield url
    finally:
        _forget_routing(app)
        app.conf.update(saved)


@pytest.fixture
def played(transactional_db: None, tmp_path: Path, settings: Any) -> Championship:
    settings.MEDIA_ROOT = tmp_path
    return build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)


def logged_in(championship: Championship, username: str, role: str) -> Client:
    user = UserFactory(username=username)
    core.membership_grant(championship=championship, user=user, role=role, acting_user=None)
    client = Client()
    client.force_login(user)
    return client


def entry_url(championship: Championship) -> str:
    seating = Seating.objects.filter(round__championship=championship).order_by(
        "table__number").first()
    assert seating is not None
    board = seating.round.boards.order_by("number").first()
    return reverse("result_entry", args=[championship.slug, seating.round.number,
                                         seating.table.number, board.number])


def test_results_save_while_the_broker_is_down(played: Championship, broker_down: str) -> None:
    referee = logged_in(played, "ref-nobroker", Membership.Role.REFEREE)
    response = referee.post(entry_url(played), form_data())
    assert response.status_code == 302
    result = Result.objects.get(board__championship=played)
    assert result.ns_points_taken == 40


def test_a_print_request_while_the_broker_is_down_says_no_job_can_start(
    played: Championship, broker_down: str,
) -> None:
    organiser = logged_in(played, "org-nobroker", Membership.Role.ORGANISER)
    response = organiser.post(reverse("print_jobs", args=[played.slug]),
                              {"kind": "standings", "round_number": 0, "copies": 1,
                               "per_page": 1})
    assert response.status_code == 503
    page = unescape(response.content.decode())
    assert "Ara no es pot començar cap treball: No s'ha pogut posar a la cua de treballs" in page
    job = PrintJob.objects.get(championship=played)
    assert job.status == PrintJob.Status.FAILED
    assert job.error.startswith("No s'ha pogut posar a la cua de treballs: Error 111")
    # The health check tells the operator why.
    assert organiser.get(reverse("healthz")).json()["broker"] == "error"


def test_an_api_print_request_while_the_broker_is_down_is_503_in_its_language(
    played: Championship, broker_down: str,
) -> None:
    response = Client().post(f"/api/v1/c/{played.slug}/prints/",
                             {"kind": "standings", "round_number": 0},
                             content_type="application/json", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503
    detail = response.json()["detail"]
    assert detail.startswith("Ahora no se puede empezar ningún trabajo"), detail
    assert PrintJob.objects.get(championship=played).status == PrintJob.Status.FAILED


def test_healthz_says_ok_for_each_configured_part(played: Championship) -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "page": "ok",
                               "broker": "none", "cache": "none"}
    assert "Set-Cookie" not in response.headers and not response.cookies
    assert "no-cache" in response["Cache-Control"]


def test_healthz_is_degraded_not_down_when_the_broker_is_down(
    played: Championship, broker_down: str,
) -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200  # the pages are still served
    assert response.json() == {"status": "degraded", "database": "ok", "page": "ok",
                               "broker": "error", "cache": "none"}


def test_healthz_is_503_when_no_page_renders_for_want_of_static_files(
    played: Championship, settings: Any, tmp_path: Path,
) -> None:
    """DEBUG off and collectstatic not run: every HTML page would be a 500 ("Missing
    staticfiles manifest entry"); the health check must say so, not 200."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    settings.STATIC_ROOT = tmp_path / "static-not-collected"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {
            "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    staticfiles_storage._wrapped = None  # type: ignore[attr-defined]  # rebuilt lazily
    try:
        response = Client().get("/healthz")
        assert response.status_code == 503
        assert response.json()["page"] == "error"
        assert response.json()["status"] == "down"
    finally:
        staticfiles_storage._wrapped = None  # type: ignore[attr-defined]  # as above


def test_healthz_is_503_when_the_database_does_not_answer(
    played: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connection

    def down() -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", down)
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "error"


def test_healthz_answers_a_probe_by_ip_over_http_on_a_production_site(
    played: Championship, settings: Any,
) -> None:
    settings.ALLOWED_HOSTS = ["botifarra.example.cat"]
    settings.SECURE_SSL_REDIRECT = True
    client = Client()
    assert client.get("/healthz", HTTP_HOST="10.0.0.5:8000").status_code == 200
    # Every other page keeps the host check and the https redirect.
    assert client.get("/", HTTP_HOST="10.0.0.5:8000").status_code == 400
    assert client.get("/", HTTP_HOST="botifarra.example.cat").status_code == 301


def test_healthz_checks_a_shared_redis_cache(played: Championship, settings: Any) -> None:
    require(port_open("127.0.0.1", 6379), "needs Redis at 127.0.0.1:6379")
    from config.settings import caches_from_env

    settings.CACHES = of_this_worker(caches_from_env({"REDIS_URL": "redis://127.0.0.1:6379/11"}))
    assert Client().get("/healthz").json()["cache"] == "ok"
    settings.CACHES = caches_from_env({"REDIS_URL": f"redis://127.0.0.1:{closed_port()}/11"})
    response = Client().get("/healthz")
    assert (response.status_code, response.json()["cache"]) == (200, "error")
    assert response.json()["status"] == "degraded"


def test_the_public_pages_work_with_the_cache_redis_down(
    played: Championship, settings: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Redis cache that does not answer is an empty cache: every live page is built
    for the request (200, its numbers), the health check says the cache is down, and
    Redis is left alone for a while instead of costing each read a timeout."""
    from django.core.cache import cache

    from config.settings import caches_from_env
    from tournaments import cache as backend

    settings.CACHES = caches_from_env({"CACHE_URL": f"redis://127.0.0.1:{closed_port()}/11"})
    slug = played.slug
    client = Client()
    for url in (f"/c/{slug}/standings/", f"/c/{slug}/live/standings/", f"/c/{slug}/hall/",
                f"/c/{slug}/boards/1/", f"/c/{slug}/live/boards/1/", f"/c/{slug}/pairs/1/"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert "Campionat 4 parelles" in client.get(f"/c/{slug}/standings/").content.decode()
    assert client.get("/healthz").json()["cache"] == "error"
    tries: list[str] = []
    monkeypatch.setattr(backend.RedisCache, "get",
                        lambda self, key, *args, **kwargs: tries.append(key))
    assert cache.get("x", "empty") == "empty" and tries == []  # left alone after a failure
    monkeypatch.setattr(backend, "RETRY_SECONDS", 0.0)
    cache._down_until = 0.0  # type: ignore[attr-defined]  # the backend's own state
    cache.get("y")
    assert tries == ["y"]


def test_a_redis_cache_that_answers_keeps_values(played: Championship, settings: Any) -> None:
    require(port_open("127.0.0.1", 6379), "needs Redis at 127.0.0.1:6379")
    from django.core.cache import cache

    from config.settings import caches_from_env

    settings.CACHES = of_this_worker(caches_from_env({"CACHE_URL": "redis://127.0.0.1:6379/11"}))
    cache.set("breaker-probe", 41)
    assert cache.incr("breaker-probe") == 42 and cache.get("breaker-probe") == 42
    assert cache.add("breaker-probe", 1) is False
    cache.delete("breaker-probe")
    with pytest.raises(ValueError, match="not found"):
        cache.incr("breaker-probe")


def test_a_request_whose_database_fails_gets_a_503_page_and_stores_nothing(
    played: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The connection drops after the result row was written, before its audit row: the
    transaction rolls back, the referee sees a page saying to try again."""
    from tournaments.services import results

    def dropped(result: Result, **kwargs: object) -> None:
        result.save()
        raise OperationalError("server closed the connection unexpectedly")

    referee = logged_in(played, "ref-dbdown", Membership.Role.REFEREE)
    monkeypatch.setattr(results, "insert_result", dropped)
    response = referee.post(entry_url(played), form_data())
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = unescape(response.content.decode())
    assert "La base de dades no respon en aquest moment" in page
    assert "Traceback" not in page and "OperationalError" not in page
    assert not Result.objects.filter(board__championship=played).exists()
    monkeypatch.undo()
    assert referee.post(entry_url(played), form_data()).status_code == 302
    assert Result.objects.filter(board__championship=played).count() == 1


def test_the_api_answers_503_json_when_the_database_fails(
    played: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tournaments import selectors

    def dropped(*args: object, **kwargs: object) -> None:
        raise OperationalError("terminating connection due to administrator command")

    for name in dir(selectors):
        if name.startswith("standings"):
            monkeypatch.setattr(selectors, name, dropped)
    response = Client().get(f"/api/v1/c/{played.slug}/standings/")
    assert response.status_code == 503
    assert response.json() == {
        "detail": "La base de dades no respon: torneu-ho a provar d'aquí a uns segons."
    }


def test_a_guessed_media_url_serves_no_file(played: Championship, settings: Any) -> None:
    job, _ = jobs.print_job_request(championship=played, kind="board-sheets",
                                    round_number=1, acting_user=None)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    path = Path(settings.MEDIA_ROOT) / job.file.name
    assert path.read_bytes().startswith(b"%PDF")
    client = Client()
    for url in (f"/media/{job.file.name}", f"/{settings.MEDIA_URL}{job.file.name}",
                f"/static/../media/{job.file.name}",
                f"/media/reports/{played.slug}-board-sheets-r1-{job.pk}.pdf"):
        response = client.get(url)
        assert response.status_code == 404, url
    # The name cannot be guessed from the job: it carries 16 random bytes.
    # (secrets.token_urlsafe(16): 22 characters, which may themselves hold a "-".)
    stem = job.file.name.removesuffix(".pdf")
    assert re.fullmatch(rf".*-{job.attempts}-[A-Za-z0-9_-]{{22}}", stem), job.file.name
    # The only way in is the download view, which checks who asks.
    download = reverse("print_job_download", args=[played.slug, job.pk])
    assert client.get(download).status_code == 403


@pytest.fixture
def cache_down(settings: Any) -> Iterator[str]:
    """The site's shared cache (and so its rate counters) on a port where nothing
    listens; the once-a-minute log memory cleared before and after."""
    from config.settings import caches_from_env
    from tournaments import cache as backend

    url = f"redis://127.0.0.1:{closed_port()}/11"
    backend._last_logged.clear()
    settings.CACHES = caches_from_env({"REDIS_URL": url})
    yield url
    backend._last_logged.clear()


def test_every_public_page_prints_and_saves_work_with_cache_and_broker_dead(
    played: Championship, cache_down: str, broker_down: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Redis stopped (cache, rate counters and broker on it): the public pages, the API's
    reads, the prints page and a referee's save answer as usual; a print request says
    why it cannot start with 503, never 500; /healthz says degraded, not down; the cache
    failure is logged once, not once a request."""
    slug = played.slug
    client = Client()
    public = [
        "/", f"/c/{slug}/", f"/c/{slug}/standings/", f"/c/{slug}/boards/1/",
        f"/c/{slug}/pairs/1/", f"/c/{slug}/hall/", f"/c/{slug}/live/version/",
        f"/c/{slug}/live/standings/", f"/c/{slug}/live/boards/1/",
        f"/c/{slug}/live/pairs/1/", f"/c/{slug}/live/hall/",
        f"/c/{slug}/rounds/1/seating/", f"/c/{slug}/prints/",
        f"/api/v1/c/{slug}/standings/", f"/api/v1/c/{slug}/prints/",
    ]
    for url in public:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    assert "Campionat 4 parelles" in client.get(f"/c/{slug}/standings/").content.decode()
    # A print request: 503 with the reason, on the page (Catalan) and in the API.
    response = client.post(f"/c/{slug}/prints/", {"kind": "standings", "round_number": 0,
                                                  "copies": 1, "per_page": 1})
    assert response.status_code == 503
    assert "Ara no es pot començar cap treball" in unescape(response.content.decode())
    response = client.post(f"/api/v1/c/{slug}/prints/", {"kind": "standings"},
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response.json()["detail"].startswith("No job can start now"), response.json()
    # A referee's save.
    referee = logged_in(played, "ref-redisdown", Membership.Role.REFEREE)
    assert referee.post(entry_url(played), form_data()).status_code == 302
    assert Result.objects.filter(board__championship=played).count() == 1
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.json() == {"status": "degraded", "database": "ok", "page": "ok",
                             "broker": "error", "cache": "error"}
    cache_lines = [r for r in caplog.records if r.getMessage().startswith("cache: Redis")]
    assert len(cache_lines) == 1, [r.getMessage() for r in cache_lines]
    assert any(r.getMessage().startswith("print-job limit not counted")
               for r in caplog.records)


def test_a_cache_failure_is_logged_once_a_minute_not_once_a_request(
    played: Championship, cache_down: str, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.cache import cache

    from tournaments import cache as backend

    monkeypatch.setattr(backend, "RETRY_SECONDS", 0.0)  # every read tries Redis again
    clock = [1000.0]
    monkeypatch.setattr(backend.time, "monotonic", lambda: clock[0])
    for _ in range(5):
        assert cache.get("k", "miss") == "miss"
        clock[0] += 1
    lines = [r for r in caplog.records if r.getMessage().startswith("cache: Redis")]
    assert len(lines) == 1
    clock[0] += backend.LOG_EVERY_SECONDS
    assert cache.get("k", "miss") == "miss"
    lines = [r for r in caplog.records if r.getMessage().startswith("cache: Redis")]
    assert len(lines) == 2


def test_the_print_limit_fails_open_with_a_log_line_when_the_cache_raises(
    played: Championship, settings: Any, caplog: pytest.LogCaptureFixture,
) -> None:
    """A cache backend that raises (Django's own Redis cache, not ours) must not turn a
    print request into a 500: the limit is not counted, one line says so."""
    from tournaments import cache as backend

    backend._last_logged.clear()
    settings.PRINT_JOBS_PER_MINUTE = 1
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{closed_port()}/11",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }}
    try:
        statuses = [Client().post(f"/api/v1/c/{played.slug}/prints/",
                                  {"kind": "standings", "round_number": round_number},
                                  content_type="application/json").status_code
                    for round_number in (0, 1)]
    finally:
        backend._last_logged.clear()
    assert statuses == [201, 201]  # two new jobs, over a limit of one: not counted
    lines = [r for r in caplog.records if r.getMessage().startswith("print-job limit")]
    assert len(lines) == 1, [r.getMessage() for r in lines]
