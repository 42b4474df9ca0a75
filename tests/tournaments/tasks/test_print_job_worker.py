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


def test_a_job_whose_worker_is_killed_is_redone_within_30_s_with_nobody_watching(
    celery_worker, settings,  # type: ignore[no-untyped-def]
) -> None:
    """Redone unwatched: SIGKILL the worker in the middle of 400 pages of
    board sheets and restart it at once (as the compose file's restart policy does); no
    page is opened and Redis's visibility timeout is production's 900 s, so only the
    worker's own periodic check (tasks.StallSweeper, production's stall window and sweep
    period) can send the job again. It is restarted and done within 30 s of the death;
    in between the page would say "Aturat, es reprèn". The file appears whole, once.
    The figures are printed (pytest -s). Slow by design: it waits out the stall window.
    (400 pages, as the smoke test's pool kill: enough to kill a job under way, and the
    redone job still ends in time while the other test worker keeps a CPU busy.)"""
    from tournaments.reports.views import RESTARTING, status_display

    assert settings.PRINT_JOB_STALL_SECONDS + settings.PRINT_JOB_SWEEP_SECONDS < 30
    championship = build_championship(pairs=4, rounds=1, boards_per_round=4, drawn_rounds=1)
    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, copies=100, acting_user=None)
    job = _wait(job, lambda j: j.status == "running" and j.progress >= 5)
    assert job.progress < 99
    celery_worker.kill()
    killed_at = time.monotonic()
    job.refresh_from_db()
    assert job.status == PrintJob.Status.RUNNING and not job.file and job.attempts == 1
    celery_worker.start()
    seen: set[str] = set()
    restarted_after = None
    deadline = killed_at + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        seen.add(str(status_display(job)))
        if restarted_after is None and job.attempts == 2:
            restarted_after = time.monotonic() - killed_at
        if job.status in ("done", "failed"):
            break
        time.sleep(0.2)
    done_after = time.monotonic() - killed_at
    print(f"\nSIGKILL -> sent again and restarted after {restarted_after} s, "
          f"done after {done_after:.1f} s; the page said {sorted(seen)}")
    assert job.status == PrintJob.Status.DONE, job.error
    assert restarted_after is not None and restarted_after < 30
    assert done_after < 30
    assert str(RESTARTING) in seen
    assert job.attempts == 2
    data = (Path(settings.MEDIA_ROOT) / job.file.name).read_bytes()
    assert len(reader(data).pages) == 4 * 100
    assert list((Path(settings.MEDIA_ROOT) / "reports").glob(".part-*")) == []
    files = list((Path(settings.MEDIA_ROOT) / "reports").glob(f"*-r1-{job.pk}-*.pdf"))
    assert [f.name for f in files] == [Path(job.file.name).name]
