"""The championship's audit log page: every write, newest first, for the organiser and
the head referee."""

from __future__ import annotations

import json
import re
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.paginator import Paginator
from django.db import models
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import dateformat, timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.models import (
    AuditEntry,
    Championship,
    Game,
    Membership,
    Registration,
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
    "ns_points": gettext_lazy("punts NS"),
    "ew_points": gettext_lazy("punts EO"),
    "deals": gettext_lazy("mans jugades"),
    "ended_by": gettext_lazy("com s'ha acabat"),
    "hands": gettext_lazy("full de la partida"),
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
    "paid": gettext_lazy("pagada"),
    "position": gettext_lazy("posició"),
    "checked_in": gettext_lazy("present"),
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
    "ended_by": dict(Game.EndedBy.choices),
}
# A registration's status (the sign-up's rows) beside the championship's: no code is both.
_AUDIT_CODES["status"] = {**dict(Registration.Status.choices), **_AUDIT_CODES.get("status", {})}
#: Lists of codes, each shown by its label: a classic championship's ranking order.
_AUDIT_CODE_LISTS: dict[str, dict[str, Any]] = {
    "tiebreaks": dict(Championship.Tiebreak.choices),
}
#: The kinds of action a championship of each format never has (the log's filter).
_KINDS_NOT_IN: dict[str, tuple[str, ...]] = {
    Championship.Format.CLASSIC.value: ("boards", "result"),
    Championship.Format.DUPLICATE.value: ("game",),
}


def _audit_label(key: str) -> str:
    if key in _AUDIT_LABELS:
        return str(_AUDIT_LABELS[key])
    try:
        field = Championship._meta.get_field(key)
        return str(getattr(field, "verbose_name", key))
    except FieldDoesNotExist:
        return key


#: How the log writes a moment and a day, as the time of each of its entries.
AUDIT_DATETIME_FORMAT = "d/m/Y H:i:s"
AUDIT_DATE_FORMAT = "d/m/Y"
#: A moment or a day as the rows' JSON stores them (ISO 8601, ``DjangoJSONEncoder``).
_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _audit_moment(value: str) -> str | None:
    """A moment or a day stored in ISO 8601 ("2026-12-02T16:11:20.182Z") as the log
    writes its own times, in the championship's time zone ("02/12/2026 17:11:20");
    ``None`` when ``value`` is not one."""
    if _ISO_DATETIME.match(value):
        moment = parse_datetime(value.replace("Z", "+00:00"))
        if moment is not None:
            if timezone.is_naive(moment):
                moment = timezone.make_aware(moment, timezone.get_default_timezone())
            return dateformat.format(timezone.localtime(moment), AUDIT_DATETIME_FORMAT)
    if _ISO_DATE.match(value):
        day = parse_date(value)
        if day is not None:
            return dateformat.format(day, AUDIT_DATE_FORMAT)
    return None


def _audit_value(value: Any, key: str = "") -> str:
    """One value of an audit row as short text: "—" for nothing, sí/no, a code's label
    (:data:`_AUDIT_CODES`), a moment or a day as the log's own times, JSON for lists."""
    if value is None or value == "":
        return "—"
    if key == "hands" and isinstance(value, list):  # a game's score sheet: its length
        return ngettext("%(n)s mà", "%(n)s mans", len(value)) % {"n": len(value)}
    codes = _AUDIT_CODES.get(key)
    if codes is not None and isinstance(value, str) and value in codes:
        return str(codes[value])
    if isinstance(value, str) and (moment := _audit_moment(value)) is not None:
        return moment
    if isinstance(value, bool):
        return _("sí") if value else _("no")
    listed = _AUDIT_CODE_LISTS.get(key)
    if listed is not None and isinstance(value, list) and value \
            and all(isinstance(v, str) and v in listed for v in value):
        return ", ".join(str(listed[v]) for v in value)
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


def _pair_number(entry: AuditEntry) -> int | None:
    """The pair an audit row of a pair is about: its number in the row's JSON, else the
    number its ``target`` ends with ("parella 5", "pareja 5", "pair 5")."""
    for side in (entry.after, entry.before):
        if isinstance(side, dict) and isinstance(side.get("number"), int):
            return int(side["number"])
    match = re.search(r"(\d+)\s*$", entry.target)
    return int(match.group(1)) if match else None


def _count(value: Any) -> int | None:
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def audit_summary(entry: AuditEntry) -> str:
    """What an audit row is about, in the reader's language, from the row's numbers and
    JSON: "ronda 3", "parella 5", "12 taulers", the rules' labels, a role's label. The
    stored ``target`` is in the language of the moment it was written (history is not
    rewritten): it is shown as stored only when the row holds nothing better (a
    championship's name, a print job)."""
    Action = AuditEntry.Action
    after = entry.after if isinstance(entry.after, dict) else {}
    before = entry.before if isinstance(entry.before, dict) else {}
    action = entry.action
    if action in AuditEntry.RESULT_ACTIONS:
        return entry.shown_target
    if action == Action.ROUND_SEAT and entry.round_number is not None \
            and entry.table_number is not None:
        return _("ronda %(round)s, taula %(table)s") % {
            "round": entry.round_number, "table": entry.table_number}
    if entry.kind == "round" and entry.round_number is not None:
        return _("ronda %(n)s") % {"n": entry.round_number}
    if action == Action.ROUNDS_SETUP:
        rounds, boards = _count(after.get("rounds")), _count(after.get("boards_per_round"))
        if rounds is not None and boards == 0:  # a classic championship: no boards
            return ngettext("%(n)s ronda", "%(n)s rondes", rounds) % {"n": rounds}
        if rounds is not None and boards is not None:
            return _("%(rounds)s de %(boards)s") % {
                "rounds": ngettext("%(n)s ronda", "%(n)s rondes", rounds) % {"n": rounds},
                "boards": ngettext("%(n)s tauler", "%(n)s taulers", boards) % {"n": boards},
            }
    if action == Action.BOARDS_GENERATE and (boards := _count(after.get("boards"))) is not None:
        return ngettext("%(n)s tauler", "%(n)s taulers", boards) % {"n": boards}
    if action == Action.PAIRS_IMPORT and (pairs := _count(after.get("pairs"))) is not None:
        return ngettext("%(n)s parella", "%(n)s parelles", pairs) % {"n": pairs}
    if entry.kind == "pair" and (number := _pair_number(entry)) is not None:
        return _("parella %(n)s") % {"n": number}
    if action == Action.RULES_EDIT and after:
        return ", ".join(_audit_label(key) for key in after)
    if entry.kind == "role":
        row = after or before
        codes = _AUDIT_CODES["role"]
        if isinstance(row.get("user"), str) and row.get("role") in codes:
            return f"{row['user']}: {codes[row['role']]}"
    return entry.target


@capability_required(Capability.VIEW_AUDIT_LOG)
def audit_log(request: HttpRequest, championship: Championship) -> HttpResponse:
    """The championship's log (``AuditEntry``): who, when, what, before -> after, reason,
    newest first, :data:`AUDIT_PAGE_SIZE` rows a page (``?page=N``; past the end: the last
    page), ``?kind=`` one kind of action (``result``, ``round``...; unknown: all).
    Organiser and head referee (``Capability.VIEW_AUDIT_LOG``). Four queries."""
    never = _KINDS_NOT_IN.get(str(championship.format), ())
    kinds = [(code, label) for code, label in AuditEntry.KINDS.items() if code not in never]
    kind = request.GET.get("kind", "")
    if kind not in dict(kinds):
        kind = ""
    entries = (
        AuditEntry.objects.filter(championship=championship)
        .select_related("acting_user").order_by("-at", "-id")
    )
    if kind:
        entries = entries.filter(action__startswith=kind + ".")
    page = Paginator(entries, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(entry, audit_summary(entry), _audit_changes(entry.before, entry.after))
            for entry in page]
    return render(
        request, "tournaments/audit_log.html",
        page_context(request, championship, page=page, rows=rows, kind=kind,
                 kinds=kinds),
    )
