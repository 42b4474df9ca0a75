"""What every service module shares: the acting user type, role checks, the championship lock."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.models import (
    Championship,
    Membership,
)
from tournaments.selectors import user_roles
from tournaments.services.errors import ChampionshipStateError, NotAllowedError

User = AbstractBaseUser | AnonymousUser

Role = Membership.Role
ORGANISER_ROLES = frozenset({Role.ORGANISER})
HEAD_ROLES = frozenset({Role.ORGANISER, Role.HEAD_REFEREE})
REFEREE_ROLES = frozenset({Role.ORGANISER, Role.HEAD_REFEREE, Role.REFEREE})




def _require_role(
    user: User | None, championship: Championship, roles: Iterable[str], action: str
) -> None:
    """``user=None`` is the system (commands, import) and may do anything."""
    if user is None:
        return
    if not user_roles(user, championship) & set(roles):
        raise NotAllowedError(
            _("No tens permís per a: %(action)s (campionat %(name)s).")
            % {"action": action, "name": championship.name}
        )



def _lock_championship(championship: Championship | int) -> Championship:
    """The championship's row, locked until the transaction ends, so that registrations
    (and removals) of one championship run one at a time: every one sees the pairs and
    player codes the previous one wrote. ``FOR NO KEY UPDATE`` does not block the result
    writes (their foreign keys only take ``FOR KEY SHARE``)."""
    pk = championship if isinstance(championship, int) else championship.pk
    return Championship.objects.select_for_update(no_key=True).get(pk=pk)


def _check_not_finished(championship: Championship) -> None:
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))


def _person(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None
