"""The championship's audit log page: every write, newest first, for the organiser and
the head referee."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Paginator
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import (
    AuditEntry,
    Championship,
    Membership,
    Result,
)
from tournaments.permissions import Capability
from tournaments.web.common import capability_required, page_context

# --------------------------------------------------------------------------- audit log

#: Rows per page of the championship's log.
AUDIT_PAGE_SIZE = 50
#: At most this many characters of one value in the log (a draw's tables, a pairs list).
AUDIT_VALUE_MAX = 300

#: Labels of the audit rows' JSON keys that are not a field of ``Championship``.
_AUDIT_LABELS = {
    "board": gettext_lazy("tauler"),
    "trump": gettext_lazy("trumfo"),
    "delegated": gettext_lazy("delegat"),
    "contro": gettext_lazy("contro"),
    "recontro": gettext_lazy("recontro"),
    "sant_vicenc": gettext_lazy("Sant Vicenç"),
    "ns_points_taken": gettext_lazy("punts NS"),
    "infraction": gettext_lazy("infracció"),
    "adjusted": gettext_lazy("ajustat"),
    "note": gettext_lazy("nota"),
    "version": gettext_lazy("versió"),
    "rounds": gettext_lazy("rondes"),
    "tables": gettext_lazy("taules"),
    "byes": gettext_lazy("descansos"),
    "seed": gettext_lazy("llavor del sorteig"),
    "rematches": gettext_lazy("repeticions"),
    "closed_at": gettext_lazy("tancada"),
    "missing": gettext_lazy("resultats que falten"),
    "pairs": gettext_lazy("parelles"),
    "number": gettext_lazy("número"),
    "player1": gettext_lazy("jugador 1"),
    "player2": gettext_lazy("jugador 2"),
    "joined_round": gettext_lazy("entra a la ronda"),
    "withdrawn_after_round": gettext_lazy("retirada després de la ronda"),
    "draws_undone": gettext_lazy("sortejos desfets"),
    "user": gettext_lazy("usuari"),
    "role": gettext_lazy("rol"),
    "ns_pair": gettext_lazy("parella NS"),
    "ew_pair": gettext_lazy("parella EO"),
    "rounds_closed": gettext_lazy("rondes tancades"),
    "published_at": gettext_lazy("publicada"),
    "results": gettext_lazy("resultats"),
    "boards": gettext_lazy("taulers"),
}


#: Values stored as codes, shown by their label in the reader's language: ``{key: {code:
#: label}}``: a role, a result's trump and infraction, and every rule of the championship
#: with choices (a code not in the map, from an older row, is shown as it is).
_AUDIT_CODES: dict[str, dict[str, Any]] = {
    **{
        field.name: dict(field.flatchoices)
        for field in Championship._meta.get_fields()
        if isinstance(field, models.Field) and field.choices
    },
    "trump": dict(Result._meta.get_field("trump").flatchoices),
    "infraction": dict(Result._meta.get_field("infraction").flatchoices),
    "role": dict(Membership.Role.choices),
}


def _audit_label(key: str) -> str:
    if key in _AUDIT_LABELS:
        return str(_AUDIT_LABELS[key])
    try:
        field = Championship._meta.get_field(key)
        return str(getattr(field, "verbose_name", key))
    except FieldDoesNotExist:
        return key


def _audit_value(value: Any, key: str = "") -> str:
    """One value of an audit row as short text: "—" for nothing, sí/no, a code's label
    (:data:`_AUDIT_CODES`), JSON for lists."""
    if value is None or value == "":
        return "—"
    codes = _AUDIT_CODES.get(key)
    if codes is not None and isinstance(value, str) and value in codes:
        return str(codes[value])
    if isinstance(value, bool):
        return _("sí") if value else _("no")
    text = (
        value if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    )
    return text if len(text) <= AUDIT_VALUE_MAX else text[: AUDIT_VALUE_MAX - 1] + "…"


def _audit_changes(before: Any, after: Any) -> list[tuple[str, str, str]]:
    """``[(label, before, after)]`` of an audit row: the keys whose value changed (every
    key when only one side exists), in the order the row lists them."""
    if not isinstance(before, dict) and not isinstance(after, dict):
        if before is None and after is None:
            return []
        return [("", _audit_value(before), _audit_value(after))]
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    keys = list(new) + [key for key in old if key not in new]
    both = isinstance(before, dict) and isinstance(after, dict)
    return [
        (_audit_label(key), _audit_value(old.get(key), key), _audit_value(new.get(key), key))
        for key in keys
        if not both or old.get(key) != new.get(key)
    ]


@capability_required(Capability.VIEW_AUDIT_LOG)
def audit_log(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The championship's log (``AuditEntry``): who, when, what, before -> after, reason,
    newest first, :data:`AUDIT_PAGE_SIZE` rows a page (``?page=N``; past the end: the last
    page), ``?kind=`` one kind of action (``result``, ``round``...; unknown: all).
    Organiser and head referee (``Capability.VIEW_AUDIT_LOG``). Four queries."""
    kind = request.GET.get("kind", "")
    if kind not in AuditEntry.KINDS:
        kind = ""
    entries = (
        AuditEntry.objects.filter(championship=championship)
        .select_related("acting_user").order_by("-at", "-id")
    )
    if kind:
        entries = entries.filter(action__startswith=kind + ".")
    page = Paginator(entries, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(entry, _audit_changes(entry.before, entry.after)) for entry in page]
    return render(
        request, "tournaments/audit_log.html",
        page_context(request, championship, page=page, rows=rows, kind=kind,
                 kinds=list(AuditEntry.KINDS.items())),
    )
