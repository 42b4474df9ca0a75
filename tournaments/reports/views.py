"""Print-job pages: ask for a document, watch its progress bar, download it.

Thin views: a Django form parses the request, ``reports.services`` queues or reuses the
job, the list shows every job with a ``<progress>`` bar that a small script refreshes
from the JSON status view (the page also reloads itself without JavaScript while a job
is active). Files are served through :func:`download`, never straight from MEDIA_URL,
because board sheets and entry forms reveal the deals.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournaments import lockouts
from tournaments.models import Championship, PrintJob
from tournaments.permissions import Capability, allows, roles_of
from tournaments.reports import services
from tournaments.reports.documents import Kind, download_name

ROUND_HELP = _(
    "Fulls de mans i actes de taula: la ronda que cal imprimir (obligatòria, 1 o més). "
    "Classificació i fulls de puntuació: fins a aquesta ronda; fulls de recorregut: els "
    "taulers d'aquesta ronda; per a aquests tres, 0 = totes les rondes."
)
PUBLIC_ROUND_HELP = _(
    "Classificació i fulls de puntuació: fins a aquesta ronda; fulls de recorregut: els "
    "taulers d'aquesta ronda; 0 = totes les rondes."
)
GUIDE_ROUND_HELP = _(
    "Cartells de taula i de parella: la distribució d'aquesta ronda; 0 = totes les "
    "rondes sortejades."
)


#: Said to whoever asks for a document they may not print (``services.can_print``),
#: instead of the generic "not one of the available choices".
NOT_YOURS = _(
    "Els fulls de mans i les actes de taula mostren les cartes: només els poden imprimir "
    "l'organització i l'àrbitre principal del campionat."
)


class KindField(forms.ChoiceField):
    """The document kind: a kind that exists but that this person may not print is
    refused saying who may print it."""

    allowed: list[str] | None = None

    def validate(self, value: Any) -> None:
        known = {c[0] for c in PrintJob.Kind.choices}
        if self.allowed is not None and value in known and value not in self.allowed:
            raise forms.ValidationError(NOT_YOURS, code="not_allowed")
        super().validate(value)


class PrintRequestForm(forms.Form):
    """The print request. ``defaults`` (``services.request_defaults``) fill the round
    (the latest drawn) and the copies (its tables), so that pressing the button at once
    prints the board sheets of the round about to be played, one per table. Copies and
    boards per page are only offered to whoever may print board sheets; everyone else
    starts from round 0, every round of the public documents."""

    kind = KindField(label=_("Document"), choices=PrintJob.Kind.choices)
    round_number = forms.IntegerField(
        label=_("Ronda"), min_value=0, initial=1, required=False,
        help_text=format_lazy("{} {}", ROUND_HELP, GUIDE_ROUND_HELP),
    )
    copies = forms.IntegerField(
        label=_("Còpies (una per taula)"), min_value=1, max_value=500, initial=1,
        help_text=_("Només per als fulls de mans."),
    )
    per_page = forms.TypedChoiceField(
        label=_("Taulers per pàgina"), choices=[(1, "1"), (4, "4")], coerce=int, initial=1,
        help_text=_("Només per als fulls de mans."),
    )

    def __init__(
        self,
        *args: object,
        kinds: list[str],
        defaults: services.RequestDefaults | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # Form's own arguments
        field = self.fields["kind"]
        field.choices = [c for c in PrintJob.Kind.choices if c[0] in kinds]  # type: ignore[attr-defined]  # a ChoiceField
        field.allowed = list(kinds)  # type: ignore[attr-defined]  # read by its template
        if defaults is not None:
            self.fields["round_number"].initial = defaults.round_number
            self.fields["copies"].initial = defaults.copies
        if Kind.BOARD_SHEETS.value not in kinds:
            del self.fields["copies"]
            del self.fields["per_page"]
            self.fields["round_number"].initial = 0
            self.fields["round_number"].help_text = format_lazy(
                "{} {}", PUBLIC_ROUND_HELP, GUIDE_ROUND_HELP
            )


def _allowed_kinds(user: object, championship: Championship) -> list[str]:
    return [k.value for k in Kind if services.can_print(user, championship, k)]


STALLED = _("El treballador no respon")


def _job_json(
    request: HttpRequest, job: PrintJob, current_state: str | None = None
) -> dict[str, object]:
    stalled = services.is_stalled(job)
    if current_state is None:
        current_state = services.results_state(job.championship)
    return {
        "id": job.pk,
        "status": job.status,
        "stalled": stalled,
        "status_display": str(STALLED if stalled else job.get_status_display()),
        "progress": job.progress,
        "error": job.error,
        "download": (
            reverse("print_job_download", args=[job.championship.slug, job.pk])
            if job.status == PrintJob.Status.DONE else None
        ),
        # Built before the latest change that affects it (results version).
        "out_of_date": services.is_out_of_date(job, current_state),
        "results_version": job.results_state or None,
    }


class _OverLimit(Exception):
    """A new job past the address's limit: its transaction is rolled back."""


@require_http_methods(["GET", "POST"])
def jobs(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form and the latest jobs. POST: queue (or reuse) a job, back to the list."""
    championship = get_object_or_404(Championship, slug=slug)
    kinds = _allowed_kinds(request.user, championship)
    form = PrintRequestForm(request.POST or None, kinds=kinds,
                            defaults=services.request_defaults(championship))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                job, created = services.print_job_request(
                    championship=championship,
                    kind=data["kind"],
                    round_number=data["round_number"] or 0,
                    copies=data.get("copies") or 1,
                    per_page=data.get("per_page") or 1,
                    acting_user=request.user,
                    # A document is in one language: the interface's of this request.
                    language=translation.get_language(),
                )
                # As in the API: a reused job costs nothing; a new one past the address's
                # limit per minute is undone (its task is only sent on commit).
                if created and lockouts.print_jobs_exhausted(request, championship):
                    raise _OverLimit
        except services.PrintNotAllowed as exc:
            raise PermissionDenied(str(exc)) from None
        except services.PrintJobError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        except _OverLimit:
            form.add_error(None, _("Massa documents demanats des d'aquesta adreça: torneu-ho "
                                   "a provar d'aquí a un minut."))
        else:
            if created:
                lockouts.print_job_started(request)
            job.refresh_from_db()  # the task was sent on commit: it may have failed at once
            if created and job.status == PrintJob.Status.FAILED:
                messages.error(request, _("Ara no es pot començar cap treball: %(error)s")
                               % {"error": job.error})
            elif created:
                messages.success(request, _("Document demanat."))
            elif job.status == PrintJob.Status.DONE:
                messages.info(request, _("Aquest document ja està fet amb els resultats "
                                         "d'ara: el podeu descarregar."))
            else:
                messages.info(request, _("Ja s'està fent el mateix document: el reaprofitem."))
            return redirect("print_jobs", slug=championship.slug)
    roles = roles_of(request.user, championship)
    job_list = services.jobs_for(championship, request.user)
    if any(job.status == PrintJob.Status.RUNNING and services.is_stalled(job)
           for job in job_list):
        # Their worker died: send them again now rather than when Redis would.
        services.print_jobs_requeue_stalled(championship_id=championship.pk)
        job_list = services.jobs_for(championship, request.user)
    current_state = services.results_state(championship)
    for job in job_list:
        job.stalled = services.is_stalled(job)  # type: ignore[attr-defined]  # for the template
        job.out_of_date = services.is_out_of_date(job, current_state)  # type: ignore[attr-defined]  # as above
    return render(
        request,
        "reports/jobs.html",
        {
            "championship": championship,
            "can_referee": allows(roles, Capability.ENTER_RESULT),
            "form": form,
            "jobs": job_list,
            "any_active": any(job.is_active for job in job_list),
            "show_requesters": services.sees_everything(request.user, championship),
            "can_manage": allows(roles, Capability.MANAGE_PRINT_JOBS),
        },
    )


@require_http_methods(["POST"])
def job_retry(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The organiser runs a stalled or failed job again (``services.print_job_retry``)."""
    return _manage(request, slug, job_id, services.print_job_retry,
                   _("S'ha tornat a posar el document a la cua."))


@require_http_methods(["POST"])
def job_cancel(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The organiser cancels a queued or running job (``services.print_job_cancel``)."""
    return _manage(request, slug, job_id, services.print_job_cancel,
                   _("S'ha cancel·lat el document."))


def _manage(request: HttpRequest, slug: str, job_id: int, action: Any, done: Any
            ) -> HttpResponse:
    job = get_object_or_404(PrintJob, pk=job_id, championship__slug=slug)
    try:
        action(job_id=job.pk, acting_user=request.user)
    except services.PrintNotAllowed as exc:
        raise PermissionDenied(str(exc)) from None
    except services.PrintJobError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("print_jobs", slug=slug)


def job_status(request: HttpRequest, slug: str, job_id: int) -> JsonResponse:
    """``{"id", "status", "status_display", "progress", "error", "download",
    "out_of_date", "results_version"}``: ``out_of_date`` is true for a done standings,
    travellers or score-cards document built before the latest change that affects it."""
    job = _visible_job(request, slug, job_id)
    if job.status == PrintJob.Status.RUNNING and services.is_stalled(job):
        # Its worker died: send it again now (the poll of a waiting page notices first).
        services.print_jobs_requeue_stalled(job_ids=[job.pk])
        job.refresh_from_db()
    return JsonResponse(_job_json(request, job))


def download(request: HttpRequest, slug: str, job_id: int) -> FileResponse:
    """The finished PDF as an attachment named in the document's language
    (``documents.download_name``: ``classificacio-SLUG.pdf``...); 404 until it is done."""
    job = _visible_job(request, slug, job_id)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("El document encara no està a punt."))
    return FileResponse(
        job.file.open("rb"),
        as_attachment=True,
        filename=download_name(Kind(job.kind), job.championship.slug, job.round_number,
                               job.language),
        content_type="application/pdf",
    )


def _visible_job(request: HttpRequest, slug: str, job_id: int) -> PrintJob:
    job = get_object_or_404(
        PrintJob.objects.select_related("championship"), pk=job_id, championship__slug=slug
    )
    if not services.can_print(request.user, job.championship, Kind(job.kind)):
        raise PermissionDenied(
            _("Només l'organitzador i l'àrbitre principal poden veure aquest document.")
        )
    return job
