"""Sending the Celery tasks by name: the one door from the services to the tasks.

A service that leaves slow work for later (a print job, a board's double-dummy table)
calls a function of this module from ``transaction.on_commit``. Only the task's name is
known here, never its function: ``tournaments/tasks.py`` imports the services its tasks
call, so a service importing it closed an import circle (``tests/test_layers.py``
forbids both the circle and the import).

With a broker the message is sent with ``send_task``: the name travels, the worker holds
the function. Without one (``CELERY_TASK_ALWAYS_EAGER``, the default when
``CELERY_BROKER_URL`` is unset) ``send_task`` would ignore the setting and try to reach a
broker, so the task runs in-process through its registered object, whose
``apply_async`` honours eager mode. A web process imports no task module by itself (a
worker does when it starts): the first eager send asks Celery's autodiscovery to import
them.

Work too slow for a request (a round's double-dummy tables) has, without a broker, no
worker to go to: :func:`in_background` runs it on the process's one background thread
(:func:`background_executor`), one piece at a time in the order sent, so the request
that asked returns at once and nobody has to run a command for it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from celery import current_app
from celery.result import AsyncResult
from django.db import connections

log = logging.getLogger(__name__)

#: The tasks' registered names (``tournaments.tasks``; a test keeps them equal).
PRINT_JOB = "tournaments.tasks.print_job_task"
BOARD_ANALYSIS = "tournaments.tasks.board_analysis_task"
CIRCUIT_PLACES = "tournaments.tasks.circuit_places_task"


def send(name: str, *args: Any) -> AsyncResult[Any]:
    """Send task ``name`` with positional ``args`` (JSON values: ids).

    Raises what the broker's client raises when the broker cannot be reached (kombu's
    ``OperationalError``, ``OSError``); in eager mode, what the task raises
    (``CELERY_TASK_EAGER_PROPAGATES``). ``celery.exceptions.NotRegistered`` for a name
    no task module defines.
    """
    if current_app.conf.task_always_eager:
        if name not in current_app.tasks:
            current_app.loader.import_default_modules()
        task = current_app.tasks[name]
        return task.apply_async(args=args)
    return current_app.send_task(name, args=args)


def print_job(job_id: int) -> AsyncResult[Any]:
    """Run print job ``job_id`` (``tasks.print_job_task``)."""
    return send(PRINT_JOB, job_id)


def board_analysis(board_id: int) -> AsyncResult[Any]:
    """Compute board ``board_id``'s double-dummy table (``tasks.board_analysis_task``)."""
    return send(BOARD_ANALYSIS, board_id)


def circuit_places(championship_id: int) -> AsyncResult[Any]:
    """Read championship ``championship_id``'s places again for its circuits
    (``tasks.circuit_places_task``)."""
    return send(CIRCUIT_PLACES, championship_id)


def runs_in_process() -> bool:
    """Whether tasks run in this process (no broker: ``CELERY_TASK_ALWAYS_EAGER``)."""
    return bool(current_app.conf.task_always_eager)


#: The process's background executor (:func:`background_executor`); a test may put an
#: executor of its own here.
background: Executor | None = None
_background_lock = threading.Lock()


def background_executor() -> Executor:
    """The one background thread of this process (created on first use): a
    ``ThreadPoolExecutor`` of one worker, so two pieces of work never run at once."""
    global background
    with _background_lock:
        if background is None:
            background = ThreadPoolExecutor(max_workers=1,
                                            thread_name_prefix="botifarra-background")
        return background


def in_background(work: Callable[[], Any]) -> Future[Any]:
    """Run ``work()`` on the background thread, after whatever was sent before it.

    For a process without a broker (:func:`runs_in_process`). ``work`` uses the
    thread's own database connections, closed when it ends; what it raises is logged
    (and kept in the returned future), never lost silently.
    """
    return background_executor().submit(_run_logged, work)


def _run_logged(work: Callable[[], Any]) -> Any:
    try:
        return work()
    except Exception:
        log.exception("background work %r failed", work)
        raise
    finally:
        connections.close_all()
