"""Smoke test of a deployment without Docker: gunicorn and a Celery worker started with
the commands of deploy/compose.yaml, against a PostgreSQL database of their own
(migrated first with the compose `migrate` command) and Redis, with the production
settings of deploy/production.env.example (less HTTPS: the test speaks plain http on
loopback). A referee logs in and enters a result, asks for a PDF that the worker builds,
/healthz and the compose health checks answer; then every PostgreSQL connection of the
site is killed (as a database restart would) and the next requests still succeed. A
second web process on another port shares the database and Redis, as the compose file
scaling `web` has it: what one process saves, counts or caches the other sees.

Needs PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379: skips without them,
fails when CI=true. About 30-60 s.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.compose import ROOT, command, env_file, service
from tests.services import port_open, require, xdist_worker

pytestmark = [pytest.mark.smoke, pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PG = ("127.0.0.1", 5432)
#: The site's own database, one per pytest-xdist worker (``make test`` runs each test
#: module on one worker, so two copies of this module never run in one session).
DATABASE = "botifarra_deploy_smoke" + (f"_{xdist_worker()}" if xdist_worker() else "")
#: Redis databases of this test: the broker's (its queue is its own) and the cache's
#: (others use 15 and 14 for the Celery tests' workers, 11 for test_faults).
BROKER_DB, CACHE_DB = 12, 13
PASSWORD = "smoke-referee-password"

SEED = """
import django, json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.contrib.auth import get_user_model
from django.urls import reverse
from tests.factories import build_championship
from tournaments import services
from tournaments.models import Membership, Seating
championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
referee = get_user_model().objects.create_user("arbitre-smoke", password=PASSWORD)
services.membership_grant(championship=championship, user=referee,
                          role=Membership.Role.REFEREE, acting_user=None)
seating = Seating.objects.filter(round__championship=championship).order_by("table__number")[0]
board = seating.round.boards.order_by("number")[0]
entry = reverse("result_entry", args=[championship.slug, seating.round.number,
                                      seating.table.number, board.number])
second = seating.round.boards.order_by("number")[1]
api_result = reverse("api_result", args=[championship.slug, seating.round.number,
                                        seating.table.number, second.number])
other = Seating.objects.filter(round__championship=championship).order_by("table__number")[1]
api_other = reverse("api_result", args=[championship.slug, other.round.number,
                                       other.table.number, board.number])
get_user_model().objects.create_user("bloquejat-smoke", password=PASSWORD)
organiser = get_user_model().objects.create_user("organitzador-smoke", password=PASSWORD)
services.membership_grant(championship=championship, user=organiser,
                          role=Membership.Role.ORGANISER, acting_user=None)
print(json.dumps({"slug": championship.slug, "entry": entry, "api_result": api_result,
                  "api_other": api_other, "pk": championship.pk}))
""".replace("PASSWORD", repr(PASSWORD))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def postgres(sql: str, database: str = "postgres") -> list[tuple[object, ...]]:
    import psycopg

    with psycopg.connect(host=PG[0], port=PG[1], user="postgres", dbname=database,
                         autocommit=True) as conn:
        cursor = conn.execute(sql)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


@dataclass
class Site:
    base: str
    #: The second web process (same database, same Redis).
    other: str
    env: dict[str, str]
    logs: Path
    processes: dict[str, subprocess.Popen[bytes]]

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")[-4000:]


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, f"{shlex.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def start(name: str, args: list[str], env: dict[str, str], logs: Path
          ) -> subprocess.Popen[bytes]:
    out = (logs / f"{name}.log").open("wb")
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def wait_for(what: str, check: object, process: subprocess.Popen[bytes], log: Path,
             timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} exited early:\n{log.read_text(errors='replace')}")
        if check():  # type: ignore[operator]
            return
        time.sleep(0.3)
    raise AssertionError(f"{what} not ready in {timeout} s:\n{log.read_text(errors='replace')}")


def healthz(base: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as response:  # noqa: S310
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)
    except OSError:
        return 0, {}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    require(port_open(*PG), f"needs PostgreSQL at {PG[0]}:{PG[1]}")
    require(port_open("127.0.0.1", 6379), "needs Redis at 127.0.0.1:6379")
    logs = tmp_path_factory.mktemp("smoke")
    postgres(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
    postgres(f'CREATE DATABASE "{DATABASE}"')
    port, other_port = free_port(), free_port()
    base, other = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{other_port}"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_", "REDIS_", "CACHE_"))}
    env.update(env_file())
    env.update(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        CSRF_TRUSTED_ORIGINS=f"{base},{other}",
        DATABASE_URL=f"postgres://postgres@{PG[0]}:{PG[1]}/{DATABASE}",
        CELERY_BROKER_URL=f"redis://127.0.0.1:6379/{BROKER_DB}",
        REDIS_URL=f"redis://127.0.0.1:6379/{CACHE_DB}",
        CELERY_TASK_DEFAULT_QUEUE=f"smoke-{uuid.uuid4().hex[:8]}",
        MEDIA_ROOT=str(logs / "media"),
        STATIC_ROOT=str(logs / "static"),
        # Plain http on loopback: no https redirect, no secure-only cookies.
        SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0", SECURE_PROXY_SSL_HEADER="",
        SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0",
        WEB_CONCURRENCY="2", CELERY_WORKER_CONCURRENCY="1",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT), HOSTNAME=socket.gethostname(),
    )
    run(command("migrate"), env)
    # What the Dockerfile does at build time.
    run(["python", "manage.py", "collectstatic", "--noinput"], env)
    seeded = json.loads(run(["python", "-c", SEED], env).strip().splitlines()[-1])
    env["SMOKE_SEED"] = json.dumps(seeded)

    web = command("web")
    web[web.index("--bind") + 1] = f"127.0.0.1:{port}"
    processes = {"worker": start("worker", command("worker"), env, logs)}
    processes["web"] = start("web", web, env, logs)
    web[web.index("--bind") + 1] = f"127.0.0.1:{other_port}"
    processes["web2"] = start("web2", web, env, logs)
    try:
        wait_for("the worker", lambda: "ready." in (logs / "worker.log").read_text(
            errors="replace"), processes["worker"], logs / "worker.log")
        wait_for("gunicorn", lambda: healthz(base)[0] == 200, processes["web"],
                 logs / "web.log")
        wait_for("the second gunicorn", lambda: healthz(other)[0] == 200,
                 processes["web2"], logs / "web2.log")
        yield Site(base=base, other=other, env=env, logs=logs, processes=processes)
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        postgres(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


class Browser:
    """A cookie-keeping client that fills Django's CSRF token like a browser."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, str, bytes]:
        try:
            with self.opener.open(self.base + path, timeout=30) as response:
                return response.status, response.geturl(), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.geturl(), exc.read()

    def post_form(self, path: str, data: dict[str, object]) -> tuple[int, str, bytes]:
        status, _url, body = self.get(path)
        assert status == 200, body[:2000]
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert token, body[:2000]
        fields = {**{k: str(v) for k, v in data.items()},
                  "csrfmiddlewaretoken": token.group(1).decode()}
        request = urllib.request.Request(  # noqa: S310 (http on loopback)
            self.base + path, data=urllib.parse.urlencode(fields).encode(),
            headers={"Referer": self.base + path, "Origin": self.base},
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.geturl(), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.geturl(), exc.read()


def test_a_referee_enters_a_result_and_a_worker_prints_the_standings(site: Site) -> None:
    """Slow by design (a minute or two, most of it the ``site`` fixture, shared by the
    module): it starts the production processes as deploy/compose.yaml does (migrate,
    collectstatic, gunicorn, a Celery worker) and goes through them, as nothing else
    does."""
    seed = json.loads(site.env["SMOKE_SEED"])
    slug = seed["slug"]
    browser = Browser(site.base)
    status, url, _body = browser.post_form(
        "/accounts/login/", {"username": "arbitre-smoke", "password": PASSWORD, "next": ""}
    )
    assert status == 200 and "/accounts/login/" not in url, site.log("web")

    entry = seed["entry"]
    status, url, body = browser.post_form(
        entry, {"trump": "O", "ns_points_taken": "40", "infraction": "", "note": ""}
    )
    # Saved, the referee lands on the table's next board without a result (or the list).
    assert status == 200 and re.search(r"Tauler \d+ desat", body.decode()), body[:3000]
    stored = postgres("SELECT ns_points_taken, version FROM tournaments_result", DATABASE)
    assert stored == [(40, 1)]

    status, _url, body = browser.post_form(
        f"/c/{slug}/prints/", {"kind": "standings", "round_number": "0"}
    )
    assert status == 200, body[:3000]
    match = re.search(rb'data-status-url="([^"]+)"', body)
    assert match, body[:3000]
    status_url = match.group(1).decode()
    deadline = time.monotonic() + 60
    job: dict[str, object] = {}
    while time.monotonic() < deadline:
        job = json.loads(browser.get(status_url)[2])
        if job["status"] in ("done", "failed"):
            break
        time.sleep(0.3)
    assert job.get("status") == "done", (job, site.log("worker"))
    status, _url, pdf = browser.get(str(job["download"]))
    assert status == 200 and pdf.startswith(b"%PDF")
    assert "succeeded" in site.log("worker")

    assert healthz(site.base) == (200, {"status": "ok", "database": "ok", "page": "ok",
                                        "broker": "ok", "cache": "ok"})


def chunked(base: str, method: str, path: str, body: bytes,
            headers: dict[str, str]) -> tuple[int, dict[str, object]]:
    """A request whose body goes with Transfer-Encoding: chunked (no Content-Length)."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request(method, path, body=iter([body[:7], body[7:]]),
                           headers={"Content-Type": "application/json", **headers},
                           encode_chunked=True)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_chunked_request_body_is_read_whole(site: Site) -> None:
    """Some clients stream a body in chunks, without Content-Length; gunicorn decodes
    them and the site reads the whole body (Django alone would read it as empty and
    answer "the trump is missing")."""
    seed = json.loads(site.env["SMOKE_SEED"])
    credentials = json.dumps({"username": "arbitre-smoke", "password": PASSWORD})
    status, answer = chunked(site.base, "POST", "/api/v1/token/", credentials.encode(), {})
    assert status == 200, (answer, site.log("web"))
    result = json.dumps({"trump": "C", "ns_points_taken": 30, "note": "per trossos"})
    status, answer = chunked(site.base, "PUT", str(seed["api_result"]), result.encode(),
                             {"Authorization": f"Token {answer['token']}"})
    assert status == 201, answer
    values = answer["values"]
    assert isinstance(values, dict), answer
    assert (values["trump"], values["ns_points_taken"], answer["note"]) == (
        "C", 30, "per trossos"), answer


def test_the_compose_health_checks_pass(site: Site) -> None:
    web = service("web")["healthcheck"]["test"]
    assert web[0] == "CMD"
    probe = [part.replace("127.0.0.1:8000", site.base.removeprefix("http://"))
             for part in web[1:]]
    run(probe, site.env, timeout=30)
    worker = service("worker")["healthcheck"]["test"]
    assert worker[0] == "CMD-SHELL"
    out = run(["sh", "-c", worker[1].replace("$$", "$")], site.env, timeout=60)
    assert "pong" in out


def test_requests_succeed_after_postgres_drops_every_connection_of_the_site(
    site: Site,
) -> None:
    """A database restart: the web and worker connections (kept: DATABASE_CONN_MAX_AGE
    60) are killed between requests; CONN_HEALTH_CHECKS opens new ones."""
    seed = json.loads(site.env["SMOKE_SEED"])
    browser = Browser(site.base)
    standings = f"/c/{seed['slug']}/standings/"
    for _ in range(4):  # every gunicorn worker holds a connection now
        assert browser.get(standings)[0] == 200
    killed = postgres(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "  # noqa: S608 (constant)
        f"WHERE datname = '{DATABASE}' AND pid <> pg_backend_pid()"
    )
    assert killed and all(row[0] for row in killed)
    statuses = [browser.get(standings)[0] for _ in range(6)]
    assert statuses == [200] * 6, site.log("web")
    assert healthz(site.base)[0] == 200


def api(base: str, method: str, path: str, body: dict[str, object] | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(  # noqa: S310 (http on loopback)
        base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def shown_version(fragment: bytes) -> int:
    """The results version a live fragment was built from (its poll's ``?v=``)."""
    match = re.search(rb"[?&]v=(\d+)", fragment)
    assert match, fragment[:500]
    return int(match.group(1))


def shared_cache(pattern: str) -> dict[bytes, bytes]:
    """The keys of the site's Redis cache matching ``pattern``, with their values."""
    import redis

    client = redis.Redis(host="127.0.0.1", port=6379, db=CACHE_DB)
    return {key: client.get(key) or b"" for key in client.scan_iter(match=pattern)}


def test_two_web_processes_share_results_limits_and_the_cache(site: Site) -> None:
    """Two gunicorns on two ports, one PostgreSQL, one Redis: a result saved through one
    is on the other's public standings within 2 s; the fragment the other then builds is
    served by the first from the shared cache (not rebuilt: the cached entry, which holds
    when it was built, is unchanged); a login limit and a print-job limit counted on one
    hold on the other. Slow by design: the module's fixture starts the processes, and
    the print-job limit is reached by starting ten real jobs."""
    seed = json.loads(site.env["SMOKE_SEED"])
    slug = seed["slug"]
    one, two = site.base, site.other
    fragment = f"/c/{slug}/live/standings/"
    status, _url, before = Browser(two).get(fragment)
    assert status == 200
    version_before = shown_version(before)

    status, token = api(one, "POST", "/api/v1/token/",
                        {"username": "arbitre-smoke", "password": PASSWORD})
    assert status == 200, token
    status, saved = api(one, "PUT", str(seed["api_other"]),
                        {"trump": "E", "ns_points_taken": 57},
                        {"Authorization": f"Token {token['token']}"})
    assert status == 201, saved
    saved_at = time.monotonic()
    seen_after = None
    while time.monotonic() - saved_at < 5:
        status, _url, body = Browser(two).get(fragment)
        if status == 200 and shown_version(body) > version_before:
            seen_after = time.monotonic() - saved_at
            break
        time.sleep(0.05)
    print(f"\na result saved on one process is on the other's standings after "
          f"{seen_after} s")
    assert seen_after is not None and seen_after < 2, site.log("web2")

    # Built on two (just now); one serves the copy in the shared cache.
    cached = shared_cache(f"*live:{seed['pk']}:*standings*")
    assert cached, "no standings fragment in the shared cache"
    status, _url, from_one = Browser(one).get(fragment)
    assert status == 200 and from_one == body
    assert shared_cache(f"*live:{seed['pk']}:*standings*") == cached

    # A login limit counted on one holds on two, even for the right password.
    refused_after = None
    for attempt in range(1, 21):
        status, answer = api(one, "POST", "/api/v1/token/",
                             {"username": "bloquejat-smoke", "password": "no-es-aquesta"})
        if status == 429:
            refused_after = attempt
            break
        assert status in (400, 401), answer
    assert refused_after is not None, "twenty failed logins and no limit"
    print(f"login refused on one at attempt {refused_after}")
    status, answer = api(two, "POST", "/api/v1/token/",
                         {"username": "bloquejat-smoke", "password": PASSWORD})
    assert status == 429, answer

    # A print-job limit counted on one holds on two (anonymous, one address).
    requests = [
        ({"kind": kind, "round_number": number}, language)
        for language in ("ca", "es", "en")
        for kind in ("standings", "travellers", "score-cards", "guide-cards")
        for number in (0, 1)
    ]
    started, refused = 0, None
    for index, (body_, language) in enumerate(requests):
        status, answer = api(one, "POST", f"/api/v1/c/{slug}/prints/", body_,
                             {"Accept-Language": language})
        if status == 429:
            refused = index
            break
        assert status in (200, 201, 400), answer
        started += status == 201
    assert refused is not None, f"{started} print jobs and no limit"
    print(f"print request refused on one after {started} jobs started")
    assert started >= 1
    body_, language = requests[refused + 1]
    status, answer = api(two, "POST", f"/api/v1/c/{slug}/prints/", body_,
                         {"Accept-Language": language})
    assert status == 429, answer


def pool_children(pid: int) -> list[int]:
    """The processes a Celery worker forked (its prefork pool)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()]


def test_a_pool_process_killed_mid_job_is_redone_within_30_s_with_nobody_watching(
    site: Site,
) -> None:
    """A job whose worker dies is redone unwatched, with the production worker (prefork, the compose
    command): SIGKILL the pool process drawing 400 pages of board sheets. Celery hands
    its message back at once; that copy finds the job's heartbeat fresh and is dropped;
    the worker's own sweep sends the job again once the heartbeat is 15 s old. Nobody
    opens a page (the job is read from the database). Slow by design: it waits out the
    stall window; the figures are printed (pytest -s)."""
    import signal

    seed = json.loads(site.env["SMOKE_SEED"])
    status, token = api(site.base, "POST", "/api/v1/token/",
                        {"username": "organitzador-smoke", "password": PASSWORD})
    assert status == 200, token
    status, job = api(site.base, "POST", f"/api/v1/c/{seed['slug']}/prints/",
                      {"kind": "board-sheets", "round_number": 1, "copies": 200},
                      {"Authorization": f"Token {token['token']}"})
    assert status == 201, job
    query = ("SELECT status, progress, attempts FROM tournaments_printjob "  # noqa: S608
             f"WHERE id = {int(str(job['id']))}")
    deadline = time.monotonic() + 60
    row: tuple[object, ...] = ()
    while time.monotonic() < deadline:
        row = postgres(query, DATABASE)[0]
        if row[0] == "running" and int(str(row[1])) >= 3:
            break
        time.sleep(0.05)
    assert row[0] == "running" and int(str(row[1])) < 99, row
    children = pool_children(site.processes["worker"].pid)
    assert len(children) == 1, children
    os.kill(children[0], signal.SIGKILL)
    killed_at = time.monotonic()
    restarted_after = None
    while time.monotonic() - killed_at < 60:
        row = postgres(query, DATABASE)[0]
        if restarted_after is None and row[2] == 2:
            restarted_after = time.monotonic() - killed_at
        if row[0] in ("done", "failed"):
            break
        time.sleep(0.2)
    done_after = time.monotonic() - killed_at
    print(f"\npool process SIGKILLed: job restarted after {restarted_after} s, "
          f"{row[0]} after {done_after:.1f} s")
    assert row[0] == "done", (row, site.log("worker"))
    assert restarted_after is not None and done_after < 30, (restarted_after, done_after)
    assert row[2] == 2
