"""What the pages share: the championship's base context, the permission decorator,
the round and seating of an address, a query-string number, and the pattern of an
action (run one service, show its refusal) and of one that needs a confirmation.

Views are thin (docs/architecture.md): parse the input with a form, call one service or selector,
render. A service error (``services.TournamentError``) becomes a form error next to its
field (``exc.field``), never a 500.

Permissions: each organiser or referee page needs one capability
(:mod:`tournaments.permissions`) in *that* championship (:func:`capability_required`);
a logged-in user without it gets 403, an anonymous user is sent to the login page. The
services check the same capabilities again: a page only translates their refusal. The
roles are read once per request (``permissions.roles_of`` remembers them on
``request.user``). Public pages need no login, but a board's deal and results stay hidden
until every table due to play it has a result: the public and a plain referee see (and
count in the standings) public boards only; the organiser and the head referee see
everything (``Capability.SEE_HIDDEN_BOARDS``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from tournaments.forms import ConfirmForm
from tournaments.models import (
    Championship,
    Round,
    Seating,
)
from tournaments.permissions import (
    ORGANISER,
    Capability,
    allows,
    capabilities_of,
    roles_of,
)

V = TypeVar("V", bound=Callable[..., HttpResponseBase])


def page_context(request: HttpRequest, championship: Championship, **extra: Any) -> dict[str, Any]:
    """The base context of a championship's pages: the roles of the user (one query for a
    logged-in user, none for the public; remembered for the rest of the request) and the
    capabilities they give (``caps``) drive which links the layout shows."""
    roles = roles_of(request.user, championship)
    caps = capabilities_of(roles)
    return {
        "championship": championship,
        "roles": roles,
        "caps": caps,
        "is_organiser": bool(roles & ORGANISER),
        "can_referee": Capability.ENTER_RESULT in caps,
        # Organiser and head referee see hidden boards; the public and a plain referee
        # see public boards only (docs/decisions.md 16).
        "sees_hidden": Capability.SEE_HIDDEN_BOARDS in caps,
        "can_view_log": Capability.VIEW_AUDIT_LOG in caps,
        **extra,
    }


def capability_required(capability: Capability | frozenset[str]) -> Callable[[V], V]:
    """Load the championship of ``slug`` and check that the user may do ``capability``
    in it (:mod:`tournaments.permissions`; a set of roles is also accepted): anonymous ->
    login page, logged in without it -> 403 (a referee of one championship cannot touch
    another). The view receives ``championship`` instead of ``slug``. The roles read here
    are remembered for the rest of the request (the context and the service reuse them)."""

    def decorate(view: V) -> V:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> Any:
            championship = get_object_or_404(Championship, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            roles = roles_of(request.user, championship)
            allowed = (
                allows(roles, capability)
                if isinstance(capability, Capability) else bool(roles & capability)
            )
            if not allowed:
                raise PermissionDenied(_("No teniu permís en aquest campionat."))
            return view(request, championship, *args, **kwargs)

        return wrapper  # type: ignore[return-value]  # the view with its URL arguments

    return decorate


#: The decorator's first name: a set of roles, or a capability.
role_required = capability_required


def post_only(page: str) -> Callable[[V], V]:
    """An action a form's button posts: a GET or HEAD (a bookmark, a reload, an address
    typed or shared) goes to ``page`` (a URL name that takes the championship's slug),
    where the button is, rather than a bare 405; another method gets the 405. Placed
    under :func:`capability_required` (its view receives the championship) or on a view
    that receives the ``slug``."""

    def decorate(view: V) -> V:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method in ("GET", "HEAD"):
                where = args[0] if args else kwargs["slug"]
                slug = where.slug if isinstance(where, Championship) else where
                return redirect(page, slug)
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]  # the view with its URL arguments

    return decorate


def round_or_404(championship: Championship, number: int) -> Round:
    """Round ``number`` of ``championship``; 404 when it has no such round."""
    return get_object_or_404(Round, championship=championship, number=number)


def seating_or_404(round: Round, table: int) -> Seating:
    """Who sits at table ``table`` in ``round``, with the round, the championship, the
    table and both pairs' players (one query); 404 when the table is not in the round."""
    return get_object_or_404(
        Seating.objects.select_related(
            "round__championship", "table", "ns_pair__player1", "ns_pair__player2",
            "ew_pair__player1", "ew_pair__player2",
        ),
        round=round,
        table__number=table,
    )


#: A round number in a query string: ASCII digits only (``str.isdigit()`` accepts "²",
#: which ``int()`` refuses).
_ROUND_NUMBER = re.compile(r"[0-9]{1,6}")


def int_param(request: HttpRequest, name: str) -> int | None:
    """``?name=N`` as an int, or ``None`` when absent or malformed (ignored, never a 500)."""
    raw = request.GET.get(name, "").strip()
    return int(raw) if _ROUND_NUMBER.fullmatch(raw) else None


#: A row's id in a form: ASCII digits that fit PostgreSQL's bigint.
_ID = re.compile(r"[0-9]{1,18}")


def id_value(raw: str | None) -> int | None:
    """A form's id field (a person, a role) as an int, or ``None`` when it is not one:
    "²" passes ``str.isdigit()`` and fails ``int()`` (a 500); a number of 30 digits
    overflows the database's integer."""
    text = (raw or "").strip()
    return int(text) if _ID.fullmatch(text) else None


def next_url(request: HttpRequest, fallback: str) -> str:
    """Where to go after a form: its ``next`` field or parameter when it is a path of
    this site (a page that sent the organiser, e.g. a round's seating), else
    ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return fallback


def close_forms(refusal: Exception | None, *forms: Any) -> str:
    """A form that can no longer be used (``refusal``: the service's own reason, from its
    ``*_refusal`` function) is shown read-only: every field disabled, the template
    leaves out the submit button and shows the returned reason. ``""`` when open."""
    if refusal is None:
        return ""
    for form in forms:
        for field in form.fields.values():
            field.disabled = True
    return str(refusal)


def run_action(
    request: HttpRequest, championship: Championship, call: Callable[[], Any], done: str
) -> HttpResponse:
    """Run one POST-only service; its refusal is shown as an error message on the
    championship page (these actions have no field to attach it to)."""
    try:
        call()
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("championship", championship.slug)


def run_confirmed(
    request: HttpRequest,
    championship: Championship,
    call: Callable[[dict[str, Any]], Any],
    done: str,
    *,
    page: dict[str, Any],
    form_class: type[ConfirmForm] = ConfirmForm,
) -> HttpResponse:
    """An action that cannot be undone: GET shows its confirmation page (``page``: its
    ``title``, ``explanation``, ``button`` and extra context); a POST with ``confirm``
    ticked runs ``call(cleaned_data)`` as :func:`run_action`; a POST without it changes
    nothing and shows the page again with a message."""
    form = form_class(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            return run_action(request, championship, lambda: call(form.cleaned_data), done)
        messages.error(request, _("No s'ha fet res: cal marcar «Ho confirmo»."))
    return render(
        request, "tournaments/confirm.html",
        page_context(request, championship, form=form, action_url=request.path, **page),
    )


#: Where a service worker's text holds its cache's version (``{{ cache_version }}``).
_CACHE_VERSION_MARK = "@@cache-version@@"


def service_worker(request: HttpRequest, template: str) -> HttpResponse:
    """A service worker rendered from ``template``, its ``cache_version`` the hash of its
    own text (which names the static files it keeps by their storage names): a deploy
    that changes the worker or those files changes the cache's name, and the new
    worker's activation deletes the old caches. Never cached without asking again."""
    text = render_to_string(template, {"cache_version": _CACHE_VERSION_MARK},
                            request=request)
    version = hashlib.sha256(text.encode()).hexdigest()[:12]
    response = HttpResponse(text.replace(_CACHE_VERSION_MARK, version),
                            content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
