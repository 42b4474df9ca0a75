"""The public sign-up (the form, its answer, the cancel link), the organiser's list of
registrations (settings, actions, CSV) and the check-in on the day.

The contact of a registration (e-mail, phone) shows on the organiser's list and its CSV
only: the public pages and the check-in page (which a ``check_in`` helper opens) render
names. Every write is a service of ``services.signup``.
"""

from __future__ import annotations

import csv
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import lockouts
from tournaments.forms import add_service_error
from tournaments.models import Championship, Pair, Registration
from tournaments.permissions import Capability
from tournaments.selectors import signup as signup_selectors
from tournaments.services import signup as signup_services
from tournaments.web.common import capability_required, page_context

# --------------------------------------------------------------------------- forms


class SignupForm(forms.Form):
    """A pair's sign-up: two names, a contact (e-mail or phone), licences if any."""

    player1 = forms.CharField(label=gettext_lazy("Jugador 1 (nom i cognoms)"),
                              max_length=signup_services.NAME_MAX)
    player2 = forms.CharField(label=gettext_lazy("Jugador 2 (nom i cognoms)"),
                              max_length=signup_services.NAME_MAX)
    email = forms.CharField(label=gettext_lazy("Correu electrònic"), required=False,
                            max_length=254,
                            widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    phone = forms.CharField(label=gettext_lazy("Telèfon"), required=False,
                            max_length=signup_services.PHONE_MAX,
                            widget=forms.TextInput(attrs={"type": "tel",
                                                          "autocomplete": "tel"}))
    licence1 = forms.CharField(label=gettext_lazy("Llicència del jugador 1 (opcional)"),
                               required=False, max_length=signup_services.LICENCE_MAX)
    licence2 = forms.CharField(label=gettext_lazy("Llicència del jugador 2 (opcional)"),
                               required=False, max_length=signup_services.LICENCE_MAX)
    #: A field people do not see (hidden by the stylesheet): a robot fills it in.
    website = forms.CharField(label=gettext_lazy("Deixeu aquest camp en blanc"),
                              required=False,
                              widget=forms.TextInput(attrs={"autocomplete": "off",
                                                            "tabindex": "-1"}))

    def clean_website(self) -> str:
        value: str = self.cleaned_data.get("website", "")
        if value:
            raise forms.ValidationError(_("Aquest camp s'ha de deixar en blanc."))
        return value


class AddForm(SignupForm):
    """The organiser adds a pair by hand: the same fields and a note."""

    note = forms.CharField(label=gettext_lazy("Nota"), required=False,
                           max_length=signup_services.NOTE_MAX)


class SettingsForm(forms.Form):
    """The sign-up's settings."""

    signup_open = forms.BooleanField(label=gettext_lazy("Inscripció pública oberta"),
                                     required=False)
    signup_cap = forms.IntegerField(
        label=gettext_lazy("Places (en blanc: sense límit)"), required=False, min_value=1,
        max_value=signup_services.CAP_MAX)
    check_in = forms.BooleanField(
        label=gettext_lazy("Cal passar llista: la ronda 1 només sorteja les parelles presents"),
        required=False)


def _site_url(request: HttpRequest) -> str:
    """The address the e-mails' links start with: ``SITE_URL``, else this request's."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def _service_data(form: forms.Form) -> dict[str, Any]:
    data = dict(form.cleaned_data)
    data.pop("website", None)
    return data


# --------------------------------------------------------------------------- public


#: The session's list of the cancel links' secrets of the sign-ups it sent (a double
#: tap of the same browser gets its answer page again; another browser does not).
_SESSION_TOKENS = "signup_tokens"


def signup_form(request: HttpRequest, slug: str) -> HttpResponse:
    """The public sign-up form while the organiser keeps it open (else the page says
    why it is closed). Limited per address (``SIGNUPS_PER_HOUR``), CSRF-protected, with
    a field robots fill in; a double tap gives the first registration again."""
    championship = get_object_or_404(Championship, slug=slug)
    refusal = signup_services.signup_refusal(championship)
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and refusal is None:
        if lockouts.signups_exhausted(request):
            form.is_valid()
            form.add_error(None, _("Massa inscripcions des d'aquesta adreça en poca estona: "
                                   "torneu-ho a provar d'aquí a una hora."))
            status = 429
        elif form.is_valid():
            lockouts.signup_sent(request)
            try:
                done = signup_services.signup_submit(
                    championship=championship, language=translation.get_language() or "",
                    site_url=_site_url(request), acting_user=request.user,
                    **_service_data(form))
            except ValueError as exc:  # every service refusal is a ValueError
                add_service_error(form, exc)
            else:
                token = done.registration.cancel_token
                mine = request.session.get(_SESSION_TOKENS, [])
                if done.created:
                    request.session[_SESSION_TOKENS] = [*mine, token][-20:]
                elif token not in mine:
                    # The same names and contact again from another browser: not a
                    # double tap of this one. Its answer page holds the cancel link,
                    # which is for whoever signed up, so it is not shown here.
                    form.add_error(None, _("Aquesta parella ja s'ha inscrit fa un moment. "
                                           "L'enllaç per cancel·lar la inscripció és al "
                                           "correu de la inscripció."))
                    return render(request, "tournaments/signup/form.html", page_context(
                        request, championship, form=form, closed="",
                        places=signup_selectors.signup_places(championship)))
                return redirect("signup_done", championship.slug, token)
    return render(request, "tournaments/signup/form.html", page_context(
        request, championship, form=form, closed=str(refusal) if refusal else "",
        places=signup_selectors.signup_places(championship)), status=status)


def _by_token(championship: Championship, token: str) -> Registration:
    registration = Registration.objects.filter(championship=championship,
                                               cancel_token=token).first()
    if registration is None:
        raise Http404(_("Aquest enllaç d'inscripció no existeix."))
    return registration


def signup_done(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The answer to a sign-up: a place held, or the place in the waiting list; the
    cancel link (the same the e-mail carries)."""
    championship = get_object_or_404(Championship, slug=slug)
    registration = _by_token(championship, token)
    return render(request, "tournaments/signup/done.html", page_context(
        request, championship, registration=registration,
        place=signup_selectors.waiting_place(registration)))


def signup_cancel(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The e-mail's cancel link: a confirmation, then the cancellation (no login: the
    link's secret is the credential)."""
    championship = get_object_or_404(Championship, slug=slug)
    registration = _by_token(championship, token)
    error = ""
    if request.method == "POST" and registration.status != Registration.Status.CANCELLED:
        try:
            signup_services.signup_cancel(registration=registration, by_link=True,
                                          site_url=_site_url(request))
        except ValueError as exc:  # every service refusal is a ValueError
            error = str(exc)
        else:
            registration.refresh_from_db()
    return render(request, "tournaments/signup/cancel.html", page_context(
        request, championship, registration=registration, error=error))


# --------------------------------------------------------------------------- organiser

#: The list's actions on one registration (``action`` of the POST).
_ACTIONS = ("confirm", "paid", "unpaid", "up", "down", "move", "cancel")


@capability_required(Capability.MANAGE_SIGNUP)
def signup_list(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The organiser's list: settings, counts, every registration with its contact and
    actions, a pair added by hand, the pairs made of the list; ``?format=csv`` gives the
    list as a spreadsheet."""
    if request.GET.get("format") == "csv":
        return _csv(championship)
    settings_form = SettingsForm(initial={
        "signup_open": championship.signup_open, "signup_cap": championship.signup_cap,
        "check_in": championship.check_in})
    add_form = AddForm(prefix="add")
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "settings":
            settings_form = SettingsForm(request.POST)
            if settings_form.is_valid():
                try:
                    signup_services.signup_settings_set(
                        championship=championship, site_url=_site_url(request),
                        acting_user=request.user, **settings_form.cleaned_data)
                except ValueError as exc:  # every service refusal is a ValueError
                    add_service_error(settings_form, exc)
                else:
                    messages.success(request, _("Inscripció desada."))
                    return redirect("signup_list", championship.slug)
        elif action == "add":
            add_form = AddForm(request.POST, prefix="add")
            if add_form.is_valid():
                try:
                    done = signup_services.signup_add(
                        championship=championship, site_url=_site_url(request),
                        language=translation.get_language() or "", acting_user=request.user,
                        **_service_data(add_form))
                except ValueError as exc:  # every service refusal is a ValueError
                    add_service_error(add_form, exc)
                else:
                    if done.place is None:
                        messages.success(request, _("Afegida: %(pair)s.") % {
                            "pair": str(done.registration)})
                    else:  # over the cap: said, or "make the pairs" surprises later
                        messages.warning(request, _(
                            "Afegida a la llista d'espera (lloc %(place)s): %(pair)s. "
                            "Confirmeu-la si ha de tenir plaça.") % {
                            "pair": str(done.registration), "place": done.place})
                    return redirect("signup_list", championship.slug)
        elif action == "make_pairs":
            try:
                made = signup_services.pairs_from_signup(championship=championship,
                                                         acting_user=request.user)
            except ValueError as exc:  # every service refusal is a ValueError
                messages.error(request, str(exc))
            else:
                messages.success(request, ngettext(
                    "%(n)s parella feta de les inscripcions.",
                    "%(n)s parelles fetes de les inscripcions.", len(made)) % {"n": len(made)}
                    if made else _("Totes les inscripcions ja tenen parella."))
            return redirect("signup_list", championship.slug)
        elif action in _ACTIONS:
            _act(request, championship, action)
            return redirect("signup_list", championship.slug)
    rows = signup_selectors.registrations(championship)
    return render(request, "tournaments/signup/list.html", page_context(
        request, championship, settings_form=settings_form, add_form=add_form, rows=rows,
        counts=signup_selectors.signup_counts(championship),
        refusal=signup_services.signup_refusal(championship),
        active=sum(1 for r in rows if r.status != Registration.Status.CANCELLED),
        to_make=sum(1 for r in rows if r.status in signup_selectors.HOLDING
                    and r.pair_id is None)))


def _act(request: HttpRequest, championship: Championship, action: str) -> None:
    """One action of the list on the registration posted (``registration``: its id)."""
    raw = request.POST.get("registration", "")
    registration = Registration.objects.filter(
        championship=championship, pk=int(raw) if raw.isascii() and raw.isdigit() else 0,
    ).first()
    if registration is None:
        messages.error(request, _("Aquesta inscripció no existeix."))
        return
    user = request.user
    try:
        if action == "confirm":
            signup_services.signup_confirm(registration=registration, acting_user=user)
        elif action in ("paid", "unpaid"):
            signup_services.signup_paid(registration=registration, paid=action == "paid",
                                        acting_user=user)
        elif action == "cancel":
            signup_services.signup_cancel(registration=registration, acting_user=user,
                                          site_url=_site_url(request))
        else:
            rows = [r.pk for r in signup_selectors.registrations(championship,
                                                                 cancelled=False)]
            here = rows.index(registration.pk) + 1 if registration.pk in rows else 1
            typed = request.POST.get("position", "").strip()
            if action == "move" and not (typed.isascii() and typed.isdigit()):
                messages.error(request, _("La posició ha de ser un número a partir de 1."))
                return
            position = {"up": max(here - 1, 1), "down": here + 1}.get(action) or int(typed)
            signup_services.signup_move(registration=registration, position=position,
                                        acting_user=user)
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Fet: %(pair)s.") % {"pair": str(registration)})


def _csv(championship: Championship) -> HttpResponse:
    """The list as CSV (``;``, UTF-8 with a byte-order mark, as a spreadsheet opens it)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{championship.slug}-inscripcions.csv"')
    response.write("\ufeff")
    writer = csv.writer(response, delimiter=";")
    writer.writerow([_("Posició"), _("Estat"), _("Pagada"), _("Jugador 1"), _("Llicència 1"),
                     _("Jugador 2"), _("Llicència 2"), _("Correu electrònic"), _("Telèfon"),
                     _("Idioma"), _("Parella"), _("Nota"), _("Inscrita el")])
    for r in signup_selectors.registrations(championship):
        writer.writerow([
            r.position, r.get_status_display(), _("sí") if r.paid else _("no"),
            r.player1_name, r.player1_licence, r.player2_name, r.player2_licence, r.email,
            r.phone, r.language, r.pair.number if r.pair else "", r.note,
            r.created_at.isoformat(timespec="minutes"),
        ])
    return response


# --------------------------------------------------------------------------- check-in


@capability_required(Capability.CHECK_IN)
def check_in(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The check-in on the day: a search box, one big button per pair (present / undo),
    the count present of expected. htmx posts a tap and polls the list every few
    seconds (two helpers at two doors see each other's taps); without scripts the
    forms post and the page reloads. A second tap on a pair already ticked changes
    nothing."""
    find = (request.POST.get("find") or request.GET.get("find") or "").strip()[:100]
    htmx = bool(request.headers.get("HX-Request"))
    error = ""
    if request.method == "POST":
        raw = request.POST.get("pair", "")
        pair = Pair.objects.filter(
            championship=championship,
            number=int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 0,
        ).first()
        if pair is None:
            error = _("Aquesta parella no existeix.")
        else:
            try:
                signup_services.pair_check_in(
                    pair=pair, present=request.POST.get("present") == "1",
                    acting_user=request.user)
            except ValueError as exc:  # every service refusal is a ValueError
                error = str(exc)
        if not htmx:
            if error:
                messages.error(request, error)
            return redirect(request.path + (f"?{urlencode({'find': find})}" if find else ""))
    view = signup_selectors.check_in(championship, find=find)
    context = page_context(request, championship, view=view, find=find, error=error)
    if htmx:
        return render(request, "tournaments/signup/_check_in_list.html", context)
    return render(request, "tournaments/signup/check_in.html", context)
