"""Print jobs run by a real worker process over Redis (CI runs the job tests
against a real Redis broker and a real worker process). Few and slow-ish on purpose."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from engine.cards import SUIT_ORDER
from engine.deal import Deal
from engine.seats import Seat
from tests.factories import UserFactory, build_championship
from tests.tournaments.reports.pdfcheck import page_texts, reader
from tournaments import services
from tournaments.models import Board, Membership, PrintJob
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


def test_organiser_pages_queue_board_sheets_that_the_worker_prints_from_the_deals(
    celery_worker,  # type: ignore[no-untyped-def]
) -> None:
    """What a print job must show, with a real Redis-backed worker: ask for the board sheets
    of round 1 on the organiser's page, follow the progress, download a PDF whose hands
    are the deals in the database."""
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-worker")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client = Client()
    client.force_login(organiser)
    response = client.post(reverse("print_jobs", args=[championship.slug]),
                           {"kind": "board-sheets", "round_number": 1, "copies": 3,
                            "per_page": 1})
    assert response.status_code == 302
    job = PrintJob.objects.get(championship=championship)
    status_url = reverse("print_job_status", args=[championship.slug, job.pk])
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status = client.get(status_url).json()
        seen.append(status["status"])
        if status["status"] in ("done", "failed"):
            break
        time.sleep(0.05)
    assert status["status"] == "done", status["error"]
    assert status["progress"] == 100
    job.refresh_from_db()
    assert job.attempts == 1 and job.requested_by == organiser
    pdf = b"".join(client.get(status["download"]).streaming_content)
    texts = page_texts(pdf)
    assert len(texts) == 2 * 3
    boards = list(Board.objects.filter(round__championship=championship).order_by("number"))
    for index, page in enumerate(texts):
        text = " ".join(page.split())  # a long suit wraps onto a second line
        deal = Deal.from_json(boards[index // 3].deal)
        for seat in Seat:
            for suit in SUIT_ORDER:
                ranks = " ".join(str(c.rank) for c in deal[seat] if c.suit is suit)
                if ranks:
                    assert ranks in text


#: The stall time of the test below, a third of production's minute (its default is
#: checked in test_stalled_jobs.py): still twice the heartbeat (10 s), so a healthy run
#: that is slow to draw a page is not taken for a dead one.
STALL_SECONDS = 20


def test_a_job_whose_worker_dies_midway_is_redone_after_the_stall_time_never_half_written(
    celery_worker, settings,  # type: ignore[no-untyped-def]
) -> None:
    """SIGKILL the worker in the middle of 2,000 pages of board sheets: the job's
    heartbeat stops, and about PRINT_JOB_STALL_SECONDS later (production's 60 s, 20 s
    here to keep the suite short) the organiser's waiting page, polling the status,
    sends it again; the restarted worker redoes it from page one. Redis's visibility
    timeout is production's 900 s here, so the retry cannot be Redis's own redelivery.
    The file appears whole, once. Slow by design: it waits out the stall time."""
    settings.PRINT_JOB_STALL_SECONDS = STALL_SECONDS
    assert settings.PRINT_JOB_HEARTBEAT_SECONDS * 2 <= STALL_SECONDS
    championship = build_championship(pairs=4, rounds=1, boards_per_round=4, drawn_rounds=1)
    organiser = UserFactory(username="org-kill")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client = Client()
    client.force_login(organiser)
    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, copies=500, acting_user=None)
    job = _wait(job, lambda j: j.status == "running" and j.progress >= 5)
    assert job.progress < 99
    celery_worker.kill()
    killed_at = time.monotonic()

    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not job.file
    # Not sent again before its heartbeat is STALL_SECONDS old.
    status_url = reverse("print_job_status", args=[championship.slug, job.pk])
    assert client.get(status_url).json()["status"] == "running"
    job.refresh_from_db()
    assert job.attempts == 1
    celery_worker.env["PRINT_JOB_STALL_SECONDS"] = str(STALL_SECONDS)
    celery_worker.start()
    seen: set[str] = set()
    restarted_after = None
    deadline = killed_at + 180
    while time.monotonic() < deadline:
        status = client.get(status_url).json()
        seen.add(status["status_display"])
        job.refresh_from_db()
        if restarted_after is None and job.attempts == 2:
            restarted_after = time.monotonic() - killed_at
        if status["status"] in ("done", "failed"):
            break
        time.sleep(0.5)
    assert status["status"] == "done", (status, job.error)
    # Sent again once its heartbeat (the last before the kill) is STALL_SECONDS old.
    assert restarted_after is not None and restarted_after < STALL_SECONDS + 30, \
        restarted_after
    assert time.monotonic() - killed_at < 150
    assert job.attempts == 2
    data = (Path(settings.MEDIA_ROOT) / job.file.name).read_bytes()
    assert len(reader(data).pages) == 4 * 500
    leftovers = list((Path(settings.MEDIA_ROOT) / "reports").glob(".part-*"))
    assert leftovers == []
    files = list((Path(settings.MEDIA_ROOT) / "reports").glob(f"*-r1-{job.pk}-*.pdf"))
    assert [f.name for f in files] == [Path(job.file.name).name]
