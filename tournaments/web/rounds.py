"""The rounds' pages: set them up, deal the boards, draw a round, close it (organiser,
head referee), and a round's seating (public once drawn)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments import selectors, services
from tournaments.forms import (
    ClassicRoundCloseForm,
    ConfirmForm,
    DrawForm,
    PairForm,
    RoundCloseForm,
    RoundsSetupForm,
    add_service_error,
    shown_draw_token,
)
from tournaments.models import (
    Championship,
    Round,
    Stage,
)
from tournaments.permissions import (
    Capability,
    has,
)
from tournaments.selectors.seating import round_seating as seating_of_round
from tournaments.selectors.signup import present_count
from tournaments.selectors.stage_setup import StageLine, stage_lines
from tournaments.stage_forms import StagesSetupForm, stages_initial
from tournaments.web.common import (
    capability_required,
    close_forms,
    page_context,
    round_or_404,
    run_action,
    run_confirmed,
)


@capability_required(Capability.SET_UP_ROUNDS)
def rounds_setup(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Set the number of rounds and the boards per round (replaces an earlier setup
    while no table is drawn); a classic championship asks only the rounds. Below, the
    stages: groups then a knockout (classic), a qualifying stage then finals
    (duplicate), set up by ``services.stages_setup`` and listed as set up."""
    stages_post = request.method == "POST" and "stages-submit" in request.POST
    initial = {
        "rounds": Round.objects.filter(championship=championship).count() or 4,
        "boards_per_round": championship.boards_per_round or 6,
    }
    form = RoundsSetupForm(request.POST if request.method == "POST" and not stages_post
                           else None, initial=initial, classic=championship.is_classic)
    lines = stage_lines(championship)
    stages_form = StagesSetupForm(
        request.POST if stages_post else None, prefix="stages",
        classic=championship.is_classic,
        initial=stages_initial(lines, classic=championship.is_classic,
                               boards_per_round=championship.boards_per_round),
    )
    if stages_post and stages_form.is_valid():
        specs, boards = stages_form.specs()
        try:
            services.stages_setup(championship=championship, stages=specs,
                                  boards_per_round=boards, acting_user=request.user)
        except ValueError as exc:  # every service refusal is a ValueError
            stages_form.add_service_error(exc)
        else:
            messages.success(request, _("Fases preparades."))
            return redirect("rounds_setup", championship.slug)
    elif request.method == "POST" and not stages_post and form.is_valid():
        try:
            services.rounds_setup(
                championship=championship, acting_user=request.user, **form.cleaned_data
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Rondes preparades."))
            return redirect("championship", championship.slug)
    closed = close_forms(services.rounds_setup_refusal(championship), form, stages_form)
    return render(
        request, "tournaments/rounds_setup.html",
        page_context(request, championship, form=form, closed=closed,
                     stages_form=stages_form,
                     stages=[(line, stage_summary(line)) for line in lines]),
    )


def stage_summary(line: StageLine) -> str:
    """A stage's settings in a line of the page: "4 grups en serp, 2 per grup, repesca
    2 (el millor resultat per partida)"."""
    settings = line.settings
    if line.kind == Stage.Kind.GROUPS:
        text = _("%(groups)s grups (%(split)s), %(per)s per grup") % {
            "groups": settings["groups"],
            "split": Stage.Split(settings["split"]).label.lower(),
            "per": settings["per_group"]}
        if settings["second_chance"]:
            text += ", " + _("repesca %(n)s (%(rule)s)") % {
                "n": settings["second_chance"],
                "rule": Stage.RestRule(settings["rest_rule"]).label.lower()}
        return text
    if line.kind == Stage.Kind.KNOCKOUT:
        return str(_("amb partida pel tercer lloc") if settings["third_place"]
                   else _("sense partida pel tercer lloc"))
    if line.kind == Stage.Kind.FINALS:
        carry = Stage.CarryOver(settings["carry_over"])
        text = _("finals %(finals)s, %(carry)s") % {
            "finals": ", ".join(f"{name}: {size}" for name, size in settings["finals"]),
            "carry": carry.label.lower()}
        if carry == Stage.CarryOver.PERCENT:
            text += f" ({settings['carry_over_percent']} %)"
        return text
    return ""


@capability_required(Capability.GENERATE_BOARDS)
def boards_generate(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Deal the boards. The first time it acts on a POST; dealing them again (a new
    secret and commitment: board sheets already printed no longer match) needs the
    confirmation of :func:`run_confirmed`."""
    def call(_data: dict[str, Any] | None = None) -> Any:
        return services.boards_generate(championship=championship, acting_user=request.user)

    done = _("Taulers generats. El compromís SHA-256 ja és públic.")
    if not championship.deal_commitment:
        if request.method == "POST":
            return run_action(request, championship, call, done)
        return redirect("championship", championship.slug)  # its button posts at once
    if request.method == "GET" and (
            refusal := services.boards_regenerate_refusal(championship)) is not None:
        # No confirmation page for what would be refused: the reason, on the
        # championship's page (a POST still gets the service's refusal).
        messages.error(request, refusal)
        return redirect("championship", championship.slug)
    return run_confirmed(
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
    rnd = round_or_404(championship, round)
    stage = rnd.stage if rnd.stage_id is not None else None
    # A group's or a knockout's round: who meets whom is the stage's, not a movement's.
    fixed = stage is not None and stage.kind != Stage.Kind.SWISS
    form = _draw_form(request.POST or None, championship, rnd, fixed)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        accept = bool(data.get("accept_rematches"))
        # Accepting the rematches a page listed stores the draw that held them; a seed or
        # method typed since asks for another draw (accepted in advance, as without one).
        shown = data["shown"] if accept else None
        if shown and (data["seed"] != shown["seed"]
                      or (data.get("movement") or shown["movement"]) != shown["movement"]):
            shown = None
        try:
            services.round_draw(
                round=rnd, acting_user=request.user, accept_rematches=accept,
                seed=shown["seed"] if shown else data["seed"],
                movement_name=(shown["movement"] if shown else data.get("movement")) or None,
                shown_rematches=shown["rematches"] if shown else None,
            )
        except services.RematchError as exc:
            # The page lists this draw's rematches: carry the draw itself, signed.
            again = request.POST.copy()
            again["shown"] = shown_draw_token(
                round_id=rnd.pk, seed=exc.seed or 0, movement=exc.movement or "",
                rematches=exc.rematches,
            )
            again["seed"] = "" if exc.seed is None else str(exc.seed)
            again["movement"] = exc.movement or ""
            again.pop("accept_rematches", None)
            form = _draw_form(again, championship, rnd, fixed)
            form.is_valid()
            add_service_error(form, exc)
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Ronda %(n)s sortejada.") % {"n": rnd.number})
            return redirect("round_seating", championship.slug, rnd.number)
    return render(
        request, "tournaments/round_draw.html",
        page_context(request, championship, form=form, round=rnd,
                     stage=stage if fixed else None,
                     # With the check-in on: (present, expected) pairs (one query).
                     presence=present_count(championship) if championship.check_in
                     else None),
    )


def _draw_form(data: Any, championship: Championship, rnd: Round, fixed: bool) -> DrawForm:
    """The draw form; a stage round's without the movement and the rematches, which its
    groups or bracket decide."""
    form = DrawForm(data, initial={"movement": championship.movement}, round_id=rnd.pk)
    if fixed:
        for name in ("movement", "accept_rematches"):
            form.fields.pop(name, None)
    return form


@capability_required(Capability.CLOSE_ROUND)
def round_close(request: HttpRequest, championship: Championship, round: int) -> HttpResponse:
    """Close a round after confirmation (:func:`run_confirmed`). The page says how many
    results are in; whoever may close it with results missing (the organiser,
    docs/decisions.md 17) is offered the box for it; ``services.round_close`` decides."""
    rnd = round_or_404(championship, round)
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

    form_class: type[ConfirmForm] = ConfirmForm
    if may_leave_missing and results_in < due:
        form_class = ClassicRoundCloseForm if championship.is_classic else RoundCloseForm
    return run_confirmed(
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


def round_seating(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    """Who sits where in a round: table, NS pair, EW pair, and the pair that sits out.
    Public once the round is drawn; the organiser also sees the check of the seating
    (problems, rematches) before the round starts."""
    championship = get_object_or_404(Championship, slug=slug)
    rnd = round_or_404(championship, round)
    rnd.championship = championship
    context = page_context(request, championship)
    view = seating_of_round(rnd)
    if not view.drawn and not context["is_organiser"]:
        raise Http404(_("La ronda %(n)s encara no està sortejada.") % {"n": rnd.number})
    check = services.round_check(rnd) if context["is_organiser"] and view.drawn else None
    context.update(round=rnd, seating=view, check=check)
    # "Imprimir la ronda k": the round pack shows the deals, so only for who may print them.
    context["can_print_round"] = bool(view.tables) and has(
        request.user, championship, Capability.PRINT_BOARD_SHEETS)
    if context["is_organiser"] and championship.status != Championship.Status.FINISHED:
        context.update(_round_actions(rnd))
    return render(request, "tournaments/round_seating.html", context)


def _round_actions(rnd: Round) -> dict[str, Any]:
    """What the organiser does from a round's seating: withdraw a pair (its link on each
    pair), a late pair (``late_round``: the round it would join; ``None`` when closed),
    the bye (given by the draw: drawing again, while the round has no result, gives it
    anew). The services decide; this only shows the doors."""
    progress = selectors.round_progress(rnd.championship).get(rnd.number)
    return {
        "organise": True,
        "late_round": services.late_entry_round(rnd.championship),
        "late_form": PairForm(prefix="pair"),
        "may_redraw": not rnd.is_closed and not (progress and progress.results_in),
    }
