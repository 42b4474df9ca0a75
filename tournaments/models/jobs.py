"""Print jobs: one request for a printable document, run by a Celery task."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.championships import Championship
from tournaments.models.people import Circuit


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

    A job belongs to a championship or, for the ``circuit-ranking`` kind, to a circuit:
    exactly one of ``championship`` and ``circuit`` is set (check constraint). A
    circuit's job is requested with ``reports.services.circuit_print_job_request``; its
    ``results_state`` is a digest of the circuit's ranking state
    (``selectors.circuits.circuit_state``).
    """

    class Kind(models.TextChoices):
        BOARD_SHEETS = "board-sheets", _("Fulls de mans")
        ENTRY_FORMS = "entry-forms", _("Actes de taula")
        TABLE_CARDS = "table-cards", _("Rètols de taula")
        ROUND_PACK = "round-pack", _("Paquet de la ronda")
        STANDINGS = "standings", _("Classificació")
        TRAVELLERS = "travellers", _("Fulls de recorregut")
        SCORE_CARDS = "score-cards", _("Fulls de puntuació")
        GUIDE_CARDS = "guide-cards", _("Cartells de taula i de parella")
        PAIRINGS = "pairings", _("Aparellaments de la ronda")
        SCORE_SHEETS = "score-sheets", _("Fulls d'anotació de la partida")
        GROUP_TABLES = "group-tables", _("Quadres dels grups")
        BRACKET = "bracket", _("Quadre de les eliminatòries")
        KNOCKOUT_CARDS = "knockout-cards", _("Fulls de les eliminatòries")
        # A circuit's document (``circuit`` set, no championship).
        CIRCUIT_RANKING = "circuit-ranking", _("Rànquing del circuit")

    class Status(models.TextChoices):
        QUEUED = "queued", _("En cua")
        RUNNING = "running", _("En curs")
        DONE = "done", _("Fet")
        FAILED = "failed", _("Error")

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="print_jobs",
        verbose_name=_("campionat"), null=True, blank=True,
    )
    circuit = models.ForeignKey(
        Circuit, on_delete=models.CASCADE, related_name="print_jobs",
        verbose_name=_("circuit"), null=True, blank=True,
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
            models.CheckConstraint(
                condition=(Q(championship__isnull=False, circuit__isnull=True)
                           | Q(championship__isnull=True, circuit__isnull=False)),
                name="printjob_championship_or_circuit",
            ),
            models.UniqueConstraint(
                fields=["circuit", "kind", "language"],
                condition=Q(status__in=["queued", "running"], circuit__isnull=False),
                name="printjob_one_active_per_circuit_request",
            ),
        ]

    def __str__(self) -> str:
        owner = self.championship if self.championship_id is not None else self.circuit
        return f"{owner} · {self.kind} · {self.get_status_display()}"

    @property
    def owner_slug(self) -> str:
        """The slug of the championship or the circuit the job belongs to."""
        if self.championship is not None:
            return self.championship.slug
        assert self.circuit is not None  # the check constraint: one of the two
        return self.circuit.slug

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
