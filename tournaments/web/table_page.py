"""The table's own page, ``/t/<secret>/``: what the players at a table see through the
link of its table card (no account: the secret in the URL is the credential, never a
login). It renders :func:`tournaments.selectors.tables.table_state`; the entries go to
the table's JSON API from ``static/tournaments/table.js`` (queued on the phone while
offline), and ``/t/sw.js``, the service worker, keeps the page for offline use."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import lockouts, referee_checks, services
from tournaments.forms import TRUMP_CHOICES, GameForm, ResultForm
from tournaments.selectors.tables import table_state
from tournaments.web.common import service_worker


def _labels() -> str:
    """The words the page's script writes a refused entry's stored values with."""
    words: dict[str, str] = {code: str(label) for code, label in TRUMP_CHOICES}
    words.update({"delegated": _("Delegat"), "contro": _("Contro"), "recontro": _("Recontro"),
                  "sant_vicenc": _("Sant Vicenç"), "ns_points_taken": _("Punts NS"),
                  "infraction": _("Infracció"), "NS": _("NS"), "EW": _("EO")})
    return json.dumps(words)


def _too_many(seconds: int) -> str:
    return ngettext(
        "Massa peticions des d'aquesta taula o adreça: torneu-ho a provar d'aquí a "
        "%(n)s segon.",
        "Massa peticions des d'aquesta taula o adreça: torneu-ho a provar d'aquí a "
        "%(n)s segons.", seconds) % {"n": seconds}


@require_GET
@never_cache
def table_page(request: HttpRequest, secret: str) -> HttpResponse:
    """The table's page; 429 with ``Retry-After`` over the limits per table and per
    address (``lockouts.table_page_wait``), 403 with the reason for a refused secret."""
    wait = lockouts.table_page_wait(request, secret)
    if wait is not None:
        response = render(request, "tournaments/table/refused.html",
                          {"reason": _too_many(wait), "busy": True}, status=429)
        response["Retry-After"] = str(wait)
        return _private(response)
    try:
        place = services.table_place(secret)
    except services.TableRefused as exc:
        response = render(request, "tournaments/table/refused.html",
                          {"reason": str(exc)}, status=403)
    else:
        championship = place.championship
        state = table_state(place.seating, place.access.table_number)
        form = (GameForm(championship=championship, sheet=False, can_adjust=False)
                if championship.is_classic
                else ResultForm(championship=championship, can_adjust=False))
        response = render(request, "tournaments/table/page.html", {
            "state": state, "form": form, "secret": secret,
            "classic": championship.is_classic, "labels": _labels(),
        })
    return _private(response)


def _private(response: HttpResponse) -> HttpResponse:
    """The secret is in the URL: it never leaves in a Referer, nor is the page indexed."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
def table_service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from ``/t/`` so that its scope covers the tables'
    pages; it precaches the page's static files (their names as the storage gives them)."""
    response = service_worker(request, "tournaments/table/sw.js")
    response["Service-Worker-Allowed"] = "/t/"
    return response


@require_GET
@never_cache
def table_hand_score(request: HttpRequest, secret: str, board: int) -> JsonResponse:
    """The live hand score of the entry form (``static/tournaments/result.js``, as on the
    referee's form): ``referee_checks.hand_score`` of the values typed so far; 403 with
    the reason for a refused secret; 429 over the page's limits."""
    wait = lockouts.table_page_wait(request, secret)
    if wait is not None:
        limited = JsonResponse({"detail": _too_many(wait), "code": "throttled"}, status=429)
        limited["Retry-After"] = str(wait)
        return limited
    try:
        place = services.table_place(secret)
    except services.TableRefused as exc:
        return JsonResponse({"detail": str(exc)}, status=403)
    return JsonResponse(referee_checks.hand_score(place.championship, board, request.GET))
