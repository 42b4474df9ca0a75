"""Query plans of a kept connection that follow the results tables' growth.

PostgreSQL keeps a connection's plans: a prepared statement's generic plan (server-side
binding, docs/decisions.md 45) and the plans of the foreign-key checks are made once,
from the tables' size at that moment, and kept until the tables' statistics change
(``ANALYZE``, by autovacuum or by hand). A plan made while the results tables held a
page or two reads them whole (on one page a sequential scan costs less than an index),
and kept, the same plan reads every row of them at every save as they grow: on a new
database, with statistics taken before the first result, a result save's PostgreSQL CPU
went from 1.6 to 6.1 ms over 4,000 results (docs/performance.md "Result entry").
Autovacuum analyses a growing table at most once a minute by default, and never where it
is off. So a result save first asks PostgreSQL to forget the connection's plans
(``DISCARD PLANS``: the prepared statements stay, their next use plans them again from
the tables' current size) when they are older than ``DATABASE_REPLAN_SECONDS``
(:func:`replan_if_stale`).
"""

from __future__ import annotations

import time
import weakref
from typing import Any

from django.conf import settings
from django.db import connections

#: When each database connection (the driver's object) last had its plans discarded,
#: or was first seen by :func:`replan_if_stale` (``time.monotonic()``).
_PLANNED: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def replan_if_stale(using: str = "default") -> bool:
    """On PostgreSQL, ``DISCARD PLANS`` on ``using``'s connection when its plans may be
    older than ``settings.DATABASE_REPLAN_SECONDS`` (0: never): the first call for a
    connection only notes the time (its plans are that recent at the oldest, give or
    take the requests before). Returns whether it discarded them. Allowed inside a
    transaction; no effect on the rows read or written."""
    seconds = settings.DATABASE_REPLAN_SECONDS
    connection = connections[using]
    if seconds <= 0 or connection.vendor != "postgresql" or connection.connection is None:
        return False
    now = time.monotonic()
    planned = _PLANNED.setdefault(connection.connection, now)
    if now - planned < seconds:
        return False
    with connection.cursor() as cursor:
        cursor.execute("DISCARD PLANS")
    _PLANNED[connection.connection] = now
    return True
