"""The base of every refusal of the app, below the services.

:class:`TournamentError` and :class:`NotAllowedError` live here, not in
``tournaments/services/errors.py`` (which re-exports them), so that
:mod:`tournaments.permissions`, a layer below the services, raises the very class the
services, views and API catch (docs/architecture.md "Who may import whom").
"""

from __future__ import annotations


class TournamentError(ValueError):
    """Base of every refusal of a service. ``field``: the form field at fault, or None."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NotAllowedError(TournamentError):
    """The acting user lacks the capability this action needs in this championship
    (:func:`tournaments.permissions.require`)."""
