"""A print job whose worker died (its heartbeat stopped for 15 s) is sent again by the
workers' periodic sweep instead of after Redis's visibility timeout; in between the page
says "Aturat, es reprèn", later that the worker does not answer, and the organiser may
retry or cancel. Run in-process (eager): the real worker
killed with SIGKILL is in test_print_job_worker.py."""

from __future__ import annotations

from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, build_championship
from tournaments import services as core
from tournaments import tasks
from tournaments.models import AuditEntry, Championship, Membership, PrintJob
from tournaments.reports import services as jobs

# Committed rows, so that a job sent again (on commit) runs at once, in-process.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def championship(transactional_db: None, tmp_path: Path, settings) -> Championship:  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    return build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1,
                              played_rounds=1)


def dead_run(championship: Championship, *, attempts: int = 1, silent: int = 61,
             kind: str = "standings") -> PrintJob:
    """A job left running by a worker killed ``silent`` seconds ago (no file)."""
    then = timezone.now() - timedelta(seconds=silent)
    return PrintJob.objects.create(
        championship=championship, kind=kind, status=PrintJob.Status.RUNNING,
        progress=5, attempts=attempts, started_at=then, heartbeat_at=then,
        requested_at=then,
    )


def member(championship: Championship, username: str, role: str) -> object:
    user = UserFactory(username=username)
    core.membership_grant(championship=championship, user=user, role=role, acting_user=None)
    return user


def test_the_default_stall_time_and_sweep_redo_a_dead_run_within_30_s(settings) -> None:  # type: ignore[no-untyped-def]
    assert jobs.stall_after() == timedelta(seconds=15)
    assert settings.PRINT_JOB_HEARTBEAT_SECONDS * 3 <= settings.PRINT_JOB_STALL_SECONDS
    assert settings.PRINT_JOB_STALL_SECONDS + settings.PRINT_JOB_SWEEP_SECONDS <= 20


def test_the_workers_sweeper_sends_a_dead_run_again_with_no_page_open(
    championship: Championship,
) -> None:
    """The periodic check of issue 24: a worker's own thread, not a page view."""
    job = dead_run(championship, silent=16)
    sweeper = tasks.StallSweeper(0.05)
    sweeper.start()
    try:
        deadline = timezone.now() + timedelta(seconds=20)
        while timezone.now() < deadline:
            job.refresh_from_db()
            if job.status == PrintJob.Status.DONE:
                break
    finally:
        sweeper.stop()
        sweeper.thread.join(timeout=30)
    assert not sweeper.thread.is_alive()
    assert (job.status, job.attempts) == (PrintJob.Status.DONE, 2)


def test_a_worker_that_starts_sweeps_at_once_then_keeps_a_sweeper(
    championship: Championship, settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.PRINT_JOB_SWEEP_SECONDS = 3600
    job = dead_run(championship, silent=16)
    tasks.requeue_stalled_jobs()
    try:
        job.refresh_from_db()
        assert (job.status, job.attempts) == (PrintJob.Status.DONE, 2)
        sweeper = tasks._sweeper
        assert sweeper is not None and sweeper.thread.is_alive()
    finally:
        tasks.stop_sweeper()
    sweeper.thread.join(timeout=10)
    assert tasks._sweeper is None and not sweeper.thread.is_alive()


def test_a_sweep_with_the_database_away_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    from django.db import OperationalError

    def down(**_kwargs: object) -> list[int]:
        raise OperationalError("connection refused")

    monkeypatch.setattr(jobs, "print_jobs_requeue_stalled", down)
    assert tasks.requeue_stalled_once() == []
    assert "could not look for stalled print jobs" in caplog.text


def test_between_the_death_and_the_next_run_the_page_says_stalled_restarting(
    championship: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No worker takes the job yet (its task is not run): running but silent, then sent
    again and waiting, the page and the status say "Aturat, es reprèn"; sent again and
    untaken for the whole window, "El treballador no respon"."""
    monkeypatch.setattr(jobs, "_enqueue", lambda job_id: None)
    organiser = member(championship, "org-restart", Membership.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)  # type: ignore[arg-type]
    job = dead_run(championship, silent=16)
    assert jobs.is_restarting(job)
    page = unescape(client.get(reverse("print_jobs", args=[championship.slug])).content
                    .decode())
    assert "Aturat, es reprèn" in page and "El treballador no respon" not in page
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.Status.QUEUED, 1)
    status = client.get(reverse("print_job_status", args=[championship.slug, job.pk])).json()
    assert status["status_display"] == "Aturat, es reprèn"
    answer = client.get(reverse("api_print_job", args=[championship.slug, job.pk])).json()
    assert answer["restarting"] is True and answer["stalled"] is False
    PrintJob.objects.filter(pk=job.pk).update(
        heartbeat_at=timezone.now() - timedelta(seconds=16))
    status = client.get(reverse("print_job_status", args=[championship.slug, job.pk])).json()
    assert status["status_display"] == "El treballador no respon" and status["stalled"]
    answer = client.get(reverse("api_print_job", args=[championship.slug, job.pk])).json()
    assert answer["restarting"] is False and answer["stalled"] is True
    fresh = dead_run(championship, silent=2, kind="travellers")
    assert not jobs.is_restarting(fresh)


def test_a_running_job_is_stalled_only_once_its_heartbeat_is_15_s_old(
    championship: Championship,
) -> None:
    assert not jobs.is_stalled(dead_run(championship, silent=10))
    PrintJob.objects.all().delete()
    assert jobs.is_stalled(dead_run(championship, silent=16))


def test_a_run_writes_its_heartbeat_with_its_progress(
    championship: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    beats: list[object] = []
    real = jobs.print_job_progress

    def spy(*, job_id: int, percent: int, attempt: int | None = None) -> bool:
        written = real(job_id=job_id, percent=percent, attempt=attempt)
        beats.append(PrintJob.objects.get(pk=job_id).heartbeat_at)
        return written

    monkeypatch.setattr(jobs, "print_job_progress", spy)
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0.0)
    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, copies=20, acting_user=None)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE
    assert beats and all(beat is not None for beat in beats)
    assert beats == sorted(beats)  # type: ignore[type-var]
    assert job.heartbeat_at is not None and job.heartbeat_at >= beats[-1]  # type: ignore[operator]


def test_the_sweep_sends_a_dead_run_again_and_it_finishes(championship: Championship) -> None:
    job = dead_run(championship)
    fresh = dead_run(championship, silent=5, kind="travellers")
    assert jobs.print_jobs_requeue_stalled() == [job.pk]
    job.refresh_from_db()
    fresh.refresh_from_db()
    assert (job.status, job.attempts, job.progress) == (PrintJob.Status.DONE, 2, 100)
    assert default_storage.exists(job.file.name)
    assert fresh.status == PrintJob.Status.RUNNING and fresh.attempts == 1  # left alone


def test_a_message_for_a_job_another_worker_is_running_is_ignored(
    championship: Championship,
) -> None:
    job = dead_run(championship, silent=5)
    assert tasks.print_job_task.apply(args=[job.pk]).get() == "skipped"
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.Status.RUNNING, 1)


def test_the_late_redelivery_of_a_dead_runs_message_takes_the_job_over(
    championship: Championship,
) -> None:
    job = dead_run(championship)
    assert tasks.print_job_task.apply(args=[job.pk]).get() == "done"
    job.refresh_from_db()
    assert job.attempts == 2


def test_asking_again_for_a_stalled_job_runs_it_again_instead_of_reusing_it(
    championship: Championship,
) -> None:
    job = dead_run(championship)
    again, created = jobs.print_job_request(championship=championship, kind="standings",
                                            acting_user=None)
    assert again.pk == job.pk and created
    again.refresh_from_db()
    assert (again.status, again.attempts) == (PrintJob.Status.DONE, 2)


def test_a_job_that_stalls_three_times_fails_with_the_reason(
    championship: Championship,
) -> None:
    job = dead_run(championship, attempts=jobs.MAX_ATTEMPTS)
    jobs.print_jobs_requeue_stalled(championship_id=championship.pk)
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert job.error == "El treballador no respon: abandonat després de 3 intents."


def test_polling_a_stalled_jobs_status_sends_it_again(championship: Championship) -> None:
    job = dead_run(championship)
    status = Client().get(reverse("print_job_status", args=[championship.slug, job.pk])).json()
    assert status["status"] == "done" and status["stalled"] is False
    job.refresh_from_db()
    assert job.attempts == 2


def test_a_run_that_no_longer_owns_its_job_stores_nothing(
    championship: Championship, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cancelled while it draws: the run stops at its next heartbeat, no file is left."""
    real_render = jobs.render

    def render(document: object, on_page: object = None) -> bytes:
        job = PrintJob.objects.get(championship=championship)
        jobs.print_job_fail(job_id=job.pk, error="Cancel·lat per algú.")
        return real_render(document, on_page)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs, "render", render)
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0.0)
    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, copies=10, acting_user=None)
    job.refresh_from_db()
    assert (job.status, job.error, job.file.name) == ("failed", "Cancel·lat per algú.", "")
    assert list((Path(default_storage.location) / "reports").glob("*")) == []


def test_the_finish_of_a_run_that_was_taken_over_changes_nothing(
    championship: Championship,
) -> None:
    job = dead_run(championship, attempts=2)
    assert jobs.print_job_finish(job_id=job.pk, name="reports/x.pdf", attempt=1) is False
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not job.file
    assert jobs.print_job_progress(job_id=job.pk, percent=50, attempt=1) is False


def queued_unanswered(championship: Championship) -> PrintJob:
    """Sent again after a stall, and no worker has taken it for over a minute."""
    then = timezone.now() - timedelta(seconds=90)
    return PrintJob.objects.create(
        championship=championship, kind="standings", status=PrintJob.Status.QUEUED,
        attempts=1, started_at=then, heartbeat_at=then, requested_at=then,
    )


def test_the_page_says_the_worker_does_not_answer_and_offers_the_organiser_retry_or_cancel(
    championship: Championship,
) -> None:
    job = queued_unanswered(championship)
    organiser = member(championship, "org-stall", Membership.Role.ORGANISER)
    referee = member(championship, "ref-stall", Membership.Role.REFEREE)
    url = reverse("print_jobs", args=[championship.slug])
    retry = reverse("print_job_retry", args=[championship.slug, job.pk])
    client = Client()
    client.force_login(organiser)  # type: ignore[arg-type]
    page = client.get(url).content.decode()
    assert "El treballador no respon" in page and retry in page
    assert reverse("print_job_cancel", args=[championship.slug, job.pk]) in page
    client.force_login(referee)  # type: ignore[arg-type]
    page = client.get(url).content.decode()
    assert "El treballador no respon" in page and retry not in page
    assert client.post(retry).status_code == 403
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED


def test_the_organiser_retries_a_stalled_job_and_it_is_audited(
    championship: Championship,
) -> None:
    job = queued_unanswered(championship)
    organiser = member(championship, "org-retry", Membership.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)  # type: ignore[arg-type]
    response = client.post(reverse("print_job_retry", args=[championship.slug, job.pk]),
                           follow=True)
    assert "S'ha tornat a posar el document a la cua." in unescape(response.content.decode())
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.Status.DONE, 2)
    entry = AuditEntry.objects.get(championship=championship, action="print.retry")
    assert entry.acting_user_id == organiser.pk and entry.after["job"] == job.pk
    assert entry.before == {"status": "running"}


def test_the_organiser_cancels_a_stalled_job_and_it_is_audited(
    championship: Championship,
) -> None:
    job = dead_run(championship)
    organiser = member(championship, "org-cancel", Membership.Role.ORGANISER)
    client = Client()
    client.force_login(organiser)  # type: ignore[arg-type]
    client.post(reverse("print_job_cancel", args=[championship.slug, job.pk]))
    job.refresh_from_db()
    assert (job.status, job.error) == (PrintJob.Status.FAILED, "Cancel·lat per org-cancel.")
    entry = AuditEntry.objects.get(championship=championship, action="print.cancel")
    assert (entry.acting_user_id, entry.after["status"]) == (organiser.pk, "failed")
    # Cancelling twice is a message, not an error page.
    again = client.post(reverse("print_job_cancel", args=[championship.slug, job.pk]),
                        follow=True)
    assert "Aquest treball ja ha acabat: no es pot cancel·lar." in unescape(
        again.content.decode()
    )
