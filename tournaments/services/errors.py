"""Errors of the services: ``ValueError`` subclasses split by cause.

The base :class:`TournamentError` and :class:`NotAllowedError` are defined in
:mod:`tournaments.errors` (so that :mod:`tournaments.permissions` raises them) and
re-exported here."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import ngettext

from tournaments.errors import NotAllowedError, TournamentError
from tournaments.models import (
    Game,
    Result,
)

__all__ = [
    "AccountError", "AddressError", "BoardsError", "ChampionshipStateError", "DrawError",
    "GameConflict",
    "NotAllowedError", "PairsCsvError", "RegistrationError", "ResultConflict", "ResultError",
    "TournamentError",
]


class ChampionshipStateError(TournamentError):
    """The action does not fit the championship's or round's state (finished, closed...)."""


class RegistrationError(TournamentError):
    """A bad championship, player or pair (duplicate number, empty name...)."""


class PairsCsvError(RegistrationError):
    """A pasted pairs list with bad lines; ``problems`` lists one message per bad line.
    The message names the first :attr:`SHOWN` of them and counts the rest: a pasted
    file of another kind (10,000 bad lines) must give a message one can read."""

    SHOWN = 20

    def __init__(self, problems: Sequence[str]) -> None:
        message = "; ".join(problems[:self.SHOWN])
        if len(problems) > self.SHOWN:
            rest = len(problems) - self.SHOWN
            message += "; " + ngettext("i %(n)s línia més amb errors",
                                       "i %(n)s línies més amb errors", rest) % {"n": rest}
        super().__init__(message, field="text")
        self.problems = list(problems)


class DrawError(TournamentError):
    """A round that cannot be set up or drawn (odd number of pairs, results exist...)."""


class BoardsError(TournamentError):
    """Boards that cannot be generated now (none set up, results already in...)."""


class AccountError(TournamentError):
    """A person's account that cannot be made, found or signed in so (a user name taken,
    no such user, an account a sign-in link may not open)."""


class AddressError(TournamentError):
    """A championship, round, table or board named by its slug or number that does not
    exist."""


class ResultError(TournamentError):
    """A result the rules do not allow (points out of 0..72, recontro without contro...).
    ``problems``: every ``(field, message)`` found, the first one the error's own (empty
    when only that one was looked for)."""

    def __init__(self, message: str, *, field: str | None = None,
                 problems: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message, field=field)
        self.problems = list(problems)


class ResultConflict(TournamentError):
    """Someone else saved this result since the form was loaded (optimistic concurrency).

    ``current``: the stored result (``None`` if it was deleted), so the form can show what
    the other referee saved; ``current_version``: its version (0 when there is none);
    ``by_same_user``: the stored version was saved by the acting user themselves (the
    same referee in another tab or on another phone), not by another referee.
    """

    def __init__(
        self, message: str, *, current: Result | None, by_same_user: bool = False
    ) -> None:
        super().__init__(message, field=None)
        self.current = current
        self.current_version = current.version if current is not None else 0
        self.by_same_user = by_same_user


class GameConflict(TournamentError):
    """Someone else saved this table's game (classic championship) since the form was
    loaded: as :class:`ResultConflict`, with ``current`` the stored game."""

    def __init__(
        self, message: str, *, current: Game | None, by_same_user: bool = False
    ) -> None:
        super().__init__(message, field=None)
        self.current = current
        self.current_version = current.version if current is not None else 0
        self.by_same_user = by_same_user
