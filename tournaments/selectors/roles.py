"""Who may see what: a user's roles in a championship, and the championships they hold a role in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.models import (
    Championship,
    Membership,
)

Role = Membership.Role

# --------------------------------------------------------------------------- roles


def user_roles(user: Any, championship: Championship) -> frozenset[str]:
    """The roles (``Membership.Role`` values) ``user`` holds in ``championship``: see
    :func:`tournaments.permissions.roles_of` (one query the first time per user object
    and championship; none for an anonymous user); a superuser holds every role."""
    return permissions.roles_of(user, championship)


def user_is_organiser(user: Any, championship: Championship) -> bool:
    return Membership.Role.ORGANISER in user_roles(user, championship)


def user_can_referee(user: Any, championship: Championship) -> bool:
    """Referee, head referee or organiser of this championship (not of another)."""
    return permissions.allows(user_roles(user, championship), permissions.Capability.ENTER_RESULT)


#: The roles that see a board while it is hidden from the public (docs/decisions.md 16):
#: the organiser and the head referee (the director). A plain referee sees hidden boards
#: only through the sheets of the tables (``referee_table``), like a player at that table
#: would. The rule is ``permissions.Capability.SEE_HIDDEN_BOARDS``.
HIDDEN_BOARD_ROLES = permissions.roles_for(permissions.Capability.SEE_HIDDEN_BOARDS)


def user_sees_hidden_boards(user: Any, championship: Championship) -> bool:
    """Whether ``user`` may see the deals, travellers and totals of boards still hidden
    from the public: organiser or head referee of this championship (a superuser holds
    every role). One query for a logged-in user, none for the public."""
    return bool(user_roles(user, championship) & HIDDEN_BOARD_ROLES)


def championships_for_user(user: Any) -> QuerySet[Championship]:
    """The championships where ``user`` holds any role (all of them for a superuser)."""
    if user is None or not user.is_authenticated:
        return Championship.objects.none()
    if getattr(user, "is_superuser", False):
        return Championship.objects.all()
    return Championship.objects.filter(memberships__user_id=user.pk).distinct()


# --------------------------------------------------------------------------- people


def signs_in_by_link(user: Any, *, organiser: bool | None = None) -> bool:
    """Whether a one-time sign-in link may open ``user``'s account: a link signs in
    without a password, so only the accounts made for it (no usable password, not staff,
    organiser of no championship: one organiser's link must not open another's account;
    docs/decisions.md 54). ``organiser``: whether the user organises any championship,
    when the caller knows (else one query)."""
    if user.has_usable_password() or user.is_staff or user.is_superuser:
        return False
    if organiser is None:
        organiser = Membership.objects.filter(user_id=user.pk, role=Role.ORGANISER).exists()
    return not organiser


@dataclass(frozen=True, slots=True)
class PersonRole:
    """One person's role in a championship, as the people page lists it: the
    ``Membership`` row's id, the user's name and e-mail, the role's code and its name
    in the reader's language, ``signs_in_by_link`` (an account made here, with no
    password) and ``why_kept`` (why the role cannot be taken away; ``""`` when it can)."""

    membership_id: int
    username: str
    email: str
    role: str
    role_label: str
    signs_in_by_link: bool
    why_kept: str


def people(championship: Championship) -> list[PersonRole]:
    """Every role held in ``championship``: organisers, then head referees, then
    referees, each by user name. The last organiser is kept (the rule:
    ``services.membership_revoke_refusal``; counted here without a query per row). Two
    queries."""
    rows = list(
        Membership.objects.filter(championship=championship).select_related("user")
        .order_by("user__username")
    )
    order = {Role.ORGANISER: 0, Role.HEAD_REFEREE: 1, Role.REFEREE: 2}
    organisers = sum(1 for m in rows if m.role == Role.ORGANISER)
    organisers_anywhere = set(
        Membership.objects.filter(
            user_id__in=[m.user_id for m in rows], role=Role.ORGANISER
        ).values_list("user_id", flat=True)
    )
    return [
        PersonRole(
            membership_id=m.pk, username=m.user.get_username(), email=m.user.email,
            role=m.role, role_label=str(Role(m.role).label),
            signs_in_by_link=signs_in_by_link(
                m.user, organiser=m.user_id in organisers_anywhere),
            why_kept=(_("És l'últim organitzador: el campionat en necessita un.")
                      if m.role == Role.ORGANISER and organisers == 1 else ""),
        )
        for m in sorted(rows, key=lambda m: (order.get(Role(m.role), 3), m.user.get_username()))
    ]
