"""Celery tasks (docs/architecture.md: thin; they take ids and call a service).

``print_job_task`` runs one print job (``reports.services.print_job_run``). It is
acknowledged late and rejected when its worker is lost (settings ``CELERY_TASK_ACKS_LATE``,
``CELERY_TASK_REJECT_ON_WORKER_LOST``), so a message is never lost. A worker that dies
mid-way leaves its job running with a heartbeat that stops: once it is
``PRINT_JOB_STALL_SECONDS`` old the job is sent again (``reports.services.
print_jobs_requeue_stalled``) by every live worker's :class:`StallSweeper` (every
``PRINT_JOB_SWEEP_SECONDS``, no page needed), and also on the prints page, on a status
poll, on asking again and when a worker starts, and restarts from page one; Redis's own
redelivery of the old message, after the visibility timeout, then finds the job done and
does nothing. Transient faults (database or broker connection, timeouts) are retried
with exponential backoff; after the last retry, or on the soft time limit, the job is
marked failed with the reason (in the active language, Catalan msgids: the page shows
it as it is).

``board_analysis_task`` computes one board's double-dummy table
(``services.board_analyse``); closing a round queues one per board.

``circuit_places_task`` reads a finished championship's places again for its circuits
(``services.final_standings_refresh``), after any change to it.

The services send these tasks by name through ``tournaments/enqueue.py`` and never
import this module: a task's name is its module and function (``tournaments.tasks.
print_job_task``), so a renamed task must be renamed there too (a test compares them).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.utils.translation import gettext as _

from tournaments.reports import services
from tournaments.services.analysis import board_analyse
from tournaments.services.circuits import final_standings_refresh

log = logging.getLogger(__name__)

#: Faults worth another try: the database or the broker was briefly unreachable.
TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
MAX_RETRIES = 5


def backoff(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 2, 4, 8, 16, 32, at most 60."""
    return min(60, 1 << (retries + 1))


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def print_job_task(self: Any, job_id: int) -> str:
    """Run print job ``job_id``; returns its final status (``done``, ``failed`` or
    ``skipped`` when there was nothing to do).

    On a worker a transient fault sends the task again after :func:`backoff` seconds;
    in-process (eager, no broker) it is tried again at once, so that the page that asked
    never sees the fault.
    """
    eager = bool(self.request.is_eager)
    attempt = 0
    while True:
        try:
            job = services.print_job_run(job_id=job_id)
        except SoftTimeLimitExceeded:
            services.print_job_fail(
                job_id=job_id, error=_("S'ha superat el temps màxim per preparar el PDF.")
            )
            return "failed"
        except TRANSIENT as exc:
            retries = attempt if eager else self.request.retries
            if retries >= MAX_RETRIES:
                services.print_job_fail(
                    job_id=job_id,
                    error=_("Abandonat després de %(n)s intents: %(error)s")
                    % {"n": MAX_RETRIES + 1, "error": exc},
                )
                return "failed"
            if eager:
                attempt += 1
                log.warning("print job %s: %s; trying again", job_id, exc)
                continue
            log.warning("print job %s: %s; retry in %s s", job_id, exc, backoff(retries))
            raise self.retry(exc=exc, countdown=backoff(retries)) from exc
        except Exception as exc:
            # A bug, not a refusal: the user sees the message, the log the traceback.
            log.exception("print job %s crashed", job_id)
            services.print_job_fail(
                job_id=job_id,
                error=_("Error inesperat (%(type)s): %(error)s")
                % {"type": type(exc).__name__, "error": exc},
            )
            return "failed"
        return "skipped" if job is None else job.status


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def board_analysis_task(self: Any, board_id: int) -> str:
    """Compute and store board ``board_id``'s double-dummy table
    (``services.board_analyse``); returns ``done``, ``skipped`` (no such board, no deal,
    or the deal changed meanwhile) or ``failed``.

    Queued per board when a round closes. On a worker a transient fault sends it again
    after :func:`backoff` seconds; in-process (no broker) it is only logged, as is any
    other failure: nothing is stored, and ``manage.py analyse_boards`` fills the gap.
    """
    try:
        analysis = board_analyse(board_id=board_id)
    except SoftTimeLimitExceeded:
        log.error("board %s: double-dummy analysis over the time limit", board_id)
        return "failed"
    except TRANSIENT as exc:
        if self.request.is_eager or self.request.retries >= MAX_RETRIES:
            log.error("board %s: double-dummy analysis abandoned: %s", board_id, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from exc
    except Exception:
        log.exception("board %s: double-dummy analysis crashed", board_id)
        return "failed"
    return "skipped" if analysis is None else "done"


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def circuit_places_task(self: Any, championship_id: int) -> str:
    """Read a finished championship's places again for its circuits
    (``services.final_standings_refresh``: a place that changed writes a
    ``circuit.ranking`` audit row); returns ``done``, or ``failed`` (logged: the next
    view of a circuit's page reads the places again anyway)."""
    try:
        final_standings_refresh(championship_ids=[championship_id])
    except TRANSIENT as exc:
        if self.request.is_eager or self.request.retries >= MAX_RETRIES:
            log.error("championship %s: circuits not recounted: %s", championship_id, exc)
            return "failed"
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from exc
    except Exception:
        log.exception("championship %s: circuits' recount crashed", championship_id)
        return "failed"
    return "done"


def requeue_stalled_once() -> list[int]:
    """One sweep: send again the jobs whose worker died (``services.
    print_jobs_requeue_stalled``); a database that does not answer is logged, not raised
    (the sweeper and the worker go on)."""
    try:
        sent = services.print_jobs_requeue_stalled()
    except Exception:  # the worker must live on while the database is away
        log.exception("could not look for stalled print jobs")
        return []
    finally:
        close_old_connections()
    if sent:
        log.warning("stalled print jobs sent again: %s", sent)
    return sent


class StallSweeper:
    """The worker's own periodic check (no celery beat to run): a daemon thread that
    every ``PRINT_JOB_SWEEP_SECONDS`` sends again the jobs silent for
    ``PRINT_JOB_STALL_SECONDS``, so a job whose worker died is redone with no page open,
    by this worker, within about the sum of the two. Every worker runs one; two sweeps
    never send one dead run twice (``services._requeue`` is conditional)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="print-job-sweeper",
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def _loop(self) -> None:
        while not self.stopped.wait(self.every):
            try:
                requeue_stalled_once()
            finally:
                # One short connection a sweep: none kept open in a process whose pool
                # forks children (a child must not share this thread's socket).
                connection.close()


_sweeper: StallSweeper | None = None


@worker_ready.connect
def requeue_stalled_jobs(**_kwargs: Any) -> None:
    """A worker that starts (often: the one restarted after a crash) sends again the
    jobs whose worker died at once, then starts its :class:`StallSweeper`."""
    global _sweeper
    requeue_stalled_once()
    if _sweeper is None and settings.PRINT_JOB_SWEEP_SECONDS > 0:
        _sweeper = StallSweeper(settings.PRINT_JOB_SWEEP_SECONDS)
        _sweeper.start()


@worker_shutdown.connect
def stop_sweeper(**_kwargs: Any) -> None:
    global _sweeper
    if _sweeper is not None:
        _sweeper.stop()
        _sweeper = None
