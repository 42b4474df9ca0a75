"""Persons across championships: the organiser's page linking a championship's players
to persons, the persons' list and merge form (their managers), a person's public page
and the actions on it (edit, export, delete, anonymise, un-merge).

Views are thin: each parses its input, calls one service of
``tournaments.services.persons`` or a read of ``tournaments.selectors.persons`` and
renders; a refusal shows as a message or next to its field.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import services
from tournaments.forms import ConfirmForm, add_service_error
from tournaments.models import Championship, Person
from tournaments.permissions import Capability
from tournaments.selectors import persons as reads
from tournaments.selectors.circuits import person_circuit_lines
from tournaments.web.common import capability_required, id_value, page_context

#: A row's choice that registers a new person from the player.
NEW = "new"


# --------------------------------------------------------------------------- linking


@capability_required(Capability.REGISTER_PAIRS)
def championship_persons(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Every player of the championship not linked to a person, each with the persons
    proposed (same licence, then same name, accents and case aside), a search and
    "new person". One form: a row's own button links that row, "Enllaçar-ho tot" every
    row with a choice. A row starts on its proposal, or on "new person" when nobody
    matches, so one button links a whole championship."""
    rows = reads.unlinked_players(championship)
    searched: dict[int, list[Person]] = {}
    chosen: dict[int, str] = {}
    if request.method == "POST":
        chosen = {r.player_id: request.POST.get(f"p{r.player_id}", "") for r in rows}
        search_for = request.POST.get("search", "")
        player_id = id_value(search_for)
        if player_id is not None:
            query = request.POST.get(f"q{player_id}", "")
            searched[player_id] = reads.persons_search(query, limit=20)
            if not searched[player_id]:
                messages.info(request, _("Cap persona no coincideix amb «%(q)s».")
                              % {"q": query})
        else:
            one = request.POST.get("one", "")
            wanted = [r for r in rows if not one or str(r.player_id) == one]
            choices: dict[int, int] = {}
            for row in wanted:
                value = chosen.get(row.player_id, "")
                if value == NEW:
                    choices[row.player_id] = services.NEW_PERSON
                elif id_value(value) is not None:
                    choices[row.player_id] = id_value(value) or 0
            if not choices:
                messages.error(request, _("No heu triat cap persona."))
            else:
                try:
                    linked = services.players_link_bulk(
                        championship=championship, choices=choices,
                        acting_user=request.user)
                except ValueError as exc:  # every service refusal is a ValueError
                    messages.error(request, str(exc))
                else:
                    messages.success(request, ngettext(
                        "%(n)s jugador enllaçat.", "%(n)s jugadors enllaçats.", linked)
                        % {"n": linked})
                    return redirect("championship_persons", championship.slug)
    lines = []
    for row in rows:
        options = list(row.candidates)
        known = {p.pk for p in options}
        options += [p for p in searched.get(row.player_id, []) if p.pk not in known]
        default = str(row.proposal.pk) if row.proposal else NEW
        lines.append({
            "row": row, "options": options,
            "chosen": chosen.get(row.player_id, default) if chosen else default,
            "searched": row.player_id in searched,
        })
    return render(request, "tournaments/championship_persons.html",
                  page_context(request, championship, lines=lines, new=NEW,
                               proposed=sum(1 for r in rows if r.proposal)))


# --------------------------------------------------------------------------- managers


def _manager_or_refuse(request: HttpRequest) -> HttpResponseBase | None:
    """Anonymous: the login page; a user who does not manage persons: 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not reads.manages_persons(request.user):
        raise PermissionDenied(_("Només els organitzadors d'un circuit i els administradors "
                                 "gestionen les persones."))
    return None


def persons_list(request: HttpRequest) -> HttpResponseBase:
    """The persons (records not merged into another), searched by name, licence or
    number; for their managers."""
    refused = _manager_or_refuse(request)
    if refused is not None:
        return refused
    query = request.GET.get("q", "").strip()[:200]
    persons = reads.persons_search(query, limit=100)
    return render(request, "tournaments/persons.html", {"persons": persons, "q": query})


class MergeForm(forms.Form):
    """The two records: the one kept and the one merged into it, by number."""

    kept = forms.IntegerField(label=gettext_lazy("Persona que es manté (número)"),
                              min_value=1)
    absorbed = forms.IntegerField(label=gettext_lazy("Persona que s'hi fusiona (número)"),
                                  min_value=1)
    reason = forms.CharField(label=gettext_lazy("Motiu"), max_length=500, required=False)
    confirm = forms.BooleanField(label=gettext_lazy("Ho confirmo"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for field in ("kept", "absorbed"):
            pk = data.get(field)
            if pk is not None:
                person = Person.objects.filter(pk=pk).first()
                if person is None:
                    self.add_error(field, _("No hi ha cap persona amb el número %(id)s.")
                                   % {"id": pk})
                else:
                    data[f"{field}_person"] = person
        return data


def persons_merge(request: HttpRequest) -> HttpResponseBase:
    """Merge two records of one person: choose both (by number: the list and the
    person's page show it), see both records' championships, confirm."""
    refused = _manager_or_refuse(request)
    if refused is not None:
        return refused
    form = MergeForm(request.POST or request.GET or None)
    previews: list[reads.PersonSummary] = []
    if form.is_bound and form.is_valid():
        kept, absorbed = form.cleaned_data["kept_person"], form.cleaned_data["absorbed_person"]
        previews = [reads.person_summary(kept), reads.person_summary(absorbed)]
        problem = services.person_merge_problem(kept, absorbed)
        if problem is not None:  # said on the preview, before anyone confirms
            add_service_error(form, problem)
        elif request.method == "POST":
            if not form.cleaned_data.get("confirm"):
                form.add_error("confirm", _("Marqueu «Ho confirmo» per continuar."))
            else:
                try:
                    services.person_merge(kept=kept, absorbed=absorbed,
                                          reason=form.cleaned_data.get("reason") or "",
                                          acting_user=request.user)
                except ValueError as exc:  # every service refusal is a ValueError
                    add_service_error(form, exc)
                else:
                    messages.success(request, _("Persones %(a)s i %(k)s fusionades.")
                                     % {"a": absorbed.pk, "k": kept.pk})
                    return redirect("person", kept.pk)
    return render(request, "tournaments/persons_merge.html",
                  {"form": form, "previews": previews})


# --------------------------------------------------------------------------- a person


def person(request: HttpRequest, pk: int) -> HttpResponseBase:
    """A person's public page: the public name, the championships played (every record
    merged into this one too) with partner, place and result, and the circuits' points
    (the ``circuits`` block). A merged record's address goes to the record kept. Who
    may edit the person also sees its actions."""
    found = get_object_or_404(Person, pk=pk)
    kept = reads.canonical(found.pk)
    if kept != found.pk:
        return redirect("person", kept)
    editor = request.user.is_authenticated and reads.may_edit_person(request.user, found)
    manager = editor and reads.manages_persons(request.user)
    return render(request, "tournaments/person.html", {
        "page": reads.person_page(found),
        "person": found if editor else None,
        "merged": reads.merged_records(found) if manager else [],
        "manager": manager,
        # The person's line in each circuit they played (season points).
        "circuits": person_circuit_lines(found),
    })


def _editable(request: HttpRequest, pk: int) -> Person:
    person = get_object_or_404(Person, pk=pk)
    if not request.user.is_authenticated or not reads.may_edit_person(request.user, person):
        raise PermissionDenied(_("No teniu permís per canviar aquesta persona."))
    return person


class PersonForm(forms.Form):
    """A person's record."""

    name = forms.CharField(label=gettext_lazy("Nom"), max_length=200)
    short_name = forms.CharField(label=gettext_lazy("Nom curt"), max_length=60,
                                 required=False)
    club = forms.CharField(label=gettext_lazy("Club o població"), max_length=200,
                           required=False)
    licence = forms.CharField(label=gettext_lazy("Llicència"), max_length=50, required=False)
    public_alias = forms.BooleanField(
        label=gettext_lazy("En públic, mostrar-la com a «Jugador N»"), required=False,
        help_text=gettext_lazy("Les classificacions i la seva pàgina no en mostren el nom."))


def person_edit(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Change a person's record, or whether the public sees them as "Jugador N"."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    person = _editable(request, pk)
    form = PersonForm(request.POST or None, initial={
        "name": person.name, "short_name": person.short_name, "club": person.club,
        "licence": person.licence, "public_alias": person.public_alias})
    if request.method == "POST" and form.is_valid():
        try:
            services.person_edit(person=person, acting_user=request.user,
                                 **form.cleaned_data)
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Persona desada."))
            return redirect("person", person.pk)
    return render(request, "tournaments/person_form.html", {"form": form, "person": person})


def _post_only(request: HttpRequest, pk: int) -> HttpResponseBase | None:
    if request.method in ("GET", "HEAD"):
        return redirect("person", pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "POST"})
    return None


def person_export(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Everything stored about a person, as a JSON download (a POST: it is audited)."""
    early = _post_only(request, pk)
    if early is not None:
        return early
    person = _editable(request, pk)
    data = services.person_export(person=person, acting_user=request.user)
    response = HttpResponse(
        json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="persona-{person.pk}.json"'
    return response


def _confirmed(request: HttpRequest, person: Person, call: Any, done: str,
               page: dict[str, Any]) -> HttpResponseBase:
    """A person's action that cannot be undone: its confirmation page, then the call."""
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            call()
        except ValueError as exc:  # every service refusal is a ValueError
            messages.error(request, str(exc))
            return redirect("person", person.pk)
        messages.success(request, done)
        return redirect("persons" if reads.manages_persons(request.user) else "home")
    return render(request, "tournaments/person_confirm.html",
                  {"form": form, "person": person, **page})


def person_delete(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Delete a person with no results and no player linked (confirmed)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    person = _editable(request, pk)
    return _confirmed(
        request, person,
        lambda: services.person_delete(person=person, acting_user=request.user),
        _("Persona esborrada."),
        {"title": _("Esborrar la persona"),
         "explanation": _("S'esborra el registre de la persona. Només és possible si no té "
                          "cap jugador enllaçat ni resultats."),
         "button": _("Esborrar")})


def person_anonymise(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Anonymise a person (confirmed): name, licence, club and sign-up contact erased,
    results kept under "Jugador N"."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    person = _editable(request, pk)
    return _confirmed(
        request, person,
        lambda: services.person_anonymise(person=person, acting_user=request.user),
        _("Persona anonimitzada."),
        {"title": _("Anonimitzar la persona"),
         "explanation": _("El nom passa a ser «Jugador %(n)s» a tots els campionats; "
                          "s'esborren el nom curt, el club, la llicència i el contacte de "
                          "les inscripcions. Els resultats es mantenen. No es pot desfer.")
         % {"n": person.pk},
         "button": _("Anonimitzar")})


def person_unmerge(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Undo the merge of record ``pk`` into the one it reads as (POST); the persons'
    managers only (anyone else: the login page or 403, as the merge)."""
    refused = _manager_or_refuse(request)
    if refused is not None:
        return refused
    person = get_object_or_404(Person, pk=pk)
    kept = person.merged_into_id or person.pk
    early = _post_only(request, kept)
    if early is not None:
        return early
    try:
        services.person_unmerge(person=person, acting_user=request.user)
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Fusió desfeta: %(a)s i %(k)s tornen a ser dues persones.")
                         % {"a": person.pk, "k": kept})
    return redirect("person", kept)


__all__ = [
    "championship_persons", "person", "person_anonymise", "person_delete", "person_edit",
    "person_export", "person_unmerge", "persons_list", "persons_merge",
]
