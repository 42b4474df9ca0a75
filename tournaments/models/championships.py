"""Championships, the roles people hold in them, players and pairs."""

from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

import engine
from scoring import classic
from scoring.model import Doubling, Method, MissedBoards, Rounding, ScoringRules
from tournaments.fields import NFCCharField


def default_tiebreaks() -> list[str]:
    """The ranking of a classic championship when none is chosen: games won, then the
    points difference, then the points for."""
    return [t.value for t in classic.DEFAULT_TIEBREAKS]


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

    class Format(models.TextChoices):
        DUPLICATE = "duplicate", _("Predonats (duplicat)")
        CLASSIC = "classic", _("Clàssic (partides a 101)")

    class LevelGame(models.TextChoices):
        HALF = "half", _("Mitja victòria per a cada parella")
        EXTRA_DEALS = "extra_deals", _("Es juguen mans de més")
        NOT_BROKEN = "not_broken", _("No es desfà (cap victòria)")

    class Tiebreak(models.TextChoices):
        WINS = "wins", _("Partides guanyades")
        DIFFERENCE = "difference", _("Diferència de punts")
        POINTS_FOR = "points_for", _("Punts a favor")
        HEAD_TO_HEAD = "head_to_head", _("Enfrontament directe")
        BUCHHOLZ = "buchholz", _("Buchholz (victòries dels rivals)")

    # Chosen at creation: boards dealt in advance (duplicate) or one game per round
    # (classic, scoring.classic); never changed once the championship has a round drawn.
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.DUPLICATE
    )
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
    # Follows the doubling when not given (engine.sant_vicenc_default: not under duplicate,
    # the default doubling; the services and forms apply it to a classic championship).
    sant_vicenc = models.BooleanField(_("Sant Vicenç permès"), default=False)
    sant_vicenc_on_botifarra = models.BooleanField(
        _("Sant Vicenç en botifarra"), default=False
    )
    barraca = models.BooleanField(_("barraca"), default=False)

    # Classic games (scoring.classic.ClassicRules; docs/rules.md "Classic championships").
    game_target = models.PositiveSmallIntegerField(_("punts per guanyar la partida"), default=101)
    max_deals = models.PositiveSmallIntegerField(
        _("mans com a màxim"), null=True, blank=True, default=12
    )
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("temps límit (minuts)"), null=True, blank=True, default=55
    )
    score_cap = models.PositiveSmallIntegerField(
        _("punts comptats com a màxim"), null=True, blank=True, default=121
    )
    level_game = models.CharField(
        _("partida empatada"), max_length=12, choices=LevelGame.choices,
        default=LevelGame.HALF,
    )
    extra_deals = models.PositiveSmallIntegerField(_("mans de desempat"), default=2)
    tiebreaks = models.JSONField(_("ordre de la classificació"), default=default_tiebreaks)
    bye_wins = models.DecimalField(
        _("victòries per descans"), max_digits=3, decimal_places=1, default=1
    )
    bye_points_for = models.PositiveSmallIntegerField(_("punts a favor per descans"), default=0)
    bye_points_against = models.PositiveSmallIntegerField(
        _("punts en contra per descans"), default=0
    )
    contro_allowed = models.BooleanField(_("contro permès"), default=True)
    recontro_allowed = models.BooleanField(_("recontro permès"), default=True)
    # Results entered at the table by the players and confirmed by the opponents
    # (tournaments.services.tables); off: only referees enter.
    table_entry = models.BooleanField(_("entrada des de les taules"), default=True)
    # Public sign-up (``Registration``): open or not, and the places (``None``: no cap;
    # over it, a waiting list). With ``check_in`` on, round 1 draws only the pairs
    # checked in on the day (``Pair.checked_in_at``).
    signup_open = models.BooleanField(_("inscripció pública oberta"), default=False)
    signup_cap = models.PositiveIntegerField(_("places"), null=True, blank=True)
    check_in = models.BooleanField(_("cal passar llista"), default=False)

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
        return _scoring_rules(self.doubling, self.method, self.scale_bottom, self.scale_top,
                              self.rounding, self.infraction_score, self.missed_boards)

    @property
    def is_classic(self) -> bool:
        return self.format == self.Format.CLASSIC

    @property
    def has_stages(self) -> bool:
        """Whether the championship is set up as stages (one query)."""
        return self.stages.exists()

    @property
    def has_knockout(self) -> bool:
        """Whether one of its stages is a knockout (one query)."""
        return self.stages.filter(kind="knockout").exists()

    def classic_rules(self, *, knockout: bool = False) -> classic.ClassicRules:
        """The rules of a classic championship's games as ``scoring.classic`` takes them.
        ``knockout``: a knockout round's game, which a level score never ends: the
        extra deals are played whatever the championship's level-game rule."""
        rules = self._classic_rules()
        if knockout and rules.level_game is not classic.LevelGame.EXTRA_DEALS:
            return dataclasses.replace(rules, level_game=classic.LevelGame.EXTRA_DEALS)
        return rules

    def _classic_rules(self) -> classic.ClassicRules:
        return _classic_rules(
            self.game_target, self.max_deals, self.time_limit_minutes, self.score_cap,
            self.level_game, self.extra_deals, tuple(self.tiebreaks or default_tiebreaks()),
            str(self.bye_wins), self.bye_points_for, self.bye_points_against,
            self.contro_allowed, self.recontro_allowed, self.sant_vicenc,
            self.sant_vicenc_on_botifarra,
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
            game_target=self.game_target or 101,
        )


@functools.lru_cache(maxsize=256)
def _classic_rules(target: int, max_deals: int | None, minutes: int | None, cap: int | None,
                   level: str, extra: int, tiebreaks: tuple[str, ...], bye_wins: str,
                   bye_for: int, bye_against: int, contro: bool, recontro: bool,
                   sant_vicenc: bool, on_botifarra: bool) -> classic.ClassicRules:
    """:meth:`Championship.classic_rules` of these field values, made once (frozen)."""
    return classic.ClassicRules(
        game_target=target, max_deals=max_deals, time_limit_minutes=minutes,
        score_cap=cap, level_game=classic.LevelGame(level), extra_deals=extra,
        tiebreaks=tuple(classic.Tiebreak(t) for t in tiebreaks),
        bye_wins=Fraction(bye_wins), bye_points_for=bye_for,
        bye_points_against=bye_against, contro=contro, recontro=recontro,
        sant_vicenc=sant_vicenc, sant_vicenc_on_botifarra=on_botifarra,
    )


@functools.lru_cache(maxsize=256)
def _scoring_rules(doubling: str, method: str, bottom: Any, top: Any, rounding: str,
                   infraction: Any, missed: str) -> ScoringRules:
    """:meth:`Championship.scoring_rules` of these field values, made once (frozen, so
    shared): every result saved and every scored page asks for them, and reading the
    three decimals as Fractions cost more than the hand score itself."""
    return ScoringRules(
        doubling=Doubling(doubling),
        method=Method(method),
        bottom=Fraction(str(bottom)),
        top=Fraction(str(top)),
        rounding=Rounding(rounding),
        infraction_score=Fraction(str(infraction)),
        missed_boards=MissedBoards(missed),
    )


class Membership(models.Model):
    """Who may do what in one championship: a referee of one championship cannot touch
    another. The organiser may do everything a referee may."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organitzador")
        REFEREE = "referee", _("Àrbitre")
        HEAD_REFEREE = "head_referee", _("Àrbitre principal")
        # Ticks the pairs present on the day (check-in), nothing else.
        CHECK_IN = "check_in", _("Ajudant de l'entrada")

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
    #: What the boards and screens show instead of the default short form of ``name``
    #: (``selectors.names.short_name``); empty: that default.
    short_name = NFCCharField(_("nom curt"), max_length=60, blank=True, default="")
    #: The same person across championships (``tournaments.models.people``); ``None``
    #: until linked. Readers follow ``person.merged_into``.
    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.PROTECT, null=True, blank=True,
        related_name="players", verbose_name=_("persona"),
    )

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
    # Ticked on the day (``Championship.check_in``); ``None``: not (yet) present.
    checked_in_at = models.DateTimeField(_("present des de"), null=True, blank=True)

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
