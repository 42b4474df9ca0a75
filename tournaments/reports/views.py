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
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournaments import lockouts
from tournaments.models import Championship, Circuit, PrintJob
from tournaments.permissions import Capability, allows, roles_of
from tournaments.reports import build_stages, services
from tournaments.reports.build_circuit import circuit_download_name
from tournaments.reports.documents import Kind, download_name
from tournaments.web.common import post_only

#: What the round field asks, per kind: only what that document needs.
ROUND_LABELS = {
    Kind.BOARD_SHEETS: _("Ronda"),
    Kind.ENTRY_FORMS: _("Ronda"),
    Kind.TABLE_CARDS: _("Ronda"),
    Kind.ROUND_PACK: _("Ronda"),
    Kind.STANDINGS: _("Després de la ronda"),
    Kind.SCORE_CARDS: _("Després de la ronda"),
    Kind.TRAVELLERS: _("Taulers de la ronda"),
    Kind.GUIDE_CARDS: _("Ronda"),
    Kind.PAIRINGS: _("Ronda"),
    Kind.SCORE_SHEETS: _("Ronda"),
    Kind.GROUP_TABLES: _("Ronda"),
    Kind.BRACKET: _("Ronda"),
    Kind.KNOCKOUT_CARDS: _("Ronda"),
}
#: The kinds that print the stage as it stands, whatever the round: no round asked.
NO_ROUND = frozenset({Kind.GROUP_TABLES, Kind.BRACKET})
#: Said under the round field of the kinds where it may be left at 0.
ALL_ROUNDS = _("0 = totes les rondes.")
#: What each kind prints, in one line.
DESCRIPTIONS = {
    Kind.ROUND_PACK: _("Tot el que necessita una ronda: fulls de mans (una còpia per "
                       "taula), actes de taula i rètols de taula."),
    Kind.BOARD_SHEETS: _("Les quatre mans de cada tauler, per preparar els repartiments."),
    Kind.ENTRY_FORMS: _("Una acta per taula per anotar-hi els resultats a mà."),
    Kind.TABLE_CARDS: _("Un rètol gran per taula: quines parelles hi seuen i quins "
                        "taulers s'hi juguen."),
    Kind.STANDINGS: _("La classificació, general i després de cada ronda."),
    Kind.TRAVELLERS: _("Tots els resultats de cada tauler, amb el repartiment."),
    Kind.SCORE_CARDS: _("Els taulers de cada parella amb els punts i el total acumulat."),
    Kind.GUIDE_CARDS: _("On va cada parella a cada ronda: per taula i per parella."),
}
#: What each kind prints for a classic championship, where it differs.
CLASSIC_DESCRIPTIONS = {
    Kind.ROUND_PACK: _("Tot el que necessita una ronda: els aparellaments, els rètols de "
                       "taula i un full d'anotació per taula."),
    Kind.PAIRINGS: _("Les taules de la ronda amb les dues parelles, en lletra gran, per "
                     "penjar a la paret; i qui descansa."),
    Kind.TABLE_CARDS: _("Un rètol gran per taula: quines parelles hi seuen i les regles "
                        "de la partida."),
    Kind.SCORE_SHEETS: _("Un full per taula per anotar la partida mà a mà, amb les regles "
                         "i les signatures."),
    Kind.STANDINGS: _("La classificació per partides guanyades, general i després de "
                      "cada ronda."),
    Kind.SCORE_CARDS: _("Les partides de cada parella: rival, punts, resultat, victòries "
                        "acumulades i posició després de cada ronda."),
    Kind.GROUP_TABLES: _("Cada grup amb les seves parelles, la classificació, qui passa i "
                         "les partides de cada ronda, per penjar a la paret."),
    Kind.BRACKET: _("El quadre de les eliminatòries en una pàgina apaïsada: cada "
                    "partida amb el resultat i el campió."),
    Kind.KNOCKOUT_CARDS: _("Una fitxa per partida de les eliminatòries de la ronda: "
                           "taula, parelles, punts, guanyador i signatures."),
}


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
        known = {k.value for k in Kind}  # a championship's kinds
        if self.allowed is not None and value in known and value not in self.allowed:
            raise forms.ValidationError(NOT_YOURS, code="not_allowed")
        super().validate(value)


class PrintRequestForm(forms.Form):
    """The request for one kind of document, asking only what that kind needs: the round
    where it takes one (labelled for what it means to that kind), and for board sheets
    and the round pack the copies (blank: one per table of the round) and boards per
    page. ``kind``: the document this form asks for, the posted one when bound (a
    hidden field on the page); ``defaults`` (``services.request_defaults``) propose the
    latest drawn round for the kinds of one round."""

    kind = KindField(label=_("Document"), choices=PrintJob.Kind.choices,
                     widget=forms.HiddenInput)
    round_number = forms.IntegerField(label=_("Ronda"), min_value=0, initial=0,
                                      required=False)
    copies = forms.IntegerField(
        label=_("Còpies de cada tauler"), min_value=1, max_value=500, required=False,
        help_text=_("En blanc: una per taula de la ronda."),
    )
    per_page = forms.TypedChoiceField(
        label=_("Taulers per pàgina"), choices=[(1, "1"), (4, "4")], coerce=int, initial=1,
        required=False,
    )

    def __init__(
        self,
        *args: object,
        kinds: list[str],
        kind: Kind | None = None,
        defaults: services.RequestDefaults | None = None,
        classic: bool = False,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]  # Form's own arguments
        field = self.fields["kind"]
        field.choices = [c for c in PrintJob.Kind.choices if c[0] in kinds]  # type: ignore[attr-defined]  # a ChoiceField
        field.allowed = list(kinds)  # type: ignore[attr-defined]  # read by its template
        if kind is None:
            kind = self.posted_kind(kinds)
        self.asked = kind
        descriptions = {**DESCRIPTIONS, **CLASSIC_DESCRIPTIONS} if classic else DESCRIPTIONS
        self.description = descriptions.get(kind, "") if kind else ""
        if kind is None:
            return
        self.fields["kind"].initial = kind.value
        self.auto_id = f"id_{kind.value}_%s"  # one form per kind on the page: ids apart
        round_field = self.fields["round_number"]
        round_field.label = ROUND_LABELS[kind]
        if kind in NO_ROUND:
            round_field.widget = forms.HiddenInput()
            round_field.initial = 0
        elif kind.needs_round:
            # 0 is refused by the request itself, saying a round is needed.
            round_field.widget.attrs["min"] = 1
            round_field.initial = defaults.round_number if defaults else 1
        else:
            round_field.help_text = ALL_ROUNDS
        if not kind.takes_copies or classic:  # a classic round pack has no board sheets
            del self.fields["copies"]
            del self.fields["per_page"]

    def posted_kind(self, kinds: list[str]) -> Kind | None:
        """The kind this bound form asks for, when it is one the person may print."""
        value = self.data.get("kind") if self.is_bound else None
        if value in kinds:
            return Kind(value)
        return None


#: The order of the documents on the prints page: the round's first.
PAGE_ORDER = (Kind.ROUND_PACK, Kind.BOARD_SHEETS, Kind.ENTRY_FORMS, Kind.TABLE_CARDS,
              Kind.STANDINGS, Kind.TRAVELLERS, Kind.SCORE_CARDS, Kind.GUIDE_CARDS)
#: A classic championship's: its documents, then those it does not print, each with the
#: reason (``build.format_refusal``).
CLASSIC_PAGE_ORDER = (Kind.ROUND_PACK, Kind.PAIRINGS, Kind.TABLE_CARDS, Kind.SCORE_SHEETS,
                      Kind.STANDINGS, Kind.SCORE_CARDS, Kind.GROUP_TABLES, Kind.BRACKET,
                      Kind.KNOCKOUT_CARDS, Kind.BOARD_SHEETS,
                      Kind.ENTRY_FORMS, Kind.TRAVELLERS, Kind.GUIDE_CARDS)


def _documents(championship: Championship, kinds: list[str],
               defaults: services.RequestDefaults, posted: PrintRequestForm
               ) -> list[tuple[Kind, str | None, PrintRequestForm]]:
    """``(kind, why it cannot be made yet or None, its form)`` of every kind this person
    may print, in :data:`PAGE_ORDER`; the posted kind keeps its bound form (its errors)."""
    states = services.round_states(championship)
    classic = championship.is_classic
    out = []
    for kind in CLASSIC_PAGE_ORDER if classic else PAGE_ORDER:
        # A stage's documents only for a championship with that stage.
        if kind.value not in kinds or not build_stages.has_stage(championship, kind):
            continue
        form = posted if posted.asked is kind else PrintRequestForm(
            kinds=kinds, kind=kind, defaults=defaults, classic=classic)
        reason = (services.not_ready(kind, states, classic=classic)
                  or build_stages.stage_refusal(kind, championship))
        out.append((kind, reason, form))
    return out


def _allowed_kinds(user: object, championship: Championship) -> list[str]:
    return [k.value for k in Kind if services.can_print(user, championship, k)]


STALLED = _("El treballador no respon")
RESTARTING = _("Aturat, es reprèn")


def status_display(job: PrintJob) -> str:
    """What the page says of a job: "Aturat, es reprèn" between a worker's death and the
    next run (``services.is_restarting``), "El treballador no respon" when no worker took
    it again, else its status."""
    if services.is_restarting(job):
        return str(RESTARTING)
    if services.is_stalled(job):
        return str(STALLED)
    return str(job.get_status_display())


def _job_json(
    request: HttpRequest, job: PrintJob, current_state: str | None = None
) -> dict[str, object]:
    stalled = services.is_stalled(job)
    if job.circuit is not None:
        if current_state is None:
            current_state = services.circuit_results_state(job.circuit)
        download_url = reverse("circuit_print_download", args=[job.circuit.slug, job.pk])
    else:
        assert job.championship is not None  # the check constraint: one of the two
        if current_state is None:
            current_state = services.results_state(job.championship)
        download_url = reverse("print_job_download", args=[job.championship.slug, job.pk])
    return {
        "id": job.pk,
        "status": job.status,
        "stalled": stalled,
        "status_display": status_display(job),
        "progress": job.progress,
        "error": job.error,
        "download": download_url if job.status == PrintJob.Status.DONE else None,
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
    defaults = services.request_defaults(championship)
    form = PrintRequestForm(request.POST or None, kinds=kinds, defaults=defaults,
                            classic=championship.is_classic)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                job, created = services.print_job_request(
                    championship=championship,
                    kind=data["kind"],
                    round_number=data["round_number"] or 0,
                    # Blank: one per table of the round.
                    copies=data.get("copies") or None,
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
            form.add_error(exc.field if exc.field in form.fields and exc.field != "kind"
                           else None, str(exc))
        except _OverLimit:
            form.add_error(None, _("Massa documents demanats des d'aquesta adreça: torneu-ho "
                                   "a provar d'aquí a un minut."))
        else:
            if created:
                lockouts.print_job_started(request)
            job.refresh_from_db()  # the task was sent on commit: it may have failed at once
            if created and services.never_queued(job):
                # The broker does not answer: say why on this page, with 503 (not a 500,
                # not a redirect that would read as success).
                form.add_error(None, _("Ara no es pot començar cap treball: %(error)s")
                               % {"error": job.error})
                status = 503
            elif created and job.status == PrintJob.Status.FAILED:
                messages.error(request, _("Ara no es pot començar cap treball: %(error)s")
                               % {"error": job.error})
            elif created:
                messages.success(request, _("Document demanat."))
            elif job.status == PrintJob.Status.DONE:
                messages.info(request, _("Aquest document ja està fet amb els resultats "
                                         "d'ara: el podeu descarregar."))
            else:
                messages.info(request, _("Ja s'està fent el mateix document: el reaprofitem."))
            if status != 503:
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
        job.status_display = status_display(job)  # type: ignore[attr-defined]  # as above
        job.out_of_date = services.is_out_of_date(job, current_state)  # type: ignore[attr-defined]  # as above
    return render(
        request,
        "reports/jobs.html",
        {
            "championship": championship,
            "can_referee": allows(roles, Capability.ENTER_RESULT),
            "form": form,
            "documents": _documents(championship, kinds, defaults, form),
            "jobs": job_list,
            "any_active": any(job.is_active for job in job_list),
            "show_requesters": services.sees_everything(request.user, championship),
            "can_manage": allows(roles, Capability.MANAGE_PRINT_JOBS),
        },
        status=status,
    )


@post_only("print_jobs")
def job_retry(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The organiser runs a stalled or failed job again (``services.print_job_retry``)."""
    return _manage(request, slug, job_id, services.print_job_retry,
                   _("S'ha tornat a posar el document a la cua."))


@post_only("print_jobs")
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
        filename=download_name(Kind(job.kind), slug, job.round_number, job.language),
        content_type="application/pdf",
    )


def _visible_job(request: HttpRequest, slug: str, job_id: int) -> PrintJob:
    job = get_object_or_404(
        PrintJob.objects.select_related("championship"), pk=job_id, championship__slug=slug
    )
    championship = job.championship
    assert championship is not None  # found by its championship's slug
    if not services.can_print(request.user, championship, Kind(job.kind)):
        raise PermissionDenied(
            _("Només l'organitzador i l'àrbitre principal poden veure aquest document.")
        )
    return job


# ----------------------------------------------------------------- a circuit's ranking


#: Said when an address asked for too many documents this minute.
OVER_LIMIT = _("Massa documents demanats des d'aquesta adreça: torneu-ho a provar d'aquí "
               "a un minut.")


def circuit_job_request(request: HttpRequest, circuit: Circuit
                        ) -> tuple[PrintJob | None, bool]:
    """Ask for the circuit's ranking document in the interface's language
    (``services.circuit_print_job_request``): ``(job, created)``, or ``(None, False)``
    when a new job would pass the address's limit per minute (nothing is written)."""
    try:
        with transaction.atomic():
            job, created = services.circuit_print_job_request(
                circuit=circuit, language=translation.get_language(),
                requested_by=request.user)
            if created and lockouts.print_jobs_exhausted(request, None):
                raise _OverLimit
    except _OverLimit:
        return None, False
    if created:
        lockouts.print_job_started(request)
    job.refresh_from_db()  # the task was sent on commit: an eager run has ended
    return job, created


@require_http_methods(["POST"])
def circuit_print_request(request: HttpRequest, slug: str) -> HttpResponse:
    """POST: queue (or reuse) the circuit's ranking document, then its job's page."""
    circuit = get_object_or_404(Circuit, slug=slug)
    job, created = circuit_job_request(request, circuit)
    if job is None:
        messages.error(request, OVER_LIMIT)
        return redirect("circuit", slug=circuit.slug)
    if created and services.never_queued(job):
        messages.error(request, _("Ara no es pot començar cap treball: %(error)s")
                       % {"error": job.error})
        return redirect("circuit", slug=circuit.slug)
    return redirect("circuit_print_job", slug=circuit.slug, job_id=job.pk)


def _circuit_job(slug: str, job_id: int) -> PrintJob:
    return get_object_or_404(PrintJob.objects.select_related("circuit"), pk=job_id,
                             circuit__slug=slug)


def circuit_print_job(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The ranking document's job: its progress (refreshed by ``jobs.js``, or by the
    page itself without JavaScript), then its download; a failed or out-of-date one
    offers to ask again."""
    job = _circuit_job(slug, job_id)
    if job.status == PrintJob.Status.RUNNING and services.is_stalled(job):
        services.print_jobs_requeue_stalled(job_ids=[job.pk])
        job.refresh_from_db()
    circuit = job.circuit
    assert circuit is not None  # found by its circuit's slug
    job.status_display = status_display(job)  # type: ignore[attr-defined]  # for the template
    job.out_of_date = services.is_out_of_date(  # type: ignore[attr-defined]  # as above
        job, services.circuit_results_state(circuit))
    return render(request, "reports/circuit_job.html", {"circuit": circuit, "job": job})


def circuit_print_status(request: HttpRequest, slug: str, job_id: int) -> JsonResponse:
    """The job's status as :func:`job_status` answers it for a championship's."""
    job = _circuit_job(slug, job_id)
    if job.status == PrintJob.Status.RUNNING and services.is_stalled(job):
        services.print_jobs_requeue_stalled(job_ids=[job.pk])
        job.refresh_from_db()
    return JsonResponse(_job_json(request, job))


def circuit_print_download(request: HttpRequest, slug: str, job_id: int) -> FileResponse:
    """The finished ranking as an attachment named in its language; 404 until done."""
    return circuit_job_file(_circuit_job(slug, job_id))


def circuit_job_file(job: PrintJob) -> FileResponse:
    """The done ranking document's file (``ranquing-del-circuit-SLUG.pdf``)."""
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404(_("El document encara no està a punt."))
    return FileResponse(
        job.file.open("rb"), as_attachment=True,
        filename=circuit_download_name(job.owner_slug, job.language),
        content_type="application/pdf",
    )


def circuit_pdf(request: HttpRequest, slug: str) -> HttpResponse | FileResponse:
    """The old address of the ranking's PDF (``/circuits/<slug>/pdf/``): the done file
    when one is current in the interface's language, else the job is asked for (as the
    page's button does, within the same limit) and this leads to its page."""
    circuit = get_object_or_404(Circuit, slug=slug)
    current = services.current_circuit_job(circuit, translation.get_language())
    if current is not None and current.file:
        return circuit_job_file(current)
    job, _created = circuit_job_request(request, circuit)
    if job is None:
        messages.error(request, OVER_LIMIT)
        return redirect("circuit", slug=circuit.slug)
    if job.status == PrintJob.Status.DONE and job.file:
        return circuit_job_file(job)
    return redirect("circuit_print_job", slug=circuit.slug, job_id=job.pk)
