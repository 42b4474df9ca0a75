"""Who may do what through the API, asked of the same functions the pages ask.

The API decides nothing of its own: roles and capabilities come from
``tournaments.permissions``, what the public sees from the selectors
(``selectors.user_sees_hidden_boards``, ``selectors.scored_championship``), print rights
from ``reports.services.can_print``, and every write is refused or allowed by its service
(``NotAllowedError``).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments import permissions, selectors
from tournaments.models import Championship
from tournaments.permissions import Capability


class ReadOrAuthenticated(BasePermission):
    """Reads are public (what they show is the selectors' business); a write needs a
    logged-in user or a token (401 otherwise), and its service checks the role (403)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


def championship_of(slug: str) -> Championship:
    """The championship at ``slug`` or 404."""
    return get_object_or_404(Championship, slug=slug)


def roles(request: Any, championship: Championship) -> frozenset[str]:
    """The roles of the request's user in this championship (none for the public)."""
    return permissions.roles_of(request.user, championship)


def may(request: Any, championship: Championship, capability: Capability) -> bool:
    """Whether the request's user has ``capability`` in this championship."""
    return permissions.has(request.user, championship, capability)


def require(request: Any, championship: Championship, capability: Capability) -> None:
    """Refuse (``NotAllowedError``, 403) unless the user has ``capability``."""
    permissions.require(request.user, championship, capability)


def sees_hidden(request: Any, championship: Championship) -> bool:
    """Organiser or head referee of this championship: sees boards still hidden."""
    return selectors.user_sees_hidden_boards(request.user, championship)
