"""Print-job writes: request or reuse a job, run it, record progress, finish, fail.

The life of a job: ``queued`` (row written, task sent on commit) -> ``running`` (a worker
took it; ``progress`` 0..100 grows as pages are drawn) -> ``done`` (the whole PDF is
stored, then and only then the row says done) or ``failed`` (``error`` says why).

Crash safety: the PDF is drawn in memory, written to a temporary name, flushed and
renamed to its final name (an atomic rename on one file system; the name carries the
run's attempt and a random part, so two runs never share a file and no name can be
guessed), and only then is the row marked ``done`` with an UPDATE conditional on the
same run still owning the job.

A dead worker: the running job writes ``heartbeat_at`` with its progress, at least every
``PRINT_JOB_HEARTBEAT_SECONDS`` (3). A running job whose heartbeat is older than
``PRINT_JOB_STALL_SECONDS`` (15) is *stalled*: its worker died (killed, out of memory,
host lost). :func:`print_jobs_requeue_stalled` sends it again (at most
:data:`MAX_ATTEMPTS` runs, then it fails with the reason); every worker runs it every
``PRINT_JOB_SWEEP_SECONDS`` (5; ``tasks.StallSweeper``) and when it starts, and it also
runs when the prints page or a job's status is read and when the same document is asked
again. So the job is redone within about 20 s of its worker's death with no page open,
not after Redis's visibility timeout (900 s) when the lost message would be delivered
again; that late delivery finds the job done and does nothing. A message redelivered at
once (a pool child killed: Celery rejects its message back to the queue) finds the
heartbeat fresh and is dropped; one that finds it older than the window takes the job
over at once (:func:`print_job_start`). In between the page says "Aturat, es reprèn"
(:func:`is_restarting`). The organiser may also retry or cancel a
stalled job from the page (:func:`print_job_retry`, :func:`print_job_cancel`, audited in
the championship's log, ``AuditEntry``).

Never render inside a transaction (docs/architecture.md): ``print_job_run`` reads the rows in one
short transaction, draws outside it, and writes each state change in its own statement.

Bounds (anyone may ask for the public kinds): a request for standings, travellers or
score cards reuses the newest done job of the same request while the championship's
results are as they were when that job was built (:func:`results_state`, the
championship's results version), so asking again costs two queries and no PDF; and at most
:data:`KEEP_FINISHED` finished jobs are kept per championship and kind, the oldest
deleted with their files (:func:`print_jobs_prune`). The state a PDF was built from is
stored with it (``PrintJob.results_state``) when the job is marked done.

A circuit's ranking (``PrintJob.Kind.CIRCUIT_RANKING``, a job with a ``circuit`` and no
championship) goes through the same life: :func:`circuit_print_job_request` asks for it
(anyone may), a done one is reused while the circuit's ranking state is the same
(:func:`circuit_results_state`, a digest of ``selectors.circuits.circuit_state``, the
pages' ETag), the task draws it with progress, and a stalled run is sent again.
"""

from __future__ import annotations

import logging
import os
import secrets
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, default_storage
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from kombu.exceptions import OperationalError as BrokerError

from tournaments import enqueue
from tournaments.models import AuditEntry, Championship, Circuit, PrintJob, Round, Table
from tournaments.permissions import Capability, has, roles_for
from tournaments.reports import build, build_stages
from tournaments.reports.build_circuit import circuit_ranking_document
from tournaments.reports.circuit_ranking import render_circuit_ranking
from tournaments.reports.documents import Kind
from tournaments.reports.render import render
from tournaments.selectors import circuits as circuit_reads
from tournaments.services.circuits import final_standings_refresh
from tournaments.services.common import audit
from tournaments.services.tables import table_secret

log = logging.getLogger(__name__)

#: Roles that may print what reveals the deals (board sheets, entry forms).
DEAL_ROLES = roles_for(Capability.PRINT_BOARD_SHEETS)
#: Least time between two progress writes, in seconds (a 1,000-page job would otherwise
#: write 1,000 rows).
PROGRESS_INTERVAL = 0.25
#: A queued or running job older than this is abandoned when the same request comes
#: again: twice the hard time limit (600 s) covers a redelivery after a dead worker.
STALE_AFTER = timedelta(minutes=30)
#: Finished (done or failed) jobs kept per championship and kind; older ones are deleted
#: with their files, oldest first, each time a job finishes.
KEEP_FINISHED = 20
#: Runs a stalled job gets before it is marked failed (a document that kills its
#: worker every time, e.g. out of memory, must not loop for ever).
MAX_ATTEMPTS = 3


def stall_after() -> timedelta:
    """How long a running job may stay silent before it counts as stalled."""
    return timedelta(seconds=settings.PRINT_JOB_STALL_SECONDS)


def is_stalled(job: PrintJob, now: Any = None) -> bool:
    """The worker does not answer for this job: it is running and its last heartbeat (or
    start) is older than :func:`stall_after`, or it was sent again after a stall
    (queued, ``attempts`` > 0) and no worker has taken it for as long."""
    cutoff = (now or timezone.now()) - stall_after()
    if job.status == PrintJob.Status.RUNNING:
        return (job.heartbeat_at or job.started_at or job.requested_at) < cutoff
    if job.status == PrintJob.Status.QUEUED and job.attempts:
        return job.heartbeat_at is not None and job.heartbeat_at < cutoff
    return False


def is_restarting(job: PrintJob, now: Any = None) -> bool:
    """Between a worker's death and the job's next run: running but silent for the stall
    window (the next sweep sends it again), or sent again after a stall and waiting for
    a worker (not yet for as long: then it is :func:`is_stalled` and needs a person).
    The prints page says "Aturat, es reprèn"."""
    if job.status == PrintJob.Status.RUNNING:
        return is_stalled(job, now)
    return (job.status == PrintJob.Status.QUEUED and job.attempts > 0
            and not is_stalled(job, now))


def _dead_run_q(now: Any) -> Q:
    """Running jobs whose run went silent: their worker died."""
    cutoff = now - stall_after()
    return Q(status=PrintJob.Status.RUNNING) & (
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )


class PrintJobError(ValueError):
    """Base of the print-job refusals. ``field``: the form field at fault, or ``None``."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PrintNotAllowed(PrintJobError):
    """The user may not print this kind of document for this championship."""


class BadPrintRequest(PrintJobError):
    """Unknown kind, missing or unknown round, copies out of range, per_page not 1/4."""


class JobSuperseded(Exception):
    """Raised inside a run whose job was cancelled or taken over by another run."""


def can_print(user: Any, championship: Championship, kind: Kind) -> bool:
    """Board sheets and entry forms reveal the deals: organiser or head referee of this
    championship only. Standings, travellers, score cards and guide cards (the seating
    is public once drawn): anyone.
    ``user=None`` is the system (the command line) and may print anything."""
    if not kind.reveals_deals or user is None:
        return True
    return has(user, championship, Capability.PRINT_BOARD_SHEETS)


def _validate(
    championship: Championship, kind: Kind, round_number: int, copies: int | None,
    per_page: int,
) -> None:
    if per_page not in (1, 4):
        raise BadPrintRequest(
            ngettext("%(n)s tauler per pàgina: n'hi pot haver 1 o 4.",
                     "%(n)s taulers per pàgina: n'hi pot haver 1 o 4.", per_page)
            % {"n": per_page},
            field="per_page",
        )
    if copies is not None and not 1 <= copies <= 500:
        raise BadPrintRequest(
            ngettext("%(n)s còpia: n'hi pot haver d'1 a 500.",
                     "%(n)s còpies: n'hi pot haver d'1 a 500.", copies) % {"n": copies},
            field="copies",
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
    reason = build.not_ready(kind, round_number, build.round_states(championship),
                             classic=championship.is_classic)
    if reason is None:
        reason = build_stages.stage_refusal(kind, championship, round_number)
    if reason is not None:
        # Refused here, with the reason, rather than printed as an empty document.
        raise BadPrintRequest(
            _("%(kind)s: %(reason)s") % {"kind": kind.label, "reason": reason},
            field="round_number" if kind.needs_round or round_number else "kind",
        )


@dataclass(frozen=True, slots=True)
class RequestDefaults:
    """What the print form proposes: ``round_number`` the latest drawn round (1 when
    none is drawn yet), ``copies`` the number of tables of that round (1 when none)."""

    round_number: int
    copies: int


def request_defaults(championship: Championship) -> RequestDefaults:
    """The form's defaults (one query): board sheets are printed for the round about
    to be played, which is the latest drawn one, one copy per table. Question: nothing
    says which round; the reading chosen is "the latest drawn, or 1"."""
    drawn = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings")).filter(tables__gt=0)
        .order_by("-number").values_list("number", "tables")[:1]
    )
    if not drawn:
        return RequestDefaults(round_number=1, copies=1)
    number, tables = drawn[0]
    return RequestDefaults(round_number=number, copies=max(1, tables))


def round_states(championship: Championship) -> dict[int, build.RoundState]:
    """Every round's tables, boards and dealt boards (``build.round_states``, one query)."""
    return build.round_states(championship)


def not_ready(kind: Kind, states: dict[int, build.RoundState], *, classic: bool = False
              ) -> str | None:
    """Why ``kind`` cannot be printed for any round yet (``build.not_ready``; for a
    ``classic`` championship also a kind it never prints), or ``None``: what the prints
    page says in place of the document's form."""
    return build.not_ready(kind, None, states, classic=classic)


def tables_of_round(championship: Championship, round_number: int) -> int:
    """The tables drawn in round ``round_number`` (one query), 1 when none: the copies
    of each board sheet a round needs."""
    state = build.round_states(championship).get(round_number)
    return max(1, state.tables) if state is not None else 1


def results_state(championship: Championship) -> str:
    """The championship's results version as stored now (one query), as a string: the
    counter every accepted change that can alter a public page bumps in its own
    transaction (``Championship.results_version``, ``services.common.
    bump_results_version``). Two equal states mean the standings, travellers and score
    cards built from them are the same; a document whose ``PrintJob.results_state`` is
    older is out of date (:func:`is_out_of_date`)."""
    version = Championship.objects.filter(pk=championship.pk).values_list(
        "results_version", flat=True
    ).first()
    return str(version or 0)


def circuit_results_state(circuit: Circuit) -> str:
    """What a circuit's ranking document was built from, as stored in
    ``PrintJob.results_state``: the first 12 characters of the circuit's ranking state
    (``selectors.circuits.circuit_state``, the ETag of its pages: its rules, its
    championships' results versions, the persons' merges and changes). Four small
    queries."""
    return circuit_reads.circuit_state(circuit)[:12]


def is_out_of_date(job: PrintJob, current_state: str) -> bool:
    """Whether a done document was built before the latest change that affects it:
    its results version differs from ``current_state`` (:func:`results_state`, or
    :func:`circuit_results_state` for a circuit's ranking). Board sheets and entry
    forms show deals, not results: they never go out of date."""
    if job.status != PrintJob.Status.DONE:
        return False
    if job.kind != PrintJob.Kind.CIRCUIT_RANKING and not Kind(job.kind).follows_results:
        return False
    return job.results_state != current_state


def _reusable_done_job(request: dict[str, Any], state: str) -> PrintJob | None:
    """The newest done job of ``request`` built from results in ``state``."""
    return (
        PrintJob.objects.filter(status=PrintJob.Status.DONE, results_state=state, **request)
        .order_by("-finished_at", "-id").first()
    )


#: The documents that print each table's QR code (its link), when table entry is on.
TABLE_LINK_KINDS = frozenset({Kind.TABLE_CARDS, Kind.ROUND_PACK, Kind.KNOCKOUT_CARDS})


def _issue_table_secrets(championship: Championship) -> None:
    """Every table of ``championship`` with its live secret before its cards are
    built (the builder only reads them)."""
    for number in Table.objects.filter(championship=championship).values_list(
            "number", flat=True):
        table_secret(championship=championship, table_number=number)


def print_job_request(
    *,
    championship: Championship,
    kind: Kind | str,
    round_number: int = 0,
    copies: int | None = 1,
    per_page: int = 1,
    acting_user: Any = None,
    language: str | None = None,
) -> tuple[PrintJob, bool]:
    """Queue a print job, or return the job that already answers the same request.

    Returns ``(job, created)``. ``created`` is also True when the same request's running
    job was stalled (its worker died) and has been sent again: a new run of that job.
    Reused (``created`` False): a queued or running job of the same request; for the
    public kinds (standings, travellers, score cards) also the newest done job of the
    same request built while the results were as they are now (:func:`results_state`),
    so repeated requests cost no PDF. A new job's task is sent once the transaction
    commits (``transaction.on_commit``); without a broker it then runs in-process
    (eager); a broker that cannot be reached marks the job failed with the reason.
    ``round_number``: see ``build.build`` (required for board sheets and entry forms;
    0 = every round for the others). ``copies`` and ``per_page`` only matter for board
    sheets and the round pack (1 otherwise); ``copies=None``: one per table of the
    round (1 before its draw), stored as that number (always 1 for a classic
    championship, whose round pack has no board sheets). A document that cannot be made
    yet (no round drawn, boards not generated: ``build.not_ready``), or that the
    championship's format never prints (``build.format_refusal``: board sheets, entry
    forms, travellers and guide cards of a classic championship; pairings and score
    sheets of a duplicate one, field ``kind``), is refused with the reason.
    ``language``: the document's one language, the requester's
    (``build.document_language``: ``ca``, ``es`` or ``en``, the site's default when
    ``None`` or unknown); a job is reused only for the same language.
    Raises :class:`PrintNotAllowed` (the role: who may print what) or
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
    refusal = build.format_refusal(kind, classic=championship.is_classic)
    if refusal is not None:
        # Never an empty document: a kind this format does not print, and why.
        raise BadPrintRequest(
            _("%(kind)s: %(reason)s") % {"kind": kind.label, "reason": refusal},
            field="kind",
        )
    if not kind.takes_copies or championship.is_classic:
        # A classic round pack has no board sheets to copy.
        copies, per_page = 1, 1
    if not can_print(acting_user, championship, kind):
        raise PrintNotAllowed(
            _("%(kind)s de %(championship)s: només l'organitzador i l'àrbitre principal "
              "poden imprimir el que mostra els repartiments.")
            % {"kind": kind.label, "championship": championship.name}
        )
    _validate(championship, kind, round_number, copies, per_page)
    if kind in TABLE_LINK_KINDS and championship.table_entry:
        _issue_table_secrets(championship)
    if copies is None:
        copies = tables_of_round(championship, round_number)
    request = {
        "championship": championship,
        "kind": kind.value,
        "round_number": round_number,
        "copies": copies,
        "per_page": per_page,
        "language": build.document_language(language),
    }
    if kind.follows_results:
        done = _reusable_done_job(request, results_state(championship))
        if done is not None:
            return done, False
    return _active_or_new(request, acting_user)


def circuit_print_job_request(
    *, circuit: Circuit, language: str | None, requested_by: Any = None
) -> tuple[PrintJob, bool]:
    """Queue the circuit's ranking document (players, then pairs), or return the job
    that already answers the same request: ``(job, created)`` as
    :func:`print_job_request`. Anyone may ask (the ranking is public). Reused: the
    newest done job in the same ``language`` built while the circuit's ranking state was
    as it is now (:func:`circuit_results_state`), else the queued or running one; a
    stalled one is sent again (``created`` True). ``requested_by``: the user, or
    ``None``/anonymous."""
    request = {
        "circuit": circuit,
        "kind": PrintJob.Kind.CIRCUIT_RANKING.value,
        "round_number": 0,
        "copies": 1,
        "per_page": 1,
        "language": build.document_language(language),
    }
    done = _reusable_done_job(request, circuit_results_state(circuit))
    if done is not None:
        return done, False
    return _active_or_new(request, requested_by)


def current_circuit_job(circuit: Circuit, language: str | None) -> PrintJob | None:
    """The newest done ranking document of ``circuit`` in ``language`` that is still
    current (built from the ranking as it stands), or ``None``."""
    request = {"circuit": circuit, "kind": PrintJob.Kind.CIRCUIT_RANKING.value,
               "language": build.document_language(language)}
    return _reusable_done_job(request, circuit_results_state(circuit))


def _active_or_new(request: dict[str, Any], acting_user: Any) -> tuple[PrintJob, bool]:
    """The queued or running job of ``request`` (a stalled one sent again), or a new
    one whose task is sent on commit: ``(job, created)``."""
    user = acting_user if acting_user is not None and acting_user.is_authenticated else None
    with transaction.atomic():
        active = (
            PrintJob.objects.select_for_update()
            .filter(status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING], **request)
            .first()
        )
        if active is not None and is_stalled(active):
            return _requeue(active, force=True), True
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


def never_queued(job: PrintJob) -> bool:
    """Whether ``job`` failed before any worker took it: its task could not be sent (the
    broker does not answer, :func:`_enqueue`). A run that started and failed has
    ``attempts`` > 0. The page and the API answer such a new job with 503."""
    return job.status == PrintJob.Status.FAILED and job.attempts == 0


def _enqueue(job_id: int) -> None:
    """Send the task; a broker that cannot be reached fails the job with the reason
    instead of failing the page that asked for it."""
    try:
        enqueue.print_job(job_id)
    except (BrokerError, OSError) as exc:
        log.error("print job %s could not be queued: %s", job_id, exc)
        print_job_fail(job_id=job_id,
                       error=_("No s'ha pogut posar a la cua de treballs: %(error)s")
                       % {"error": exc})


def print_job_start(*, job_id: int) -> PrintJob | None:
    """Mark the job running (attempt + 1, progress 0, heartbeat now); the returned job's
    ``attempts`` identifies this run. Returns ``None`` when there is nothing to do: the
    job is done, failed or gone, or another run is alive (running with a fresh
    heartbeat), so a message delivered twice is harmless. A running job with a stale
    heartbeat is taken over."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or not job.is_active:
            return None
        if job.status == PrintJob.Status.RUNNING and not is_stalled(job):
            log.info("print job %s is running elsewhere (attempt %s); message ignored",
                     job_id, job.attempts)
            return None
        now = timezone.now()
        job.status = PrintJob.Status.RUNNING
        job.attempts += 1
        job.progress = 0
        job.started_at = now
        job.heartbeat_at = now
        job.error = ""
        job.save(update_fields=["status", "attempts", "progress", "started_at",
                                "heartbeat_at", "error"])
        return job


def print_job_progress(*, job_id: int, percent: int, attempt: int | None = None) -> bool:
    """Record progress 0..99 of a running job (100 only comes with ``done``) and its
    heartbeat. ``attempt``: the run writing (``PrintJob.attempts`` when it started); a run
    that no longer owns the job writes nothing. Returns False when nothing was written
    (the job was cancelled, finished or taken over by another run)."""
    jobs = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING)
    if attempt is not None:
        jobs = jobs.filter(attempts=attempt)
    return jobs.update(progress=max(0, min(99, percent)), heartbeat_at=timezone.now()) == 1


def _requeue(job: PrintJob, *, force: bool = False) -> PrintJob:
    """Send a stalled ``job`` again: status ``queued``, ``heartbeat_at`` the time it was
    sent, the task on commit. A running job that already had :data:`MAX_ATTEMPTS` runs
    is marked failed instead, unless ``force`` (a person asked). Conditional on the job
    being as it was read (same status and run, still silent), so two sweeps never send a
    dead run twice (a queued job sent twice is harmless: the second message finds it
    running and is ignored). Returns the job as it is now."""
    now = timezone.now()
    same = PrintJob.objects.filter(pk=job.pk, attempts=job.attempts, status=job.status)
    if job.status == PrintJob.Status.RUNNING:
        same = same.filter(_dead_run_q(now))
        if job.attempts >= MAX_ATTEMPTS and not force:
            same.update(
                status=PrintJob.Status.FAILED, finished_at=now,
                error=_("El treballador no respon: abandonat després de %(n)s intents.")
                % {"n": job.attempts},
            )
            job.refresh_from_db()
            return job
    if same.update(status=PrintJob.Status.QUEUED, progress=0, heartbeat_at=now) == 1:
        log.warning("print job %s stalled (%s, attempt %s): sent again",
                    job.pk, job.status, job.attempts)
        job_id = job.pk
        transaction.on_commit(lambda: _enqueue(job_id))
    job.refresh_from_db()
    return job


def print_jobs_requeue_stalled(
    *, championship_id: int | None = None, job_ids: list[int] | None = None,
    circuit_id: int | None = None,
) -> list[int]:
    """Send again every running job whose run went silent (its worker died), of one
    championship (or circuit), or ``job_ids``, or all (circuits' jobs too); a job that
    already had :data:`MAX_ATTEMPTS` runs is marked failed instead. Returns the ids of
    the jobs looked at. One query when nothing is stalled. (A job sent again that no
    worker takes stays queued and shows as stalled: only a person retries or cancels
    it.)"""
    jobs = PrintJob.objects.filter(_dead_run_q(timezone.now()))
    if championship_id is not None:
        jobs = jobs.filter(championship_id=championship_id)
    if circuit_id is not None:
        jobs = jobs.filter(circuit_id=circuit_id)
    if job_ids is not None:
        jobs = jobs.filter(pk__in=job_ids)
    stalled = list(jobs)
    for job in stalled:
        _requeue(job)
    return [job.pk for job in stalled]


def _may_manage(user: Any, championship: Championship) -> bool:
    return user is not None and has(user, championship, Capability.MANAGE_PRINT_JOBS)


def _audit(user: Any, job: PrintJob, action: str, message: str, *, before: Any = None) -> None:
    """The championship's audit row of a person's retry or cancel of ``job``."""
    log.warning("print job %s: %s (by %s)", job.pk, message, user)
    assert job.championship_id is not None  # retry and cancel: a championship's jobs
    with transaction.atomic():
        audit(
            job.championship_id, action, user,
            target=f"{job.get_kind_display()} #{job.pk}",
            before=before, after={"job": job.pk, "status": job.status, "note": message},
        )


def print_job_retry(*, job_id: int, acting_user: Any) -> PrintJob:
    """The organiser runs a stalled or failed job again: a stalled one is sent again
    (whatever its attempts), a failed one is asked again as a new job of the same
    request. Audited (``AuditEntry`` ``print.retry``). Raises :class:`PrintNotAllowed`
    for anyone but the championship's organiser, :class:`BadPrintRequest` when the job
    is neither stalled nor failed. Returns the job that will run."""
    job = PrintJob.objects.select_related("championship").get(pk=job_id)
    championship = job.championship
    if championship is None or not _may_manage(acting_user, championship):
        # A circuit's job has no organiser to retry it: asking again makes a new one.
        raise PrintNotAllowed(_("Només l'organitzador pot tornar a fer o cancel·lar un treball."))
    if is_stalled(job):
        with transaction.atomic():
            job = _requeue(job, force=True)
            _audit(acting_user, job, AuditEntry.Action.PRINT_RETRY,
                   "stalled job sent again", before={"status": PrintJob.Status.RUNNING})
        return job
    if job.status != PrintJob.Status.FAILED:
        raise BadPrintRequest(_("Aquest treball no està aturat ni ha fallat: no cal tornar-lo "
                                "a fer."))
    new, _created = print_job_request(
        championship=championship, kind=job.kind, round_number=job.round_number,
        copies=job.copies, per_page=job.per_page, acting_user=acting_user,
        language=job.language,
    )
    _audit(acting_user, new, AuditEntry.Action.PRINT_RETRY, f"retry of failed job {job.pk}",
           before={"job": job.pk, "status": job.status})
    return new


def print_job_cancel(*, job_id: int, acting_user: Any) -> PrintJob:
    """The organiser cancels a queued or running job: it is marked failed ("cancel·lat
    per ..."); a run still going stops at its next heartbeat and stores nothing.
    Audited (``AuditEntry`` ``print.cancel``). Raises :class:`PrintNotAllowed` for anyone but the
    championship's organiser, :class:`BadPrintRequest` when the job already ended."""
    job = PrintJob.objects.select_related("championship").get(pk=job_id)
    if job.championship is None or not _may_manage(acting_user, job.championship):
        raise PrintNotAllowed(_("Només l'organitzador pot tornar a fer o cancel·lar un treball."))
    if not job.is_active:
        raise BadPrintRequest(_("Aquest treball ja ha acabat: no es pot cancel·lar."))
    who = acting_user.get_username() if acting_user is not None else "system"
    before = {"status": job.status}
    with transaction.atomic():
        print_job_fail(job_id=job.pk, error=_("Cancel·lat per %(user)s.") % {"user": who})
        job.refresh_from_db()
        _audit(acting_user, job, AuditEntry.Action.PRINT_CANCEL, "cancelled", before=before)
    return job


def print_job_fail(*, job_id: int, error: str) -> None:
    """Mark a queued or running job failed with ``error`` (shown to the user)."""
    PrintJob.objects.filter(
        pk=job_id, status__in=[PrintJob.Status.QUEUED, PrintJob.Status.RUNNING]
    ).update(status=PrintJob.Status.FAILED, error=error[:2000], finished_at=timezone.now())


def file_name(job: PrintJob) -> str:
    """``reports/<slug>-<kind>[-r<round>]-<job id>-<attempt>-<random>.pdf``
    (storage-relative; the championship's or the circuit's slug). The random part (16
    bytes) keeps names unguessable, should the media folder ever be exposed; the attempt
    keeps two runs of one job apart."""
    round_part = f"-r{job.round_number}" if job.round_number else ""
    token = secrets.token_urlsafe(16)
    return (f"reports/{job.owner_slug}-{job.kind}{round_part}-{job.pk}"
            f"-{job.attempts}-{token}.pdf")


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


def print_job_finish(
    *, job_id: int, name: str, state: str = "", attempt: int | None = None
) -> bool:
    """Mark a running job done with its stored file and the :func:`results_state` it was
    built from. Conditional: returns ``False`` (and changes nothing) when the job is no
    longer running (failed or done meanwhile) or, with ``attempt``, another run owns it."""
    jobs = PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.RUNNING)
    if attempt is not None:
        jobs = jobs.filter(attempts=attempt)
    updated = jobs.update(
        status=PrintJob.Status.DONE, file=name, progress=100, finished_at=timezone.now(),
        heartbeat_at=timezone.now(), error="", results_state=state,
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
    attempt = job.attempts
    beat_every = settings.PRINT_JOB_HEARTBEAT_SECONDS
    last = {"time": time.monotonic(), "percent": 0}

    def on_page(done: int, total: int) -> None:
        percent = int(99 * done / max(total, 1))
        now = time.monotonic()
        grew = percent > last["percent"] and now - last["time"] >= PROGRESS_INTERVAL
        if grew or now - last["time"] >= beat_every:
            last["time"], last["percent"] = now, max(percent, last["percent"])
            if not print_job_progress(job_id=job_id, percent=int(last["percent"]),
                                      attempt=attempt):
                raise JobSuperseded(job_id)

    try:
        if job.circuit is not None:
            state, data = _circuit_pdf(job.circuit, job.language, on_page)
        else:
            championship = job.championship
            assert championship is not None  # the check constraint: one of the two
            with transaction.atomic():
                # Read before the document: a result saved in between gives a newer PDF
                # under an older state, which only means the next request builds again.
                state = results_state(championship)
                championship.results_version = int(state)  # the version the PDF prints
                document = build.build(
                    championship,
                    Kind(job.kind),
                    round_number=job.round_number,
                    copies=job.copies,
                    per_page=job.per_page,
                    language=job.language,
                )
            data = render(document, on_page)
    except JobSuperseded:
        log.warning("print job %s (attempt %s) was cancelled or taken over: stopped",
                    job_id, attempt)
        return PrintJob.objects.get(pk=job_id)
    except ValueError as exc:
        log.warning("print job %s failed: %s", job_id, exc)
        print_job_fail(job_id=job_id, error=str(exc))
        _prune(job)
        return PrintJob.objects.get(pk=job_id)
    name = store_atomically(file_name(job), data)
    if not print_job_finish(job_id=job_id, name=name, state=state, attempt=attempt):
        log.warning("print job %s (attempt %s) no longer owned the job; file %s deleted",
                    job_id, attempt, name)
        default_storage.delete(name)
    _prune(job)
    return PrintJob.objects.get(pk=job_id)


def _circuit_pdf(circuit: Circuit, language: str, on_page: Any) -> tuple[str, bytes]:
    """The circuit's ranking document, drawn: ``(its state, the PDF)``. The places of
    championships whose kept ones are out of date are read again first (as the
    circuit's page does), outside any transaction."""
    stale = circuit_reads.stale_championships(circuit)
    if stale:
        final_standings_refresh(championship_ids=stale)
    # Read before the document, as for a championship: a change in between only means
    # the next request builds again.
    full_state = circuit_reads.circuit_state(circuit)
    document = circuit_ranking_document(circuit, state=full_state, language=language)
    return full_state[:12], render_circuit_ranking(document, on_page)


def _prune(job: PrintJob) -> int:
    if job.circuit_id is not None:
        return print_jobs_prune(circuit_id=job.circuit_id, kind=job.kind)
    assert job.championship_id is not None  # the check constraint: one of the two
    return print_jobs_prune(championship_id=job.championship_id, kind=job.kind)


def print_jobs_prune(*, championship_id: int | None = None, kind: str,
                     keep: int | None = None, circuit_id: int | None = None) -> int:
    """Delete the finished (done or failed) jobs of one championship (or one circuit,
    ``circuit_id``) and kind beyond the ``keep`` newest (default
    :data:`KEEP_FINISHED`), oldest first, and their files. Returns how many were
    deleted. Queued and running jobs are never touched."""
    keep = KEEP_FINISHED if keep is None else keep
    owner = (Q(circuit_id=circuit_id) if circuit_id is not None
             else Q(championship_id=championship_id))
    finished = PrintJob.objects.filter(
        owner, kind=kind,
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
    return has(user, championship, Capability.SEE_ALL_PRINT_JOBS)


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
