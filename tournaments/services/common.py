"""What every service module shares: the acting user type, the capability check
(:func:`require`, from :mod:`tournaments.permissions`), the audit row (:func:`audit`),
the championship lock."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.db import router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.text import normalise
from tournaments import enqueue
from tournaments.db import results as db_results
from tournaments.models import (
    AuditEntry,
    Championship,
    CircuitEvent,
    Result,
)
from tournaments.permissions import Capability, has, require
from tournaments.services.errors import ChampionshipStateError

log = logging.getLogger(__name__)

#: Who acts: a signed-in account (the site uses Django's own user model) or nobody.
User = Account | AnonymousUser

__all__ = ["Capability", "audit", "bump_results_version", "has", "require"]

#: Audited actions that change nothing a page or document shows (a print job retried
#: or cancelled): they do not bump the results version. (A role given does: it changes
#: what that user's pages show.)
UNPUBLISHED_KINDS = frozenset({"print"})

#: At most this many characters of a target text or a reason in an audit row.
AUDIT_TEXT_MAX = 200
AUDIT_REASON_MAX = 500


def audit_entry(
    championship: Championship | int,
    action: str,
    acting_user: User | None,
    *,
    target: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
    round_number: int | None = None,
    table_number: int | None = None,
    board_number: int | None = None,
    result: Result | None = None,
    at: Any = None,
) -> AuditEntry:
    """The audit row :func:`audit` writes, built and not yet saved (for a write that
    stores it with its own rows in one statement, and then bumps the results version
    itself: ``db.results.insert_result``). Arguments as :func:`audit`'s."""
    championship_id = championship if isinstance(championship, int) else championship.pk
    return AuditEntry(
        championship_id=championship_id,
        action=action,
        acting_user=acting_person(acting_user),
        target=(target or "")[:AUDIT_TEXT_MAX],
        before=before,
        after=after,
        # Composed before it is cut: the column stores NFC, and composing can lengthen it.
        reason=normalise(reason or "").strip()[:AUDIT_REASON_MAX],
        round_number=round_number,
        table_number=table_number,
        board_number=board_number,
        result=result,
        at=at or timezone.now(),
    )


def audit(
    championship: Championship | int,
    action: str,
    acting_user: User | None,
    **fields: Any,
) -> AuditEntry:
    """Write the audit row of one write (``AuditEntry``), inside that write's transaction
    (so the row and the write are stored together or not at all).

    ``action``: an ``AuditEntry.Action`` (``"result.create"``...); ``acting_user``: who
    (``None`` or anonymous: the system); keywords (:func:`audit_entry`'s): ``target``, a
    short text naming what changed ("ronda 2", "parella 7"; cut to 200 characters);
    ``before`` / ``after``: JSON-able values (dates and decimals allowed), ``None`` when
    there is nothing; ``reason``: the person's reason, cut to 500 characters;
    ``round_number``, ``table_number``, ``board_number``, ``result``, ``at``. Never pass
    a deal or the deal secret. Raises ``RuntimeError`` outside a transaction (a bug: the
    row could outlive a write that failed).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit() must run inside the write's transaction")
    entry = audit_entry(championship, action, acting_user, **fields)
    entry.save()
    # Last, so that the championship's row, which every result of the championship
    # updates, stays locked only until the commit that follows.
    if action.split(".", 1)[0] not in UNPUBLISHED_KINDS:
        bump_results_version(entry.championship_id)
    return entry


def bump_results_version(championship_id: int) -> None:
    """Add one to the championship's ``results_version`` (and stamp
    ``results_changed_at``) in the caller's transaction: every accepted change that can
    alter a public page calls it, through :func:`audit` (results, draw and seating,
    closing and reopening, finish, publish, pairs and names, rules, withdrawals,
    imports, roles). One ``UPDATE ... SET results_version =
    results_version + 1``, so concurrent writers never lose a bump; a rolled back write
    rolls its bump back too. The live pages' ETags and cached fragments and the prints'
    "out of date" compare this number (docs/decisions.md, live pages)."""
    status = db_results.bump_results_version(championship_id,
                                             using=router.db_for_write(Championship))
    if status == Championship.Status.FINISHED:
        circuits_recount_on_commit(championship_id)


def circuits_recount_on_commit(championship_id: int) -> None:
    """After the commit, have the circuits of a finished championship read its places
    again (``tasks.circuit_places_task``: ``services.final_standings_refresh``, which
    writes a ``circuit.ranking`` audit row when a place changed). Only a finished
    championship comes here (a running one's places are read live), and one query says
    whether it belongs to a circuit at all; the result's save never waits for the
    recount, and a broker that fails is logged, never the save's error."""
    if not CircuitEvent.objects.filter(championship_id=championship_id).exists():
        return

    def send() -> None:
        try:
            enqueue.circuit_places(championship_id)
        except Exception:  # the change stands; the next page view recounts
            log.exception("championship %s: circuits not recounted", championship_id)

    transaction.on_commit(send)


def lock_championship(championship: Championship | int) -> Championship:
    """The championship's row, locked (``FOR UPDATE``) until the transaction ends: the
    first lock of every change to a championship's pairs, rounds and seatings, so that
    they run one at a time (each sees the pairs and player codes the previous one
    wrote) and one at a time with the result saves, which take the same row first
    (``FOR KEY SHARE``, :func:`tournaments.db.results.save_context`). With the
    championship's row always taken first, no two of them wait for each other: a draw
    that held it while a save held the round's would deadlock."""
    pk = championship if isinstance(championship, int) else championship.pk
    return Championship.objects.select_for_update().get(pk=pk)


def check_not_finished(championship: Championship) -> None:
    """Raise :class:`ChampionshipStateError` once ``championship`` is finished."""
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))


def acting_person(user: User | None) -> Any:
    """The user to store as who made a change: ``None`` for the system (``acting_user=None``)
    and for an anonymous user, whom no row can point to."""
    return user if user is not None and user.is_authenticated else None
