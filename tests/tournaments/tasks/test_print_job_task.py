"""The Celery task around a print job, run eagerly: retries on transient faults with
backoff, and a crash or the last retry marks the job failed with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import OperationalError

from tests.factories import build_championship
from tournaments import tasks
from tournaments.models import PrintJob
from tournaments.reports import services as jobs


@pytest.fixture
def job(db: None, tmp_path: Path, settings) -> PrintJob:  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1,
                                      played_rounds=1)
    job, _ = jobs.print_job_request(championship=championship, kind="standings",
                                    acting_user=None)
    return job


def test_a_transient_database_fault_is_retried_and_the_job_then_finishes(
    job: PrintJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = jobs.print_job_run
    calls: list[int] = []

    def flaky(*, job_id: int) -> PrintJob | None:
        calls.append(job_id)
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return real(job_id=job_id)

    monkeypatch.setattr(jobs, "print_job_run", flaky)
    result = tasks.print_job_task.apply(args=[job.pk])
    job.refresh_from_db()
    assert len(calls) == 3
    assert job.status == PrintJob.Status.DONE and job.file
    assert result.get() == "done"


def test_the_job_fails_with_the_reason_after_the_last_retry(
    job: PrintJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*, job_id: int) -> None:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(jobs, "print_job_run", down)
    assert tasks.print_job_task.apply(args=[job.pk]).get() == "failed"
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert "Abandonat després de 6 intents: could not connect to server" in job.error


def test_a_crash_marks_the_job_failed_instead_of_leaving_it_running(
    job: PrintJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(document: object, on_page: object = None) -> bytes:
        raise RuntimeError("reportlab exploded")

    monkeypatch.setattr(jobs, "render", crash)
    assert tasks.print_job_task.apply(args=[job.pk]).get() == "failed"
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED
    assert job.error == "Error inesperat (RuntimeError): reportlab exploded"
    assert not job.file


def test_backoff_doubles_up_to_a_minute() -> None:
    assert [tasks.backoff(n) for n in range(7)] == [2, 4, 8, 16, 32, 60, 60]


def test_on_a_worker_a_transient_fault_sends_the_task_again_later(
    job: PrintJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery.exceptions import Retry

    def down(*, job_id: int) -> None:
        raise OperationalError("could not connect to server")

    sent: list[dict[str, object]] = []

    def retry(**kwargs: object) -> Retry:
        sent.append(kwargs)
        return Retry("again")

    monkeypatch.setattr(jobs, "print_job_run", down)
    monkeypatch.setattr(tasks.print_job_task, "retry", retry)
    tasks.print_job_task.push_request(is_eager=False, retries=2)
    try:
        with pytest.raises(Retry):
            tasks.print_job_task.run(job.pk)
    finally:
        tasks.print_job_task.pop_request()
    assert sent and sent[0]["countdown"] == 8
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED  # left for the next delivery
