"""Locust users for benchmarks/bench_load.py (which starts gunicorn, writes the plan and
runs ``locust --headless`` with this file; see its docstring).

The plan is a JSON file named by ``BENCH_PLAN``: ``{"slug", "round", "tables",
"boards", "tokens"}`` (the referees' API tokens). Environment, all optional:

- ``BENCH_REFEREE_RATE``: results a second each referee user enters (0: as fast as
  it can; default 0);
- ``BENCH_REFEREES``: how many of the users are referees when standings users run
  alongside (``fixed_count``; default 0, i.e. by weight);
- ``BENCH_REFEREE_USERS``: how many referee users share the tables (default: one per
  token);
- ``BENCH_STANDINGS_RATE``: standings requests a second per user (0: no wait);
- ``BENCH_PACING``: ``constant`` paces the users with locust's ``constant_throughput``
  instead of a Poisson stream (:func:`poisson_throughput`), to compare;
- ``BENCH_LEDGER``: a file the referees append to: ``sent T B`` before each PUT and
  ``201 T B`` after each 201, so the benchmark can match every answer to a stored row.

Users:

- ``LoginPage``: ``GET /accounts/login/``, the baseline every figure is compared to.
- ``Referee``: ``PUT /api/v1/c/<slug>/rounds/<r>/tables/<t>/boards/<b>/result/`` with a
  referee's token; user i enters the tables t with ``t % users == i``, board by board,
  each result once (201 expected: anything else is a failure, so a lost or doubled
  result shows).
- ``Standings``: the public standings page, as a phone opens it (no cookie, no ETag).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
import time
from typing import Any

from locust import FastHttpUser, constant, constant_throughput, task

PLAN: dict[str, Any] = {}
if os.environ.get("BENCH_PLAN"):
    with open(os.environ["BENCH_PLAN"], encoding="utf-8") as plan_file:
        PLAN = json.load(plan_file)

_NEXT = itertools.count()
_LOCK = threading.Lock()
_LEDGER = (open(os.environ["BENCH_LEDGER"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115
           if os.environ.get("BENCH_LEDGER") else None)


def _note(what: str, table: int, board: int) -> None:
    if _LEDGER is not None:
        _LEDGER.write(f"{what} {table} {board}\n")
TRUMPS = ("O", "C", "E", "B", "botifarra")


def _rate(name: str) -> float:
    return float(os.environ.get(name, "0") or 0)


def poisson_throughput(rate: float) -> Any:
    """A locust ``wait_time``: the user's requests start as a Poisson stream of ``rate``
    a second (independent exponential gaps, as from many phones or referees who do not
    wait for one another). After slow answers the user catches up on up to a second of
    requests due, so the rate offered holds while the answers keep up on average.

    locust's ``constant_throughput`` keeps a user's phase only while every task is faster
    than the period: a stall longer than that (a warm-up, a rebuild) sends every user it
    held again at the same moment, and from then on they ask in step, a burst of all the
    users once a period, each request queueing behind the others (docs/performance.md)."""

    def wait(user: Any) -> float:
        now = time.monotonic()
        due = max(getattr(user, "_poisson_due", now), now - 1.0) + random.expovariate(rate)
        user._poisson_due = due
        return max(0.0, due - now)

    return wait


def _wait(rate: float) -> Any:
    if rate <= 0:
        return constant(0)
    if os.environ.get("BENCH_PACING") == "constant":  # locust's own, for comparison
        return constant_throughput(rate)
    return poisson_throughput(rate)


class LoginPage(FastHttpUser):
    wait_time = constant(0)

    @task
    def login_page(self) -> None:
        self.client.get("/accounts/login/", name="login page")


class Referee(FastHttpUser):
    wait_time = _wait(_rate("BENCH_REFEREE_RATE"))
    fixed_count = int(os.environ.get("BENCH_REFEREES", "0") or 0)

    def on_start(self) -> None:
        with _LOCK:
            index = next(_NEXT)
        tokens = PLAN["tokens"]
        self.headers = {"Authorization": f"Token {tokens[index % len(tokens)]}"}
        users = int(os.environ.get("BENCH_REFEREE_USERS", "0") or 0) or len(tokens)
        tables = [t for t in range(1, PLAN["tables"] + 1) if t % users == index % users]
        self.slots = iter([(t, b) for b in PLAN["boards"] for t in tables])
        self.rng = random.Random(index)

    @task
    def enter_result(self) -> None:
        slot = next(self.slots, None)
        if slot is None:  # every slot of this user entered: nothing left to do
            self.stop()
            return
        table, board = slot
        body = {"trump": self.rng.choice(TRUMPS), "ns_points_taken": self.rng.randint(0, 72)}
        url = (f"/api/v1/c/{PLAN['slug']}/rounds/{PLAN['round']}/tables/{table}"
               f"/boards/{board}/result/")
        _note("sent", table, board)
        with self.client.put(url, json=body, headers=self.headers, name="result PUT",
                             catch_response=True) as response:
            if response.status_code != 201:
                response.failure(f"{response.status_code}: {response.text[:200]}")
            else:
                _note("201", table, board)


class Standings(FastHttpUser):
    wait_time = _wait(_rate("BENCH_STANDINGS_RATE"))

    @task
    def standings(self) -> None:
        self.client.get(f"/c/{PLAN['slug']}/standings/", name="standings")
