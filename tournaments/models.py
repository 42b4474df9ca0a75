"""The championship's rows: who plays, where, which boards, and every result.

Writes go through ``tournaments.services`` (atomic, audited); these models only hold the
data and the invariants the database itself can guarantee (docs/architecture.md):

- one result per table and board (``Result``: unique seating + board);
- points 0..72, recontro needs contro, Sant Vicenç needs recontro, never both an
  infraction and an adjustment, points missing only on an adjusted result (CheckConstraints);
- a pair sits at one table per round (``RoundPair``: unique round + pair);
- a pair never plays a board twice (``PairBoard``: unique pair + board).

The last two span the NS and the EW column, so each is a small row per (round, pair) and
per (pair, board) with a unique constraint, written by the services in the same
transaction as the seating or result it mirrors.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engine
from engine.seats import Seat, dealer
from scoring.model import Doubling, Method, MissedBoards, Rounding, ScoringRules
from tournaments.fields import NFCCharField


class Championship(models.Model):
    """One duplicate championship with its rules (docs/file-format.md "rules") and the
    settings of play (docs/rules.md "Where sources disagree"), with their defaults.

    ``deal_secret`` (hex, 32 bytes) generates every board (``engine.generate_deal``); it is
    never shown until ``deal_secret_published_at`` is set (only once the championship is
    finished). ``deal_commitment`` is its SHA-256 (hex), public from the moment the boards
    are generated.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Esborrany")
        RUNNING = "running", _("En joc")
        FINISHED = "finished", _("Acabat")

    class Variant(models.TextChoices):
        OBLIGADA = "obligada", _("Obligada")
        LLIURE = "lliure", _("Lliure")

    class Doubling(models.TextChoices):
        DUPLICATE = "duplicate", _("Duplicat")
        CLASSIC = "classic", _("Clàssic")

    class Method(models.TextChoices):
        PROPORTIONAL = "proportional", _("Proporcional")
        MATCHPOINTS = "matchpoints", _("Matchpoints")

    class Rounding(models.TextChoices):
        NONE = "none", _("Sense arrodonir")
        FLOOR = "floor", _("Arrodonit avall")

    class CarregarScope(models.TextChoices):
        VOID_ONLY = "void_only", _("Només sense el pal")
        ALWAYS = "always", _("Sempre")

    class Movement(models.TextChoices):
        RANDOM = "random", _("Sorteig a l'atzar")
        SWISS = "swiss", _("Sistema suís")
        ROUND_ROBIN = "round-robin", _("Lliga (tots contra tots)")

    class MissedBoards(models.TextChoices):
        PER_BOARD = "per_board", _("Mitjana per tauler jugat")
        AVERAGE = "average", _("Mitjana (A) als taulers no jugats")

    name = NFCCharField(_("nom"), max_length=200)
    slug = models.SlugField(_("identificador"), max_length=100, unique=True)
    date = models.DateField(_("data"), null=True, blank=True)
    end_date = models.DateField(_("data de fi"), null=True, blank=True)
    venue = NFCCharField(_("lloc"), max_length=200, blank=True)
    status = models.CharField(
        _("estat"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )

    # Scoring rules (docs/file-format.md "rules").
    variant = models.CharField(
        _("variant"), max_length=10, choices=Variant.choices, default=Variant.OBLIGADA
    )
    doubling = models.CharField(
        _("doblatge"), max_length=10, choices=Doubling.choices, default=Doubling.DUPLICATE
    )
    method = models.CharField(
        _("mètode"), max_length=15, choices=Method.choices, default=Method.PROPORTIONAL
    )
    scale_bottom = models.DecimalField(
        _("escala: mínim"), max_digits=10, decimal_places=4, default=1
    )
    scale_top = models.DecimalField(_("escala: màxim"), max_digits=10, decimal_places=4, default=2)
    rounding = models.CharField(
        _("arrodoniment"), max_length=10, choices=Rounding.choices, default=Rounding.NONE
    )
    infraction_score = models.DecimalField(
        _("punts per infracció"), max_digits=10, decimal_places=4, default=0
    )

    # Play settings (docs/rules.md "Where sources disagree"; engine.Rules).
    carregar = models.BooleanField(_("carregar"), default=False)
    carregar_scope = models.CharField(
        _("abast de carregar"),
        max_length=10,
        choices=CarregarScope.choices,
        default=CarregarScope.VOID_ONLY,
    )
    sant_vicenc = models.BooleanField(_("Sant Vicenç permès"), default=True)
    sant_vicenc_on_botifarra = models.BooleanField(
        _("Sant Vicenç en botifarra"), default=False
    )
    barraca = models.BooleanField(_("barraca"), default=False)

    boards_per_round = models.PositiveSmallIntegerField(_("taulers per ronda"), default=0)
    # How the next round is drawn (each round keeps the method it was drawn by), and how
    # a pair that played fewer boards (a bye, a late entry) ranks (scoring.championship).
    movement = models.CharField(
        _("moviment"), max_length=12, choices=Movement.choices, default=Movement.RANDOM
    )
    missed_boards = models.CharField(
        _("taulers no jugats"), max_length=10, choices=MissedBoards.choices,
        default=MissedBoards.PER_BOARD,
    )

    deal_secret = models.CharField(_("llavor secreta"), max_length=64, blank=True, editable=False)
    deal_commitment = models.CharField(_("compromís SHA-256"), max_length=64, blank=True)
    deal_secret_published_at = models.DateTimeField(
        _("llavor publicada el"), null=True, blank=True
    )

    created_at = models.DateTimeField(_("creat el"), auto_now_add=True)

    # Bumped (``F() + 1``) in the transaction of every accepted change that can alter a
    # public page (``services.common.bump_results_version``): the live pages' ETags, the
    # cache of their rendered fragments and the prints' "out of date" all read it.
    results_version = models.PositiveIntegerField(
        _("versió dels resultats"), default=0, editable=False
    )
    results_changed_at = models.DateTimeField(
        _("resultats canviats el"), null=True, blank=True, editable=False
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("campionat")
        verbose_name_plural = _("campionats")
        constraints = [
            models.CheckConstraint(
                condition=Q(scale_top__gt=models.F("scale_bottom")),
                name="championship_scale_top_above_bottom",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def deal_secret_published(self) -> bool:
        return self.deal_secret_published_at is not None

    @property
    def public_deal_secret(self) -> str:
        """The hex secret once published, else ``""`` (never leak it before)."""
        return self.deal_secret if self.deal_secret_published else ""

    def scoring_rules(self) -> ScoringRules:
        """The rules as ``scoring`` takes them (exact Fractions from the decimals)."""
        return ScoringRules(
            doubling=Doubling(self.doubling),
            method=Method(self.method),
            bottom=Fraction(str(self.scale_bottom)),
            top=Fraction(str(self.scale_top)),
            rounding=Rounding(self.rounding),
            infraction_score=Fraction(str(self.infraction_score)),
            missed_boards=MissedBoards(self.missed_boards),
        )

    def engine_rules(self) -> engine.Rules:
        """The play settings as ``engine.Rules``."""
        return engine.Rules(
            variant=self.variant,
            carregar=self.carregar,
            carregar_scope=self.carregar_scope,
            sant_vicenc=self.sant_vicenc,
            sant_vicenc_on_botifarra=self.sant_vicenc_on_botifarra,
            barraca=self.barraca,
        )


class Membership(models.Model):
    """Who may do what in one championship: a referee of one championship cannot touch
    another. The organiser may do everything a referee may."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organitzador")
        REFEREE = "referee", _("Àrbitre")
        HEAD_REFEREE = "head_referee", _("Àrbitre principal")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="memberships",
        verbose_name=_("campionat"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="championship_roles",
        verbose_name=_("usuari"),
    )
    role = models.CharField(_("rol"), max_length=15, choices=Role.choices)

    class Meta:
        verbose_name = _("rol")
        verbose_name_plural = _("rols")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "user", "role"], name="membership_unique_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.championship}"


class Player(models.Model):
    """A person playing in one championship. ``code`` is the interchange ``players[].id``."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="players",
        verbose_name=_("campionat"),
    )
    code = NFCCharField(_("codi"), max_length=50)
    name = NFCCharField(_("nom"), max_length=200)

    class Meta:
        ordering = ["championship", "id"]
        verbose_name = _("jugador")
        verbose_name_plural = _("jugadors")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "code"], name="player_unique_code"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    """A numbered pair of two players."""

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("campionat")
    )
    number = models.PositiveIntegerField(_("número"))
    player1 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("jugador 1")
    )
    player2 = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("jugador 2")
    )
    # The first round the pair may be drawn in: 1, or the next round drawn for a pair
    # registered late (services.pair_register).
    joined_round = models.PositiveSmallIntegerField(_("entra a la ronda"), default=1)
    # Set by services.pair_withdraw: the pair plays no round after this one.
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("retirada després de la ronda"), null=True, blank=True
    )
    withdrawal_reason = NFCCharField(_("motiu de la retirada"), max_length=500, blank=True)

    class Meta:
        ordering = ["championship", "number"]
        verbose_name = _("parella")
        verbose_name_plural = _("parelles")
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="pair_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
            models.CheckConstraint(
                condition=~Q(player1=models.F("player2")), name="pair_two_different_players"
            ),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="pair_joined_round_1"),
        ]

    def __str__(self) -> str:
        return f"{self.number}"

    @property
    def names(self) -> str:
        return f"{self.player1.name} – {self.player2.name}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    def plays_round(self, number: int) -> bool:
        """Whether the pair belongs to the field of round ``number``."""
        return self.joined_round <= number and (
            self.withdrawn_after_round is None or number <= self.withdrawn_after_round
        )


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


class Result(models.Model):
    """One table's outcome on one board (docs/file-format.md "A result").

    ``ns_points_taken``: card and trick points NS took, 0..72 (EW took the rest); ``None``
    only for an adjusted result. ``adjusted_ns``/``adjusted_ew``: the director's
    adjustments, both set or both empty. ``version`` starts at 1 and grows by one with
    every correction (optimistic concurrency in ``services.result_record``).
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
                condition=Q(ns_points_taken__isnull=False) | Q(adjusted_ns__isnull=False),
                name="result_points_null_only_adjusted",
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
        return None if self.ns_points_taken is None else 72 - self.ns_points_taken

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


class AuditEntry(models.Model):
    """One row for every write of a championship (``services.common.audit``, in the
    write's own transaction): who (``acting_user``; ``None`` is the system), when, what
    (``action``, e.g. ``result.create``; ``target``, a short text such as "ronda 2"),
    ``before`` and ``after`` (JSON, ``None`` when there is nothing: ``before`` on a
    creation, ``after`` on a deletion) and the ``reason`` given. A result's rows also
    carry its round, table and board numbers (kept when the result is deleted) and the
    result itself while it exists. Never holds a deal or the deal secret."""

    class Action(models.TextChoices):
        CHAMPIONSHIP_CREATE = "championship.create", _("Campionat creat")
        CHAMPIONSHIP_IMPORT = "championship.import", _("Campionat importat")
        RULES_EDIT = "championship.rules", _("Regles canviades")
        CHAMPIONSHIP_FINISH = "championship.finish", _("Campionat acabat")
        SECRET_PUBLISH = "championship.publish_secret", _("Llavor publicada")
        ROLE_GRANT = "role.grant", _("Rol donat")
        PAIR_REGISTER = "pair.register", _("Parella inscrita")
        PAIRS_IMPORT = "pair.import", _("Llista de parelles inscrita")
        PAIR_REMOVE = "pair.remove", _("Parella treta")
        PAIR_WITHDRAW = "pair.withdraw", _("Parella retirada")
        ROUNDS_SETUP = "round.setup", _("Rondes preparades")
        ROUND_DRAW = "round.draw", _("Ronda sortejada")
        ROUND_SEAT = "round.seat", _("Taula assignada a mà")
        ROUND_CLOSE = "round.close", _("Ronda tancada")
        ROUND_REOPEN = "round.reopen", _("Ronda reoberta")
        BOARDS_GENERATE = "boards.generate", _("Taulers generats")
        RESULT_CREATE = "result.create", _("Resultat entrat")
        RESULT_UPDATE = "result.update", _("Resultat corregit")
        RESULT_DELETE = "result.delete", _("Resultat esborrat")
        PRINT_RETRY = "print.retry", _("Treball d'impressió repetit")
        PRINT_CANCEL = "print.cancel", _("Treball d'impressió cancel·lat")

    #: The kinds of action (the part of ``action`` before the dot), for the log's filter.
    KINDS = {
        "championship": _("Campionat"),
        "role": _("Rols"),
        "pair": _("Parelles"),
        "round": _("Rondes"),
        "boards": _("Taulers"),
        "result": _("Resultats"),
        "print": _("Impressió"),
    }
    RESULT_ACTIONS = (Action.RESULT_CREATE, Action.RESULT_UPDATE, Action.RESULT_DELETE)

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="audit_entries",
        verbose_name=_("campionat"),
    )
    at = models.DateTimeField(_("moment"), default=timezone.now)
    acting_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("fet per"),
    )
    action = models.CharField(_("acció"), max_length=40, choices=Action.choices)
    target = models.CharField(_("objecte"), max_length=200, blank=True)
    round_number = models.PositiveSmallIntegerField(_("ronda"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("taula"), null=True, blank=True)
    board_number = models.PositiveSmallIntegerField(_("tauler"), null=True, blank=True)
    result = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="audits",
        verbose_name=_("resultat"),
    )
    before = models.JSONField(_("abans"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("després"), null=True, blank=True, encoder=DjangoJSONEncoder)
    reason = NFCCharField(_("motiu"), max_length=500, blank=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("entrada del registre")
        verbose_name_plural = _("registre de canvis")
        indexes = [
            models.Index(fields=["championship", "-at", "-id"], name="audit_newest_first"),
            models.Index(fields=["championship", "action"], name="audit_by_action"),
        ]

    @property
    def kind(self) -> str:
        """The part of ``action`` before the dot (``result``, ``round``...)."""
        return self.action.split(".", 1)[0]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.target} {self.at:%Y-%m-%d %H:%M}".strip()


class PrintJob(models.Model):
    """One request for a printable document, run by a Celery task.

    ``kind`` is one of ``reports.documents.Kind``; ``round_number`` 0 means "every round"
    (standings, travellers, score cards of the whole championship). ``progress`` 0..100
    grows as pages are drawn. ``file`` is set, and ``status`` becomes ``done``, only once
    the whole PDF is stored. At most one queued or running job exists per request (same
    championship, kind, round and options): asking again reuses it (partial unique
    constraint, ``reports.services.print_job_request``). ``language`` is the one
    language of the document (``ca``, ``es``, ``en``): the requester's, so the same
    request in another language is another job (docs/decisions.md 32).
    """

    class Kind(models.TextChoices):
        BOARD_SHEETS = "board-sheets", _("Fulls de mans")
        ENTRY_FORMS = "entry-forms", _("Actes de taula")
        STANDINGS = "standings", _("Classificació")
        TRAVELLERS = "travellers", _("Fulls de recorregut")
        SCORE_CARDS = "score-cards", _("Fulls de puntuació")
        GUIDE_CARDS = "guide-cards", _("Cartells de taula i de parella")

    class Status(models.TextChoices):
        QUEUED = "queued", _("En cua")
        RUNNING = "running", _("En curs")
        DONE = "done", _("Fet")
        FAILED = "failed", _("Error")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="print_jobs",
        verbose_name=_("campionat"),
    )
    kind = models.CharField(_("document"), max_length=20, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("ronda"), default=0)
    copies = models.PositiveSmallIntegerField(_("còpies"), default=1)
    per_page = models.PositiveSmallIntegerField(_("taulers per pàgina"), default=1)
    language = models.CharField(
        _("llengua"), max_length=7, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    status = models.CharField(
        _("estat"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progrés"), default=0)
    file = models.FileField(_("fitxer"), upload_to="reports/%Y/%m/", blank=True)
    error = models.TextField(_("error"), blank=True)
    # Digest of the results the document was built from (reports.services.results_state):
    # a done public document is reused while the results still give the same digest.
    results_state = models.CharField(_("estat dels resultats"), max_length=12, blank=True)
    attempts = models.PositiveSmallIntegerField(_("intents"), default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("demanat per"),
    )
    requested_at = models.DateTimeField(_("demanat el"), default=timezone.now)
    started_at = models.DateTimeField(_("començat el"), null=True, blank=True)
    # Written by the running job with its progress, at least every few seconds: a running
    # job silent for long lost its worker (reports.services.print_jobs_requeue_stalled).
    heartbeat_at = models.DateTimeField(_("darrer senyal"), null=True, blank=True)
    finished_at = models.DateTimeField(_("acabat el"), null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("impressió")
        verbose_name_plural = _("impressions")
        constraints = [
            models.CheckConstraint(
                condition=Q(progress__lte=100), name="printjob_progress_0_100"
            ),
            models.CheckConstraint(
                condition=Q(copies__gte=1, per_page__in=[1, 4]), name="printjob_options_valid"
            ),
            models.CheckConstraint(
                condition=~Q(status="done") | ~Q(file=""), name="printjob_done_has_file"
            ),
            models.UniqueConstraint(
                fields=["championship", "kind", "round_number", "copies", "per_page",
                        "language"],
                condition=Q(status__in=["queued", "running"]),
                name="printjob_one_active_per_request",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} · {self.kind} · {self.get_status_display()}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
