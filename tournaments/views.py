"""The tournaments pages: public (standings, traveller, score card), organiser and referee.

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

import re
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.forms import (
    ChampionshipForm,
    ConfirmForm,
    DrawForm,
    PairForm,
    PairsCsvForm,
    RoundCloseForm,
    RoundsSetupForm,
    RulesForm,
    add_service_error,
)
from tournaments.models import (
    Championship,
    Membership,
    Pair,
    Round,
    Seating,
)
from tournaments.permissions import HEAD as HEAD_ROLES
from tournaments.permissions import ORGANISER as ORGANISER_ROLES
from tournaments.permissions import REFEREES as REFEREE_ROLES
from tournaments.permissions import (
    Capability,
    allows,
    capabilities_of,
    has,
    roles_of,
)

V = TypeVar("V", bound=Callable[..., HttpResponseBase])

# Role sets, for pages that still name roles (prefer a capability).
ORGANISER = ORGANISER_ROLES
REFEREES = REFEREE_ROLES
HEAD = HEAD_ROLES


# --------------------------------------------------------------------------- helpers


def _context(request: HttpRequest, championship: Championship, **extra: Any) -> dict[str, Any]:
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

        return wrapper  # type: ignore[return-value]

    return decorate


#: The decorator's first name: a set of roles, or a capability.
role_required = capability_required


def _round(championship: Championship, number: int) -> Round:
    return get_object_or_404(Round, championship=championship, number=number)


def _seating(round: Round, table: int) -> Seating:
    return get_object_or_404(
        Seating.objects.select_related(
            "round__championship", "table", "ns_pair__player1", "ns_pair__player2",
            "ew_pair__player1", "ew_pair__player2",
        ),
        round=round,
        table__number=table,
    )


# --------------------------------------------------------------------------- public


def home(request: HttpRequest) -> HttpResponse:
    """Every championship, newest first, and those where the user has a role."""
    championships = list(Championship.objects.all()[:50])
    mine = list(selectors.championships_for_user(request.user)[:50])
    return render(
        request, "tournaments/home.html", {"championships": championships, "mine": mine}
    )


def after_login(request: HttpRequest) -> HttpResponse:
    """Where a login without ``next`` lands (``settings.LOGIN_REDIRECT_URL``): a user whose
    roles are all in one championship goes to that championship's page for the role (the
    organiser to the championship page, a referee or head referee to the referee tables);
    anyone else (no role, roles in several championships, a superuser) to the home page."""
    if not request.user.is_authenticated:
        return redirect("home")
    if request.user.is_superuser:
        return redirect("home")
    rows = list(
        Membership.objects.filter(user=request.user).values_list("championship__slug", "role")
    )
    slugs = {slug for slug, _role in rows}
    if len(slugs) != 1:
        return redirect("home")
    (slug,) = slugs
    if any(role == Membership.Role.ORGANISER for _slug, role in rows):
        return redirect("championship", slug)
    return redirect("referee_tables", slug)


def championship_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship's page: rules, deal commitment (public from the moment boards are
    generated), rounds with their progress, pairs; the organiser's actions for its role."""
    championship = get_object_or_404(Championship, slug=slug)
    context = _context(request, championship)
    rounds = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings", distinct=True))
        .prefetch_related("boards")
        .order_by("number")
    )
    # Results in / expected as every page counts them (selectors.round_progress).
    progress = selectors.round_progress(championship)
    for r in rounds:
        counted = progress.get(r.number)
        r.results_in = counted.results_in if counted else 0  # type: ignore[attr-defined]
        r.results_due = counted.results_expected if counted else 0  # type: ignore[attr-defined]
    pairs = list(
        Pair.objects.filter(championship=championship).select_related("player1", "player2")
    )
    context.update(
        rounds=rounds,
        pairs=pairs,
        has_results=any(r.results_in for r in rounds),  # type: ignore[attr-defined]
    )
    return render(request, "tournaments/championship.html", context)


#: A round number in a query string: ASCII digits only (``str.isdigit()`` accepts "²",
#: which ``int()`` refuses).
_ROUND_NUMBER = re.compile(r"[0-9]{1,6}")


def _int_param(request: HttpRequest, name: str) -> int | None:
    """``?name=N`` as an int, or ``None`` when absent or malformed (ignored, never a 500)."""
    raw = request.GET.get(name, "").strip()
    return int(raw) if _ROUND_NUMBER.fullmatch(raw) else None


# The public standings, traveller and pair card are live pages: tournaments/live.py.


# --------------------------------------------------------------------------- organiser


def championship_create(request: HttpRequest) -> HttpResponse:
    """A user with the ``tournaments.add_championship`` permission (superusers; granted
    in /admin) creates a championship and becomes its organiser; anyone else logged in
    gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.has_perm(services.CREATE_PERMISSION):
        raise PermissionDenied(_("No teniu permís per crear campionats."))
    form = ChampionshipForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            championship = services.championship_create(
                name=data.pop("name"), date=data.pop("date"), venue=data.pop("venue"),
                slug=data.pop("slug") or None, acting_user=request.user, **data,
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Campionat creat."))
            return redirect("championship", championship.slug)
    return render(request, "tournaments/championship_form.html", {"form": form})


def _closed(refusal: Exception | None, *forms: Any) -> str:
    """A form that can no longer be used (``refusal``: the service's own reason, from its
    ``*_refusal`` function) is shown read-only: every field disabled, the template
    leaves out the submit button and shows the returned reason. ``""`` when open."""
    if refusal is None:
        return ""
    for form in forms:
        for field in form.fields.values():
            field.disabled = True
    return str(refusal)


@capability_required(Capability.EDIT_RULES)
def rules_edit(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Change the rules while no result exists (``services.championship_update_rules``)."""
    # The form edits a copy: a refused change must not show on the page as if saved.
    form = RulesForm(
        request.POST or None, instance=Championship.objects.get(pk=championship.pk)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.championship_update_rules(
                championship=championship, acting_user=request.user, **form.cleaned_data
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Regles desades."))
            return redirect("championship", championship.slug)
    closed = _closed(services.rules_edit_refusal(championship), form)
    return render(
        request, "tournaments/rules_edit.html",
        _context(request, championship, form=form, closed=closed),
    )


@capability_required(Capability.REGISTER_PAIRS)
def pairs_register(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Register one pair (form) or many (``number;player 1;player 2`` pasted or uploaded)."""
    pair_form = PairForm(prefix="pair")
    csv_form = PairsCsvForm(prefix="csv")
    if request.method == "POST":
        if "csv-submit" in request.POST:
            csv_form = PairsCsvForm(request.POST, request.FILES, prefix="csv")
            if csv_form.is_valid():
                try:
                    created = services.pairs_import_csv(
                        championship=championship, text=csv_form.cleaned_data["csv_text"],
                        acting_user=request.user,
                    )
                except ValueError as exc:  # every service refusal is a ValueError
                    add_service_error(csv_form, exc)
                else:
                    messages.success(
                        request, _("%(n)s parelles inscrites.") % {"n": len(created)}
                    )
                    return redirect("pairs_register", championship.slug)
        else:
            pair_form = PairForm(request.POST, prefix="pair")
            if pair_form.is_valid():
                try:
                    pair = services.pair_register(
                        championship=championship, acting_user=request.user,
                        **pair_form.cleaned_data,
                    )
                except ValueError as exc:  # every service refusal is a ValueError
                    add_service_error(pair_form, exc)
                else:
                    messages.success(
                        request, _("Parella %(n)s inscrita.") % {"n": pair.number}
                    )
                    return redirect("pairs_register", championship.slug)
    pairs = list(
        Pair.objects.filter(championship=championship).select_related("player1", "player2")
    )
    # A pair registered by mistake can be removed while no round is drawn.
    can_remove = (
        championship.status != Championship.Status.FINISHED
        and not Seating.objects.filter(round__championship=championship).exists()
    )
    closed = _closed(services.registration_refusal(championship), pair_form, csv_form)
    return render(
        request,
        "tournaments/pairs_register.html",
        _context(request, championship, pair_form=pair_form, csv_form=csv_form, pairs=pairs,
                 can_remove=can_remove, closed=closed),
    )


@require_POST
@capability_required(Capability.REMOVE_PAIR)
def pair_remove(request: HttpRequest, championship: Championship, number: int) -> HttpResponse:
    """Remove pair ``number`` (``services.pair_remove``: refused once it sits at a table);
    the refusal or the success shows as a message on the pairs page."""
    pair = get_object_or_404(Pair, championship=championship, number=number)
    try:
        services.pair_remove(pair=pair, acting_user=request.user)
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Parella %(n)s treta.") % {"n": number})
    return redirect("pairs_register", championship.slug)


@capability_required(Capability.SET_UP_ROUNDS)
def rounds_setup(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Set the number of rounds and the boards per round (replaces an earlier setup
    while no table is drawn)."""
    initial = {
        "rounds": Round.objects.filter(championship=championship).count() or 4,
        "boards_per_round": championship.boards_per_round or 6,
    }
    form = RoundsSetupForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.rounds_setup(
                championship=championship, acting_user=request.user, **form.cleaned_data
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Rondes preparades."))
            return redirect("championship", championship.slug)
    closed = _closed(services.rounds_setup_refusal(championship), form)
    return render(
        request, "tournaments/rounds_setup.html",
        _context(request, championship, form=form, closed=closed),
    )


def _action(
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


def _confirmed(
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
    ticked runs ``call(cleaned_data)`` as :func:`_action`; a POST without it changes
    nothing and shows the page again with a message."""
    form = form_class(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            return _action(request, championship, lambda: call(form.cleaned_data), done)
        messages.error(request, _("No s'ha fet res: cal marcar «Ho confirmo»."))
    return render(
        request, "tournaments/confirm.html",
        _context(request, championship, form=form, action_url=request.path, **page),
    )


@capability_required(Capability.GENERATE_BOARDS)
def boards_generate(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Deal the boards. The first time it acts on a POST; dealing them again (a new
    secret and commitment: board sheets already printed no longer match) needs the
    confirmation of :func:`_confirmed`."""
    def call(_data: dict[str, Any] | None = None) -> Any:
        return services.boards_generate(championship=championship, acting_user=request.user)

    done = _("Taulers generats. El compromís SHA-256 ja és públic.")
    if not championship.deal_commitment:
        if request.method == "POST":
            return _action(request, championship, call, done)
        return redirect("championship", championship.slug)  # its button posts at once
    if request.method == "GET" and (
            refusal := services.boards_regenerate_refusal(championship)) is not None:
        # No confirmation page for what would be refused: the reason, on the
        # championship's page (a POST still gets the service's refusal).
        messages.error(request, refusal)
        return redirect("championship", championship.slug)
    return _confirmed(
        request, championship, call, done,
        page={
            "title": _("Tornar a generar els taulers"),
            "explanation": _(
                "Es generen tots els taulers de nou amb una llavor nova i un compromís "
                "SHA-256 nou. Els fulls de taulers ja impresos deixen de servir."
            ),
            "button": _("Tornar a generar els taulers"),
        },
    )


@capability_required(Capability.DRAW)
def round_draw(request: HttpRequest, championship: Championship, round: int) -> HttpResponse:
    """Draw the tables of a round from a seed (blank: a fresh one)."""
    rnd = _round(championship, round)
    form = DrawForm(request.POST or None, initial={"movement": championship.movement})
    if request.method == "POST" and form.is_valid():
        try:
            services.round_draw(
                round=rnd, seed=form.cleaned_data["seed"], acting_user=request.user,
                movement_name=form.cleaned_data.get("movement") or None,
                accept_rematches=bool(form.cleaned_data.get("accept_rematches")),
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Ronda %(n)s sortejada.") % {"n": rnd.number})
            return redirect("round_seating", championship.slug, rnd.number)
    return render(
        request, "tournaments/round_draw.html",
        _context(request, championship, form=form, round=rnd),
    )


@capability_required(Capability.CLOSE_ROUND)
def round_close(request: HttpRequest, championship: Championship, round: int) -> HttpResponse:
    """Close a round after confirmation (:func:`_confirmed`). The page says how many
    results are in; whoever may close it with results missing (the organiser,
    docs/decisions.md 17) is offered the box for it; ``services.round_close`` decides."""
    rnd = _round(championship, round)
    may_leave_missing = has(
        request.user, championship, Capability.CLOSE_ROUND_WITH_MISSING
    )
    counted = selectors.round_progress(championship).get(rnd.number)
    due = counted.results_expected if counted else 0
    results_in = counted.results_in if counted else 0

    def call(data: dict[str, Any]) -> Any:
        return services.round_close(
            round=rnd, acting_user=request.user,
            allow_missing=bool(data.get("allow_missing")),
        )

    form_class = RoundCloseForm if may_leave_missing and results_in < due else ConfirmForm
    return _confirmed(
        request, championship, call, _("Ronda %(n)s tancada.") % {"n": rnd.number},
        form_class=form_class,
        page={
            "title": _("Tancar la ronda %(n)s") % {"n": rnd.number},
            "explanation": _(
                "Un cop tancada, només l'àrbitre principal o l'organitzador en poden "
                "canviar els resultats."
            ),
            "button": _("Tancar la ronda"),
            "round": rnd, "results_in": results_in, "results_due": due,
        },
    )


@capability_required(Capability.FINISH)
def championship_finish(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Finish the championship after confirmation (:func:`_confirmed`)."""
    return _confirmed(
        request, championship,
        lambda _data: services.championship_finish(
            championship=championship, acting_user=request.user
        ),
        _("Campionat acabat."),
        page={
            "title": _("Acabar el campionat"),
            "explanation": _(
                "Els resultats queden definitius i es tanquen totes les rondes obertes. "
                "No es pot desfer."
            ),
            "button": _("Acabar el campionat"),
        },
    )


@require_POST
@capability_required(Capability.PUBLISH_SECRET)
def deal_secret_publish(request: HttpRequest, championship: Championship) -> HttpResponse:
    return _action(
        request, championship,
        lambda: services.deal_secret_publish(championship=championship,
                                             acting_user=request.user),
        _("Llavor publicada."),
    )
