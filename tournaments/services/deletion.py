"""Deleting a whole championship: the only way rows that results hang on go away.

Results, seatings, byes, pairs and players are protected at the model level
(``on_delete=PROTECT``): deleting one of them in the admin or the shell is refused with
Django's ``ProtectedError``, so no pair's scores vanish behind the services' back. A
pair that leaves is withdrawn (``pair_withdraw``), a wrong result is deleted with a
reason (``result_delete``). Deleting a championship deletes its children here, in an
order the protections accept, in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.admin.models import DELETION, LogEntry
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    Board,
    Bye,
    Championship,
    Game,
    Pair,
    PairBoard,
    Player,
    PrintJob,
    Result,
    Round,
    RoundPair,
    Seating,
    Table,
)
from tournaments.services.common import Capability, User, acting_person, require
from tournaments.services.errors import ChampionshipStateError


@dataclass(frozen=True)
class DeletionSummary:
    """What goes with a championship: counts of its rows, as the confirmation page
    names them."""

    pairs: int
    rounds: int
    boards: int
    results: int
    print_jobs: int


def championship_delete_summary(championship: Championship) -> DeletionSummary:
    """Count what :func:`championship_delete` would delete (five queries)."""
    return DeletionSummary(
        pairs=Pair.objects.filter(championship=championship).count(),
        rounds=Round.objects.filter(championship=championship).count(),
        boards=Board.objects.filter(championship=championship).count(),
        results=Result.objects.filter(board__championship=championship).count()
        + Game.objects.filter(seating__round__championship=championship).count(),
        print_jobs=PrintJob.objects.filter(championship=championship).count(),
    )


@transaction.atomic
def championship_delete(
    *, championship: Championship, confirm_slug: str, acting_user: User | None
) -> DeletionSummary:
    """Delete ``championship`` and everything in it (results, seatings, byes, boards,
    rounds, tables, pairs, players, roles, print jobs, its audit log). Organiser only,
    and only when ``confirm_slug`` repeats the championship's identifier (the
    confirmation page asks for it after naming what goes). Writes a row to the admin
    log (the championship's own audit log goes with it). Returns what was deleted.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (field
    ``confirm_slug``: the identifier does not match).
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.DELETE_CHAMPIONSHIP)
    if (confirm_slug or "").strip() != championship.slug:
        raise ChampionshipStateError(
            _("Escriviu «%(slug)s» per confirmar que voleu esborrar el campionat.")
            % {"slug": championship.slug},
            field="confirm_slug",
        )
    summary = championship_delete_summary(championship)
    rounds = Round.objects.filter(championship=championship)
    # Children before parents: each PROTECT below is released before its target goes.
    PairBoard.objects.filter(board__championship=championship).delete()
    Result.objects.filter(board__championship=championship).delete()
    Game.objects.filter(seating__round__in=rounds).delete()
    RoundPair.objects.filter(round__in=rounds).delete()
    Bye.objects.filter(round__in=rounds).delete()
    Seating.objects.filter(round__in=rounds).delete()
    Board.objects.filter(championship=championship).delete()
    Table.objects.filter(championship=championship).delete()
    rounds.delete()
    Pair.objects.filter(championship=championship).delete()
    Player.objects.filter(championship=championship).delete()
    person = acting_person(acting_user)
    if person is not None:
        LogEntry.objects.log_actions(
            user_id=person.pk, queryset=[championship], action_flag=DELETION,
            single_object=True,
            change_message=(
                f"deleted with {summary.pairs} pairs, {summary.rounds} rounds, "
                f"{summary.boards} boards, {summary.results} results"
            ),
        )
    championship.delete()
    return summary
