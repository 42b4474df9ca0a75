"""Past seasons into a circuit, from its organisers' pages: upload interchange files,
review the players' matches (nothing written yet: the files wait in the session), pick a
person for each uncertain row, confirm (``services.seasons``, one transaction)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import TournamentError
from tournaments.models import Circuit
from tournaments.services.circuits import is_circuit_organiser
from tournaments.services.seasons import (
    NEW_PERSON,
    FileIn,
    SeasonImportError,
    SeasonReview,
    season_import,
    season_review,
)
from tournaments.web.common import id_value

#: The session key of the files waiting for the organiser's confirmation.
SESSION_KEY = "season_import:{circuit}"


def _waiting(request: HttpRequest, circuit: Circuit) -> list[FileIn]:
    stored = request.session.get(SESSION_KEY.format(circuit=circuit.pk)) or []
    return [FileIn(name, text) for name, text in stored]


def _choices(request: HttpRequest, review: SeasonReview) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in review.rows:
        value = request.POST.get(f"row-{row.key}", "")
        if value == "new":
            out[row.key] = NEW_PERSON
        elif id_value(value) is not None:
            out[row.key] = id_value(value) or 0
    return out


def circuit_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload (``action=review``), then confirm (``action=confirm``) or start again."""
    circuit = get_object_or_404(Circuit, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_circuit_organiser(request.user, circuit):
        raise PermissionDenied(_("Només els organitzadors del circuit ho poden fer."))
    key = SESSION_KEY.format(circuit=circuit.pk)
    context: dict[str, Any] = {"circuit": circuit,
                               "public_url": reverse("circuit", args=[circuit.slug])}
    action = request.POST.get("action", "") if request.method == "POST" else ""
    try:
        if action == "review":
            uploads = request.FILES.getlist("files")
            files = [FileIn(f.name or "", f.read()) for f in uploads]
            review = season_review(circuit=circuit, files=files, acting_user=request.user)
            request.session[key] = [
                [f.name, f.text.decode("utf-8-sig") if isinstance(f.text, bytes) else f.text]
                for f in files]
            context["review"] = review
        elif action == "confirm":
            files = _waiting(request, circuit)
            if not files:
                raise SeasonImportError([_("Els fitxers ja no hi són: torneu-los a pujar.")])
            review = season_review(circuit=circuit, files=files, acting_user=request.user)
            context["review"] = review
            made = season_import(circuit=circuit, files=files,
                                 choices=_choices(request, review), acting_user=request.user)
            request.session.pop(key, None)
            messages.success(request, ngettext(
                "Importat %(n)s campionat al circuit.", "Importats %(n)s campionats al circuit.",
                len(made)) % {"n": len(made)})
            return redirect("circuit_manage", circuit.slug)
        elif action == "cancel":
            request.session.pop(key, None)
            return redirect("circuit_import", circuit.slug)
    except SeasonImportError as exc:
        context["problems"] = exc.problems
    except TournamentError as exc:
        context["problems"] = [exc.message]
    return render(request, "tournaments/circuits/import.html", context)
