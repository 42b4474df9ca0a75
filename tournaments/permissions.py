"""Who may do what in a championship: the roles, the named capabilities, one table.

A person holds roles per championship (``Membership``: organiser, head referee, referee;
docs/decisions.md 20); a superuser holds every role everywhere. Each capability (enter a
result, close a round, draw...) is allowed to a set of roles, written once in
:data:`CAPABILITY_ROLES`; the rules are docs/decisions.md 16 (who sees hidden boards)
and 17 (closed rounds, adjusted scores, closing with results missing).

The services check a capability with :func:`require` inside their transaction; views,
the API, admin actions and commands only translate the refusal (a 403 page, a message
next to the form field, an API 403). Views ask :func:`has` only to decide what to show.

``user=None`` is the system (a management command, the import): it may do anything.

Roles are read once per user object and championship (:func:`roles_of`, one query): a
request's ``request.user`` is one object, so the page's decorator, its template context
and the service it calls share one look-up. Any write of a ``Membership`` row in this
process forgets every remembered role (a generation counter), so a role granted or
removed counts at once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.db import connections, router
from django.db.models.signals import post_delete, post_save
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.errors import NotAllowedError
from tournaments.models import Championship, Membership

Role = Membership.Role

#: Every role: what a superuser holds in every championship.
ALL_ROLES: frozenset[str] = frozenset(role.value for role in Role)

ORGANISER = frozenset({Role.ORGANISER.value})
HEAD = frozenset({Role.ORGANISER.value, Role.HEAD_REFEREE.value})
REFEREES = frozenset({Role.ORGANISER.value, Role.HEAD_REFEREE.value, Role.REFEREE.value})
#: Who ticks the pairs present on the day: the organiser and the door's helpers.
CHECK_IN = frozenset({Role.ORGANISER.value, Role.CHECK_IN.value})


class Capability(StrEnum):
    """What a person may do in one championship (the roles of each: :data:`CAPABILITY_ROLES`)."""

    EDIT_RULES = "edit_rules"
    GRANT_ROLE = "grant_role"
    REGISTER_PAIRS = "register_pairs"
    REMOVE_PAIR = "remove_pair"
    WITHDRAW_PAIR = "withdraw_pair"
    SET_UP_ROUNDS = "set_up_rounds"
    DRAW = "draw"
    SEAT_BY_HAND = "seat_by_hand"
    GENERATE_BOARDS = "generate_boards"
    ENTER_RESULT = "enter_result"
    CHANGE_CLOSED_ROUND = "change_closed_round"
    ADJUST_SCORE = "adjust_score"
    DELETE_RESULT = "delete_result"
    CLOSE_ROUND = "close_round"
    CLOSE_ROUND_WITH_MISSING = "close_round_with_missing"
    REOPEN_ROUND = "reopen_round"
    FINISH = "finish"
    DELETE_CHAMPIONSHIP = "delete_championship"
    PUBLISH_SECRET = "publish_secret"  # noqa: S105 (a capability's name, not a secret)
    SEE_HIDDEN_BOARDS = "see_hidden_boards"
    PRINT_BOARD_SHEETS = "print_board_sheets"
    SEE_ALL_PRINT_JOBS = "see_all_print_jobs"
    MANAGE_PRINT_JOBS = "manage_print_jobs"
    VIEW_AUDIT_LOG = "view_audit_log"
    MANAGE_TABLE_ENTRY = "manage_table_entry"
    MANAGE_SIGNUP = "manage_signup"
    CHECK_IN = "check_in"


C = Capability

#: The roles allowed each capability: the one place these rules are written.
CAPABILITY_ROLES: dict[Capability, frozenset[str]] = {
    # The championship's set-up: the organiser alone.
    C.EDIT_RULES: ORGANISER,
    C.GRANT_ROLE: ORGANISER,
    C.REGISTER_PAIRS: ORGANISER,
    C.REMOVE_PAIR: ORGANISER,
    C.WITHDRAW_PAIR: ORGANISER,
    C.SET_UP_ROUNDS: ORGANISER,
    C.DRAW: ORGANISER,
    C.SEAT_BY_HAND: ORGANISER,
    C.GENERATE_BOARDS: ORGANISER,
    C.FINISH: ORGANISER,
    C.PUBLISH_SECRET: ORGANISER,
    C.DELETE_CHAMPIONSHIP: ORGANISER,
    # Results: every referee enters them in an open round; the director (head referee
    # or organiser) changes a closed round, adjusts a score, deletes (decisions.md 17).
    C.ENTER_RESULT: REFEREES,
    C.CHANGE_CLOSED_ROUND: HEAD,
    C.ADJUST_SCORE: HEAD,
    C.DELETE_RESULT: HEAD,
    C.CLOSE_ROUND: HEAD,
    # Results missing: "unless the organiser confirms" (decisions.md 17).
    C.CLOSE_ROUND_WITH_MISSING: ORGANISER,
    C.REOPEN_ROUND: HEAD,
    # Hidden boards (decisions.md 16) and what reveals the deals (board sheets, entry
    # forms) or who asked for a document: organiser and head referee.
    C.SEE_HIDDEN_BOARDS: HEAD,
    C.PRINT_BOARD_SHEETS: HEAD,
    C.SEE_ALL_PRINT_JOBS: HEAD,
    C.MANAGE_PRINT_JOBS: ORGANISER,
    C.VIEW_AUDIT_LOG: HEAD,
    # The tables' links: switch table entry on or off, reissue a table's secret.
    C.MANAGE_TABLE_ENTRY: ORGANISER,
    # The public sign-up's list (with every pair's contact) and its settings; the
    # check-in on the day, also by a helper who sees names only (docs/decisions.md).
    C.MANAGE_SIGNUP: ORGANISER,
    C.CHECK_IN: CHECK_IN,
}

#: What the refusal says the person tried to do ("No teniu permís per a: ...").
LABELS: dict[Capability, Promise] = {
    C.EDIT_RULES: gettext_lazy("canviar les regles"),
    C.GRANT_ROLE: gettext_lazy("donar rols"),
    C.REGISTER_PAIRS: gettext_lazy("inscriure parelles"),
    C.REMOVE_PAIR: gettext_lazy("esborrar parelles"),
    C.WITHDRAW_PAIR: gettext_lazy("retirar parelles"),
    C.SET_UP_ROUNDS: gettext_lazy("preparar les rondes"),
    C.DRAW: gettext_lazy("sortejar taules"),
    C.SEAT_BY_HAND: gettext_lazy("assignar taules"),
    C.GENERATE_BOARDS: gettext_lazy("generar els taulers"),
    C.FINISH: gettext_lazy("acabar el campionat"),
    C.PUBLISH_SECRET: gettext_lazy("publicar la llavor"),
    C.DELETE_CHAMPIONSHIP: gettext_lazy("esborrar campionats"),
    C.ENTER_RESULT: gettext_lazy("entrar resultats"),
    C.CHANGE_CLOSED_ROUND: gettext_lazy("canviar resultats d'una ronda tancada"),
    C.ADJUST_SCORE: gettext_lazy("posar o treure una puntuació ajustada"),
    C.DELETE_RESULT: gettext_lazy("esborrar resultats"),
    C.CLOSE_ROUND: gettext_lazy("tancar rondes"),
    C.CLOSE_ROUND_WITH_MISSING: gettext_lazy("tancar una ronda amb resultats que hi falten"),
    C.REOPEN_ROUND: gettext_lazy("reobrir rondes"),
    C.SEE_HIDDEN_BOARDS: gettext_lazy("veure els taulers amagats"),
    C.PRINT_BOARD_SHEETS: gettext_lazy("imprimir els fulls dels taulers"),
    C.SEE_ALL_PRINT_JOBS: gettext_lazy("veure tots els treballs d'impressió"),
    C.MANAGE_PRINT_JOBS: gettext_lazy("tornar a fer o cancel·lar treballs d'impressió"),
    C.VIEW_AUDIT_LOG: gettext_lazy("veure el registre de canvis"),
    C.MANAGE_TABLE_ENTRY: gettext_lazy("gestionar l'entrada des de les taules"),
    C.MANAGE_SIGNUP: gettext_lazy("gestionar les inscripcions"),
    C.CHECK_IN: gettext_lazy("passar llista"),
}

# --------------------------------------------------------------------------- roles

#: Bumped by every write of a ``Membership`` row in this process: a remembered role
#: set older than this is read again.
_generation = 0
_MEMO = "_championship_roles_memo"


def _membership_changed(**_kwargs: Any) -> None:
    forget_all_roles()


post_save.connect(_membership_changed, sender=Membership,
                  dispatch_uid="permissions_forget_on_save")
post_delete.connect(_membership_changed, sender=Membership,
                    dispatch_uid="permissions_forget_on_delete")


def forget_all_roles() -> None:
    """Forget every remembered role set (after writing ``Membership`` rows without
    signals, e.g. ``bulk_create``)."""
    global _generation
    _generation += 1


#: :func:`roles_of`'s query, written once (every request of a referee runs it; building
#: the ORM's query cost more CPU than the database's answer).
_ROLES = (
    f"SELECT {Membership._meta.get_field('role').column}"  # noqa: S608
    f" FROM {Membership._meta.db_table}"
    f" WHERE {Membership._meta.get_field('championship').column} = %s"
    f" AND {Membership._meta.get_field('user').column} = %s"
)


def _memo_of(user: Any) -> dict[int, frozenset[str]]:
    """The role sets remembered on ``user`` (emptied when a ``Membership`` changed)."""
    memo: tuple[int, dict[int, frozenset[str]]] | None = getattr(user, _MEMO, None)
    if memo is None or memo[0] != _generation:
        memo = (_generation, {})
        setattr(user, _MEMO, memo)
    return memo[1]


def roles_of(user: Any, championship: Championship | int) -> frozenset[str]:
    """The roles (``Membership.Role`` values) ``user`` holds in ``championship`` (a row or
    its id): none for ``None`` or an anonymous user, every role for a superuser. One
    query the first time for a user object and championship (none when a read of the
    championship brought them: :func:`remember_roles`); remembered on the user object
    after that (so once per request)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    if getattr(user, "is_superuser", False):
        return ALL_ROLES
    championship_id: int = (
        championship if isinstance(championship, int) else championship.pk
    )
    memo = _memo_of(user)
    roles: frozenset[str] | None = memo.get(championship_id)
    if roles is None:
        connection = connections[router.db_for_read(Membership)]
        with connection.cursor() as cursor:
            cursor.execute(_ROLES, [championship_id, user.pk])
            roles = frozenset(row[0] for row in cursor.fetchall())
        memo[championship_id] = roles
    return roles


def remember_roles(user: Any, championship_id: int, roles: frozenset[str]) -> None:
    """Remember ``roles`` as what :func:`roles_of` would read for ``user`` in championship
    ``championship_id``: a result's save reads them with its seating, one statement
    fewer (``tournaments.db.results.SaveContext.roles``). No effect for anonymous users
    and superusers, whose roles need no query."""
    if (user is None or not getattr(user, "is_authenticated", False)
            or getattr(user, "is_superuser", False)):
        return
    _memo_of(user)[championship_id] = roles


def roles_for(capability: Capability | str) -> frozenset[str]:
    """The roles allowed ``capability``. Raises ``KeyError`` for an unknown one."""
    return CAPABILITY_ROLES[Capability(capability)]


def allows(roles: frozenset[str] | set[str], capability: Capability | str) -> bool:
    """Whether any of ``roles`` is allowed ``capability`` (no query)."""
    return bool(roles_for(capability) & set(roles))


def capabilities_of(roles: frozenset[str] | set[str]) -> frozenset[Capability]:
    """Every capability that one of ``roles`` is allowed (no query)."""
    held = set(roles)
    return frozenset(cap for cap, allowed in CAPABILITY_ROLES.items() if allowed & held)


def has(user: Any, championship: Championship | int, capability: Capability | str) -> bool:
    """Whether ``user`` may do ``capability`` in ``championship``; ``user=None`` (the
    system) may do anything. At most one query (:func:`roles_of`)."""
    if user is None:
        return True
    return allows(roles_of(user, championship), capability)


def require(user: Any, championship: Championship, capability: Capability | str) -> None:
    """Refuse unless ``user`` may do ``capability`` in ``championship`` (``user=None``,
    the system, may do anything).

    Raises :class:`tournaments.errors.NotAllowedError` (the services'
    ``NotAllowedError``) whose message names the action and the championship.
    """
    if has(user, championship, capability):
        return
    raise NotAllowedError(
        _("No teniu permís per a: %(action)s (campionat %(name)s).")
        % {"action": LABELS[Capability(capability)], "name": championship.name}
    )
