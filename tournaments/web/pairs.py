"""The organiser's pages of the pairs: register (one, or a pasted or uploaded list),
remove one registered by mistake, withdraw one after a round."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import selectors, services
from tournaments.forms import (
    PairForm,
    PairsCsvForm,
    ShortNamesForm,
    add_service_error,
)
from tournaments.models import (
    Championship,
    Pair,
    Seating,
)
from tournaments.permissions import Capability
from tournaments.selectors.names import short_name
from tournaments.web.common import (
    capability_required,
    close_forms,
    next_url,
    page_context,
    post_only,
)


@capability_required(Capability.REGISTER_PAIRS)
def pairs_register(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Register one pair (form) or many (``number;player 1;player 2`` pasted or uploaded,
    ``;``, tab or ``,`` between the fields; the header and blank lines skipped are
    listed). After a draw a pair is late: it joins from the next round (``late_round``).
    One pair sent from a round's seating page (``next``) goes back there."""
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
                    messages.success(request, ngettext(
                        "%(n)s parella inscrita.", "%(n)s parelles inscrites.", len(created)
                    ) % {"n": len(created)})
                    # Read again (a pure read of the same text) for what was skipped.
                    read = services.read_pairs_csv(csv_form.cleaned_data["csv_text"])
                    if not read.numbered:
                        numbers = [p.number for p in created]
                        messages.info(request, ngettext(
                            "La llista no porta números: la parella té el número %(first)s.",
                            "La llista no porta números: les parelles tenen els números del "
                            "%(first)s al %(last)s, per l'ordre de la llista.",
                            len(numbers),
                        ) % {"first": min(numbers), "last": max(numbers)})
                    for note in read.skipped:
                        messages.info(request, note)
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
                    # A late pair is told the round it joins: it may be later than the
                    # page said when it was loaded (a round drawn meanwhile).
                    messages.success(request, (
                        _("Parella %(n)s inscrita: entra a la ronda %(round)s.")
                        if pair.joined_round > 1 else _("Parella %(n)s inscrita.")
                    ) % {"n": pair.number, "round": pair.joined_round})
                    return redirect(next_url(
                        request, reverse("pairs_register", args=[championship.slug])))
    pairs = list(
        Pair.objects.filter(championship=championship).select_related("player1", "player2")
    )
    # A pair registered by mistake can be removed while no round is drawn.
    can_remove = (
        championship.status != Championship.Status.FINISHED
        and not Seating.objects.filter(round__championship=championship).exists()
    )
    # Each pair with its short form as the boards show it (linked to change it).
    short = selectors.pair_names(championship)
    pairs_short = [(p, short[p.number].short) for p in pairs]
    closed = close_forms(services.registration_refusal(championship), pair_form, csv_form)
    return render(
        request,
        "tournaments/pairs_register.html",
        page_context(request, championship, pair_form=pair_form, csv_form=csv_form, pairs=pairs,
                     pairs_short=pairs_short,
                 can_remove=can_remove, closed=closed,
                 byes=selectors.byes_by_pair(championship),
                 late_round=services.late_entry_round(championship),
                 unlinked_players=sum((p.player1.person_id is None)
                                      + (p.player2.person_id is None) for p in pairs)),
    )


@capability_required(Capability.REMOVE_PAIR)
@post_only("pairs_register")
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


@capability_required(Capability.REGISTER_PAIRS)
def pair_short_names(request: HttpRequest, championship: Championship,
                     number: int) -> HttpResponse:
    """Change the short names a registered pair's players show on the boards and screens
    (empty: the default short form, shown as the placeholder)."""
    pair = get_object_or_404(Pair.objects.select_related("player1", "player2"),
                             championship=championship, number=number)
    form = ShortNamesForm(request.POST or None, initial={
        "short1": pair.player1.short_name, "short2": pair.player2.short_name})
    defaults = selectors.pair_names(championship)[number]
    for k, player in ((1, pair.player1), (2, pair.player2)):
        form.fields[f"short{k}"].widget.attrs["placeholder"] = short_name(player.name)
        # Django writes a help text as HTML: the name is the players', so escaped.
        form.fields[f"short{k}"].help_text = escape(player.name)
    if request.method == "POST" and form.is_valid():
        try:
            services.pair_short_names_set(
                pair=pair, acting_user=request.user, **form.cleaned_data)
        except ValueError as exc:  # every service refusal is a ValueError
            add_service_error(form, exc)
        else:
            messages.success(request, _("Parella %(n)s: %(short)s.") % {
                "n": number, "short": selectors.pair_names(championship)[number].short})
            return redirect("pairs_register", championship.slug)
    return render(request, "tournaments/pair_short_names.html",
                  page_context(request, championship, form=form, pair=pair, short=defaults))


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
            return redirect(next_url(
                request, reverse("pairs_register", args=[championship.slug])))
    return render(request, "tournaments/pair_withdraw.html",
                  page_context(request, championship, form=form, pair=pair,
                               next=next_url(request, "")))
