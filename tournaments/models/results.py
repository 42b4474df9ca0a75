"""Results, one per table and board, and the pair-board rows that keep a pair from
playing a board twice."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.cards import other_side_points
from tournaments.fields import NFCCharField
from tournaments.models.championships import Pair
from tournaments.models.rounds import Board, Seating


class Result(models.Model):
    """One table's outcome on one board (docs/file-format.md "A result").

    ``ns_points_taken``: card and trick points NS took, 0..72 (EW took the rest); ``None``
    for an adjusted result, and allowed at an infraction (where the points do not count).
    ``adjusted_ns``/``adjusted_ew``: the director's adjustments, both set or both empty.
    ``version`` starts at 1 and grows by one with every correction (optimistic
    concurrency in ``services.result_record``).
    """

    class Trump(models.TextChoices):
        O = "O", _("Oros")  # noqa: E741
        C = "C", _("Copes")
        E = "E", _("Espases")
        B = "B", _("Bastos")
        BOTIFARRA = "botifarra", _("Botifarra")

    class Side(models.TextChoices):
        NS = "NS", _("NS")
        EW = "EW", _("EO")

    class Adjustment(models.TextChoices):
        AVERAGE = "average", _("Mitjana")
        AVERAGE_PLUS = "average_plus", _("Mitjana més")
        AVERAGE_MINUS = "average_minus", _("Mitjana menys")

    seating = models.ForeignKey(
        Seating, on_delete=models.PROTECT, related_name="results",
        verbose_name=_("assignació de taula"),
    )
    board = models.ForeignKey(
        Board, on_delete=models.PROTECT, related_name="results", verbose_name=_("tauler")
    )
    # Nullable text on purpose: NULL mirrors the interchange file's null and the
    # CheckConstraints below test IS NULL.
    trump = models.CharField(  # noqa: DJ001
        _("trumfo"), max_length=10, choices=Trump.choices, null=True, blank=True
    )
    delegated = models.BooleanField(_("delegat"), default=False)
    contro = models.BooleanField(_("contro"), default=False)
    recontro = models.BooleanField(_("recontro"), default=False)
    sant_vicenc = models.BooleanField(_("Sant Vicenç"), default=False)
    ns_points_taken = models.PositiveSmallIntegerField(_("punts NS"), null=True, blank=True)
    infraction = models.CharField(  # noqa: DJ001
        _("infracció"), max_length=2, choices=Side.choices, null=True, blank=True
    )
    adjusted_ns = models.CharField(  # noqa: DJ001
        _("puntuació arbitral NS"), max_length=15, choices=Adjustment.choices,
        null=True, blank=True,
    )
    adjusted_ew = models.CharField(  # noqa: DJ001
        _("puntuació arbitral EO"), max_length=15, choices=Adjustment.choices,
        null=True, blank=True,
    )
    note = NFCCharField(_("nota"), max_length=500, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("entrat per"),
    )
    entered_at = models.DateTimeField(_("entrat el"), default=timezone.now)
    updated_at = models.DateTimeField(_("modificat el"), default=timezone.now)
    version = models.PositiveIntegerField(_("versió"), default=1)

    class Meta:
        ordering = ["board__number", "seating__table__number"]
        verbose_name = _("resultat")
        verbose_name_plural = _("resultats")
        constraints = [
            models.UniqueConstraint(fields=["seating", "board"], name="result_one_per_table_board"),
            models.CheckConstraint(
                condition=Q(ns_points_taken__isnull=True)
                | Q(ns_points_taken__gte=0, ns_points_taken__lte=72),
                name="result_points_0_72",
            ),
            models.CheckConstraint(
                condition=Q(recontro=False) | Q(contro=True), name="result_recontro_needs_contro"
            ),
            models.CheckConstraint(
                condition=Q(sant_vicenc=False) | Q(recontro=True),
                name="result_sant_vicenc_needs_recontro",
            ),
            models.CheckConstraint(
                condition=Q(adjusted_ns__isnull=True, adjusted_ew__isnull=True)
                | Q(adjusted_ns__isnull=False, adjusted_ew__isnull=False),
                name="result_adjusted_both_sides",
            ),
            models.CheckConstraint(
                condition=Q(infraction__isnull=True) | Q(adjusted_ns__isnull=True),
                name="result_not_infraction_and_adjusted",
            ),
            models.CheckConstraint(
                condition=Q(ns_points_taken__isnull=False) | Q(adjusted_ns__isnull=False)
                | Q(infraction__isnull=False),
                name="result_points_null_only_adjusted_or_infraction",
            ),
            models.CheckConstraint(
                condition=Q(trump__isnull=False) | Q(adjusted_ns__isnull=False),
                name="result_trump_null_only_adjusted",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seating} · {_('tauler')} {self.board.number}"

    @property
    def is_adjusted(self) -> bool:
        return self.adjusted_ns is not None

    @property
    def ew_points_taken(self) -> int | None:
        return None if self.ns_points_taken is None else other_side_points(self.ns_points_taken)

    def snapshot(self) -> dict[str, Any]:
        """The result's recorded fields as JSON (for the audit log)."""
        return {
            "board": self.board.number if self.board_id else None,
            "trump": self.trump,
            "delegated": self.delegated,
            "contro": self.contro,
            "recontro": self.recontro,
            "sant_vicenc": self.sant_vicenc,
            "ns_points_taken": self.ns_points_taken,
            "infraction": self.infraction,
            "adjusted": (
                {"NS": self.adjusted_ns, "EW": self.adjusted_ew} if self.is_adjusted else None
            ),
            "note": self.note,
            "version": self.version,
        }


class PairBoard(models.Model):
    """One row per pair and board played: a pair never plays a board twice."""

    pair = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("parella")
    )
    board = models.ForeignKey(
        Board, on_delete=models.PROTECT, related_name="+", verbose_name=_("tauler")
    )
    result = models.ForeignKey(
        Result, on_delete=models.CASCADE, related_name="+", verbose_name=_("resultat")
    )

    class Meta:
        verbose_name = _("tauler jugat per una parella")
        verbose_name_plural = _("taulers jugats per parelles")
        constraints = [
            models.UniqueConstraint(fields=["pair", "board"], name="pairboard_board_once_per_pair"),
        ]

    def __str__(self) -> str:
        return f"P{self.pair_id} B{self.board_id}"


class Game(models.Model):
    """One table's game of a classic championship's round (docs/file-format.md "A
    game"): the final points of the pairs seated NS and EW (as entered; the standings
    count them up to the cap), the deals played, how the game ended, and the score
    sheet's deals (``hands``, ``scoring.classic.Hand.as_json`` each) when it was entered
    deal by deal. ``version`` as a board's :class:`Result`."""

    class EndedBy(models.TextChoices):
        TARGET = "target", _("Punts assolits")
        DEALS = "deals", _("Mans esgotades")
        TIME = "time", _("Temps esgotat")
        ADJUSTED = "adjusted", _("Decisió arbitral")

    seating = models.OneToOneField(
        Seating, on_delete=models.PROTECT, related_name="game",
        verbose_name=_("assignació de taula"),
    )
    ns_points = models.PositiveIntegerField(_("punts NS"))
    ew_points = models.PositiveIntegerField(_("punts EO"))
    deals = models.PositiveSmallIntegerField(_("mans jugades"))
    ended_by = models.CharField(_("final"), max_length=10, choices=EndedBy.choices)
    hands = models.JSONField(_("mans"), null=True, blank=True)
    note = NFCCharField(_("nota"), max_length=500, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("entrat per"),
    )
    entered_at = models.DateTimeField(_("entrat el"), default=timezone.now)
    updated_at = models.DateTimeField(_("modificat el"), default=timezone.now)
    version = models.PositiveIntegerField(_("versió"), default=1)

    class Meta:
        ordering = ["seating__round__number", "seating__table__number"]
        verbose_name = _("partida")
        verbose_name_plural = _("partides")
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="game_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seating}: {self.ns_points}-{self.ew_points}"

    def snapshot(self) -> dict[str, Any]:
        """The game's recorded fields as JSON (for the audit log)."""
        return {
            "ns_points": self.ns_points, "ew_points": self.ew_points, "deals": self.deals,
            "ended_by": self.ended_by, "hands": self.hands, "note": self.note,
            "version": self.version,
        }
