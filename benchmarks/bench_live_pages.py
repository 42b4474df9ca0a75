"""The live public pages under load: a 200-pair championship (4 rounds x 10 boards, 100
tables, 4,000 results) on PostgreSQL, served by gunicorn on loopback, asked by 8
concurrent clients (a bounded threaded ``http.client`` loop per client process).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_live \\
        .venv/bin/python benchmarks/bench_live_pages.py [--seconds 10] [--rebuild]

It prints, for the same server and load: the login page's throughput (the reference),
the cached standings page's, a traveller's, a conditional GET of an unchanged standings
page (304), the poll of an unchanged fragment (204), the standings while the version
goes up every 100 ms (as with a referee saving a result every 100 ms: each fragment is
rebuilt at most about once a second, served meanwhile as it was); and in-process, the
time to read the championship's result rows as tuples against the time of a page that
must be recomputed (the first request after a change). Goals (docs/performance.md):
cached standings at least 80 % of the login page's requests per second; a recomputed
page under 3x the time to read its rows. ``--rows``: only the rows that
``tournaments/web/live_rows.py`` writes against the template loops they replaced, in process.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/botifarra_live"
os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
SLUG = "bench-live"

from benchmarks.common import machine  # noqa: E402


def ensure_database(url: str) -> None:
    """Create the benchmark's database when it does not exist (trust auth on loopback)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup(rebuild: bool) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tournaments.models import Championship

    existing = Championship.objects.filter(slug=SLUG).first()
    if existing is not None and not rebuild:
        return
    if existing is not None:
        from tournaments import services

        services.championship_delete(championship=existing, acting_user=None)
    from tests.factories import build_championship

    start = time.perf_counter()
    championship = build_championship(pairs=200, rounds=4, boards_per_round=10,
                                      drawn_rounds=4, played_rounds=4)
    Championship.objects.filter(pk=championship.pk).update(slug=SLUG)
    print(f"(set-up: 200 pairs, 4,000 results in {time.perf_counter() - start:.0f} s)")


def in_process(repeat: int = 7) -> None:
    """Rows read as tuples vs a page computed from scratch (the first after a change)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import selectors
    from tournaments.models import Championship, Result
    from tournaments.web import live

    try:
        from tournaments.selectors.live import forget_scored
    except ImportError:  # a checkout from before the shared scoring (before/after runs)
        def forget_scored() -> None:
            pass

    championship = Championship.objects.get(slug=SLUG)
    results = Result.objects.filter(board__championship=championship).count()

    def best(action) -> float:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            action()
            runs.append(time.perf_counter() - start)
        return statistics.median(runs)

    read = best(lambda: selectors.load_results(championship))
    scored = best(lambda: selectors.scored_championship(championship, public_only=True))

    # Each run starts from nothing: no fragment cached, no scoring kept by the process.
    def standings() -> None:
        cache.clear()
        forget_scored()
        live.standings_fragment(championship, None, None)

    def traveller() -> None:
        cache.clear()
        forget_scored()
        live.traveller_fragment(championship, 1, staff=False)

    def traveller_after_standings() -> None:
        standings()
        start = time.perf_counter()
        live.traveller_fragment(championship, 1, staff=False)
        shared.append(time.perf_counter() - start)

    shared: list[float] = []
    page = best(standings)
    trav = best(traveller)
    for _ in range(repeat):
        traveller_after_standings()
    with CaptureQueriesContext(connection) as queries:
        standings()
    load_avg = os.getloadavg()[0]
    print(f"results: {results}; load average {load_avg:.1f} (other jobs share the machine)")
    print(f"read the rows as tuples (load_results):     {read * 1000:7.1f} ms (median of {repeat})")
    print(f"scored_championship (read + score):        {scored * 1000:7.1f} ms = "
          f"{scored / read:.1f}x the read")
    print(f"standings fragment recomputed + rendered:  {page * 1000:7.1f} ms = "
          f"{page / read:.1f}x the read, {len(queries)} queries")
    print(f"traveller fragment recomputed + rendered:  {trav * 1000:7.1f} ms = "
          f"{trav / read:.1f}x the read")
    print(f"  the same, its version already scored:    "
          f"{statistics.median(shared) * 1000:7.1f} ms (a fragment rebuilt after another)")


def rows_cost(repeat: int) -> None:
    """The standings' and traveller's rows written by ``tournaments/web/live_rows.py`` against
    the template loops they replaced (tests/tournaments/views/live_rows_reference), for
    the same values, in turn, ``repeat`` times each, in Catalan: the median of each and of
    their ratios, beside the time to rebuild the whole fragment."""
    from django.core.cache import cache
    from django.utils import translation

    from tests.tournaments.views.live_rows_reference import render
    from tournaments.models import Championship
    from tournaments.selectors.live import forget_scored, live_standings, live_traveller
    from tournaments.web import live
    from tournaments.web.live_rows import standings_rows, traveller_rows

    championship = Championship.objects.get(slug=SLUG)
    standings = live_standings(championship, round_only=None, through_round=None)
    traveller = live_traveller(championship, 1, for_public=False)
    assert traveller is not None

    def cases() -> list[tuple[str, object, object]]:
        return [
            (f"standings, {len(standings.rows)} rows",
             lambda: standings_rows(championship.slug, standings.rows),
             lambda: render("standings_rows.html", championship=championship,
                            standings=standings)),
            (f"traveller, {len(traveller.rows)} rows",
             lambda: traveller_rows(championship.slug, traveller),
             lambda: render("traveller_rows.html", championship=championship,
                            traveller=traveller)),
        ]

    def rebuild() -> None:
        cache.clear()
        forget_scored()
        live.standings_fragment(championship, None, None)

    with translation.override("ca"):
        for name, python, template in cases():
            assert str(python()) == template(), name  # type: ignore[operator]
            times: list[tuple[float, float]] = []
            for _ in range(repeat):
                pair = []
                for action in (python, template):
                    start = time.process_time()
                    action()  # type: ignore[operator]
                    pair.append(time.process_time() - start)
                times.append((pair[0], pair[1]))
            ours = statistics.median(t[0] for t in times)
            theirs = statistics.median(t[1] for t in times)
            ratio = statistics.median(t[1] / t[0] for t in times if t[0])
            print(f"{name}: live_rows {ours * 1000:.2f} ms, template loop "
                  f"{theirs * 1000:.2f} ms of CPU (median of {repeat}, in turn; "
                  f"template / live_rows median {ratio:.2f})")
        whole = []
        for _ in range(repeat):
            start = time.process_time()
            rebuild()
            whole.append(time.process_time() - start)
        print(f"standings fragment recomputed and rendered (with live_rows): "
              f"{statistics.median(whole) * 1000:.1f} ms of CPU (median of {repeat})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _client(port: int, path: str, headers: dict[str, str], seconds: float, queue) -> None:
    """One client: requests in a loop on one keep-alive connection for ``seconds``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: list[float] = []
    statuses: dict[int, int] = {}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        times.append(time.perf_counter() - start)
        statuses[response.status] = statuses.get(response.status, 0) + 1
    queue.put((times, statuses))


def load(port: int, path: str, seconds: float, clients: int = 8,
         headers: dict[str, str] | None = None) -> tuple[float, float, dict[int, int]]:
    """Requests per second, median latency (s) and status counts of ``clients``
    concurrent clients for ``seconds``."""
    queue: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client,
                                     args=(port, path, headers or {}, seconds, queue))
             for _ in range(clients)]
    for p in procs:
        p.start()
    all_times: list[float] = []
    statuses: dict[int, int] = {}
    for _ in procs:
        times, counts = queue.get(timeout=seconds + 60)
        all_times += times
        for k, v in counts.items():
            statuses[k] = statuses.get(k, 0) + v
    for p in procs:
        p.join()
    return len(all_times) / seconds, statistics.median(all_times) if all_times else 0, statuses


def _bump_versions(every: float) -> None:
    """A stand-in for referees saving results: the championship's version goes up every
    ``every`` seconds (each bump makes every fragment out of date, as a result does)."""
    from django.db import connections
    from django.db.models import F

    from tournaments.models import Championship

    connections.close_all()  # the parent's connection is not this process's
    while True:
        Championship.objects.filter(slug=SLUG).update(results_version=F("results_version") + 1)
        time.sleep(every)


def served(seconds: float, workers: int, clients: int = 8) -> None:
    port = free_port()
    env = dict(os.environ, DJANGO_SECRET_KEY="bench-" + "x" * 40, DEBUG="false",
               ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="WARNING",
               SESSION_COOKIE_SECURE="false", CSRF_COOKIE_SECURE="false",
               STATIC_ROOT="/tmp/botifarra_live_static",
               DATABASE_CONN_MAX_AGE="60")  # as deploy/production.env.example
    # DEBUG off serves hashed static names: the manifest must exist, as in production.
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", str(workers), "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        standings = f"/c/{SLUG}/standings/"
        for path in (standings, f"/c/{SLUG}/boards/1/", "/accounts/login/"):
            for _ in range(workers * 3):  # every worker renders (and caches) once
                conn.request("GET", path)
                conn.getresponse().read()
        conn.request("GET", standings)
        response = conn.getresponse()
        etag = response.getheader("ETag") or ""
        response.read()
        conn.request("GET", f"/c/{SLUG}/live/version/")
        version = re.search(rb'"version": (\d+)', conn.getresponse().read())
        v = version.group(1).decode() if version else "0"
        print(f"gunicorn {workers} sync workers, {clients} client processes, {seconds:.0f} s each")
        figures = {}
        for label, path, headers in (
            ("login page", "/accounts/login/", {}),
            ("standings (cached)", standings, {}),
            ("traveller board 1 (cached)", f"/c/{SLUG}/boards/1/", {}),
            ("standings, If-None-Match (304)", standings, {"If-None-Match": etag}),
            ("poll of unchanged fragment (204)", f"/c/{SLUG}/live/standings/?v={v}", {}),
        ):
            rate, median, statuses = load(port, path, seconds, clients, headers=headers)
            figures[label] = rate
            print(f"{label:34s} {rate:8.0f} req/s  median {median * 1000:6.1f} ms  {statuses}")
        ratio = figures["standings (cached)"] / figures["login page"]
        print(f"standings / login throughput: {ratio:.0%} (goal: at least 80 %)")
        bumper = multiprocessing.Process(target=_bump_versions, args=(0.1,), daemon=True)
        bumper.start()
        try:
            rate, median, statuses = load(port, standings, seconds, clients)
        finally:
            bumper.terminate()
            bumper.join()
        print(f"{'standings, version bumped /100 ms':34s} {rate:8.0f} req/s  median "
              f"{median * 1000:6.1f} ms  {statuses} = "
              f"{rate / figures['login page']:.0%} of login")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=8, help="client processes (8)")
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--in-process-only", action="store_true",
                        help="only the in-process figures (no gunicorn, no load)")
    parser.add_argument("--rows", action="store_true",
                        help="only the rows written by live_rows against the template loops")
    parser.add_argument("--repeat", type=int, default=7,
                        help="runs of each in-process figure (their median is printed)")
    args = parser.parse_args()
    print(machine())
    ensure_database(os.environ["DATABASE_URL"])
    setup(args.rebuild)
    if args.rows:
        rows_cost(args.repeat)
        return
    in_process(args.repeat)
    if not args.in_process_only:
        served(args.seconds, args.workers, args.clients)


if __name__ == "__main__":
    main()
