"""Print jobs run by a real worker process over Redis (issue 5 "CI runs the job tests
against a real Redis broker and a real worker process"). Few and slow-ish on purpose."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import reader
from tournaments.models import PrintJob
from tournaments.reports import services as jobs

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _wait(job: PrintJob, until: object, timeout: float = 60.0) -> PrintJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if until(job):  # type: ignore[operator]
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job.pk} still {job.status} {job.progress}% after {timeout} s")


def test_a_queued_job_is_picked_up_by_the_worker_and_ends_done_with_its_file(
    celery_worker,  # type: ignore[no-untyped-def]
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    job, created = jobs.print_job_request(championship=championship, kind="board-sheets",
                                          round_number=1, copies=3, acting_user=None)
    assert created
    job = _wait(job, lambda j: j.status in ("done", "failed"))
    assert job.status == PrintJob.Status.DONE, job.error
    assert job.progress == 100 and job.attempts == 1
    path = Path(settings.MEDIA_ROOT) / job.file.name
    assert len(reader(path.read_bytes()).pages) == 2 * 3


def test_a_job_whose_worker_dies_midway_is_retried_and_never_left_half_written(
    celery_worker,  # type: ignore[no-untyped-def]
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=4, drawn_rounds=1)
    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, copies=500, acting_user=None)
    job = _wait(job, lambda j: j.status == "running" and j.progress >= 5)
    assert job.progress < 99
    celery_worker.kill()

    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not job.file
    # Redis hands the unacknowledged task to the next worker once the visibility
    # timeout has passed since it was delivered.
    time.sleep(3)
    celery_worker.start()
    job = _wait(job, lambda j: j.status in ("done", "failed"), timeout=120)
    assert job.status == PrintJob.Status.DONE, job.error
    assert job.attempts == 2
    data = (Path(settings.MEDIA_ROOT) / job.file.name).read_bytes()
    assert len(reader(data).pages) == 4 * 500
    leftovers = list((Path(settings.MEDIA_ROOT) / "reports").glob(".part-*"))
    assert leftovers == []
