"""Rounds: set up, draw the tables, seat by hand, close and reopen."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import movement
from tournaments.models import (
    Board,
    Championship,
    Pair,
    Result,
    Round,
    RoundPair,
    Seating,
    Table,
)
from tournaments.services.common import (
    HEAD_ROLES,
    ORGANISER_ROLES,
    User,
    _check_not_finished,
    _lock_championship,
    _require_role,
)
from tournaments.services.errors import ChampionshipStateError, DrawError


def _has_results(championship: Championship) -> bool:
    return Result.objects.filter(board__championship=championship).exists()


@transaction.atomic
def rounds_setup(
    *, championship: Championship, rounds: int, boards_per_round: int,
    acting_user: User | None,
) -> list[Round]:
    """Create rounds 1..``rounds``, each with ``boards_per_round`` boards numbered on
    (round r holds boards (r-1)*b+1 .. r*b), as on butinet where every table of a round
    plays the same boards. Replaces an earlier setup while no table is drawn; boards must
    then be generated again.

    Raises :class:`DrawError` (fields ``rounds`` / ``boards_per_round``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    _require_role(acting_user, championship, ORGANISER_ROLES, _("preparar les rondes"))
    _check_not_finished(championship)
    for value, name in ((rounds, "rounds"), (boards_per_round, "boards_per_round")):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
            raise DrawError(
                _("«%(value)s» ha de ser un enter entre 1 i 100.") % {"value": value},
                field=name,
            )
    if Seating.objects.filter(round__championship=championship).exists():
        raise DrawError(
            _("Ja s'han sortejat taules: les rondes ja no es poden canviar."), field="rounds"
        )
    Board.objects.filter(championship=championship).delete()
    Round.objects.filter(championship=championship).delete()
    created = Round.objects.bulk_create(
        [Round(championship=championship, number=n) for n in range(1, rounds + 1)]
    )
    Board.objects.bulk_create(
        [
            Board(championship=championship, round=rnd, number=number)
            for rnd in created
            for number in movement.round_boards(rnd.number, boards_per_round)
        ]
    )
    championship.boards_per_round = boards_per_round
    championship.deal_secret = ""
    championship.deal_commitment = ""
    championship.save(update_fields=["boards_per_round", "deal_secret", "deal_commitment"])
    return created


#: How many seeded shuffles a draw tries to avoid pairs meeting again.
DRAW_TRIES = movement.DRAW_TRIES


@transaction.atomic
def round_draw(
    *, round: Round, seed: int | None = None, acting_user: User | None
) -> list[Seating]:
    """Seat every pair of the championship at a table for ``round`` by a seeded random
    draw: with ``seed`` the same pairs always give the same tables. 24 pairs give 12
    tables; every table plays the round's boards. Among ``DRAW_TRIES`` shuffles from the
    seed, the first with the fewest pairs meeting again (from earlier rounds) wins.

    Redrawing replaces the tables while the round has no result. ``seed=None`` draws a
    fresh seed, stored in ``round.draw_seed``. The championship becomes ``running``.

    Raises :class:`DrawError` (odd or too few pairs, results exist, closed round),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.

    Question (spec): an odd number of pairs would need a bye (a sitting-out pair); the
    spec does not say how a bye scores, so it is refused.
    """
    # The championship first (as the registrations and rounds_setup lock it): a pair
    # registered while this draw runs would be left out of it.
    championship = _lock_championship(round.championship_id)
    round = Round.objects.select_for_update().get(pk=round.pk)
    round.championship = championship
    _require_role(acting_user, championship, ORGANISER_ROLES, _("sortejar taules"))
    _check_not_finished(championship)
    if round.is_closed:
        raise DrawError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    if Result.objects.filter(seating__round=round).exists():
        raise DrawError(
            _("La ronda %(n)s ja té resultats: no es pot tornar a sortejar.")
            % {"n": round.number}
        )
    numbers = sorted(
        Pair.objects.filter(championship=championship).values_list("number", flat=True)
    )
    if len(numbers) < 2 or len(numbers) % 2:
        raise DrawError(
            _("Cal un nombre parell de parelles (com a mínim 2) per sortejar: n'hi ha %(n)s.")
            % {"n": len(numbers)}
        )
    if seed is None:
        seed = secrets.randbits(62)
    history = movement.History.of(
        _draws_of(Round.objects.filter(championship=championship).exclude(pk=round.pk))
    )
    drawn = movement.draw_random(numbers, round=round.number, seed=seed, history=history)
    best = drawn.seated
    Seating.objects.filter(round=round).delete()
    tables_needed = len(best) // 2
    existing_tables = {
        t.number: t for t in Table.objects.filter(championship=championship)
    }
    new_tables = Table.objects.bulk_create(
        [
            Table(championship=championship, number=n)
            for n in range(1, tables_needed + 1)
            if n not in existing_tables
        ]
    )
    existing_tables.update({t.number: t for t in new_tables})
    pairs = {p.number: p for p in Pair.objects.filter(championship=championship)}
    seatings = Seating.objects.bulk_create(
        [
            Seating(
                round=round, table=existing_tables[i // 2 + 1],
                ns_pair=pairs[best[i]], ew_pair=pairs[best[i + 1]],
            )
            for i in range(0, len(best), 2)
        ]
    )
    _write_round_pairs(round, seatings)
    round.draw_seed = seed
    round.save(update_fields=["draw_seed"])
    if championship.status == Championship.Status.DRAFT:
        championship.status = Championship.Status.RUNNING
        championship.save(update_fields=["status"])
    return seatings


def _draws_of(rounds: object) -> list[movement.Draw]:
    """The seatings of ``rounds`` (a queryset of rounds) as ``movement.Draw`` values."""
    tables: dict[int, list[movement.Table]] = {}
    for round_number, table, ns, ew in Seating.objects.filter(round__in=rounds).values_list(
        "round__number", "table__number", "ns_pair__number", "ew_pair__number"
    ):
        tables.setdefault(round_number, []).append(movement.Table(table, ns, ew))
    return [movement.Draw(n, tuple(ts)) for n, ts in tables.items()]


def _write_round_pairs(round: Round, seatings: Sequence[Seating]) -> None:
    """The (round, pair) rows whose unique constraint holds "one table per round"."""
    try:
        with transaction.atomic():
            RoundPair.objects.bulk_create(
                [
                    RoundPair(round=round, pair_id=pair_id, seating=s)
                    for s in seatings
                    for pair_id in (s.ns_pair_id, s.ew_pair_id)
                ]
            )
    except IntegrityError:
        raise DrawError(
            _("Una parella no pot seure a dues taules a la ronda %(n)s.") % {"n": round.number}
        ) from None


@transaction.atomic
def seating_set(
    *, round: Round, table_number: int, ns_pair: Pair, ew_pair: Pair,
    acting_user: User | None,
) -> Seating:
    """Seat two pairs at one table by hand (a movement typed in, or the import).

    Raises :class:`DrawError` when a pair already sits elsewhere in that round.
    """
    _require_role(acting_user, round.championship, ORGANISER_ROLES, _("assignar taules"))
    if ns_pair.pk == ew_pair.pk:
        raise DrawError(_("Una parella no pot jugar contra ella mateixa."), field="ew_pair")
    table, _created = Table.objects.get_or_create(
        championship_id=round.championship_id, number=table_number
    )
    seating = Seating.objects.create(round=round, table=table, ns_pair=ns_pair, ew_pair=ew_pair)
    _write_round_pairs(round, [seating])
    return seating





@transaction.atomic
def round_close(
    *, round: Round, acting_user: User | None, allow_missing: bool = False
) -> Round:
    """Close a round: from now on only a head referee or the organiser may change its
    results. Refused while a table lacks a result on one of the round's boards, unless
    ``allow_missing`` (a table that did not play a board simply has no result).

    Raises :class:`ChampionshipStateError` (already closed, missing results; the message
    lists up to 10 missing "table/board"), :class:`NotAllowedError`.
    """
    round = Round.objects.select_for_update().select_related("championship").get(pk=round.pk)
    _require_role(acting_user, round.championship, HEAD_ROLES, _("tancar rondes"))
    if round.is_closed:
        raise ChampionshipStateError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    if not allow_missing:
        boards = list(Board.objects.filter(round=round).values_list("number", flat=True))
        done = set(
            Result.objects.filter(seating__round=round).values_list(
                "seating__table__number", "board__number"
            )
        )
        missing = [
            f"{table}/{board}"
            for table in Seating.objects.filter(round=round)
            .order_by("table__number").values_list("table__number", flat=True)
            for board in boards
            if (table, board) not in done
        ]
        if missing:
            raise ChampionshipStateError(
                _("Falten %(count)s resultats a la ronda %(n)s (taula/tauler: %(list)s).")
                % {"count": len(missing), "n": round.number, "list": ", ".join(missing[:10])}
            )
    round.closed_at = timezone.now()
    round.save(update_fields=["closed_at"])
    return round


@transaction.atomic
def round_reopen(*, round: Round, acting_user: User | None) -> Round:
    """Reopen a closed round while the championship runs. Raises as :func:`round_close`."""
    round = Round.objects.select_for_update().select_related("championship").get(pk=round.pk)
    _require_role(acting_user, round.championship, HEAD_ROLES, _("reobrir rondes"))
    if round.championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))
    round.closed_at = None
    round.save(update_fields=["closed_at"])
    return round
