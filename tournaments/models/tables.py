"""Results entered at the table: each table's secret link and the entries the players
make with it (tournaments.services.tables; docs/decisions.md "Results from the table").

An entry is provisional until the opponents confirm it: it lives only here, never as a
``Result`` or a ``Game``, so no standings, traveller, API or document counts it. The
confirmation records the real result through the referees' own services."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.rounds import Board, Round


class TableAccess(models.Model):
    """The secret of one table of a championship: whoever holds it (the QR code on the
    table card, the short link) may enter that table's results of its current round. One
    live secret per table; a reissued one is revoked (``revoked_at``) and refused."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="table_accesses",
        verbose_name=_("campionat"),
    )
    table_number = models.PositiveSmallIntegerField(_("taula"))
    secret = models.CharField(_("secret"), max_length=64, unique=True)
    issued_at = models.DateTimeField(_("emès el"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revocat el"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "table_number", "-issued_at"]
        verbose_name = _("accés de taula")
        verbose_name_plural = _("accessos de taula")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "table_number"], condition=Q(revoked_at__isnull=True),
                name="tableaccess_one_live_secret",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · {self.table_number}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class TableEntry(models.Model):
    """A result entered at the table (``board`` set: a board of a duplicate
    championship) or a table's game (``board`` null: a classic championship), with the
    values as the referee's API takes them (``values``). Only the other pair of the
    table confirms it; confirmed, the real result is recorded and the entry says so."""

    class Status(models.TextChoices):
        PROVISIONAL = "provisional", _("Provisional")
        CONFIRMED = "confirmed", _("Confirmat")
        DISPUTED = "disputed", _("Discutit")
        SUPERSEDED = "superseded", _("Substituït")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="table_entries",
        verbose_name=_("campionat"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="table_entries", verbose_name=_("ronda")
    )
    table_number = models.PositiveSmallIntegerField(_("taula"))
    board = models.ForeignKey(
        Board, on_delete=models.CASCADE, null=True, blank=True, related_name="table_entries",
        verbose_name=_("tauler"),
    )
    values = models.JSONField(_("valors"))
    entered_by_pair = models.PositiveIntegerField(_("entrat per la parella"))
    status = models.CharField(
        _("estat"), max_length=12, choices=Status.choices, default=Status.PROVISIONAL
    )
    # NULL, not "": an entry sent without a key, and the unique constraint ignores NULLs.
    idempotency_key = models.CharField(  # noqa: DJ001
        _("clau d'idempotència"), max_length=100, null=True, blank=True
    )
    note = models.CharField(_("nota"), max_length=500, blank=True, default="")
    confirmed_by_pair = models.PositiveIntegerField(
        _("confirmat per la parella"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("creat el"), default=timezone.now)
    updated_at = models.DateTimeField(_("actualitzat el"), default=timezone.now)

    class Meta:
        ordering = ["round", "table_number", "board", "-created_at"]
        verbose_name = _("entrada de taula")
        verbose_name_plural = _("entrades de taula")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "idempotency_key"], name="tableentry_unique_key",
            ),
        ]
        indexes = [models.Index(fields=["round", "table_number"], name="tableentry_table")]

    def __str__(self) -> str:
        return f"{self.round} · {self.table_number} · {self.board_id}: {self.status}"
