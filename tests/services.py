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
