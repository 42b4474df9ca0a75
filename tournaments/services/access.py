"""Access: the API tokens of devices and the unlocking of login lockouts (django-axes).

Who may unlock (docs/decisions.md "Doors"): a superuser, or staff with django-axes'
"delete access attempt" permission, lifts any lockout; an organiser of a championship
lifts the lockout of a user who holds a role in a championship they organise, and of an
address (a hall's shared connection).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from axes.models import AccessAttempt
from axes.utils import reset
from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Membership
from tournaments.services.errors import NotAllowedError, TournamentError

log = logging.getLogger(__name__)

#: An attempt's ``user_agent`` for a client with a device cookie: this and the device id
#: (``tournaments.devices``).
DEVICE_PREFIX = "device:"


class UnlockError(TournamentError):
    """A lockout that this user may not lift, or no user name nor address given."""


@transaction.atomic
def token_for(*, user: Any) -> str:
    """The API token of ``user`` (created on the first request; the same key after):
    a device sends it as ``Authorization: Token <key>`` and acts as that user."""
    # The model by name: services stay below the API layer (no rest_framework import).
    token_model = apps.get_model("authtoken", "Token")
    token, _created = token_model.objects.get_or_create(user=user)
    return str(token.key)


def _is_site_admin(user: Any) -> bool:
    return bool(
        getattr(user, "is_superuser", False)
        or (getattr(user, "is_staff", False) and user.has_perm("axes.delete_accessattempt"))
    )


def may_unlock_any(user: Any) -> bool:
    """Whether ``user`` may open the lockouts page: site admin or an organiser."""
    if user is None or not user.is_authenticated:
        return False
    return _is_site_admin(user) or Membership.objects.filter(
        user_id=user.pk, role=Membership.Role.ORGANISER
    ).exists()


def _usernames_of_organiser(user: Any) -> set[str]:
    championships = Membership.objects.filter(
        user_id=user.pk, role=Membership.Role.ORGANISER
    ).values("championship_id")
    return set(
        Membership.objects.filter(championship_id__in=championships)
        .values_list("user__username", flat=True)
    )


@dataclass(frozen=True, slots=True)
class Tries:
    """Failed logins at one ``address`` (``device``: by a client that carries the user's
    device cookie) since the cool-off window began, the last at ``last``."""

    address: str
    device: bool
    failures: int
    last: datetime


@dataclass(frozen=True, slots=True)
class Lockout:
    """A user name being tried: ``failures`` in all since its cool-off window began
    (the count that locks the clients without its device cookie), the last at ``last``,
    ``locked`` when that count reached ``AXES_FAILURE_LIMIT``, and where they came from
    (``tries``, the most recent first)."""

    username: str
    failures: int
    last: datetime
    locked: bool
    tries: tuple[Tries, ...]


def lockouts_for(user: Any) -> list[Lockout]:
    """The user names being tried (failed logins in the cool-off window) whose lockout
    ``user`` may lift, the locked first, then the most recent (two queries, plus one for
    an organiser). Unlocking a user name forgets its attempts at every address and
    device (docs/decisions.md 79)."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    limit = settings.AXES_FAILURE_LIMIT
    allowed = None if _is_site_admin(user) else _usernames_of_organiser(user)
    rows = (
        AccessAttempt.objects.filter(attempt_time__gte=since)
        .exclude(username=None).exclude(username="")
        .values("username", "ip_address", "user_agent")
        .annotate(n=Sum("failures_since_start"), last=Max("attempt_time"))
        .order_by("username", "-last")
    )
    tries: dict[str, list[Tries]] = {}
    for row in rows:
        name = row["username"]
        if allowed is not None and name not in allowed:
            continue
        device = str(row["user_agent"] or "").startswith(DEVICE_PREFIX)
        tries.setdefault(name, []).append(
            Tries(str(row["ip_address"] or ""), device, row["n"], row["last"]))
    found = [
        Lockout(
            name, sum(t.failures for t in ts), max(t.last for t in ts),
            sum(t.failures for t in ts) >= limit
            or any(t.device and t.failures >= limit for t in ts),
            tuple(ts),
        )
        for name, ts in tries.items()
    ]
    found.sort(key=lambda lock: lock.last, reverse=True)
    found.sort(key=lambda lock: not lock.locked)
    return found


def lockout_reset(
    *, username: str | None = None, ip_address: str | None = None, acting_user: Any
) -> int:
    """Lift the lockout of ``username`` or of ``ip_address`` (their failed attempts are
    forgotten); returns how many attempt rows were removed.

    Raises :class:`NotAllowedError` (not an organiser nor a site admin; a user outside
    the organiser's championships) or :class:`UnlockError` (neither given).
    """
    if not may_unlock_any(acting_user):
        raise NotAllowedError(_("Només un organitzador pot desbloquejar usuaris."))
    if not username and not ip_address:
        raise UnlockError(_("Digueu quin usuari o quina adreça cal desbloquejar."),
                          field="username")
    if username and not _is_site_admin(acting_user) \
            and username not in _usernames_of_organiser(acting_user):
        raise NotAllowedError(
            _("L'usuari %(name)s no té cap rol en els vostres campionats.")
            % {"name": username}
        )
    removed = 0
    if username:
        removed += reset(username=username)
    if ip_address:
        removed += reset(ip=ip_address)
    log.warning("lockout lifted: username=%s ip=%s by %s", username, ip_address, acting_user)
    return removed
