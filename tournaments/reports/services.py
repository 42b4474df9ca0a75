"""Print-job writes (issue 5): request or reuse a job, run it, record progress, finish, fail.

The life of a job: ``queued`` (row written, task sent on commit) -> ``running`` (a worker
took it; ``progress`` 0..100 grows as pages are drawn) -> ``done`` (the whole PDF is
stored, then and only then the row says done) or ``failed`` (``error`` says why).

Crash safety: the PDF is drawn in memory, written to a temporary name, flushed and
renamed to its final name (an atomic rename on one file system), and only then is the
row marked ``done`` with a conditional UPDATE. A worker that dies mid-way leaves the row
``running`` with no file; Celery redelivers the message (acks late, reject on worker
lost) and the next run starts the job again from page one.

Never render inside a transaction (STYLE.md): ``print_job_run`` reads the rows in one
short transaction, draws outside it, and writes each state change in its own statement.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments import selectors
from tournaments.models import Championship, Membership, PrintJob, Round
from tournaments.reports import build
from tournaments.reports.documents import Kind
from tournaments.reports.render import render

log = logging.getLogger(__name__)

#: Roles that may print what reveals the deals (board sheets, entry forms).
DEAL_ROLES = frozenset({Membership.Role.ORGANISER, Membership.Role.HEAD_REFEREE})
#: Least time between two progress writes, in seconds (a 1,000-page job would otherwise
#: write 1,000 rows).
PROGRESS_INTERVAL = 0.25
#: A queued or running job older than this is abandoned when the same request comes
#: again: twice the hard time limit (600 s) covers a redelivery after a dead worker.
STALE_AFTER = timedelta(minutes=30)


class PrintJobError(ValueError):
    """Base of the print-job refusals. ``field``: the form field at fault, or ``None``."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PrintNotAllowed(PrintJobError):
    """The user may not print this kind of document for this championship."""


class BadPrintRequest(PrintJobError):
    """Unknown kind, missing or unknown round, copies out of range, per_page not 1/4."""


def can_print(user: Any, championship: Championship, kind: Kind) -> bool:
    """Board sheets and entry forms reveal the deals: organiser or head referee of this
    championship only (issue 5). Standings, travellers and score cards: anyone.
    ``user=None`` is the system (the command line) and may print anything."""
    if not kind.reveals_deals or user is None:
        return True
    return bool(selectors.user_roles(user, championship) & DEAL_ROLES)


def _validate(
    championship: Championship, kind: Kind, round_number: int, copies: int, per_page: int
) -> None:
    if per_page not in (1, 4):
        raise BadPrintRequest(f"per_page={per_page}: 1 or 4 boards per page", field="per_page")
    if not 1 <= copies <= 500:
        raise BadPrintRequest(f"copies={copies}: 1 to 500 copies", field="copies")
    if round_number < 0:
        raise BadPrintRequest(f"round {round_number}: a round number is 1 or more",
                              field="round_number")
    if kind.needs_round and round_number == 0:
        raise BadPrintRequest(f"{kind.value}: say which round", field="round_number")
    if round_number and not Round.objects.filter(
        championship=championship, number=round_number
    ).exists():
        raise BadPrintRequest(
            f"{championship.slug}: there is no round {round_number}", field="round_number"
        )


def print_job_request(
    *,
    championship: Championship,
    kind: Kind | str,
    round_number: int = 0,
    copies: int = 1,
    per_page: int = 1,
    acting_user: Any = None,
) -> tuple[PrintJob, bool]:
    """Queue a print job, or return the queued/running job of the same request.

    Returns ``(job, created)``. A new job's task is sent once the transaction commits
    (``transaction.on_commit``); without a broker it then runs in-process (eager).
    ``copies`` and ``per_page`` only matter for board sheets (1 otherwise).
    Raises :class:`PrintNotAllowed` (role, issue 5 "Who may print what") or
    :class:`BadPrintRequest`.
    """
    try:
        kind = Kind(kind)
    except ValueError:
        raise BadPrintRequest(f"{kind!r} is not a document kind "
                              f"({', '.join(k.value for k in Kind)})", field="kind") from None
    if kind is not Kind.BOARD_SHEETS:
        copies, per_page = 1, 1
    if not can_print(acting_user, championship, kind):
        raise PrintNotAllowed(
            f"{kind.value} of {championship.slug}: only the organiser or the head referee "
            "may print what reveals the deals"
        )
    _validate(championship, kind, round_number, copies, per_page)
    request = {
        "championship": championship,
        "kind": kind.value,
        "round_number": round_number,
        "copies": copies,
        "per_page": per_page,
    }
    user = acting_user if acting_user is not None and acting_user.is_authenticated else None
    with transaction.atomic():
        active = (
            PrintJob.objects.select_for_update()
            .filter(status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING], **request)
            .first()
        )
        if active is not None and active.requested_at >= timezone.now() - STALE_AFTER:
            return active, False
        if active is not None:
            # Its message was lost (broker flushed, worker gone for good): give up on it
            # rather than have every later request wait on it forever.
            print_job_fail(job_id=active.pk, error="abandoned: no worker finished it in time")
        try:
            with transaction.atomic():
                job = PrintJob.objects.create(requested_by=user, **request)
        except IntegrityError:
            # Another request won the race between our SELECT and INSERT: reuse its job.
            job = PrintJob.objects.get(
                status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING], **request
            )
            return job, False
        transaction.on_commit(lambda: _enqueue(job.pk))
    return job, True


def _enqueue(job_id: int) -> None:
    """Send the task; a broker that cannot be reached fails the job with the reason
    instead of failing the page that asked for it."""
    from kombu.exceptions import OperationalError as BrokerError

    from tournaments.tasks import print_job_task

    try:
        print_job_task.delay(job_id)
    except (BrokerError, OSError) as exc:
        log.error("print job %s could not be queued: %s", job_id, exc)
        print_job_fail(job_id=job_id, error=f"the job queue is unreachable: {exc}")


def print_job_start(*, job_id: int) -> PrintJob | None:
    """Mark the job running (attempt + 1, progress 0). Returns ``None`` when there is
    nothing to do (the job is done, failed or gone): a redelivered message is harmless."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or not job.is_active:
            return None
        job.status = PrintJob.Status.RUNNING
        job.attempts += 1
        job.progress = 0
        job.started_at = timezone.now()
        job.error = ""
        job.save(update_fields=["status", "attempts", "progress", "started_at", "error"])
        return job


def print_job_progress(*, job_id: int, percent: int) -> None:
    """Record progress 0..99 of a running job (100 only comes with ``done``)."""
    PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(
        progress=max(0, min(99, percent))
    )


def print_job_fail(*, job_id: int, error: str) -> None:
    """Mark a queued or running job failed with ``error`` (shown to the user)."""
    PrintJob.objects.filter(
        pk=job_id, status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING]
    ).update(status=PrintJob.Status.FAILED, error=error[:2000], finished_at=timezone.now())


def file_name(job: PrintJob) -> str:
    """``reports/<slug>-<kind>[-r<round>]-<job id>.pdf`` (storage-relative)."""
    round_part = f"-r{job.round_number}" if job.round_number else ""
    return f"reports/{job.championship.slug}-{job.kind}{round_part}-{job.pk}.pdf"


def store_atomically(name: str, data: bytes) -> str:
    """Store ``data`` under ``name`` so that the name never holds a partial file: on a
    file-system storage, write a temporary file in the same folder, fsync it and rename
    it over the final name; on another storage, its own ``save``. Returns the stored name.
    """
    storage = default_storage
    if isinstance(storage, FileSystemStorage):
        path = Path(storage.path(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-", suffix=".pdf")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return name
    return storage.save(name, ContentFile(data))


def print_job_finish(*, job_id: int, name: str) -> bool:
    """Mark a running job done with its stored file. Conditional: returns ``False`` (and
    changes nothing) when the job is no longer running (failed or done meanwhile)."""
    updated = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(
        status=PrintJob.Status.DONE, file=name, progress=100, finished_at=timezone.now(),
        error="",
    )
    return updated == 1


def print_job_run(*, job_id: int) -> PrintJob | None:
    """Run one job from start to finish: start, build the document (one short read),
    render it with progress, store the file atomically, mark it done.

    A :class:`ValueError` from building or rendering (a refusal that says what is wrong)
    marks the job failed and returns it; any other exception propagates so that the
    Celery task can retry transient faults (database, broker) with backoff.
    Returns the job as it ends, or ``None`` when there was nothing to do.
    """
    job = print_job_start(job_id=job_id)
    if job is None:
        return None
    try:
        with transaction.atomic():
            document = build.build(
                job.championship,
                Kind(job.kind),
                round_number=job.round_number,
                copies=job.copies,
                per_page=job.per_page,
            )
        last = {"time": 0.0, "percent": 0}

        def on_page(done: int, total: int) -> None:
            percent = int(99 * done / max(total, 1))
            now = time.monotonic()
            if percent > last["percent"] and now - last["time"] >= PROGRESS_INTERVAL:
                last["time"], last["percent"] = now, percent
                print_job_progress(job_id=job_id, percent=percent)

        data = render(document, on_page)
    except ValueError as exc:
        log.warning("print job %s failed: %s", job_id, exc)
        print_job_fail(job_id=job_id, error=str(exc))
        return PrintJob.objects.get(pk=job_id)
    name = store_atomically(file_name(job), data)
    if not print_job_finish(job_id=job_id, name=name):
        log.warning("print job %s was no longer running; file %s left unused", job_id, name)
    return PrintJob.objects.get(pk=job_id)


def jobs_for(championship: Championship, user: Any, *, limit: int = 20) -> list[PrintJob]:
    """The latest jobs of a championship that ``user`` may see (newest first, one query
    for the roles and one for the jobs): everybody sees the public kinds, only the
    organiser and head referee the jobs that reveal deals."""
    jobs = PrintJob.objects.filter(championship=championship).select_related("championship")
    if user is not None and not (selectors.user_roles(user, championship) & DEAL_ROLES):
        jobs = jobs.exclude(kind__in=[k.value for k in Kind if k.reveals_deals])
    return list(jobs.order_by("-requested_at", "-id")[:limit])
