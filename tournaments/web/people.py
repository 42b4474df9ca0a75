"""People and roles, from the championship itself (organiser): give a role to an account
found by user name or e-mail, make a referee's account with a one-time sign-in link or a
printed QR code, take a role away; and the sign-in link's own page. Every change goes
through ``services.membership_grant`` / ``membership_revoke`` (audited): nothing here
needs /admin/."""

from __future__ import annotations

from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import selectors, services
from tournaments.forms import add_service_error
from tournaments.models import Championship, Membership
from tournaments.permissions import Capability, has
from tournaments.reports.sign_in_card import SignInCard, render_sign_in_card
from tournaments.web.common import capability_required, page_context, post_only

Role = Membership.Role
#: The roles an account made here may get: a referee's, or a check-in helper's (an
#: organiser has a password).
REFEREE_ROLES = [(Role.REFEREE.value, Role.REFEREE.label),
                 (Role.HEAD_REFEREE.value, Role.HEAD_REFEREE.label),
                 (Role.CHECK_IN.value, Role.CHECK_IN.label)]
#: Django's own backend: the sign-in link has already checked who it is.
BACKEND = "django.contrib.auth.backends.ModelBackend"


class AddPersonForm(forms.Form):
    """An existing account, by user name or e-mail, and the role it gets."""

    who = forms.CharField(label=gettext_lazy("Nom d'usuari o correu electrònic"),
                          max_length=254)
    role = forms.ChoiceField(label=gettext_lazy("Rol"), choices=Role.choices,
                             initial=Role.REFEREE.value)

    def clean_who(self) -> Any:
        who = self.cleaned_data["who"].strip()
        found = list(get_user_model().objects.filter(
            Q(username__iexact=who) | Q(email__iexact=who), is_active=True)[:2])
        if not found:
            raise forms.ValidationError(
                _("No hi ha cap compte amb el nom d'usuari o el correu «%(who)s». "
                  "Podeu crear-ne un a «Nou compte d'àrbitre».") % {"who": who})
        if len(found) > 1:
            raise forms.ValidationError(
                _("Hi ha més d'un compte amb «%(who)s»: escriviu el nom d'usuari.")
                % {"who": who})
        return found[0]


class NewRefereeForm(forms.Form):
    """A new account with no password, for a referee who signs in by a link."""

    username = forms.CharField(label=gettext_lazy("Nom d'usuari"), max_length=150)
    email = forms.EmailField(label=gettext_lazy("Correu electrònic (opcional)"),
                             required=False)
    role = forms.ChoiceField(label=gettext_lazy("Rol"), choices=REFEREE_ROLES,
                             initial=Role.REFEREE.value)


def _sign_in_url(request: HttpRequest, championship: Championship, user: Any) -> str:
    """The absolute one-time sign-in link of ``user`` (``services.sign_in_token``), at
    ``settings.SITE_URL`` when set (the address phones reach), else at the address the
    organiser's browser used."""
    token = services.sign_in_token(user=user, acting_user=request.user)
    path = reverse(
        "sign_in", args=[championship.slug, urlsafe_base64_encode(force_bytes(user.pk)), token]
    )
    return settings.SITE_URL + path if settings.SITE_URL else request.build_absolute_uri(path)


def _unreachable_host(request: HttpRequest) -> str:
    """The host of the sign-in links when no phone can reach it (this computer's own
    loopback address, e.g. ``127.0.0.1``), else ``""``."""
    host = urlsplit(settings.SITE_URL or request.build_absolute_uri("/")).hostname or ""
    try:
        loopback = ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost" or host.endswith(".localhost")
    return host if loopback else ""


def _made_here_already(championship: Championship, data: dict[str, Any]) -> Any:
    """The account a "new referee" form names when this championship already has it,
    with that role and no password (the first of two taps made it), else ``None``."""
    row = (Membership.objects.select_related("user")
           .filter(championship=championship, role=data["role"],
                   user__username__iexact=(data["username"] or "").strip())
           .first())
    if row is None or services.sign_in_refusal(row.user) is not None:
        return None
    return row.user


def _link_or_message(request: HttpRequest, championship: Championship,
                     row: Membership) -> str | None:
    """A new sign-in link for ``row``'s account, or ``None`` with the refusal (it has a
    password, or organises) as the page's message."""
    try:
        return _sign_in_url(request, championship, row.user)
    except ValueError as exc:
        messages.error(request, str(exc))
        return None


def _membership(championship: Championship, membership: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user"),
                             championship=championship, pk=membership)


def _page(request: HttpRequest, championship: Championship, **extra: Any) -> HttpResponse:
    extra.setdefault("add_form", AddPersonForm(prefix="add"))
    extra.setdefault("new_form", NewRefereeForm(prefix="new"))
    return render(request, "tournaments/people.html", page_context(
        request, championship, people=selectors.people(championship),
        unreachable_host=_unreachable_host(request), **extra))


@capability_required(Capability.GRANT_ROLE)
def people(request: HttpRequest, championship: Championship) -> HttpResponse:
    """Who holds which role; add one (an existing account) or make a referee's account
    (shown with its sign-in link once)."""
    if request.method != "POST":
        return _page(request, championship)
    if "new-submit" in request.POST:
        new_form = NewRefereeForm(request.POST, prefix="new")
        if new_form.is_valid():
            try:
                user = services.referee_account_create(
                    championship=championship, acting_user=request.user,
                    **new_form.cleaned_data,
                )
            except ValueError as exc:  # every service refusal is a ValueError
                made = _made_here_already(championship, new_form.cleaned_data)
                if made is None:
                    add_service_error(new_form, exc)
                else:
                    # A double tap: the first tap made it, the page shows the second's.
                    messages.info(request, _("El compte %(name)s ja s'havia creat amb "
                                             "aquest rol: aquí en teniu un enllaç nou.")
                                  % {"name": made.username})
                    return _page(request, championship, link_for=made.username,
                                 link=_sign_in_url(request, championship, made))
            else:
                messages.success(request, _("Compte %(name)s creat.") % {"name": user.username})
                return _page(request, championship, link_for=user.username,
                             link=_sign_in_url(request, championship, user))
        return _page(request, championship, new_form=new_form)
    add_form = AddPersonForm(request.POST, prefix="add")
    if add_form.is_valid():
        user, role = add_form.cleaned_data["who"], add_form.cleaned_data["role"]
        if Membership.objects.filter(championship=championship, user=user, role=role).exists():
            add_form.add_error("who", _("%(name)s ja té aquest rol (%(role)s).") % {
                "name": user.get_username(), "role": Role(role).label.lower()})
        else:
            try:
                services.membership_grant(championship=championship, user=user, role=role,
                                          acting_user=request.user)
            except ValueError as exc:  # every service refusal is a ValueError
                add_service_error(add_form, exc)
            else:
                messages.success(request, _("%(name)s ja és %(role)s.") % {
                    "name": user.get_username(), "role": Role(role).label.lower()})
                return redirect("people", championship.slug)
    return _page(request, championship, add_form=add_form)


@capability_required(Capability.GRANT_ROLE)
@post_only("people")
def people_remove(request: HttpRequest, championship: Championship,
                  membership: int) -> HttpResponse:
    """Take one role away (``services.membership_revoke``); its refusal (the last
    organiser) is a message on the people page."""
    row = _membership(championship, membership)
    try:
        services.membership_revoke(membership=row, acting_user=request.user)
    except ValueError as exc:  # every service refusal is a ValueError
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(name)s ja no és %(role)s.") % {
            "name": row.user.get_username(), "role": Role(row.role).label.lower()})
        if not has(request.user, championship, Capability.GRANT_ROLE):
            # An organiser who took their own role: the people page is no longer theirs.
            return redirect("championship", championship.slug)
    return redirect("people", championship.slug)


@capability_required(Capability.GRANT_ROLE)
@post_only("people")
def people_link(request: HttpRequest, championship: Championship,
                membership: int) -> HttpResponse:
    """A new one-time sign-in link for a referee's account made here, shown once."""
    row = _membership(championship, membership)
    link = _link_or_message(request, championship, row)
    if link is None:
        return redirect("people", championship.slug)
    return _page(request, championship, link_for=row.user.get_username(), link=link)


@capability_required(Capability.GRANT_ROLE)
def people_qr(request: HttpRequest, championship: Championship, membership: int) -> HttpResponse:
    """A one-page PDF with a new one-time sign-in link as a QR code, to print."""
    row = _membership(championship, membership)
    link = _link_or_message(request, championship, row)
    if link is None:
        return redirect("people", championship.slug)
    pdf = render_sign_in_card(SignInCard(
        title=championship.name,
        person=f"{row.user.get_username()} · {Role(row.role).label}",
        url=link,
        lines=(
            _("Escanegeu aquest codi amb el mòbil per entrar com a àrbitre, sense "
              "contrasenya."),
            ngettext("El codi serveix una sola vegada i caduca al cap de %(days)s dia; "
                     "l'organitzador en pot fer un altre.",
                     "El codi serveix una sola vegada i caduca al cap de %(days)s dies; "
                     "l'organitzador en pot fer un altre.",
                     services.SIGN_IN_DAYS) % {"days": services.SIGN_IN_DAYS},
        ),
    ))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="{championship.slug}-{row.user.pk}-sign-in.pdf"')
    response["Cache-Control"] = "no-store"
    return response


def sign_in(request: HttpRequest, slug: str, uidb64: str, token: str) -> HttpResponse:
    """A one-time sign-in link: GET shows who it signs in (a link preview in a chat app
    must not spend it), POST signs in and lands on the championship's referee tables. A
    used, expired or broken link gets a page saying so (400), never a 500."""
    championship = get_object_or_404(Championship, slug=slug)
    user = services.sign_in_check(uidb64=uidb64, token=token, championship=championship)
    if user is None:
        return render(request, "tournaments/sign_in.html",
                      {"championship": championship, "invalid": True}, status=400)
    if request.method == "POST":
        login(request, user, backend=BACKEND)
        messages.success(request, _("Heu entrat com a %(name)s.") % {"name": user.username})
        roles = set(Membership.objects.filter(championship=championship, user=user)
                    .values_list("role", flat=True))
        if roles == {Role.CHECK_IN}:  # a helper at the door: the check-in is their page
            return redirect("check_in", championship.slug)
        return redirect("referee_tables", championship.slug)
    # Someone else signed in on this device (the organiser trying the link) would be
    # signed out, and the link spent: the page says so before the button.
    other = (request.user.get_username()
             if request.user.is_authenticated and request.user.pk != user.pk else "")
    return render(request, "tournaments/sign_in.html",
                  {"championship": championship, "person": user.get_username(),
                   "signed_in_as": other})
