"""Who may see what: a user's roles in a championship, and the championships they hold a role in."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments import permissions
from tournaments.models import (
    Championship,
    Membership,
)

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
