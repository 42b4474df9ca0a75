"""A circuit's ranking PDF through the print jobs: the page's button, the job's page, the
old address, the API; one job per request, reuse while the ranking is as it was, a new
document after a change, the stalled-job sweep and the limit per address."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.circuits.conftest import Season
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments import services
from tournaments.models import PrintJob
from tournaments.reports import services as jobs
from tournaments.selectors import circuits as read

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(tmp_path: Path, settings: Any) -> Path:
    settings.MEDIA_ROOT = tmp_path
    settings.PRINT_JOBS_PER_MINUTE = 1000
    return tmp_path


def _pdf_text(job: PrintJob) -> str:
    with job.file.open("rb") as f:
        return "\n".join(page_texts(f.read()))


def test_the_pages_button_runs_a_job_whose_pdf_holds_the_ranking(
        season: Season, media: Path, django_capture_on_commit_callbacks: Any) -> None:
    client = Client(REMOTE_ADDR="10.9.0.1")
    page = client.get(reverse("circuit", args=[season.circuit.slug])).content.decode()
    ask = reverse("circuit_print_request", args=[season.circuit.slug])
    assert f'action="{ask}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(ask)
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("circuit_print_job",
                                           args=[season.circuit.slug, job.pk])
    assert job.status == PrintJob.Status.DONE and job.progress == 100
    assert job.circuit == season.circuit and job.championship is None
    assert job.kind == "circuit-ranking" and job.language == "ca"
    assert job.results_state == read.circuit_state(season.circuit)[:12]
    text = _pdf_text(job)
    ranking = read.build_ranking(season.circuit)
    assert "Rànquing individual" in text and "Rànquing de parelles" in text
    assert ranking.players[0].name in text and season.circuit.name in text

    status_page = client.get(response["Location"])
    download = reverse("circuit_print_download", args=[season.circuit.slug, job.pk])
    assert status_page.status_code == 200 and download in status_page.content.decode()
    status = client.get(reverse("circuit_print_status", args=[season.circuit.slug, job.pk]))
    assert status.json()["download"] == download and not status.json()["out_of_date"]
    got = client.get(download)
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    assert "ranquing-del-circuit-" in got["Content-Disposition"]
    # A job of one circuit is not found under another address.
    assert client.get(reverse("circuit_print_job", args=["no-such", job.pk])
                      ).status_code == 404


def test_the_same_request_twice_is_one_job_and_the_old_address_serves_it(
        season: Season, media: Path, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=False) as sent:
        first, created = jobs.circuit_print_job_request(
            circuit=season.circuit, language="ca", requested_by=None)
        again, created_again = jobs.circuit_print_job_request(
            circuit=season.circuit, language="ca", requested_by=None)
    assert created and not created_again and again.pk == first.pk and len(sent) == 1
    # Not done yet: the old address leads to the job's page, asking nothing new.
    old = Client(REMOTE_ADDR="10.9.0.2").get(reverse("circuit_pdf",
                                                     args=[season.circuit.slug]))
    assert old.status_code == 302
    assert old["Location"] == reverse("circuit_print_job",
                                      args=[season.circuit.slug, first.pk])
    with django_capture_on_commit_callbacks(execute=True):
        sent[0]()
    first.refresh_from_db()
    assert first.status == PrintJob.Status.DONE
    with django_capture_on_commit_callbacks(execute=True) as later:
        reused, created_reused = jobs.circuit_print_job_request(
            circuit=season.circuit, language="ca", requested_by=None)
    assert reused.pk == first.pk and not created_reused and later == []
    served = Client(REMOTE_ADDR="10.9.0.2").get(reverse("circuit_pdf",
                                                        args=[season.circuit.slug]))
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert PrintJob.objects.count() == 1
    # Another language is another document.
    with django_capture_on_commit_callbacks(execute=True):
        english, created_en = jobs.circuit_print_job_request(
            circuit=season.circuit, language="en", requested_by=None)
    english.refresh_from_db()
    assert created_en and english.pk != first.pk
    assert "Page 1 of 2" in _pdf_text(english)  # drawn in its own language


def test_a_change_of_the_ranking_makes_a_new_document(
        season: Season, media: Path, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first, _created = jobs.circuit_print_job_request(
            circuit=season.circuit, language="ca", requested_by=None)
    first.refresh_from_db()
    services.circuit_rules_edit(
        circuit=season.circuit, acting_user=season.organiser, points="place_table",
        points_table="20, 12, 8, 4", best_of=None, min_events=1,
        tiebreaks=["more_events", "best_result"])
    season.circuit.refresh_from_db()
    assert jobs.is_out_of_date(first, jobs.circuit_results_state(season.circuit))
    with django_capture_on_commit_callbacks(execute=True):
        newer, created = jobs.circuit_print_job_request(
            circuit=season.circuit, language="ca", requested_by=None)
    newer.refresh_from_db()
    assert created and newer.pk != first.pk and newer.status == PrintJob.Status.DONE
    assert newer.results_state != first.results_state
    assert "20, 12, 8, 4" in _pdf_text(newer)


def test_the_api_starts_and_follows_the_job_with_exactly_its_keys(
        season: Season, media: Path, django_capture_on_commit_callbacks: Any) -> None:
    client = APIClient(REMOTE_ADDR="10.9.0.3")
    url = f"/api/v1/circuits/{season.circuit.slug}/prints/"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 202
    body = response.json()
    assert set(body) == {"id", "kind", "language", "status", "stalled", "restarting",
                         "progress", "error", "requested_at", "finished_at", "url",
                         "download"}
    assert body["kind"] == "circuit-ranking" and body["language"] == "es"
    # The task is sent once the request's transaction commits: after the answer here.
    assert body["status"] == "queued" and body["download"] is None
    assert body["url"] == f"{url}{body['id']}/" and response["Location"] == body["url"]
    followed = client.get(body["url"]).json()
    assert followed["status"] == "done" and followed["progress"] == 100
    again = client.post(url, HTTP_ACCEPT_LANGUAGE="es")
    assert again.status_code == 202 and again.json() == followed
    pdf = client.get(followed["download"])
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert client.post("/api/v1/circuits/no-such/prints/").status_code == 404
    assert client.get(f"{url}999999/").status_code == 404


def test_a_circuits_job_is_sent_again_when_its_worker_dies(
        season: Season, media: Path, django_capture_on_commit_callbacks: Any) -> None:
    long_ago = timezone.now() - timedelta(minutes=5)
    job = PrintJob.objects.create(
        circuit=season.circuit, kind=PrintJob.Kind.CIRCUIT_RANKING, language="ca",
        status=PrintJob.Status.RUNNING, attempts=1, started_at=long_ago,
        heartbeat_at=long_ago)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.print_jobs_requeue_stalled(circuit_id=season.circuit.pk) == [job.pk]
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE and job.attempts == 2


def test_a_job_belongs_to_a_championship_or_a_circuit_never_both(season: Season) -> None:
    for owners in ({}, {"circuit": season.circuit, "championship": season.duplicate}):
        with pytest.raises(IntegrityError), transaction.atomic():
            PrintJob.objects.create(kind="standings", **owners)
    PrintJob.objects.create(circuit=season.circuit, kind="circuit-ranking")
    with pytest.raises(IntegrityError), transaction.atomic():
        PrintJob.objects.create(circuit=season.circuit, kind="circuit-ranking")


def test_an_address_asking_too_often_is_told_to_wait(
        season: Season, media: Path, settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.PRINT_JOBS_PER_MINUTE = 1
    client = Client(REMOTE_ADDR="10.9.0.4")
    ask = reverse("circuit_print_request", args=[season.circuit.slug])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(ask).status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(ask, HTTP_ACCEPT_LANGUAGE="es").status_code == 302
    assert PrintJob.objects.count() == 1
    api = APIClient(REMOTE_ADDR="10.9.0.4").post(
        f"/api/v1/circuits/{season.circuit.slug}/prints/", HTTP_ACCEPT_LANGUAGE="ca")
    assert api.status_code == 202  # the done document in Catalan: reused, not counted
    api = APIClient(REMOTE_ADDR="10.9.0.4").post(
        f"/api/v1/circuits/{season.circuit.slug}/prints/", HTTP_ACCEPT_LANGUAGE="en")
    assert api.status_code == 429 and api.json()["detail"]
    assert PrintJob.objects.count() == 1
