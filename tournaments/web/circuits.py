"""A circuit's pages: the list of circuits, its ranking (players and pairs, "find
me"), a person's line, and its organisers' page (rules, championships, organisers) and
the creation of one. The ranking's PDF is a print job (``reports/views.py``).

The public pages render ``selectors.circuits.circuit_ranking`` and answer a
conditional GET: their ETag names the ranking's state (the circuit's version, its
championships' results versions, the persons' merges and changes), the language and
the viewer, so a phone that holds the current page gets a 304 reading nothing but the
versions. Before building a ranking, the page has the championships whose kept places
are out of date read again (``services.final_standings_refresh``), so the next page
reads one row per championship.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.circuit_forms import CircuitForm, EventAddForm, OrganiserForm
from tournaments.models import Championship, Circuit, CircuitRole
from tournaments.selectors import circuits as read
from tournaments.selectors.names import fold
from tournaments.selectors.persons import canonical
from tournaments.web.common import id_value

#: Championships the organiser's search lists at most.
SEARCH_MAX = 20

# ----------------------------------------------------------------------- public


def circuit_list(request: HttpRequest) -> HttpResponse:
    """Every circuit, newest first."""
    circuits = list(Circuit.objects.all()[:200])
    return render(request, "tournaments/circuits/list.html", {
        "circuits": circuits,
        "can_create": request.user.has_perm(services.CREATE_PERMISSION),
    })


def _etag(request: HttpRequest, state: str) -> str:
    user = getattr(request, "user", None)
    viewer = f"u{user.pk}" if user is not None and user.is_authenticated else "a"
    return quote_etag(f"circuit-{state}-{get_language()}-{viewer}")


def _not_modified(request: HttpRequest, etag: str) -> bool:
    held = request.META.get("HTTP_IF_NONE_MATCH")
    if not held:
        return False
    return held.strip() == "*" or etag in {t.removeprefix("W/") for t in parse_etags(held)}


def _conditional(request: HttpRequest, circuit: Circuit,
                 build: Any) -> HttpResponse:
    """``build(ranking)``'s answer with the ranking's ETag, or a 304 naming it."""
    state = read.circuit_state(circuit)
    etag = _etag(request, state)
    if _not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        stale = read.stale_championships(circuit)
        if stale:
            services.final_standings_refresh(championship_ids=stale)
        response = build(read.circuit_ranking(circuit, state=state))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _find(ranking: read.CircuitRanking, query: str, pairs: bool) -> list[read.Line]:
    words = fold(query).split()
    if not words:
        return []
    lines = ranking.pairs if pairs else ranking.players
    return [line for line in lines
            if all(word in fold(line.search_text) for word in words)][:20]


def circuit_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The circuit's ranking: players (``?tab=pairs``: pairs), "find me" (``?find=``),
    the rules in a sentence and the championships in date order."""
    circuit = get_object_or_404(Circuit, slug=slug)
    pairs = request.GET.get("tab") == "pairs"
    find = request.GET.get("find", "").strip()[:100]

    def build(ranking: read.CircuitRanking) -> HttpResponse:
        return render(request, "tournaments/circuits/ranking.html", {
            "circuit": circuit, "ranking": ranking, "pairs_tab": pairs,
            "lines": ranking.pairs if pairs else ranking.players,
            "find": find, "found": _find(ranking, find, pairs),
            "is_organiser": services.is_circuit_organiser(request.user, circuit),
        })

    return _conditional(request, circuit, build)


def circuit_person(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    """A person's line in the circuit: each championship, its place and points, which
    counted and why the others did not; their pairs. A merged record's address leads
    to the one kept."""
    circuit = get_object_or_404(Circuit, slug=slug)
    target = canonical(person_id)
    if target != person_id:
        return redirect("circuit_person", circuit.slug, target)

    def build(ranking: read.CircuitRanking) -> HttpResponse:
        line = ranking.player(person_id)
        if line is None:
            raise Http404(_("Aquesta persona no té cap resultat al circuit."))
        names = {e.slug: e for e in ranking.events}
        return render(request, "tournaments/circuits/person.html", {
            "circuit": circuit, "ranking": ranking, "line": line,
            "events": [(names.get(cell.event), cell, read.points_text(cell.points))
                       for cell in line.events],
            "pairs": ranking.pairs_of(person_id),
            "size": sum(1 for p in ranking.players if p.rank is not None),
        })

    return _conditional(request, circuit, build)


# -------------------------------------------------------------------- organiser


def circuit_create(request: HttpRequest) -> HttpResponse:
    """A new circuit: its name and rules; its creator becomes its organiser."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.has_perm(services.CREATE_PERMISSION):
        raise PermissionDenied(_("No teniu permís per crear circuits."))
    form = CircuitForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            circuit = services.circuit_create(
                slug=form.cleaned_data.get("slug") or "", acting_user=request.user,
                **form.rules())
        except ValueError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, _("Circuit creat. Ara hi podeu afegir els campionats."))
            return redirect("circuit_manage", circuit.slug)
    return render(request, "tournaments/circuits/form.html", {"form": form})


def _organiser_circuit(request: HttpRequest, slug: str) -> Circuit | HttpResponse:
    circuit = get_object_or_404(Circuit, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not services.is_circuit_organiser(request.user, circuit):
        raise PermissionDenied(_("Només els organitzadors del circuit ho poden fer."))
    return circuit


def circuit_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' page: the rules (a form), the championships (search by name or
    identifier, add, remove) and the organisers (add, remove)."""
    found = _organiser_circuit(request, slug)
    if isinstance(found, HttpResponse):
        return found
    circuit = found
    rules_form = CircuitForm(initial=CircuitForm.initial_of(circuit), editing=True)
    add_form = EventAddForm()
    organiser_form = OrganiserForm()
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "rules":
                rules_form = CircuitForm(request.POST, editing=True)
                if rules_form.is_valid():
                    services.circuit_rules_edit(circuit=circuit, acting_user=request.user,
                                                **rules_form.rules())
                    messages.success(request, _("Regles desades."))
                    return redirect("circuit_manage", circuit.slug)
            elif action in ("add", "remove"):
                add_form = EventAddForm(request.POST)
                if add_form.is_valid():
                    championship = Championship.objects.filter(
                        slug=add_form.cleaned_data["championship"]).first()
                    if championship is None:
                        add_form.add_error("championship", _("No hi ha cap campionat amb "
                                                             "aquest identificador."))
                    else:
                        call = (services.circuit_event_add if action == "add"
                                else services.circuit_event_remove)
                        call(circuit=circuit, championship=championship,
                             acting_user=request.user)
                        messages.success(request, _("Prova afegida.") if action == "add"
                                         else _("Prova treta."))
                        return redirect("circuit_manage", circuit.slug)
            elif action == "grant":
                organiser_form = OrganiserForm(request.POST)
                if organiser_form.is_valid():
                    user = get_user_model().objects.filter(
                        username=organiser_form.cleaned_data["username"]).first()
                    if user is None:
                        organiser_form.add_error("username",
                                                 _("No hi ha cap usuari amb aquest nom."))
                    else:
                        services.circuit_role_grant(circuit=circuit, user=user,
                                                    acting_user=request.user)
                        messages.success(request, _("Organitzador afegit."))
                        return redirect("circuit_manage", circuit.slug)
            elif action == "revoke":
                role = CircuitRole.objects.filter(
                    circuit=circuit, pk=id_value(request.POST.get("role")) or 0).first()
                if role is not None:
                    services.circuit_role_revoke(role=role, acting_user=request.user)
                    messages.success(request, _("Organitzador tret."))
                return redirect("circuit_manage", circuit.slug)
        except ValueError as exc:
            form_of = {"rules": rules_form, "add": add_form, "remove": add_form,
                       "grant": organiser_form}.get(action)
            if form_of is None:
                messages.error(request, str(exc))
            elif isinstance(form_of, CircuitForm):
                form_of.add_service_error(exc)
            else:
                form_of.add_error(None, str(exc))
    query = request.GET.get("q", "").strip()[:100]
    in_circuit = read.circuit_championships(circuit)
    results: list[Championship] = []
    if query:
        results = list(Championship.objects.filter(
            Q(name__icontains=query) | Q(slug__icontains=query)).exclude(
            pk__in=[c.pk for c in in_circuit]).order_by("-date", "name")[:SEARCH_MAX])
    return render(request, "tournaments/circuits/manage.html", {
        "circuit": circuit, "rules_form": rules_form, "add_form": add_form,
        "organiser_form": organiser_form, "events": in_circuit, "query": query,
        "results": results, "rules_text": read.rules_sentence(circuit),
        "organisers": CircuitRole.objects.filter(circuit=circuit).select_related("user")
        .order_by("user__username"),
        "public_url": reverse("circuit", args=[circuit.slug]),
    })
