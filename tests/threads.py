"""Calls run at the same moment, each in its own thread and so its own database
connection: the race tests of the services, the API and the new features share it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def at_once(calls: list[Callable[[], Any]], *, wait: float = 20,
            join: float = 60) -> list[Any]:
    """Run each call in its own thread (own connection), released together by a
    barrier; the outcome or the exception of each, in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=wait)
            outcomes[i] = call()
        except Exception as exc:  # collected and asserted on by the caller
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=join)
    return outcomes
