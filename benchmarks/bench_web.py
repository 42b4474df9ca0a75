"""Time the public pages on the demo championship (24 pairs, 4 rounds of 6 boards, 252
results): median of 10 requests through Django's test client, and the queries each makes.

    python manage.py demo            # once
    python benchmarks/bench_web.py

Recorded 2026-11-29 on the project's 2-core machine, PostgreSQL 15 (DATABASE_URL set):

    /c/demo/standings/        queries=6  median=35.8 ms
    /c/demo/boards/1/         queries=4  median=30.5 ms
    /c/demo/pairs/1/          queries=7  median=39.3 ms
    /api/c/demo/standings/    queries=6  median=35.5 ms
    /c/demo/                  queries=4  median=10.6 ms

Goal: every public page under 100 ms on the demo; the query counts stay constant with the
number of pairs (tests/tournaments/views/test_query_counts.py).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

URLS = [
    "/c/demo/standings/",
    "/c/demo/boards/1/",
    "/c/demo/pairs/1/",
    "/api/c/demo/standings/",
    "/c/demo/",
]


def main() -> None:
    client = Client()
    for url in URLS:
        client.get(url)  # warm up
        times = []
        for _ in range(10):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"{url:26s} status={response.status_code} queries={len(queries)} "
            f"median={times[len(times) // 2] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
