"""A real Celery worker on a real Redis broker, for the few job tests that need one.

``TEST_CELERY_BROKER_URL`` (default ``redis://127.0.0.1:6379/15``) names the broker;
under pytest-xdist each worker takes its own Redis database from it (15 for ``gw0``, 14
for ``gw1``: tests.services.redis_db_for_worker). With Redis down, or without
PostgreSQL, the tests skip (and fail when CI=true). The worker is another process: it
gets the TEST database pytest-django created (``connection.settings_dict["NAME"]``, one
per xdist worker), the same MEDIA_ROOT, and a queue of its own so that two test sessions
sharing the broker never take each other's tasks. Tests using it must be
``django_db(transaction=True)`` so their rows are committed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlparse, urlunparse

import pytest
from django.db import connection
from django.test import override_settings

from tests.services import port_open, redis_db_for_worker, require

ROOT = Path(__file__).resolve().parents[3]
#: Seconds after which Redis hands a dead worker's unacknowledged task to another worker:
#: production's, so that a job redone after its worker died was sent again because its
#: heartbeat stopped (reports.services.print_jobs_requeue_stalled), not by Redis.
VISIBILITY_TIMEOUT = 900


def broker_url() -> str:
    given = os.environ.get("TEST_CELERY_BROKER_URL", "").strip() or "redis://127.0.0.1:6379/15"
    parsed = urlparse(given)
    base = int(parsed.path.lstrip("/") or 0)
    url = urlunparse(parsed._replace(path=f"/{redis_db_for_worker(base)}"))
    require(
        port_open(parsed.hostname or "127.0.0.1", parsed.port or 6379),
        f"needs Redis at {url}",
    )
    return url


def _database_url() -> str:
    db = connection.settings_dict
    require(db["ENGINE"].endswith("postgresql"),
            "the worker tests need PostgreSQL (DATABASE_URL=postgres://...)")
    user = quote(db.get("USER") or "postgres")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@dataclass
class Worker:
    """Start, kill and restart ``celery -A config worker --pool=solo`` on one queue."""

    broker: str
    queue: str
    env: dict[str, str]
    log_dir: Path
    process: subprocess.Popen[bytes] | None = None
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self) -> None:
        log = self.log_dir / f"worker-{len(self.started) + 1}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--concurrency=1", "--loglevel=INFO", "-Q", self.queue,
             "-n", f"{self.queue}-{len(self.started) + 1}@%h", "--without-gossip",
             "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        )
        self.started.append(self.process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited early:\n{log.read_text()}")
            if "ready." in log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not start in 60 s:\n{log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, the running task is never acknowledged."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        for process in self.started:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def _forget_routing(app: object) -> None:
    """Drop the app's cached queues, router and connection pool so that they are built
    again from the updated conf (an eager run earlier in the session built them for the
    default queue and no broker)."""
    from kombu import pools

    # kombu keeps its connection and producer pools in module-level registries keyed by
    # the connection: closing the app's pool alone left a closed pool there, which the
    # next eager-or-real job on the same broker URL got back ("Acquire on closed pool").
    pools.reset()
    app._pool = None  # type: ignore[attr-defined]
    app.__dict__.pop("amqp", None)


@pytest.fixture(scope="module")
def celery_worker(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Worker]:
    """A running worker and the test process's Celery app pointed at its broker/queue,
    for one module (the rest of the session keeps running jobs eagerly)."""
    from config.celery import app

    url = broker_url()
    media = tmp_path_factory.mktemp("media")
    queue = f"bd-test-{uuid.uuid4().hex[:10]}"
    env = dict(os.environ)
    env.update(
        CELERY_BROKER_URL=url,
        # A job the worker sends again (its stall sweep) goes to the queue it reads.
        CELERY_TASK_DEFAULT_QUEUE=queue,
        DATABASE_URL=_database_url(),
        MEDIA_ROOT=str(media),
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
        PYTHONPATH=str(ROOT),
    )
    saved = {key: app.conf.get(key) for key in
             ("broker_url", "task_always_eager", "task_default_queue",
              "broker_transport_options")}
    app.conf.update(broker_url=url, task_always_eager=False, task_default_queue=queue,
                    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT})
    _forget_routing(app)
    # Through override_settings, whose signal makes default_storage forget the location
    # an earlier test may have made it read (a plain assignment left it writing and
    # reading var/media while the worker wrote to ``media``).
    media_root = override_settings(MEDIA_ROOT=str(media))
    media_root.enable()
    worker = Worker(broker=url, queue=queue, env=env, log_dir=media)
    try:
        worker.start()
        yield worker
    finally:
        worker.stop()
        _forget_routing(app)
        app.conf.update(saved)
        media_root.disable()
