"""Stages: a championship as a sequence of groups, a knockout or finals (docs/rules.md
"Stages"). A championship with no stage is one stage over all its rounds, as before.

A stage owns a run of the championship's rounds (``Round.stage``). What the stage
fixed when it started is stored on it as JSON, so later corrections cannot move it
silently: the groups' pairs (``groups``), the qualified pairs in seed order
(``qualified``) and the bracket's first-round places (``bracket``). Everything else (group
standings, winners, the next match) is computed from the games by
``tournaments.selectors.stages`` with ``scoring.stages``.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship


class Stage(models.Model):
    """One stage of a championship: ``number`` 1, 2, ... in playing order."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Fase de classificació")
        GROUPS = "groups", _("Grups (lligueta)")
        KNOCKOUT = "knockout", _("Eliminatòria")
        FINALS = "finals", _("Finals per classificació")

    class Split(models.TextChoices):
        SEEDING = "seeding", _("Per ordre d'inscripció")
        SNAKE = "snake", _("En serp per la classificació")
        RANDOM = "random", _("A l'atzar")

    class RestRule(models.TextChoices):
        BEST_PLACED = "best_placed", _("Els millors classificats dels grups")
        BEST_RECORD = "best_record", _("El millor resultat per partida")

    class CarryOver(models.TextChoices):
        NONE = "none", _("Sense arrossegament")
        ALL = "all", _("Tot el resultat")
        PERCENT = "percent", _("Un percentatge")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="stages",
        verbose_name=_("campionat"),
    )
    number = models.PositiveSmallIntegerField(_("número"))
    kind = models.CharField(_("tipus"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("nom"), max_length=60, blank=True)
    # Groups.
    group_count = models.PositiveSmallIntegerField(_("grups"), default=0)
    split = models.CharField(
        _("repartiment en grups"), max_length=10, choices=Split.choices, default=Split.SNAKE
    )
    per_group = models.PositiveSmallIntegerField(_("classificats per grup"), default=0)
    second_chance = models.PositiveSmallIntegerField(_("repesca"), default=0)
    rest_rule = models.CharField(
        _("regla de la repesca"), max_length=12, choices=RestRule.choices,
        default=RestRule.BEST_PLACED,
    )
    exclude_zero_wins = models.BooleanField(_("sense repesca amb zero victòries"), default=True)
    # Knockout.
    third_place = models.BooleanField(_("partida pel tercer lloc"), default=False)
    avoid_same_group = models.BooleanField(_("evitar parelles del mateix grup"), default=True)
    # Finals (duplicate): [["A", 16], ["B", 16]].
    finals = models.JSONField(_("finals"), default=list, blank=True)
    carry_over = models.CharField(
        _("arrossegament"), max_length=8, choices=CarryOver.choices, default=CarryOver.NONE
    )
    carry_over_percent = models.PositiveSmallIntegerField(_("percentatge arrossegat"), default=0)
    # Fixed when the stage starts (services.stage_start).
    seed = models.BigIntegerField(_("llavor"), null=True, blank=True)
    groups = models.JSONField(_("grups formats"), null=True, blank=True)
    qualified = models.JSONField(_("classificats"), null=True, blank=True)
    bracket = models.JSONField(_("quadre"), null=True, blank=True)
    started_at = models.DateTimeField(_("començada el"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("fase")
        verbose_name_plural = _("fases")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="stage_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(
                condition=Q(carry_over_percent__lte=100), name="stage_carry_over_percent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · {self.label}"

    @property
    def label(self) -> str:
        return str(self.name or self.get_kind_display())

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    def group_list(self) -> list[dict[str, Any]]:
        """The groups as stored: ``[{"name": "A", "pairs": [1, 8, ...]}, ...]``."""
        return list(self.groups or [])
