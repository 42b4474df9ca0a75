"""Which outside services this machine offers, and how a test that needs one reacts.

A test that needs PostgreSQL, Redis (with a Celery worker) or Chromium skips with a
clear reason on a newcomer's machine that lacks it, and fails instead when ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import socket

import pytest

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def require(available: bool, reason: str) -> None:
    """Skip (newcomer) or fail (CI) when a service is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def xdist_worker() -> str:
    """This process's pytest-xdist worker (``"gw0"``, ``"gw1"``...), ``""`` without xdist.

    ``make test`` runs the suite on two workers: whatever a test holds outside its own
    process (a Redis database, a Celery queue, a PostgreSQL database of its own, files)
    is named after the worker, so that the two never meet.
    """
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_index() -> int:
    """0 for ``gw0`` (and without xdist), 1 for ``gw1``..."""
    name = xdist_worker()
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def redis_db_for_worker(base: int) -> int:
    """The Redis database of this worker: ``base`` for the first, the one below for the
    next (``15``: 15 on ``gw0``, 14 on ``gw1``), wrapping within Redis's sixteen."""
    return (base - worker_index()) % 16
