"""The web app's words for what is wrong with a result.

What a valid result is lives in one place, :func:`scoring.validate.validate_result`,
which returns every problem with a stable code; this module turns each code into a
Catalan msgid (translated to Spanish and English through Django i18n) and each problem's
field into the result form's field. The service (``services.validate_result``), the
result form and any API that takes a result all speak through here, so the same mistake
reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.validate import PlaySettings, Problem, validate_result

#: Code -> Catalan message; placeholders are the problem's ``params``.
MESSAGES: Mapping[str, Promise] = {
    "trump_missing": _("Cal el trumfo (o botifarra)."),
    "trump_unknown": _("Trumfo «%(value)s» desconegut: ha de ser O, C, E, B o botifarra."),
    "points_missing": _("Cal saber els punts que ha fet NS (0 a 72)."),
    "points_not_integer": _("Els punts de NS han de ser un enter de 0 a 72, no «%(value)s»."),
    "points_out_of_range": _("Els punts de NS han de ser un enter de 0 a 72, no «%(value)s»."),
    "not_boolean": _("«%(value)s» no és ni sí ni no."),
    "delegated_without_trump": _("Delegat sense trumfo."),
    "recontro_without_contro": _("No hi pot haver recontro sense contro."),
    "sant_vicenc_without_recontro": _("No hi pot haver Sant Vicenç sense recontro."),
    "sant_vicenc_not_allowed": _(
        "En aquest campionat no es permet el Sant Vicenç (regla «Sant Vicenç permès»: no)."
    ),
    "sant_vicenc_on_botifarra_not_allowed": _(
        "En aquest campionat no es permet el Sant Vicenç en una botifarra."
    ),
    "infraction_unknown": _("Infracció: «%(value)s» ha de ser NS o EO."),
    "adjusted_not_object": _(
        "La puntuació arbitral necessita un valor per a NS i un per a EO."
    ),
    "adjusted_side_missing": _("Cal la puntuació arbitral de les dues línies."),
    "adjusted_unknown": _(
        "Puntuació arbitral de %(side)s: «%(value)s» no és cap de %(choices)s."
    ),
    "infraction_and_adjusted": _(
        "Un resultat no pot tenir alhora infracció i puntuació arbitral."
    ),
}

#: A problem's field (the file's key) -> the result form's field.
FORM_FIELDS: Mapping[str, str] = {
    "adjusted": "adjusted_ns",
    "adjusted.NS": "adjusted_ns",
    "adjusted.EW": "adjusted_ew",
    "": "infraction",
}

#: The sides as the Catalan interface names them (EW is "EO").
_SIDES = {"NS": "NS", "EW": "EO"}


def shown_param(name: str, value: Any) -> str:
    if name == "side":
        return _SIDES.get(str(value), str(value))
    if name == "choices" and isinstance(value, Iterable) and not isinstance(value, str):
        return ", ".join(str(v) for v in value)
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def problem_message(problem: Problem) -> str:
    """The translated message of ``problem`` in the active language."""
    template = MESSAGES.get(problem.code)
    if template is None:  # a code newer than this table: still a message, not a crash
        return problem.code
    params = {name: shown_param(name, value) for name, value in problem.params.items()}
    return str(template) % params if params else str(template)


def form_field(problem: Problem) -> str:
    """The result form's field a problem belongs to (``trump``, ``adjusted_ew``...)."""
    return FORM_FIELDS.get(problem.field, problem.field)


def result_problems(
    championship: PlaySettings,
    *,
    trump: Any,
    ns_points_taken: Any,
    delegated: Any = False,
    contro: Any = False,
    recontro: Any = False,
    sant_vicenc: Any = False,
    infraction: Any = None,
    adjusted: Any = None,
) -> list[tuple[str, str]]:
    """Every problem of a result as typed in a form or sent to an API, as ``(form field,
    translated message)``; ``[]`` when valid. Empty text means "not given" (``""`` trump,
    infraction or adjustment), and the Catalan ``EO`` is read as ``EW``."""
    problems = validate_result(
        trump=trump or None,
        ns_points_taken=ns_points_taken,
        delegated=delegated,
        contro=contro,
        recontro=recontro,
        sant_vicenc=sant_vicenc,
        infraction=normalise_side(infraction),
        adjusted=adjusted,
        rules=championship,
    )
    return [(form_field(p), problem_message(p)) for p in problems]


def normalise_side(value: Any) -> Any:
    """``""`` -> ``None``, ``"EO"`` -> ``"EW"``, an enum -> its text; else unchanged."""
    value = getattr(value, "value", value)
    if value == "":
        return None
    return "EW" if value == "EO" else value
