"""Print jobs through the API: start one (POST), poll its status and progress, download
the PDF; the same services and rights as the print page (``reports.services``).

A public document (standings, travellers, score cards) asked again while the results
are as they were comes from the job already done (``print_job_request`` reuses it, 200);
a new job (201) counts against the address's ``PRINT_JOBS_PER_MINUTE`` (429 past it),
unless the user has a role in the championship.

A circuit's ranking (``circuits/<slug>/prints/``): POST asks for it (202 with the job,
queued, running or done: a done one is reused while the ranking is as it was), GET
``.../<id>/`` follows it, ``.../<id>/download/`` serves the PDF; public, within the same
limit per address.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import lockouts
from tournaments.api.error_body import ErrorSerializer
from tournaments.api.permissions import championship_of
from tournaments.api.serializers import (
    CircuitPrintJobSerializer,
    PrintJobSerializer,
    PrintRequestSerializer,
)
from tournaments.models import Circuit, PrintJob
from tournaments.reports import services
from tournaments.reports.build_circuit import circuit_download_name
from tournaments.reports.documents import Kind, download_name
from tournaments.reports.views import circuit_job_request


class _OverLimit(Exception):
    """A new job past the address's limit: its transaction is rolled back."""


def job_data(job: PrintJob) -> dict[str, Any]:
    return {
        "id": job.pk,
        "kind": job.kind,
        "round_number": job.round_number,
        "copies": job.copies,
        "per_page": job.per_page,
        "status": job.status,
        "stalled": services.is_stalled(job),
        "restarting": services.is_restarting(job),
        "progress": job.progress,
        "error": job.error,
        "requested_at": job.requested_at,
        "finished_at": job.finished_at,
        "download": (download_url(job) if job.status == PrintJob.Status.DONE else None),
    }


def download_url(job: PrintJob) -> str:
    """Where the API serves the done PDF: under its championship or its circuit."""
    if job.circuit is not None:
        return reverse("api_circuit_print_download", args=[job.circuit.slug, job.pk])
    assert job.championship is not None  # the check constraint: one of the two
    return reverse("api_print_download", args=[job.championship.slug, job.pk])


def _visible_job(request: Request, slug: str, job_id: int) -> PrintJob:
    """The job, or 404 also when the user may not see its kind (board sheets and entry
    forms show the deals: their existence is not the public's business)."""
    job = get_object_or_404(
        PrintJob.objects.select_related("championship"), pk=job_id, championship__slug=slug
    )
    championship = job.championship
    assert championship is not None  # found by its championship's slug
    if not services.can_print(request.user, championship, Kind(job.kind)):
        raise exceptions.NotFound()
    return job


class PrintJobListApi(APIView):
    """GET: the latest jobs the user may see. POST: start a job, or get the one that
    already answers the same request.

    Who sees which job (``services.jobs_for``): the organiser and the head referee see
    every job; anyone else, anonymous clients included, sees the jobs of the public kinds
    (standings, travellers, score cards, guide cards) whoever asked for them, and never
    who asked. That is safe because a job of a public kind holds public information only:
    its document is built from the boards public now whoever asks (``reports.build``,
    ``public_only``), so an organiser's travellers are the same PDF an anonymous client
    would get. Board sheets and entry forms reveal the deals: only the organiser and the
    head referee may ask for them (``services.can_print``) or see them in this list."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PrintJobSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        jobs = services.jobs_for(championship, request.user)
        return Response(PrintJobSerializer([job_data(j) for j in jobs], many=True).data)

    @extend_schema(
        request=PrintRequestSerializer,
        responses={200: PrintJobSerializer, 201: PrintJobSerializer},
    )
    def post(self, request: Request, slug: str) -> Response:
        championship = championship_of(slug)
        incoming = PrintRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            with transaction.atomic():
                job, created = services.print_job_request(
                    championship=championship, kind=data["kind"],
                    round_number=data["round_number"], copies=data["copies"],
                    per_page=int(data["per_page"]), acting_user=request.user,
                    language=translation.get_language(),  # Accept-Language, or the site's
                )
                # A reused job costs nothing; a new one over the address's limit is
                # undone here (its task is only sent once this transaction commits).
                if created and lockouts.print_jobs_exhausted(request, championship):
                    raise _OverLimit
        except _OverLimit:
            raise exceptions.Throttled(
                wait=60, detail=_("Massa documents demanats des d'aquesta adreça: torneu-ho "
                                  "a provar d'aquí a un minut.")
            ) from None
        if created:
            lockouts.print_job_started(request)
        job.refresh_from_db()  # an eager run has finished already
        if created and services.never_queued(job):
            # The broker does not answer: 503 with the reason, in the request's language.
            raise QueueUnavailable(_("Ara no es pot començar cap treball: %(error)s")
                                   % {"error": job.error})
        return Response(
            PrintJobSerializer(job_data(job)).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class QueueUnavailable(exceptions.APIException):
    """A new print job whose task could not be sent (the broker does not answer)."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "queue_unavailable"


class PrintJobApi(APIView):
    """A job's status and progress (0..100); a running job whose worker went silent is
    sent again, as the print page does."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PrintJobSerializer)
    def get(self, request: Request, slug: str, job_id: int) -> Response:
        job = _visible_job(request, slug, job_id)
        if job.status == PrintJob.Status.RUNNING and services.is_stalled(job):
            services.print_jobs_requeue_stalled(job_ids=[job.pk])
            job.refresh_from_db()
        return Response(PrintJobSerializer(job_data(job)).data)


class PrintJobDownloadApi(APIView):
    """The finished PDF; 404 until the job is done."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, "the PDF")}
    )
    def get(self, request: Request, slug: str, job_id: int) -> FileResponse:
        job = _visible_job(request, slug, job_id)
        if job.status != PrintJob.Status.DONE or not job.file:
            raise exceptions.NotFound(_("El document encara no està a punt."))
        return FileResponse(
            job.file.open("rb"), as_attachment=True,
            filename=download_name(Kind(job.kind), slug, job.round_number, job.language),
            content_type="application/pdf",
        )


# ----------------------------------------------------------------- a circuit's ranking


def circuit_job_data(job: PrintJob) -> dict[str, Any]:
    assert job.circuit is not None  # a circuit's job
    return {
        "id": job.pk,
        "kind": job.kind,
        "language": job.language,
        "status": job.status,
        "stalled": services.is_stalled(job),
        "restarting": services.is_restarting(job),
        "progress": job.progress,
        "error": job.error,
        "requested_at": job.requested_at,
        "finished_at": job.finished_at,
        "url": reverse("api_circuit_print_job", args=[job.circuit.slug, job.pk]),
        "download": download_url(job) if job.status == PrintJob.Status.DONE else None,
    }


def _circuit(slug: str) -> Circuit:
    circuit = Circuit.objects.filter(slug=slug).first()
    if circuit is None:
        raise exceptions.NotFound(_("No hi ha cap circuit amb l'identificador «%(slug)s».")
                                  % {"slug": slug})
    return circuit


def _circuit_job(slug: str, job_id: int) -> PrintJob:
    return get_object_or_404(PrintJob.objects.select_related("circuit"), pk=job_id,
                             circuit__slug=slug)


class CircuitPrintJobListApi(APIView):
    """POST: ask for the circuit's ranking document in the request's language
    (Accept-Language); 202 with the job that answers it: a new one, the one already
    queued or running, or a done one while the ranking is as it was (no new PDF). A new
    job counts against the address's ``PRINT_JOBS_PER_MINUTE`` (429 past it)."""

    permission_classes = [AllowAny]

    @extend_schema(request=None,
                   responses={202: CircuitPrintJobSerializer, 404: ErrorSerializer,
                              429: ErrorSerializer, 503: ErrorSerializer})
    def post(self, request: Request, slug: str) -> Response:
        job, created = circuit_job_request(request, _circuit(slug))
        if job is None:
            raise exceptions.Throttled(
                wait=60, detail=_("Massa documents demanats des d'aquesta adreça: torneu-ho "
                                  "a provar d'aquí a un minut."))
        if created and services.never_queued(job):
            raise QueueUnavailable(_("Ara no es pot començar cap treball: %(error)s")
                                   % {"error": job.error})
        data = circuit_job_data(job)
        return Response(CircuitPrintJobSerializer(data).data,
                        status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]})


class CircuitPrintJobApi(APIView):
    """The circuit's ranking job: status and progress (0..100); a running job whose
    worker went silent is sent again."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: CircuitPrintJobSerializer, 404: ErrorSerializer})
    def get(self, request: Request, slug: str, job_id: int) -> Response:
        job = _circuit_job(slug, job_id)
        if job.status == PrintJob.Status.RUNNING and services.is_stalled(job):
            services.print_jobs_requeue_stalled(job_ids=[job.pk])
            job.refresh_from_db()
        return Response(CircuitPrintJobSerializer(circuit_job_data(job)).data)


class CircuitPrintJobDownloadApi(APIView):
    """The finished ranking PDF; 404 until the job is done."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, "the PDF")}
    )
    def get(self, request: Request, slug: str, job_id: int) -> FileResponse:
        job = _circuit_job(slug, job_id)
        if job.status != PrintJob.Status.DONE or not job.file:
            raise exceptions.NotFound(_("El document encara no està a punt."))
        return FileResponse(
            job.file.open("rb"), as_attachment=True,
            filename=circuit_download_name(slug, job.language),
            content_type="application/pdf",
        )
