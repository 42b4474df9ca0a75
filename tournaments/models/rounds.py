"""Rounds, tables, boards (with their double-dummy analysis), seatings and byes."""

from __future__ import annotations

import hashlib

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from engine.seats import Seat, dealer
from tournaments.models.championships import Championship, Pair


class Round(models.Model):
    """A round: every table plays the same boards (as on butinet)."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="rounds",
        verbose_name=_("campionat"),
    )
    number = models.PositiveSmallIntegerField(_("número"))
    draw_seed = models.BigIntegerField(_("llavor del sorteig"), null=True, blank=True)
    # The method the round was drawn by ("" before the draw or for a seating typed in).
    movement = models.CharField(
        _("moviment"), max_length=12, choices=Championship.Movement.choices, blank=True
    )
    closed_at = models.DateTimeField(_("tancada el"), null=True, blank=True)
    # The stage the round belongs to (None: a championship of one stage).
    stage = models.ForeignKey(
        "tournaments.Stage", on_delete=models.RESTRICT, related_name="rounds",
        null=True, blank=True, verbose_name=_("fase"),
    )
    # The round's place in its stage (1, 2, ...; a knockout's round 1 is its first).
    stage_round = models.PositiveSmallIntegerField(_("ronda de la fase"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("ronda")
        verbose_name_plural = _("rondes")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class Table(models.Model):
    """A numbered physical table of the championship's room."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="tables",
        verbose_name=_("campionat"),
    )
    number = models.PositiveSmallIntegerField(_("número"))

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("taula")
        verbose_name_plural = _("taules")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number}"


class Board(models.Model):
    """A numbered deal played at several tables. ``deal`` is the JSON form of a deal
    (``None`` before the boards are generated, or for an imported file without cards).
    ``round`` is the round in which every table plays it (``None`` for an imported board
    that no table played, or that was played in several rounds)."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="boards",
        verbose_name=_("campionat"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="boards",
        verbose_name=_("ronda"),
    )
    number = models.PositiveSmallIntegerField(_("número"))
    deal = models.JSONField(_("repartiment"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("tauler")
        verbose_name_plural = _("taulers")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="board_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.number}"

    @property
    def dealer(self) -> Seat:
        """The dealer follows from the number (docs/rules.md "Seats, dealer and boards")."""
        return dealer(self.number)

    def get_deal(self) -> engine.Deal | None:
        return None if self.deal is None else engine.Deal.from_json(self.deal)


class BoardAnalysis(models.Model):
    """A board's double-dummy table (``engine.dd_table``, docs/decisions.md
    "Double-dummy analysis"), written by ``services.board_analyse``.

    ``table``: NS's points with perfect play, 0..72, for each declaration of the
    dealer's side: ``{"O": 31, "C": 22, "E": 34, "B": 38, "botifarra": 38}``; EW take
    72 minus that. ``par``: ``engine.par`` of it, ``{"trump": "E", "ns_points": 34,
    "score": 2}`` (``score``: the dealer's side's hand score without doubles).
    ``source``: :meth:`source_of` the deal and play settings it was computed from; a
    table whose source no longer matches the board (deal dealt again, settings changed)
    is stale: never shown, computed again. ``seconds``: the solver's time.

    A derived value, not a decision of anyone's: no audit row. Shown only where the deal
    itself is (``selectors.traveller``, the live traveller, the printed travellers).
    """

    board = models.OneToOneField(
        Board, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("tauler")
    )
    table = models.JSONField(_("taula a cartes vistes"))
    par = models.JSONField(_("par"))
    source = models.CharField(_("origen"), max_length=64)
    seconds = models.FloatField(_("segons de càlcul"), default=0.0)
    computed_at = models.DateTimeField(_("calculat el"), default=timezone.now)

    class Meta:
        verbose_name = _("anàlisi a cartes vistes")
        verbose_name_plural = _("anàlisis a cartes vistes")

    def __str__(self) -> str:
        return f"{self.board_id}: {self.table}"

    @staticmethod
    def source_of(deal: dict[str, list[str]] | None, rules: engine.Rules) -> str:
        """Hex SHA-256 of what the table depends on: the deal (its compact form) and the
        play settings the solver reads (variant, carregar and its scope); ``""`` for a
        board without a deal. Raises ``engine.InvalidDealError`` for a bad deal."""
        if deal is None:
            return ""
        text = "|".join((
            engine.Deal.from_json(deal).to_compact(1), rules.variant.value,
            str(rules.carregar), rules.carregar_scope.value,
        ))
        return hashlib.sha256(text.encode()).hexdigest()

    def is_current(self, board: Board, rules: engine.Rules) -> bool:
        """Whether this table was computed from ``board``'s deal under ``rules``."""
        return bool(self.source) and self.source == self.source_of(board.deal, rules)


class Seating(models.Model):
    """Who sits where in one round: the NS and EW pairs of one table."""

    # PROTECT: results hang on a seating; deleting a round, table or pair must not take
    # them (and other pairs' scores) along. services.championship_delete deletes in order.
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="seatings", verbose_name=_("ronda")
    )
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="seatings", verbose_name=_("taula")
    )
    ns_pair = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("parella NS")
    )
    ew_pair = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("parella EO")
    )

    class Meta:
        ordering = ["round", "table__number"]
        verbose_name = _("assignació de taula")
        verbose_name_plural = _("assignacions de taula")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="seating_unique_table"),
            models.CheckConstraint(
                condition=~Q(ns_pair=models.F("ew_pair")), name="seating_two_different_pairs"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {_('taula')} {self.table.number}: {self.ns_pair} - {self.ew_pair}"


class RoundPair(models.Model):
    """One row per pair seated in a round: a pair sits at one table per round."""

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="+", verbose_name=_("ronda")
    )
    pair = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("parella")
    )
    seating = models.ForeignKey(
        Seating, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("assignació de taula"),
    )

    class Meta:
        verbose_name = _("parella a la ronda")
        verbose_name_plural = _("parelles a la ronda")
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="roundpair_one_table_per_round"),
        ]

    def __str__(self) -> str:
        return f"R{self.round_id} P{self.pair_id}"


class Bye(models.Model):
    """A pair that sits out a round it belongs to (an odd field): it plays no board of
    that round; how it ranks is the championship's ``missed_boards`` rule."""

    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="byes", verbose_name=_("ronda")
    )
    pair = models.ForeignKey(
        Pair, on_delete=models.PROTECT, related_name="byes", verbose_name=_("parella")
    )

    class Meta:
        ordering = ["round", "pair__number"]
        verbose_name = _("descans")
        verbose_name_plural = _("descansos")
        constraints = [
            models.UniqueConstraint(fields=["round", "pair"], name="bye_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {_('descansa')} {self.pair}"
