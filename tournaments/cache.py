"""The shared cache's backend: Django's Redis cache, except that a Redis that does not
answer is a cache that holds nothing. The cache only spares work (the live pages'
fragments, the print-job limit): with Redis down the pages are built for each request,
never a 500. After a failure each thread (Django keeps a cache per thread) leaves
Redis alone for :data:`RETRY_SECONDS`, so that a Redis that times out costs one wait
(``socket_timeout``) now and then, not one per read; the failure is logged at most once
a minute per process (:func:`log_once_a_minute`), not once a request. The health check
(``tournaments/health.py``) still sees it down (:meth:`RedisCacheOrNothing.ping`)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds a process leaves a failed Redis alone before trying it again.
RETRY_SECONDS = 10.0
#: Seconds between two log lines about one kind of failure (per process).
LOG_EVERY_SECONDS = 60.0

_last_logged: dict[str, float] = {}
_log_lock = threading.Lock()

T = TypeVar("T")


def log_once_a_minute(kind: str, message: str, *args: Any) -> bool:
    """Log ``message % args`` as a warning unless a line of this ``kind`` was logged in
    the last :data:`LOG_EVERY_SECONDS` by this process (any thread). Returns whether it
    logged. A part that is down fails every request: one line a minute says so without
    flooding the log."""
    now = time.monotonic()
    with _log_lock:
        last = _last_logged.get(kind)
        if last is not None and now - last < LOG_EVERY_SECONDS:
            return False
        _last_logged[kind] = now
    log.warning(message, *args)
    return True


class RedisCacheOrNothing(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose every operation, when Redis
    fails (``redis.exceptions.RedisError``: refused, timed out, out of memory...), does
    what an empty cache would: a read misses, a write is lost, ``add`` succeeds (the
    caller goes on as the one that took the key), ``incr``/``decr`` raise ``ValueError``
    (no such key)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._down_until = 0.0

    def _try(self, call: Callable[[], T], empty: T) -> T:
        if time.monotonic() < self._down_until:
            return empty
        try:
            return call()
        except RedisError as exc:
            self._failed(exc)
            return empty

    def _failed(self, exc: RedisError) -> None:
        self._down_until = time.monotonic() + RETRY_SECONDS
        log_once_a_minute("cache", "cache: Redis does not answer (%s); pages are built "
                          "without it, retried every %s s", exc, RETRY_SECONDS)

    def is_down(self) -> bool:
        """Whether this process saw Redis fail in the last :data:`RETRY_SECONDS`."""
        return time.monotonic() < self._down_until

    def ping(self) -> None:
        """Raise ``RedisError`` when Redis does not answer (for the health check)."""
        RedisCache.get(self, "healthz")

    # Each operation as Django's, or what an empty cache answers.
    def get(self, key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self._try(lambda: super(RedisCacheOrNothing, self).get(
            key, default, *args, **kwargs), default)

    def get_many(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        return self._try(lambda: super(RedisCacheOrNothing, self).get_many(*args, **kwargs),
                         {})

    def has_key(self, *args: Any, **kwargs: Any) -> bool:
        return self._try(lambda: super(RedisCacheOrNothing, self).has_key(*args, **kwargs),
                         False)

    def add(self, *args: Any, **kwargs: Any) -> bool:
        return self._try(lambda: super(RedisCacheOrNothing, self).add(*args, **kwargs), True)

    def set(self, *args: Any, **kwargs: Any) -> None:
        self._try(lambda: super(RedisCacheOrNothing, self).set(*args, **kwargs), None)

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        return self._try(lambda: super(RedisCacheOrNothing, self).set_many(*args, **kwargs),
                         [])

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        return self._try(lambda: super(RedisCacheOrNothing, self).touch(*args, **kwargs),
                         False)

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        return self._try(lambda: super(RedisCacheOrNothing, self).delete(*args, **kwargs),
                         False)

    def delete_many(self, *args: Any, **kwargs: Any) -> None:
        self._try(lambda: super(RedisCacheOrNothing, self).delete_many(*args, **kwargs), None)

    def clear(self) -> None:
        self._try(lambda: super(RedisCacheOrNothing, self).clear(), None)

    def incr(self, key: Any, *args: Any, **kwargs: Any) -> int:
        if time.monotonic() >= self._down_until:
            try:
                return super().incr(key, *args, **kwargs)
            except RedisError as exc:
                self._failed(exc)
        raise ValueError(f"Key {key!r} not found.")  # what Django says of a missing key
