"""Pages of the movement: a round's seating (public once drawn), withdrawing a pair and
deleting a championship (organiser). Thin: a form, one service or read, a template."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import seating, services
from tournaments.forms import add_service_error
from tournaments.models import Championship, Pair
from tournaments.permissions import Capability
from tournaments.web.championships import _context, _round, capability_required


def round_seating(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    """Who sits where in a round: table, NS pair, EW pair, and the pair that sits out.
    Public once the round is drawn; the organiser also sees the check of the seating
    (problems, rematches) before the round starts."""
    championship = get_object_or_404(Championship, slug=slug)
    rnd = _round(championship, round)
    rnd.championship = championship
    context = _context(request, championship)
    view = seating.round_seating(rnd)
    if not view.drawn and not context["is_organiser"]:
        raise Http404(_("La ronda %(n)s encara no està sortejada.") % {"n": rnd.number})
    check = services.round_check(rnd) if context["is_organiser"] and view.drawn else None
    context.update(round=rnd, seating=view, check=check)
    return render(request, "tournaments/round_seating.html", context)


class WithdrawForm(forms.Form):
    """The round after which a pair withdraws, and why."""

    after_round = forms.IntegerField(label=gettext_lazy("Es retira després de la ronda"),
                                     min_value=0, max_value=9999)
    reason = forms.CharField(label=gettext_lazy("Motiu"), max_length=500,
                             widget=forms.Textarea(attrs={"rows": 3}))


@capability_required(Capability.WITHDRAW_PAIR)
def pair_withdraw(request: HttpRequest, championship: Championship, number: int) -> HttpResponse:
    """Withdraw a pair after a round: its results stay, later draws leave it out."""
    pair = get_object_or_404(Pair.objects.select_related("player1", "player2"),
                             championship=championship, number=number)
    last_closed = (
        championship.rounds.filter(closed_at__isnull=False).order_by("-number")
        .values_list("number", flat=True).first()
    )
    form = WithdrawForm(request.POST or None, initial={"after_round": last_closed or 0})
    if request.method == "POST" and form.is_valid():
        try:
            undone = services.pair_withdraw(
                pair=pair, after_round=form.cleaned_data["after_round"],
                reason=form.cleaned_data["reason"], acting_user=request.user,
            )
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("La parella %(n)s s'ha retirat.") % {"n": pair.number})
            if undone:
                messages.warning(
                    request,
                    _("Cal tornar a sortejar les rondes %(list)s: la parella hi seia.")
                    % {"list": ", ".join(map(str, undone))},
                )
            return redirect("pairs_register", championship.slug)
    return render(request, "tournaments/pair_withdraw.html",
                  _context(request, championship, form=form, pair=pair))


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
                  _context(request, championship, form=form, summary=summary))
