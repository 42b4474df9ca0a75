"""The audit log: one row for every write of the services."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _gettext
from django.utils.translation import gettext_lazy as _

from tournaments.fields import NFCCharField
from tournaments.models.championships import Championship
from tournaments.models.results import Result


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
        ROLE_REVOKE = "role.revoke", _("Rol tret")
        PAIR_REGISTER = "pair.register", _("Parella inscrita")
        PAIRS_IMPORT = "pair.import", _("Llista de parelles inscrita")
        PAIR_REMOVE = "pair.remove", _("Parella treta")
        PAIR_WITHDRAW = "pair.withdraw", _("Parella retirada")
        PAIR_SHORT_NAMES = "pair.short_names", _("Noms curts canviats")
        PAIR_CHECK_IN = "pair.check_in", _("Parella present")
        PAIR_CHECK_IN_UNDO = "pair.check_in_undo", _("Parella treta de la llista de presents")
        PAIRS_FROM_SIGNUP = "pair.from_signup", _("Parelles fetes de les inscripcions")
        SIGNUP_CREATE = "signup.create", _("Inscripció rebuda")
        SIGNUP_CONFIRM = "signup.confirm", _("Inscripció confirmada")
        SIGNUP_PAID = "signup.paid", _("Inscripció pagada")
        SIGNUP_MOVE = "signup.move", _("Inscripció moguda")
        SIGNUP_CANCEL = "signup.cancel", _("Inscripció cancel·lada")
        SIGNUP_PROMOTE = "signup.promote", _("Inscripció treta de la llista d'espera")
        SIGNUP_SETTINGS = "signup.settings", _("Inscripció pública canviada")
        ROUNDS_SETUP = "round.setup", _("Rondes preparades")
        ROUND_DRAW = "round.draw", _("Ronda sortejada")
        STAGES_SETUP = "stage.setup", _("Fases preparades")
        STAGE_START = "stage.start", _("Fase començada")
        ROUND_SEAT = "round.seat", _("Taula assignada a mà")
        ROUND_CLOSE = "round.close", _("Ronda tancada")
        ROUND_REOPEN = "round.reopen", _("Ronda reoberta")
        BOARDS_GENERATE = "boards.generate", _("Taulers generats")
        RESULT_CREATE = "result.create", _("Resultat entrat")
        RESULT_UPDATE = "result.update", _("Resultat corregit")
        RESULT_DELETE = "result.delete", _("Resultat esborrat")
        GAME_CREATE = "game.create", _("Partida entrada")
        GAME_UPDATE = "game.update", _("Partida corregida")
        GAME_DELETE = "game.delete", _("Partida esborrada")
        TABLE_SECRET_REISSUE = "table.reissue", _("Enllaç de taula renovat")
        TABLE_ENTRY_DISPUTE = "table.dispute", _("Resultat de taula discutit")
        TABLE_ENTRY_ACCEPT = "table.accept", _("Resultat de taula acceptat per un àrbitre")
        TABLE_ENTRY_CLEAR = "table.clear", _("Entrades de taula esborrades per un àrbitre")
        TABLE_ENTRY_SWITCH = "table.switch", _("Entrada des de les taules activada o desactivada")
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
        "game": _("Partides"),
        "print": _("Impressió"),
        "table": _("Taules"),
        "signup": _("Inscripcions"),
    }
    RESULT_ACTIONS = (Action.RESULT_CREATE, Action.RESULT_UPDATE, Action.RESULT_DELETE)
    GAME_ACTIONS = (Action.GAME_CREATE, Action.GAME_UPDATE, Action.GAME_DELETE)

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

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.target} {self.at:%Y-%m-%d %H:%M}".strip()

    @property
    def shown_target(self) -> str:
        """``target`` as the log shows it: a result's round, table and board in the
        reader's language (``target`` keeps them in the language of the moment it was
        written), anything else as stored."""
        if (self.action in self.RESULT_ACTIONS and self.round_number is not None
                and self.table_number is not None and self.board_number is not None):
            return _gettext("ronda %(round)s, taula %(table)s, tauler %(board)s") % {
                "round": self.round_number, "table": self.table_number,
                "board": self.board_number,
            }
        if (self.action in self.GAME_ACTIONS and self.round_number is not None
                and self.table_number is not None):
            return _gettext("ronda %(round)s, taula %(table)s") % {
                "round": self.round_number, "table": self.table_number,
            }
        return self.target

    @property
    def kind(self) -> str:
        """The part of ``action`` before the dot (``result``, ``round``...)."""
        return self.action.split(".", 1)[0]
