"""The web app's words for what is wrong with a classic game or a deal of its score
sheet: each ``scoring.classic`` problem code as a Catalan msgid (translated through
Django i18n), so the form, the API and the import say the same thing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _gettext
from django.utils.translation import gettext_lazy as _

from scoring.validate import Problem
from tournaments.result_messages import MESSAGES as RESULT_MESSAGES
from tournaments.result_messages import shown_param

#: How a game ended, as the form names it (``tournaments.models.Game.EndedBy``'s labels).
ENDED_LABELS: Mapping[str, Promise] = {
    "target": _("Punts assolits"),
    "deals": _("Mans esgotades"),
    "time": _("Temps esgotat"),
    "adjusted": _("Decisió arbitral"),
}

#: Code -> Catalan message; placeholders are the problem's ``params``.
MESSAGES: Mapping[str, Promise] = {
    **RESULT_MESSAGES,
    "value_missing": _("Cal aquest valor."),
    "not_integer": _("Ha de ser un nombre enter, no «%(value)s»."),
    "out_of_range": _("Ha de ser un enter de %(minimum)s a %(maximum)s, no «%(value)s»."),
    "unknown_field": _("Camp desconegut: «%(value)s»."),
    "game_not_object": _("La partida ha de ser un objecte amb els punts i les mans."),
    "ended_by_unknown": _(
        "Final «%(value)s» desconegut: ha de ser un de %(choices)s."
    ),
    "deals_out_of_range": _(
        "Les mans jugades han de ser de %(minimum)s a %(maximum)s, no %(value)s."
    ),
    "both_reached_target": _(
        "Les dues parelles no poden arribar a %(target)s: la partida s'acaba quan una hi "
        "arriba."
    ),
    "target_not_reached": _(
        "La partida acabada per punts vol una parella a %(target)s o més."
    ),
    "beyond_last_deal": _(
        "%(value)s punts no es poden fer en una partida a %(target)s: com a màxim "
        "%(maximum)s."
    ),
    "target_reached": _(
        "Una parella ha arribat a %(target)s: la partida s'ha acabat per punts, no "
        "«%(value)s»."
    ),
    "no_deal_limit": _("Aquest campionat no té límit de mans."),
    "no_time_limit": _("Aquest campionat no té límit de temps."),
    "deal_limit_not_reached": _(
        "Acabada per mans vol les %(limit)s mans jugades, no %(value)s."
    ),
    "level_needs_extra_deals": _(
        "Empatada a la mà %(limit)s: es juguen %(extra)s mans més."
    ),
    "extra_deals_count": _(
        "Amb el desempat es juguen %(limit)s mans i %(extra)s més, no %(value)s."
    ),
    "hands_not_list": _("Les mans han de ser una llista."),
    "hands_empty": _("El full de la partida no té cap mà."),
    "sheet_too_long": _(
        "Un full pot tenir com a màxim %(maximum)s mans, no %(value)s: entreu la "
        "partida pel resultat final."
    ),
    "hand_not_object": _("Cada mà ha de ser un objecte."),
    "chooser_missing": _("Cal saber qui ha triat el trumfo: NS o EO."),
    "chooser_unknown": _("Qui tria: «%(value)s» ha de ser NS o EO."),
    "hand_points_missing": _("Cal saber els punts que ha fet la parella que tria (0 a 72)."),
    "hand_points_out_of_range": _(
        "Els punts de la parella que tria han de ser un enter de 0 a 72, no «%(value)s»."
    ),
    "revoke_unknown": _("Renunci: «%(value)s» ha de ser NS o EO."),
    "contro_not_allowed": _("En aquest campionat no es permet el contro."),
    "recontro_not_allowed": _("En aquest campionat no es permet el recontro."),
    "hand_after_end": _(
        "La partida ja s'havia acabat a la mà %(ended)s: la mà %(deal)s sobra."
    ),
    "sheet_not_finished": _(
        "Després de %(deals)s mans cap parella arriba a %(target)s: digueu si s'ha "
        "acabat el temps."
    ),
    "sheet_mismatch": _("El full dona %(sheet)s, no %(value)s."),
}

#: The fields as the game form names them.
FIELD_NAMES: Mapping[str, Promise] = {
    "ns_points": _("Punts NS"),
    "ew_points": _("Punts EO"),
    "deals": _("Mans"),
    "ended_by": _("Final"),
    "hands": _("Mans del full"),
    "note": _("Nota"),
}


def problem_message(problem: Problem) -> str:
    """The translated message of ``problem``; a deal's problem names its deal
    ("Mà 3: ...")."""
    template = MESSAGES.get(problem.code)
    params = {name: shown_param(name, value) for name, value in problem.params.items()}
    if problem.field == "ended_by" and "value" in params:
        # How a game ended, in the words of the form, not its stored value ("deals").
        params["value"] = str(ENDED_LABELS.get(params["value"], params["value"]))
    text = problem.code if template is None else (
        str(template) % params if params else str(template)
    )
    if problem.field.startswith("hands["):
        number = int(problem.field[6:problem.field.index("]")]) + 1
        return _gettext("Mà %(n)s: %(message)s") % {"n": number, "message": text}
    return text


def form_field(problem: Problem) -> str:
    """The game form's field: ``hands[2].points`` stays as it is (the sheet's line)."""
    return problem.field or "ended_by"


def game_problems(problems: Iterable[Problem], championship: Any = None) -> list[
    tuple[str, str]
]:
    """``(field, translated message)`` for each problem of a game."""
    del championship  # the messages carry their own numbers
    return [(form_field(p), problem_message(p)) for p in problems]
