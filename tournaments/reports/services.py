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

Bounds (anyone may ask for the public kinds): a request for standings, travellers or
score cards reuses the newest done job of the same request while the championship's
results are as they were when that job was built (:func:`results_state`), so asking
again costs four queries (three aggregates and a lookup) and no PDF; and at most
:data:`KEEP_FINISHED` finished jobs are kept per championship and kind, the oldest
deleted with their files (:func:`print_jobs_prune`). The state a PDF was built from is
stored with it (``PrintJob.results_state``) when the job is marked done.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, default_storage
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.models import Championship, Membership, PrintJob, Result, ResultAudit, Round
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
#: Finished (done or failed) jobs kept per championship and kind; older ones are deleted
#: with their files, oldest first, each time a job finishes.
KEEP_FINISHED = 20


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
        raise BadPrintRequest(
            _("%(n)s taulers per pàgina: n'hi pot haver 1 o 4.") % {"n": per_page},
            field="per_page",
        )
    if not 1 <= copies <= 500:
        raise BadPrintRequest(
            _("%(n)s còpies: n'hi pot haver d'1 a 500.") % {"n": copies}, field="copies"
        )
    if round_number < 0:
        raise BadPrintRequest(
            _("Ronda %(n)s: el número de ronda és 1 o més (0 = totes les rondes).")
            % {"n": round_number},
            field="round_number",
        )
    if kind.needs_round and round_number == 0:
        raise BadPrintRequest(
            _("%(kind)s: cal dir quina ronda (1 o més).") % {"kind": kind.label},
            field="round_number",
        )
    if round_number and not Round.objects.filter(
        championship=championship, number=round_number
    ).exists():
        raise BadPrintRequest(
            _("%(championship)s no té cap ronda %(n)s.")
            % {"championship": championship.name, "n": round_number},
            field="round_number",
        )


@dataclass(frozen=True, slots=True)
class RequestDefaults:
    """What the print form proposes: ``round_number`` the latest drawn round (1 when
    none is drawn yet), ``copies`` the number of tables of that round (1 when none)."""

    round_number: int
    copies: int


def request_defaults(championship: Championship) -> RequestDefaults:
    """The form's defaults (one query): board sheets are printed for the round about
    to be played, which is the latest drawn one, one copy per table. Spec question:
    issue 5 does not say; the brief asks for "the latest drawn, or 1"."""
    drawn = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings")).filter(tables__gt=0)
        .order_by("-number").values_list("number", "tables")[:1]
    )
    if not drawn:
        return RequestDefaults(round_number=1, copies=1)
    number, tables = drawn[0]
    return RequestDefaults(round_number=number, copies=max(1, tables))


def results_state(championship: Championship) -> str:
    """A 12-hex digest of everything the public documents are computed from that may
    change during play (three queries): the championship's status, its results (count,
    latest change, sum of versions), its audit trail (count, latest row: catches a
    deletion) and its rounds (count, tables seated, latest closing). Two equal digests
    mean the standings, travellers and score cards built from them are the same.
    (Player names and the rules are not in it: the rules cannot change once a result
    exists, and a renamed player shows on the next job after any result.)"""
    results = Result.objects.filter(board__championship=championship).aggregate(
        n=Count("id"), last=Max("updated_at"), versions=Sum("version")
    )
    audits = ResultAudit.objects.filter(championship=championship).aggregate(
        n=Count("id"), last=Max("id")
    )
    rounds = Round.objects.filter(championship=championship).aggregate(
        n=Count("id", distinct=True), tables=Count("seatings"), closed=Max("closed_at"),
        open=Count("id", filter=Q(closed_at__isnull=True), distinct=True),
    )
    parts = (championship.status, sorted(results.items()), sorted(audits.items()),
             sorted(rounds.items()))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:12]


def _reusable_done_job(request: dict[str, Any], state: str) -> PrintJob | None:
    """The newest done job of ``request`` built from results in ``state``."""
    return (
        PrintJob.objects.filter(status=PrintJob.Status.DONE, results_state=state, **request)
        .order_by("-finished_at", "-id").first()
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
    """Queue a print job, or return the job that already answers the same request.

    Returns ``(job, created)``. Reused (``created`` False): a queued or running job of
    the same request; for the public kinds (standings, travellers, score cards) also the
    newest done job of the same request built while the results were as they are now
    (:func:`results_state`), so repeated requests cost no PDF. A new job's task is sent
    once the transaction commits (``transaction.on_commit``); without a broker it then
    runs in-process (eager).
    ``round_number``: see ``build.build`` (required for board sheets and entry forms;
    0 = every round for the others). ``copies`` and ``per_page`` only matter for board
    sheets (1 otherwise).
    Raises :class:`PrintNotAllowed` (role, issue 5 "Who may print what") or
    :class:`BadPrintRequest`; messages in the active language (Catalan msgids).
    """
    try:
        kind = Kind(kind)
    except ValueError:
        raise BadPrintRequest(
            _("«%(kind)s» no és cap tipus de document (%(kinds)s).")
            % {"kind": kind, "kinds": ", ".join(k.value for k in Kind)},
            field="kind",
        ) from None
    if kind is not Kind.BOARD_SHEETS:
        copies, per_page = 1, 1
    if not can_print(acting_user, championship, kind):
        raise PrintNotAllowed(
            _("%(kind)s de %(championship)s: només l'organitzador i l'àrbitre principal "
              "poden imprimir el que mostra els repartiments.")
            % {"kind": kind.label, "championship": championship.name}
        )
    _validate(championship, kind, round_number, copies, per_page)
    request = {
        "championship": championship,
        "kind": kind.value,
        "round_number": round_number,
        "copies": copies,
        "per_page": per_page,
    }
    if not kind.reveals_deals:
        done = _reusable_done_job(request, results_state(championship))
        if done is not None:
            return done, False
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
            print_job_fail(job_id=active.pk,
                           error=_("Abandonat: cap procés no l'ha acabat a temps."))
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
        print_job_fail(job_id=job_id,
                       error=_("No s'ha pogut posar a la cua de treballs: %(error)s")
                       % {"error": exc})


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


def print_job_finish(*, job_id: int, name: str, state: str = "") -> bool:
    """Mark a running job done with its stored file and the :func:`results_state` it was
    built from. Conditional: returns ``False`` (and changes nothing) when the job is no
    longer running (failed or done meanwhile)."""
    updated = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING).update(
        status=PrintJob.Status.DONE, file=name, progress=100, finished_at=timezone.now(),
        error="", results_state=state,
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
            # Read before the document: a result saved in between gives a newer PDF
            # under an older state, which only means the next request builds again.
            state = results_state(job.championship)
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
        print_jobs_prune(championship_id=job.championship_id, kind=job.kind)
        return PrintJob.objects.get(pk=job_id)
    name = store_atomically(file_name(job), data)
    if not print_job_finish(job_id=job_id, name=name, state=state):
        log.warning("print job %s was no longer running; file %s left unused", job_id, name)
        default_storage.delete(name)
    print_jobs_prune(championship_id=job.championship_id, kind=job.kind)
    return PrintJob.objects.get(pk=job_id)


def print_jobs_prune(*, championship_id: int, kind: str, keep: int | None = None) -> int:
    """Delete the finished (done or failed) jobs of one championship and kind beyond
    the ``keep`` newest (default :data:`KEEP_FINISHED`), oldest first, and their files.
    Returns how many were deleted. Queued and running jobs are never touched."""
    keep = KEEP_FINISHED if keep is None else keep
    finished = PrintJob.objects.filter(
        championship_id=championship_id, kind=kind,
        status__in=[PrintJob.Status.DONE, PrintJob.Status.FAILED],
    ).order_by(F("finished_at").desc(nulls_last=True), "-id")
    old = list(finished.values_list("pk", "file")[keep:])
    if not old:
        return 0
    PrintJob.objects.filter(pk__in=[pk for pk, _name in old]).delete()
    for _pk, name in reversed(old):  # oldest first
        if name:
            default_storage.delete(name)
    return len(old)


def sees_everything(user: Any, championship: Championship) -> bool:
    """The organiser and the head referee (and the system, ``user=None``) see every job
    of the championship and who asked for it; everyone else only the public kinds."""
    return user is None or bool(selectors.user_roles(user, championship) & DEAL_ROLES)


def jobs_for(championship: Championship, user: Any, *, limit: int = 20) -> list[PrintJob]:
    """The latest jobs of a championship that ``user`` may see (newest first, one query
    for the roles and one for the jobs): the organiser and the head referee see every
    job; anyone else, anonymous or not, only the jobs of the public kinds (standings,
    travellers, score cards), never board sheets or entry forms."""
    jobs = PrintJob.objects.filter(championship=championship).select_related(
        "championship", "requested_by"
    )
    if not sees_everything(user, championship):
        jobs = jobs.exclude(kind__in=[k.value for k in Kind if k.reveals_deals])
    return list(jobs.order_by("-requested_at", "-id")[:limit])
