"""People across championships: a person registered once, the pairs that sign up for a
championship, and the seasons (circuits and leagues) that rank persons over several
championships.

A championship's ``Player`` links to a ``Person`` (``Player.person``). Two records of one
person are merged by pointing the absorbed one at the one kept (``Person.merged_into``):
nothing else moves, so every reader that follows the link shows the merge at once and an
un-merge (clearing the link) restores both exactly as they were.
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.fields import NFCCharField
from tournaments.models.championships import Championship, Pair


def name_key(name: str) -> str:
    """``name`` folded for matching two spellings of one person: accents, case, dots,
    hyphens, apostrophes and repeated spaces aside ("Núria  Puig-Ferré" and "nuria puig
    ferre" give one key)."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    for mark in ".-'’·":
        letters = letters.replace(mark, " ")
    return " ".join(letters.casefold().split())


class Person(models.Model):
    """Someone who plays, registered once whatever the championships they play in."""

    name = NFCCharField(_("nom"), max_length=200)
    short_name = NFCCharField(_("nom curt"), max_length=60, blank=True, default="")
    club = NFCCharField(_("club o població"), max_length=200, blank=True, default="")
    #: A federation's or association's licence number; matching proposes the person
    #: with the same licence first.
    licence = NFCCharField(_("llicència"), max_length=50, blank=True, default="")
    #: :func:`name_key` of ``name``, kept on every save, for matching.
    name_key = models.CharField(_("clau del nom"), max_length=200, editable=False, db_index=True)
    #: The person asked to be shown in public as "Jugador <id>" instead of by name.
    public_alias = models.BooleanField(_("es mostra com a «Jugador N»"), default=False)
    #: Set when this record was merged into another one (the one kept); every reader
    #: follows it. Cleared by an un-merge.
    merged_into = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="merged",
        verbose_name=_("fusionat amb"),
    )
    merged_at = models.DateTimeField(_("fusionat el"), null=True, blank=True)
    #: The name and contact were erased (a person with results cannot be deleted).
    anonymised_at = models.DateTimeField(_("anonimitzat el"), null=True, blank=True)
    created_at = models.DateTimeField(_("creat el"), auto_now_add=True)

    class Meta:
        ordering = ["name_key", "id"]
        verbose_name = _("persona")
        verbose_name_plural = _("persones")
        indexes = [models.Index(fields=["licence"], name="person_licence")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(merged_into=models.F("id")), name="person_not_merged_into_self"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Keeps ``name_key`` (``bulk_create`` does not call this: set it there)."""
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


def _cancel_token() -> str:
    return secrets.token_urlsafe(24)


class Registration(models.Model):
    """A pair that signed up for a championship through its public form (or that the
    organiser added to the list). The contact is the organiser's only.

    ``status``: ``registered`` (a place is held), ``waiting`` (over the cap: the waiting
    list, in ``position`` order, moves up when a registered pair cancels), ``confirmed``
    (the organiser confirmed, e.g. once paid), ``cancelled``. ``pair`` is the
    championship's pair made from it."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Inscrita")
        WAITING = "waiting", _("En llista d'espera")
        CONFIRMED = "confirmed", _("Confirmada")
        CANCELLED = "cancelled", _("Cancel·lada")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="registrations",
        verbose_name=_("campionat"),
    )
    player1_name = NFCCharField(_("jugador 1"), max_length=200)
    player2_name = NFCCharField(_("jugador 2"), max_length=200)
    player1_licence = NFCCharField(_("llicència del jugador 1"), max_length=50, blank=True,
                                   default="")
    player2_licence = NFCCharField(_("llicència del jugador 2"), max_length=50, blank=True,
                                   default="")
    email = models.EmailField(_("correu electrònic"), blank=True, default="")
    phone = NFCCharField(_("telèfon"), max_length=40, blank=True, default="")
    #: The language the pair signed up in: the e-mails are written in it.
    language = models.CharField(_("idioma"), max_length=10, blank=True, default="")
    status = models.CharField(
        _("estat"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    paid = models.BooleanField(_("pagada"), default=False)
    #: Order of sign-up (the waiting list moves up in this order); the organiser may move.
    position = models.PositiveIntegerField(_("posició"))
    #: The secret of the cancel link sent by e-mail.
    cancel_token = models.CharField(
        _("clau per cancel·lar"), max_length=64, unique=True, default=_cancel_token,
        editable=False,
    )
    pair = models.OneToOneField(
        Pair, on_delete=models.SET_NULL, null=True, blank=True, related_name="registration",
        verbose_name=_("parella"),
    )
    note = NFCCharField(_("nota"), max_length=500, blank=True, default="")
    created_at = models.DateTimeField(_("inscrita el"), default=timezone.now)
    cancelled_at = models.DateTimeField(_("cancel·lada el"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "position", "id"]
        verbose_name = _("inscripció")
        verbose_name_plural = _("inscripcions")
        indexes = [
            models.Index(fields=["championship", "status", "position"],
                         name="registration_list"),
        ]

    def __str__(self) -> str:
        return f"{self.player1_name} – {self.player2_name}"


class Circuit(models.Model):
    """A season (a circuit or a league): its championships (``CircuitEvent``), the rule
    that turns each final standing into points, and its rankings of players and pairs
    (``scoring.circuits``)."""

    class Points(models.TextChoices):
        PLACE_TABLE = "place_table", _("Punts per lloc (taula)")
        FIELD_FORMULA = "field_formula", _("Punts per lloc (fórmula segons les parelles)")
        PERCENTAGE = "percentage", _("Percentatge")
        WINS = "wins", _("Partides guanyades")

    name = NFCCharField(_("nom"), max_length=200)
    slug = models.SlugField(_("identificador"), max_length=100, unique=True)
    season = NFCCharField(_("temporada"), max_length=60, blank=True, default="")
    description = NFCCharField(_("descripció"), max_length=1000, blank=True, default="")
    points = models.CharField(
        _("punts"), max_length=15, choices=Points.choices, default=Points.PLACE_TABLE
    )
    #: Points of the 1st, 2nd... place (``place_table``); places beyond it score 0.
    points_table = models.JSONField(_("taula de punts"), default=list, blank=True)
    #: How many of a player's results count (the best ones); ``None``: all.
    best_of = models.PositiveSmallIntegerField(_("millors resultats que compten"), null=True,
                                               blank=True)
    #: Events needed to be ranked.
    min_events = models.PositiveSmallIntegerField(_("proves mínimes"), default=1)
    #: Ties on points broken in this order (``scoring.circuits.Tiebreak`` values).
    tiebreaks = models.JSONField(_("desempats"), default=list, blank=True)
    #: Bumped on every change that can alter the rankings but is not a championship's
    #: result (rules, events, a merge): with the events' results versions it keys the
    #: cached ranking and its ETag.
    version = models.PositiveIntegerField(_("versió"), default=0, editable=False)
    changed_at = models.DateTimeField(_("canviat el"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("creat el"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("circuit")
        verbose_name_plural = _("circuits")

    def __str__(self) -> str:
        return self.name


class CircuitEvent(models.Model):
    """A championship of a circuit."""

    circuit = models.ForeignKey(
        Circuit, on_delete=models.CASCADE, related_name="events", verbose_name=_("circuit")
    )
    championship = models.ForeignKey(
        Championship, on_delete=models.PROTECT, related_name="circuit_events",
        verbose_name=_("campionat"),
    )
    added_at = models.DateTimeField(_("afegit el"), auto_now_add=True)

    class Meta:
        ordering = ["circuit", "championship__date", "id"]
        verbose_name = _("prova del circuit")
        verbose_name_plural = _("proves del circuit")
        constraints = [
            models.UniqueConstraint(fields=["circuit", "championship"],
                                    name="circuit_event_once"),
        ]

    def __str__(self) -> str:
        return f"{self.circuit} · {self.championship}"


class CircuitRole(models.Model):
    """Who runs a circuit: its organisers may differ from its championships'."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organitzador")

    circuit = models.ForeignKey(
        Circuit, on_delete=models.CASCADE, related_name="roles", verbose_name=_("circuit")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="circuit_roles",
        verbose_name=_("usuari"),
    )
    role = models.CharField(_("rol"), max_length=15, choices=Role.choices,
                            default=Role.ORGANISER)

    class Meta:
        verbose_name = _("rol al circuit")
        verbose_name_plural = _("rols al circuit")
        constraints = [
            models.UniqueConstraint(fields=["circuit", "user", "role"],
                                    name="circuit_role_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.circuit}"


class FinalStanding(models.Model):
    """A championship's final places as the circuits read them, computed once per
    results version (``rows``: one per ranked pair, with ``pair``, ``place``,
    ``players`` (the two ``Player`` ids), ``percentage`` or ``wins``, and ``field``, the
    number of ranked pairs), so a ranking over 30 championships reads 30 rows instead of
    scoring 30 championships."""

    championship = models.OneToOneField(
        Championship, on_delete=models.CASCADE, related_name="final_standing",
        verbose_name=_("campionat"),
    )
    results_version = models.PositiveIntegerField(_("versió dels resultats"))
    rows = models.JSONField(_("llocs"), default=list, encoder=DjangoJSONEncoder)
    computed_at = models.DateTimeField(_("calculat el"), default=timezone.now)

    class Meta:
        verbose_name = _("classificació final")
        verbose_name_plural = _("classificacions finals")

    def __str__(self) -> str:
        return f"{self.championship} · v{self.results_version}"


class PeopleAuditEntry(models.Model):
    """One row for every write to persons and circuits (the championship's own writes are
    ``AuditEntry``): who, when, what, before and after. ``action`` is one of
    :class:`Action`'s values (not a field choice, so adding one needs no migration)."""

    class Action(models.TextChoices):
        PERSON_CREATE = "person.create", _("Persona creada")
        PERSON_EDIT = "person.edit", _("Persona canviada")
        PERSON_LINK = "person.link", _("Jugador enllaçat amb una persona")
        PERSON_MERGE = "person.merge", _("Persones fusionades")
        PERSON_UNMERGE = "person.unmerge", _("Fusió desfeta")
        PERSON_EXPORT = "person.export", _("Dades d'una persona exportades")
        PERSON_ANONYMISE = "person.anonymise", _("Persona anonimitzada")
        PERSON_DELETE = "person.delete", _("Persona esborrada")
        CIRCUIT_CREATE = "circuit.create", _("Circuit creat")
        CIRCUIT_RULES = "circuit.rules", _("Regles del circuit canviades")
        CIRCUIT_EVENT_ADD = "circuit.event_add", _("Prova afegida al circuit")
        CIRCUIT_EVENT_REMOVE = "circuit.event_remove", _("Prova treta del circuit")
        CIRCUIT_IMPORT = "circuit.import", _("Temporada importada")
        CIRCUIT_RANKING = "circuit.ranking", _("Rànquing del circuit canviat")
        ROLE_GRANT = "circuit.role_grant", _("Rol al circuit donat")
        ROLE_REVOKE = "circuit.role_revoke", _("Rol al circuit tret")

    at = models.DateTimeField(_("moment"), default=timezone.now)
    acting_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("fet per"),
    )
    action = models.CharField(_("acció"), max_length=40)
    circuit = models.ForeignKey(
        Circuit, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries",
        verbose_name=_("circuit"),
    )
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries",
        verbose_name=_("persona"),
    )
    target = NFCCharField(_("objecte"), max_length=200, blank=True, default="")
    before = models.JSONField(_("abans"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("després"), null=True, blank=True, encoder=DjangoJSONEncoder)
    reason = NFCCharField(_("motiu"), max_length=500, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("entrada del registre de persones i circuits")
        verbose_name_plural = _("registre de persones i circuits")
        indexes = [
            models.Index(fields=["circuit", "-at"], name="people_audit_circuit"),
            models.Index(fields=["person", "-at"], name="people_audit_person"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.target} {self.at:%Y-%m-%d %H:%M}".strip()
