"""Tournaments app speed: ``manage.py demo`` builds its championship (24 pairs,
4 rounds of 6 boards, 252 bot-played hands, each through services.result_record) in a few
seconds on SQLite; the standings and a traveller of that championship load in a constant
number of queries and well under 0.1 s; one result correction (lock, audit) is a few ms.

Run from the repository root:  .venv/bin/python benchmarks/bench_tournaments.py [--repeat R]

Uses a throw-away SQLite file (DATABASE_URL is overridden unless --keep-db-url), migrates
it, and prints the machine and the figures. Record them in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {cpu}, Python {platform.python_version()}"


def timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep-db-url", action="store_true")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    if not args.keep_db_url:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from io import StringIO

    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments import selectors, services
    from tournaments.models import Championship, Result

    call_command("migrate", verbosity=0, skip_checks=True)
    print(machine(), "|", connection.vendor)
    best, median = timed(lambda: call_command("demo", "--reset", stdout=StringIO()),
                         args.repeat)
    print(f"demo --reset (252 results via result_record): best {best:.2f} s, "
          f"median {median:.2f} s")
    c = Championship.objects.get(slug="demo")
    for label, fn in (
        ("standings", lambda: selectors.standings(c)),
        ("standings after each round", lambda: selectors.standings_after_each_round(c)),
        ("traveller board 1", lambda: selectors.traveller(c, 1)),
    ):
        connection.queries_log.clear()  # the demo filled the bounded log
        with CaptureQueriesContext(connection) as ctx:
            fn()
        best, median = timed(fn, 20)
        print(f"{label}: {len(ctx.captured_queries)} queries, best {best * 1000:.1f} ms, "
              f"median {median * 1000:.1f} ms")
    result = Result.objects.filter(seating__round__championship=c,
                                   seating__round__number=4).first()
    assert result is not None
    times = []
    for i in range(50):
        result.refresh_from_db()
        start = time.perf_counter()
        services.result_correct(result=result, expected_version=result.version,
                                acting_user=None, trump="O", ns_points_taken=30 + i % 10)
        times.append(time.perf_counter() - start)
    print(f"result correction (lock + audit): median {statistics.median(times) * 1000:.1f} ms,"
          f" worst {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
