"""The public sign-up and the check-in on the day.

A pair signs up on the championship's public form (:func:`signup_submit`) while the
organiser keeps it open and round 1 is not drawn; over the cap
(``Championship.signup_cap``) it goes to the waiting list, which moves up in order when
a pair holding a place cancels (:func:`signup_cancel`) or the cap grows. Every pair gets
an e-mail in the language it signed up in, with a link to cancel. The organiser's list
confirms, marks paid, moves, cancels and adds by hand; :func:`pairs_from_signup` makes
the championship's pairs of it through :func:`~tournaments.services.pairs.pair_register`.

On the day, with the check-in on (``Championship.check_in``), :func:`pair_check_in`
ticks the pairs present: round 1 draws only them (``selectors.presence.absent_pairs``),
and a pair ticked after round 1 is drawn joins from the next round, as a late pair.

Every write locks the championship's row first, as the pairs and the draw do, and is
audited (``AuditEntry.Action`` ``signup.*``, ``pair.check_in*``, ``pair.from_signup``).
E-mails leave after the commit (``transaction.on_commit``): a write rolled back sends
none, and a mail server that fails does not undo the write (it is logged).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.text import control_characters, normalise
from tournaments.models import (
    AuditEntry,
    Bye,
    Championship,
    Pair,
    Registration,
    Seating,
)
from tournaments.models.people import name_key
from tournaments.selectors.signup import HOLDING, first_round_drawn, waiting_place
from tournaments.services.common import (
    Capability,
    User,
    audit,
    check_not_finished,
    lock_championship,
    require,
)
from tournaments.services.errors import ChampionshipStateError, RegistrationError
from tournaments.services.pairs import late_entry_round, pair_register

log = logging.getLogger(__name__)

S = Registration.Status

#: A second submission of the same pair (same names and contact) within this time is the
#: first one again (a double tap), not a new registration.
DOUBLE_SUBMIT = timedelta(minutes=1)
#: The highest cap the organiser may set.
CAP_MAX = 9999
NAME_MAX: int = Registration._meta.get_field("player1_name").max_length or 0
LICENCE_MAX: int = Registration._meta.get_field("player1_licence").max_length or 0
PHONE_MAX: int = Registration._meta.get_field("phone").max_length or 0
NOTE_MAX: int = Registration._meta.get_field("note").max_length or 0
#: What a phone number may hold: digits, spaces, "+", "-", ".", "(" and ")"; at least 6
#: digits.
_PHONE = re.compile(r"[0-9+\-.() ]+")


# --------------------------------------------------------------------------- refusals


def signup_refusal(championship: Championship) -> ChampionshipStateError | None:
    """Why the public form takes no sign-up now (the championship is finished, the
    organiser has not opened it or closed it, round 1 is drawn), as the error
    :func:`signup_submit` raises; ``None`` while it is open. One query at most."""
    if championship.status == Championship.Status.FINISHED:
        return ChampionshipStateError(_("El campionat ja s'ha acabat."))
    if not championship.signup_open:
        return ChampionshipStateError(_("La inscripció d'aquest campionat no està oberta."))
    if first_round_drawn(championship):
        return ChampionshipStateError(
            _("La primera ronda ja està sortejada: la inscripció s'ha tancat."))
    return None


# --------------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class SignupInput:
    """A pair's sign-up, cleaned: names, licences, contact, language, note."""

    player1: str
    player2: str
    licence1: str
    licence2: str
    email: str
    phone: str
    language: str
    note: str = ""


def _text(value: str | None) -> str:
    return " ".join(normalise(value or "").split())


def _clean(
    *, player1: str, player2: str, email: str, phone: str, licence1: str, licence2: str,
    language: str, note: str,
) -> SignupInput:
    """Check a sign-up's fields. Raises :class:`RegistrationError` on the field at
    fault (``player1``, ``player2``, ``email``, ``phone``, ``licence1``, ``licence2``,
    ``note``)."""
    names = _text(player1), _text(player2)
    for k, name in enumerate(names, start=1):
        if not name:
            raise RegistrationError(_("Cal el nom del jugador %(k)s.") % {"k": k},
                                    field=f"player{k}")
        if len(name) > NAME_MAX:
            raise RegistrationError(
                _("El nom del jugador %(k)s passa de %(max)s caràcters.")
                % {"k": k, "max": NAME_MAX}, field=f"player{k}")
        if control_characters(name):
            raise RegistrationError(
                _("El nom del jugador %(k)s té caràcters de control.") % {"k": k},
                field=f"player{k}")
    if name_key(names[0]) == name_key(names[1]):
        raise RegistrationError(_("Els dos jugadors tenen el mateix nom."), field="player2")
    licences = _text(licence1), _text(licence2)
    for k, licence in enumerate(licences, start=1):
        if len(licence) > LICENCE_MAX or control_characters(licence):
            raise RegistrationError(
                _("La llicència del jugador %(k)s no és vàlida (com a molt %(max)s "
                  "caràcters).") % {"k": k, "max": LICENCE_MAX}, field=f"licence{k}")
    mail = (email or "").strip()
    phone_text = _text(phone)
    if not mail and not phone_text:
        raise RegistrationError(
            _("Cal un correu electrònic o un telèfon per poder-vos avisar."), field="email")
    if mail:
        try:
            validate_email(mail)
        except ValidationError:
            raise RegistrationError(
                _("«%(email)s» no és una adreça de correu electrònic vàlida.")
                % {"email": mail[:60]}, field="email") from None
    if phone_text and (
        len(phone_text) > PHONE_MAX or not _PHONE.fullmatch(phone_text)
        or sum(c.isdigit() for c in phone_text) < 6
    ):
        raise RegistrationError(
            _("«%(phone)s» no és un telèfon: xifres, espais i «+», com a molt %(max)s "
              "caràcters.") % {"phone": phone_text[:40], "max": PHONE_MAX}, field="phone")
    note_text = " ".join(normalise(note or "").split())
    if len(note_text) > NOTE_MAX or control_characters(note_text):
        raise RegistrationError(
            _("La nota passa de %(max)s caràcters.") % {"max": NOTE_MAX}, field="note")
    languages = {code for code, _name in settings.LANGUAGES}
    return SignupInput(names[0], names[1], licences[0], licences[1], mail, phone_text,
                       language if language in languages else settings.LANGUAGE_CODE,
                       note_text)


def _snapshot(registration: Registration) -> dict[str, Any]:
    """A registration for the audit row (the contact stays out of the log, which the
    head referee also reads)."""
    return {
        "player1": registration.player1_name, "player2": registration.player2_name,
        "status": registration.status, "paid": registration.paid,
        "position": registration.position,
    }


def _target(registration: Registration) -> str:
    return f"{registration.player1_name} – {registration.player2_name}"


def _same_pair(championship: Championship, data: SignupInput) -> Registration | None:
    """The registration of the same names and contact made less than
    :data:`DOUBLE_SUBMIT` ago and not cancelled (a double tap), or ``None``."""
    since = timezone.now() - DOUBLE_SUBMIT
    keys = {name_key(data.player1), name_key(data.player2)}
    for row in Registration.objects.filter(
        championship=championship, created_at__gte=since,
        email__iexact=data.email, phone=data.phone,
    ).exclude(status=S.CANCELLED):
        if {name_key(row.player1_name), name_key(row.player2_name)} == keys:
            return row
    return None


def _holding(championship: Championship) -> int:
    return Registration.objects.filter(championship=championship, status__in=HOLDING).count()


def _next_position(championship: Championship) -> int:
    last: int | None = Registration.objects.filter(championship=championship).aggregate(
        n=Max("position"))["n"]
    return (last or 0) + 1


# --------------------------------------------------------------------------- e-mail


def cancel_url(registration: Registration, site_url: str) -> str:
    """The registration's cancel link: ``site_url`` (scheme and host, no trailing
    slash) and the page's path."""
    return site_url.rstrip("/") + reverse(
        "signup_cancel", args=[registration.championship.slug, registration.cancel_token])


def _mail_later(registration: Registration, kind: str, site_url: str) -> None:
    """Send the pair's e-mail ``kind`` (``registered``, ``waiting``, ``promoted``,
    ``cancelled``) after the commit, in the pair's language; none without an
    address."""
    if not registration.email:
        return
    championship = registration.championship
    place = waiting_place(registration) if kind == "waiting" else None
    context = {
        "kind": kind, "championship": championship, "registration": registration,
        "place": place, "cancel_url": cancel_url(registration, site_url),
    }
    language = registration.language or settings.LANGUAGE_CODE

    def send() -> None:
        with translation.override(language):
            subject = {
                "registered": _("Inscripció rebuda: %(name)s"),
                "waiting": _("En llista d'espera: %(name)s"),
                "promoted": _("Ja teniu plaça: %(name)s"),
                "cancelled": _("Inscripció cancel·lada: %(name)s"),
            }[kind] % {"name": championship.name}
            body = render_to_string("tournaments/mail/signup.txt", context)
        try:
            send_mail(subject, body, None, [registration.email])
        except Exception:  # a mail server down must not turn a done write into a 500
            log.exception("sign-up e-mail %s to registration %s not sent", kind,
                          registration.pk)

    transaction.on_commit(send)


# --------------------------------------------------------------------------- writes


@dataclass(frozen=True, slots=True)
class SignedUp:
    """A sign-up's outcome: the ``registration``, whether it is new (``created``: false
    for a double submit) and, waiting, its ``place`` in the waiting list."""

    registration: Registration
    created: bool
    place: int | None


@transaction.atomic
def signup_submit(
    *, championship: Championship, player1: str, player2: str, email: str = "",
    phone: str = "", licence1: str = "", licence2: str = "", language: str = "",
    note: str = "", site_url: str, acting_user: User | None = None,
) -> SignedUp:
    """A pair signs up on the public form (``acting_user``: whoever is signed in, or
    nobody) or the organiser adds one by hand (``by_hand`` through
    :func:`signup_add`). Under the cap (or without one) it holds a place
    (``registered``), else it waits (``waiting``, told its place); it is e-mailed the
    cancel link (``site_url`` + the cancel page) when it gave an address. The same
    names and contact again within :data:`DOUBLE_SUBMIT` return the first registration
    (``created`` false), nothing written twice.

    Raises :class:`RegistrationError` (a field), :class:`ChampionshipStateError`
    (:func:`signup_refusal`).
    """
    championship = lock_championship(championship)
    refusal = signup_refusal(championship)
    if refusal is not None:
        raise refusal
    data = _clean(player1=player1, player2=player2, email=email, phone=phone,
                  licence1=licence1, licence2=licence2, language=language, note=note)
    return _register(championship, data, site_url, acting_user)


def _register(championship: Championship, data: SignupInput, site_url: str,
              acting_user: User | None) -> SignedUp:
    same = _same_pair(championship, data)
    if same is not None:
        return SignedUp(same, False, waiting_place(same))
    cap = championship.signup_cap
    status = S.REGISTERED if cap is None or _holding(championship) < cap else S.WAITING
    registration = Registration.objects.create(
        championship=championship, player1_name=data.player1, player2_name=data.player2,
        player1_licence=data.licence1, player2_licence=data.licence2, email=data.email,
        phone=data.phone, language=data.language, status=status, note=data.note,
        position=_next_position(championship),
    )
    audit(championship, AuditEntry.Action.SIGNUP_CREATE, acting_user,
          target=_target(registration), after=_snapshot(registration))
    _mail_later(registration, "waiting" if status == S.WAITING else "registered", site_url)
    return SignedUp(registration, True, waiting_place(registration))


@transaction.atomic
def signup_add(
    *, championship: Championship, player1: str, player2: str, email: str = "",
    phone: str = "", licence1: str = "", licence2: str = "", language: str = "",
    note: str = "", site_url: str, acting_user: User | None,
) -> SignedUp:
    """The organiser adds a pair to the list by hand (a sign-up by phone or at the
    club), open or not, until round 1 is drawn; as :func:`signup_submit` otherwise.

    Raises :class:`NotAllowedError`, :class:`RegistrationError`,
    :class:`ChampionshipStateError` (finished, round 1 drawn).
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.MANAGE_SIGNUP)
    _check_list_open(championship)
    data = _clean(player1=player1, player2=player2, email=email, phone=phone,
                  licence1=licence1, licence2=licence2, language=language, note=note)
    return _register(championship, data, site_url, acting_user)


def _check_list_open(championship: Championship) -> None:
    check_not_finished(championship)
    if first_round_drawn(championship):
        raise ChampionshipStateError(
            _("La primera ronda ja està sortejada: la llista d'inscripcions ja no canvia."))


def _promote(championship: Championship, acting_user: User | None, site_url: str) -> list[
        Registration]:
    """Move the waiting list up while places are free (the caller holds the lock)."""
    cap = championship.signup_cap
    holding = _holding(championship)
    moved: list[Registration] = []
    for registration in Registration.objects.filter(
            championship=championship, status=S.WAITING).order_by("position", "id"):
        if cap is not None and holding >= cap:
            break
        before = _snapshot(registration)
        registration.status = S.REGISTERED
        registration.save(update_fields=["status"])
        holding += 1
        moved.append(registration)
        audit(championship, AuditEntry.Action.SIGNUP_PROMOTE, acting_user,
              target=_target(registration), before=before, after=_snapshot(registration))
        _mail_later(registration, "promoted", site_url)
    return moved


def _locked_registration(registration: Registration) -> tuple[Championship, Registration]:
    championship = lock_championship(registration.championship_id)
    row = Registration.objects.select_for_update().get(pk=registration.pk)
    row.championship = championship
    return championship, row


@transaction.atomic
def signup_cancel(
    *, registration: Registration, site_url: str, acting_user: User | None = None,
    by_link: bool = False,
) -> list[Registration]:
    """Cancel a registration: by its pair through the e-mail's link (``by_link``: no
    login, the token is the credential) or by the organiser. A place freed moves the
    waiting list up (each pair moved is e-mailed); returns the registrations moved up.
    Cancelling again changes nothing. The pair made of it, if any, stays (the
    organiser removes or withdraws it; with the check-in on it is never drawn).

    Raises :class:`NotAllowedError` (not by link, not the organiser),
    :class:`ChampionshipStateError` (finished, round 1 drawn).
    """
    championship, registration = _locked_registration(registration)
    if not by_link:
        require(acting_user, championship, Capability.MANAGE_SIGNUP)
    _check_list_open(championship)
    if registration.status == S.CANCELLED:
        return []
    before = _snapshot(registration)
    registration.status = S.CANCELLED
    registration.cancelled_at = timezone.now()
    registration.save(update_fields=["status", "cancelled_at"])
    audit(championship, AuditEntry.Action.SIGNUP_CANCEL, acting_user if not by_link else None,
          target=_target(registration), before=before, after=_snapshot(registration),
          reason=_("Cancel·lada per la parella (enllaç del correu).") if by_link else "")
    _mail_later(registration, "cancelled", site_url)
    return _promote(championship, acting_user if not by_link else None, site_url)


@transaction.atomic
def signup_confirm(*, registration: Registration, acting_user: User | None) -> Registration:
    """The organiser confirms a registration (e.g. once paid): it holds a place, even
    over the cap (a waiting pair confirmed leaves the waiting list). Confirming again
    changes nothing.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (cancelled,
    finished, round 1 drawn).
    """
    championship, registration = _locked_registration(registration)
    require(acting_user, championship, Capability.MANAGE_SIGNUP)
    _check_list_open(championship)
    if registration.status == S.CANCELLED:
        raise ChampionshipStateError(_("Aquesta inscripció està cancel·lada."))
    if registration.status == S.CONFIRMED:
        return registration
    before = _snapshot(registration)
    registration.status = S.CONFIRMED
    registration.save(update_fields=["status"])
    audit(championship, AuditEntry.Action.SIGNUP_CONFIRM, acting_user,
          target=_target(registration), before=before, after=_snapshot(registration))
    return registration


@transaction.atomic
def signup_paid(*, registration: Registration, paid: bool,
                acting_user: User | None) -> Registration:
    """Mark a registration paid (or not). Organiser only; at any time until the
    championship is finished (the money may come on the day).

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished).
    """
    championship, registration = _locked_registration(registration)
    require(acting_user, championship, Capability.MANAGE_SIGNUP)
    check_not_finished(championship)
    if registration.paid == paid:
        return registration
    before = _snapshot(registration)
    registration.paid = paid
    registration.save(update_fields=["paid"])
    audit(championship, AuditEntry.Action.SIGNUP_PAID, acting_user,
          target=_target(registration), before=before, after=_snapshot(registration))
    return registration


@transaction.atomic
def signup_move(*, registration: Registration, position: int,
                acting_user: User | None) -> Registration:
    """Put a registration at ``position`` (1: first) of the list of those not cancelled,
    the others keeping their order: the order of the waiting list and of the pairs'
    numbers. Its status does not change (a waiting pair moved above others still
    waits; confirm it to give it a place). A position past the end is the end.

    Raises :class:`RegistrationError` (field ``position``: below 1),
    :class:`NotAllowedError`, :class:`ChampionshipStateError` (cancelled, finished,
    round 1 drawn).
    """
    championship, registration = _locked_registration(registration)
    require(acting_user, championship, Capability.MANAGE_SIGNUP)
    _check_list_open(championship)
    if registration.status == S.CANCELLED:
        raise ChampionshipStateError(_("Aquesta inscripció està cancel·lada."))
    if isinstance(position, bool) or not isinstance(position, int) or position < 1:
        raise RegistrationError(
            _("La posició ha de ser un enter a partir de 1, no «%(n)s».") % {"n": position},
            field="position")
    rows = list(Registration.objects.filter(championship=championship)
                .exclude(status=S.CANCELLED).order_by("position", "id"))
    old = next(i for i, r in enumerate(rows) if r.pk == registration.pk)
    new = min(position, len(rows)) - 1
    if old == new:
        return registration
    before = _snapshot(registration)
    moved = rows.pop(old)
    rows.insert(new, moved)
    for k, row in enumerate(rows, start=1):
        if row.position != k:
            row.position = k
            row.save(update_fields=["position"])
    # The cancelled rows after every active one, in their order.
    for k, row in enumerate(Registration.objects.filter(
            championship=championship, status=S.CANCELLED).order_by("position", "id"),
            start=len(rows) + 1):
        if row.position != k:
            row.position = k
            row.save(update_fields=["position"])
    registration.refresh_from_db()
    audit(championship, AuditEntry.Action.SIGNUP_MOVE, acting_user,
          target=_target(registration), before=before, after=_snapshot(registration))
    return registration


@transaction.atomic
def signup_settings_set(
    *, championship: Championship, signup_open: bool, signup_cap: int | None,
    check_in: bool, site_url: str, acting_user: User | None,
) -> Championship:
    """Open or close the public sign-up, set its cap (``None``: none; a higher cap or
    none moves the waiting list up) and whether pairs check in on the day. The sign-up
    cannot open, nor the check-in change, once round 1 is drawn (the draw already
    followed it).

    Raises :class:`RegistrationError` (field ``signup_cap``: not 1..:data:`CAP_MAX`),
    :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, round 1 drawn).
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.MANAGE_SIGNUP)
    check_not_finished(championship)
    if signup_cap is not None and (
        isinstance(signup_cap, bool) or not isinstance(signup_cap, int)
        or not 1 <= signup_cap <= CAP_MAX
    ):
        raise RegistrationError(
            _("Les places han de ser un enter de 1 a %(max)s, o res per no posar-hi límit.")
            % {"max": CAP_MAX}, field="signup_cap")
    before = {"signup_open": championship.signup_open, "signup_cap": championship.signup_cap,
              "check_in": championship.check_in}
    after = {"signup_open": bool(signup_open), "signup_cap": signup_cap,
             "check_in": bool(check_in)}
    if before == after:
        return championship
    if first_round_drawn(championship):
        if after["check_in"] != before["check_in"]:
            raise ChampionshipStateError(
                _("La primera ronda ja està sortejada: ja no es pot canviar si cal passar "
                  "llista."), field="check_in")
        if after["signup_open"] and not before["signup_open"]:
            raise ChampionshipStateError(
                _("La primera ronda ja està sortejada: la inscripció ja no es pot obrir."),
                field="signup_open")
    championship.signup_open = bool(signup_open)
    championship.signup_cap = signup_cap
    championship.check_in = bool(check_in)
    championship.save(update_fields=["signup_open", "signup_cap", "check_in"])
    audit(championship, AuditEntry.Action.SIGNUP_SETTINGS, acting_user,
          target=_("inscripció"), before=before, after=after)
    if not first_round_drawn(championship):
        _promote(championship, acting_user, site_url)
    return championship


@transaction.atomic
def pairs_from_signup(*, championship: Championship, acting_user: User | None) -> list[Pair]:
    """Make the championship's pairs of the registrations holding a place (registered
    or confirmed) that have none yet, in the list's order, numbered after the highest
    pair registered, each through :func:`pair_register` (so every check of the pairs
    holds, and a pair made after a draw is late). Running it again makes only the new
    ones: none twice. Returns the pairs made.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, every
    round drawn), :class:`RegistrationError` (a name the pairs refuse).
    """
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.REGISTER_PAIRS)
    check_not_finished(championship)
    todo = list(Registration.objects.filter(
        championship=championship, status__in=HOLDING, pair__isnull=True,
    ).order_by("position", "id"))
    if not todo:
        return []
    last: int | None = Pair.objects.filter(championship=championship).aggregate(
        n=Max("number"))["n"]
    made: list[Pair] = []
    for number, registration in enumerate(todo, start=(last or 0) + 1):
        pair = pair_register(championship=championship, number=number,
                             player1=registration.player1_name,
                             player2=registration.player2_name, acting_user=acting_user)
        registration.pair = pair
        registration.save(update_fields=["pair"])
        made.append(pair)
    audit(championship, AuditEntry.Action.PAIRS_FROM_SIGNUP, acting_user,
          target=_("%(n)s parelles") % {"n": len(made)},
          after={"pairs": [p.number for p in made]})
    return made


# --------------------------------------------------------------------------- check-in


@dataclass(frozen=True, slots=True)
class CheckedIn:
    """A check-in's outcome: the ``pair``, whether anything changed (a double tap
    changes nothing) and the round it ``joins`` (above 1: checked in after round 1 was
    drawn)."""

    pair: Pair
    changed: bool
    joins: int


@transaction.atomic
def pair_check_in(*, pair: Pair, present: bool, acting_user: User | None) -> CheckedIn:
    """Tick ``pair`` present (``present``) or undo it. Idempotent: ticking a pair
    present twice (two helpers, a double tap) changes nothing the second time. With the
    check-in on, a pair ticked after round 1 is drawn joins from the next round drawn
    (``pairs.late_entry_round``: a late pair, its missed rounds ranked by the
    championship's rule). Undoing is refused once the pair sat at a table (withdraw it
    instead). The organiser and the ``check_in`` role.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished, every
    round drawn, already seated).
    """
    championship = lock_championship(pair.championship_id)
    require(acting_user, championship, Capability.CHECK_IN)
    check_not_finished(championship)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if present == (pair.checked_in_at is not None):
        return CheckedIn(pair, False, pair.joined_round)
    before = {"checked_in": pair.checked_in_at is not None, "joined_round": pair.joined_round}
    if present:
        if championship.check_in and first_round_drawn(championship):
            joins = late_entry_round(championship)
            if joins is None:
                raise ChampionshipStateError(
                    _("Ja estan sortejades totes les rondes: la parella %(n)s ja no pot "
                      "jugar.") % {"n": pair.number})
            pair.joined_round = max(pair.joined_round, joins)
        pair.checked_in_at = timezone.now()
        action = AuditEntry.Action.PAIR_CHECK_IN
    else:
        seated = (Seating.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists()
                  or Bye.objects.filter(pair=pair).exists())
        if seated:
            raise ChampionshipStateError(
                _("La parella %(n)s ja ha estat sortejada: no es pot treure de la llista de "
                  "presents (es pot retirar).") % {"n": pair.number})
        pair.checked_in_at = None
        action = AuditEntry.Action.PAIR_CHECK_IN_UNDO
    pair.save(update_fields=["checked_in_at", "joined_round"])
    audit(championship, action, acting_user, target=_("parella %(n)s") % {"n": pair.number},
          before=before,
          after={"checked_in": present, "joined_round": pair.joined_round})
    return CheckedIn(pair, True, pair.joined_round)
