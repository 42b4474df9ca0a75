"""The championship's pages: the home page, where a login lands, the championship's page;
creating one, its rules, finishing it, publishing the deal secret, deleting it
(organiser)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import InterchangeError
from scoring.interchange import dumps
from tournaments import selectors, services
from tournaments.forms import (
    ChampionshipForm,
    ClassicRulesForm,
    RulesForm,
    add_service_error,
)
from tournaments.models import (
    Championship,
    Membership,
    Pair,
    Round,
)
from tournaments.permissions import Capability
from tournaments.selectors.classic_words import ranking_order
from tournaments.selectors.persons import manages_persons
from tournaments.selectors.signup import signup_places
from tournaments.web.common import (
    capability_required,
    close_forms,
    page_context,
    post_only,
    run_action,
    run_confirmed,
)


def home(request: HttpRequest) -> HttpResponse:
    """Every championship, newest first, and those where the user has a role."""
    championships = list(Championship.objects.all()[:50])
    mine = list(selectors.championships_for_user(request.user)[:50])
    return render(request, "tournaments/home.html", {
        "championships": championships, "mine": mine,
        # Who manages the persons across championships gets their list.
        "manages_persons": request.user.is_authenticated and manages_persons(request.user),
    })


def after_login(request: HttpRequest) -> HttpResponse:
    """Where a login without ``next`` lands (``settings.LOGIN_REDIRECT_URL``): a user whose
    roles are all in one championship goes to that championship's page for the role (the
    organiser to the championship page, a referee or head referee to the referee tables,
    a check-in helper to the check-in page);
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
    if all(role == Membership.Role.CHECK_IN for _slug, role in rows):
        # A door's helper: the check-in page, the one page the role opens.
        return redirect("check_in", slug)
    return redirect("referee_tables", slug)


def championship_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship's page: rules, deal commitment (public from the moment boards are
    generated) and, once the secret is published, the interchange file; rounds with
    their progress, pairs. The organiser also sees the checklist of running the
    championship (``selectors.checklist``) and, apart from it, finish and delete."""
    championship = get_object_or_404(Championship, slug=slug)
    context = page_context(request, championship)
    rounds = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings", distinct=True))
        .prefetch_related("boards")
        .order_by("number")
    )
    # Results in / expected as every page counts them (selectors.round_progress).
    progress = selectors.round_progress(championship)
    pairs = list(
        Pair.objects.filter(championship=championship).select_related("player1", "player2")
    )
    context.update(
        # Each round with its progress (None: no table drawn yet).
        rounds=[(r, progress.get(r.number)) for r in rounds],
        pairs=pairs,
        has_results=any(p.results_in for p in progress.values()),
        # The organiser's steps, each with its state (the rule: selectors.checklist).
        checklist=selectors.checklist(championship) if context["is_organiser"] else None,
        # Players not yet linked to a person (the persons page links them).
        unlinked_players=sum(
            (p.player1.person_id is None) + (p.player2.person_id is None) for p in pairs),
        # A classic championship's ranking order, in the standings' own sentence.
        ranking_order=ranking_order(championship.classic_rules())
        if championship.is_classic else "",
        # The public sign-up's line: open, places left (no query while closed).
        signup=signup_places(championship),
    )
    return render(request, "tournaments/championship.html", context)


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
            if championship.is_classic:
                # Created with the classic defaults: the organiser reviews them first.
                messages.success(request, _("Campionat creat. Reviseu-ne les regles."))
                return redirect("rules_edit", championship.slug)
            messages.success(request, _("Campionat creat."))
            return redirect("championship", championship.slug)
    return render(request, "tournaments/championship_form.html", {"form": form})


@capability_required(Capability.EDIT_RULES)
def rules_edit(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Change the rules while no result exists (``services.championship_update_rules``).
    A classic championship has its own rules (:func:`classic_rules_edit`)."""
    if championship.is_classic:
        return classic_rules_edit(request, championship)
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
    closed = close_forms(services.rules_edit_refusal(championship), form)
    return render(
        request, "tournaments/rules_edit.html",
        page_context(request, championship, form=form, closed=closed),
    )


def classic_rules_edit(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The rules of a classic championship's games (target, limits, cap, a level game,
    the ranking order, byes, doubles allowed, variant), while no game is in."""
    form = ClassicRulesForm(request.POST or None, championship=championship)
    if request.method == "POST" and form.is_valid():
        try:
            services.championship_update_rules(
                championship=championship, acting_user=request.user, **form.cleaned_data
            )
        except ValueError as exc:  # every service refusal is a ValueError
            form.add_service_error(exc)
        else:
            messages.success(request, _("Regles desades."))
            return redirect("championship", championship.slug)
    closed = close_forms(services.rules_edit_refusal(championship), form)
    return render(
        request, "tournaments/classic_rules_edit.html",
        page_context(request, championship, form=form, closed=closed,
                     target_suggestions=(36, 51, 100, 101)),
    )


@capability_required(Capability.FINISH)
def championship_finish(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Finish the championship after confirmation (:func:`run_confirmed`)."""
    return run_confirmed(
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


@capability_required(Capability.PUBLISH_SECRET)
@post_only("championship")
def deal_secret_publish(request: HttpRequest, championship: Championship) -> HttpResponse:
    return run_action(
        request, championship,
        lambda: services.deal_secret_publish(championship=championship,
                                             acting_user=request.user),
        _("Llavor publicada."),
    )


class DeleteChampionshipForm(forms.Form):
    """The championship's identifier, typed again to confirm the deletion."""

    confirm_slug = forms.CharField(label=gettext_lazy("Escriviu l'identificador del campionat"),
                                   max_length=100)


@capability_required(Capability.DELETE_CHAMPIONSHIP)
def championship_delete(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Delete the whole championship after a page naming what goes with it."""
    form = DeleteChampionshipForm(request.POST or None)
    summary = services.championship_delete_summary(championship)
    if request.method == "POST" and form.is_valid():
        name = championship.name
        try:
            services.championship_delete(
                championship=championship, confirm_slug=form.cleaned_data["confirm_slug"],
                acting_user=request.user,
            )
        except ValueError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, _("S'ha esborrat el campionat %(name)s.") % {"name": name})
            return redirect("home")
    return render(request, "tournaments/championship_delete.html",
                  page_context(request, championship, form=form, summary=summary))


def interchange_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The championship's interchange file (docs/file-format.md: every deal, result and
    the published secret) to download, for anyone once the deal secret is published
    (the championship is finished, every board public: docs/decisions.md 16); 404
    before. With it any copy of the program checks the deals (``verify_deals``). A
    classic championship deals no boards: its file is public once it is finished."""
    championship = get_object_or_404(Championship, slug=slug)
    if championship.is_classic:
        if championship.status != Championship.Status.FINISHED:
            raise Http404(_("El fitxer del campionat es publica quan s'acaba."))
    elif not championship.deal_secret_published:
        raise Http404(_("El fitxer del campionat es publica amb la llavor."))
    try:
        text = dumps(services.championship_export(championship, public=True))
    except InterchangeError as exc:
        messages.error(request, _("No s'ha pogut fer el fitxer: %(problems)s")
                       % {"problems": "; ".join(exc.problems)})
        return redirect("championship", championship.slug)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{championship.slug}.json"'
    return response
