"""Rounds: set up, draw the tables, seat by hand, close and reopen."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import movement
from tournaments.models import (
    AuditEntry,
    Board,
    Bye,
    Championship,
    Game,
    Pair,
    Result,
    Round,
    RoundPair,
    Seating,
    Stage,
    Table,
)
from tournaments.selectors.presence import absent_pairs
from tournaments.selectors.ranks import ranks_before
from tournaments.services.analysis import round_analysis_enqueue
from tournaments.services.common import (
    Capability,
    User,
    audit,
    check_not_finished,
    lock_championship,
    require,
)
from tournaments.services.errors import ChampionshipStateError, DrawError
from tournaments.services.movements import (
    RematchError,
    field_of,
    history_before,
    rematch_list,
)
from tournaments.services.stages import knockout_seat, stage_draw


def has_results(championship: Championship) -> bool:
    """Whether any result (or, classic, any game) of ``championship`` is stored."""
    return (Result.objects.filter(board__championship=championship).exists()
            or Game.objects.filter(seating__round__championship=championship).exists())


def rounds_setup_refusal(championship: Championship) -> ChampionshipStateError | DrawError | None:
    """Why :func:`rounds_setup` would refuse any setup of ``championship`` now, whatever
    the numbers and whoever asks, as the error it raises; ``None`` while it can be used.
    The championship is finished (:class:`ChampionshipStateError`), or a table is drawn
    (:class:`DrawError`, field ``rounds``). The organiser's page shows the form
    read-only with this message. One query."""
    try:
        check_not_finished(championship)
    except ChampionshipStateError as exc:
        return exc
    if Seating.objects.filter(round__championship=championship).exists():
        return DrawError(
            _("Ja s'han sortejat taules: les rondes ja no es poden canviar."), field="rounds"
        )
    return None


#: The most rounds, and the most boards a round, :func:`rounds_setup` takes.
ROUNDS_SETUP_MAX = 100


@transaction.atomic
def rounds_setup(
    *, championship: Championship, rounds: int, boards_per_round: int,
    acting_user: User | None,
) -> list[Round]:
    """Create rounds 1..``rounds``, each with ``boards_per_round`` boards numbered on
    (round r holds boards (r-1)*b+1 .. r*b), as on butinet where every table of a round
    plays the same boards. Replaces an earlier setup while no table is drawn; boards must
    then be generated again. A classic championship has no boards: each table plays one
    game a round, so ``boards_per_round`` is taken as 0 whatever is given.

    Raises :class:`DrawError` (fields ``rounds`` / ``boards_per_round``),
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    require(acting_user, championship, Capability.SET_UP_ROUNDS)
    refusal = rounds_setup_refusal(championship)
    if refusal is not None:
        raise refusal
    if championship.is_classic:
        boards_per_round = 0
    checked = [(rounds, "rounds")]
    if not championship.is_classic:
        checked.append((boards_per_round, "boards_per_round"))
    for value, name in checked:
        if isinstance(value, bool) or not isinstance(value, int) \
                or not 1 <= value <= ROUNDS_SETUP_MAX:
            raise DrawError(
                _("«%(value)s» ha de ser un enter entre 1 i %(max)s.")
                % {"value": value, "max": ROUNDS_SETUP_MAX},
                field=name,
            )
    before = {
        "rounds": Round.objects.filter(championship=championship).count(),
        "boards_per_round": championship.boards_per_round,
        "deal_commitment": championship.deal_commitment,
    }
    Board.objects.filter(championship=championship).delete()
    Round.objects.filter(championship=championship).delete()
    # Plain rounds are one stage: stages set up before go (stages_setup adds its own
    # after this).
    Stage.objects.filter(championship=championship).delete()
    created = Round.objects.bulk_create(
        [Round(championship=championship, number=n) for n in range(1, rounds + 1)]
    )
    Board.objects.bulk_create(
        [
            Board(championship=championship, round=rnd, number=number)
            for rnd in created
            for number in (movement.round_boards(rnd.number, boards_per_round)
                           if boards_per_round else ())
        ]
    )
    championship.boards_per_round = boards_per_round
    championship.deal_secret = ""
    championship.deal_commitment = ""
    championship.save(update_fields=["boards_per_round", "deal_secret", "deal_commitment"])
    audit(
        championship, AuditEntry.Action.ROUNDS_SETUP, acting_user,
        target=(_("%(rounds)s rondes") % {"rounds": rounds} if championship.is_classic
                else _("%(rounds)s rondes de %(boards)s taulers")
                % {"rounds": rounds, "boards": boards_per_round}),
        before=before if before["rounds"] else None,
        after={"rounds": rounds, "boards_per_round": boards_per_round,
               "deal_commitment": ""},
    )
    return created


#: How many seeded shuffles a draw tries to avoid pairs meeting again.
DRAW_TRIES = movement.DRAW_TRIES


@transaction.atomic
def round_draw(
    *, round: Round, seed: int | None = None, acting_user: User | None,
    movement_name: str | None = None, accept_rematches: bool = False,
    shown_rematches: Sequence[Sequence[int]] | None = None,
) -> list[Seating]:
    """Seat the round's field at tables by the championship's movement (or
    ``movement_name``: ``random``, ``swiss``, ``round-robin``; ``scoring.movement``).

    The field: every pair registered for the round (a late pair from its
    ``joined_round``) and not withdrawn before it. With an odd field one pair sits out
    (a :class:`~tournaments.models.Bye`), never one that sat out while another has not.
    With ``seed`` the same field, earlier rounds and standings always give the same
    tables (``seed=None`` draws a fresh one, stored in ``round.draw_seed``; the method
    in ``round.movement``). Swiss ranks the pairs by the standings after the earlier
    rounds (every result, the championship's missed-board rule).

    When no draw avoids a rematch, nothing is stored and :class:`RematchError` lists
    them with the seed and method of that draw, unless ``accept_rematches``. With
    ``shown_rematches`` (the list the organiser was shown and accepted, drawn again from
    the error's seed and method) the draw is stored only if it holds no other rematch;
    otherwise (a pair registered or withdrew meanwhile) nothing is stored and
    :class:`RematchError` lists the new ones. Redrawing replaces the tables while the round has
    no result. The championship becomes ``running``.

    Raises :class:`DrawError` (fewer than 2 pairs, results exist, closed round, an
    all-play-all past its last round or with a late pair), :class:`RematchError`,
    :class:`NotAllowedError`, :class:`ChampionshipStateError`.
    """
    # The championship first (as the registrations and rounds_setup lock it): a pair
    # registered while this draw runs would be left out of it.
    championship = lock_championship(round.championship_id)
    round = Round.objects.select_for_update().get(pk=round.pk)
    round.championship = championship
    require(acting_user, championship, Capability.DRAW)
    check_not_finished(championship)
    if round.is_closed:
        raise DrawError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    if (Result.objects.filter(seating__round=round).exists()
            or Game.objects.filter(seating__round=round).exists()):
        raise DrawError(
            _("La ronda %(n)s ja té resultats: no es pot tornar a sortejar.")
            % {"n": round.number}
        )
    if round.stage_id is not None:
        stage = Stage.objects.get(pk=round.stage_id)
        if stage.kind != Stage.Kind.SWISS:
            return _stage_round_draw(championship, round, stage, seed, acting_user)
    method = movement.Movement(movement_name or championship.movement)
    field = field_of(championship, round.number)
    numbers = [p.number for p in field]
    if len(numbers) < 2:
        raise DrawError(
            _("Cal com a mínim 2 parelles per sortejar la ronda %(round)s: n'hi ha %(n)s.")
            % {"round": round.number, "n": len(numbers)}
        )
    if seed is None:
        seed = secrets.randbits(62)
    swiss = method is movement.Movement.SWISS
    robin = method is movement.Movement.ROUND_ROBIN
    try:
        drawn = movement.draw(
            method, numbers, round=round.number, seed=seed, history=history_before(round),
            ranks=ranks_before(championship, round.number) if swiss else None,
            schedule=_schedule(championship) if robin else None,
        )
    except movement.MovementError as exc:
        raise DrawError(_round_robin_message(championship, round.number, str(exc))) from None
    if drawn.rematches and not accept_rematches:
        raise RematchError(
            _("Cap sorteig de la ronda %(n)s evita que es tornin a trobar parelles: "
              "%(list)s. Accepteu aquestes repeticions per sortejar-la.")
            % {"n": round.number, "list": rematch_list(drawn.rematches)},
            rematches=drawn.rematches, seed=seed, movement=method.value,
        )
    if accept_rematches and shown_rematches is not None and not {
        tuple(sorted(pair)) for pair in drawn.rematches
    } <= {tuple(sorted(pair)) for pair in shown_rematches}:
        raise RematchError(
            _("El sorteig de la ronda %(n)s ha canviat des que s'han mostrat les "
              "repeticions: ara es tornen a trobar %(list)s. Accepteu aquestes "
              "repeticions per sortejar-la.")
            % {"n": round.number, "list": rematch_list(drawn.rematches)},
            rematches=drawn.rematches, seed=seed, movement=method.value,
        )
    return _store_draw(championship, round, field, drawn, seed, method, acting_user)


def _stage_round_draw(
    championship: Championship, round: Round, stage: Stage, seed: int | None,
    acting_user: User | None,
) -> list[Seating]:
    """A round of a groups, knockout or finals stage: its tables come from the stage
    (``services.stages.stage_draw``), never a rematch check (a group's all-play-all and
    a bracket fix who meets whom)."""
    if seed is None:
        seed = secrets.randbits(62)
    drawn = stage_draw(championship=championship, round=round, stage=stage,
                              seed=seed, acting_user=acting_user)
    field = list(Pair.objects.filter(championship=championship).order_by("number"))
    if not drawn.tables:
        raise DrawError(
            _("La ronda %(n)s encara no té cap partida per jugar: s'omple a mesura que "
              "s'entren les partides que hi porten.") % {"n": round.number}
            if stage.kind == Stage.Kind.KNOCKOUT else
            _("La ronda %(n)s no té cap taula en aquesta fase.") % {"n": round.number}
        )
    return _store_draw(championship, round, field, drawn, seed, drawn.movement, acting_user)


def _store_draw(
    championship: Championship, round: Round, field: Sequence[Pair], drawn: movement.Draw,
    seed: int, method: movement.Movement, acting_user: User | None,
) -> list[Seating]:
    """Replace ``round``'s tables and byes by ``drawn`` (audited)."""
    before = _draw_snapshot(round)
    Seating.objects.filter(round=round).delete()
    Bye.objects.filter(round=round).delete()
    tables_needed = max((t.number for t in drawn.tables), default=0)
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
    pairs = {p.number: p for p in field}
    seatings = Seating.objects.bulk_create(
        [
            Seating(
                round=round, table=existing_tables[t.number],
                ns_pair=pairs[t.ns], ew_pair=pairs[t.ew],
            )
            for t in drawn.tables
        ]
    )
    Bye.objects.bulk_create([Bye(round=round, pair=pairs[n]) for n in drawn.byes])
    _write_round_pairs(round, seatings)
    round.draw_seed = seed
    round.movement = method.value
    round.save(update_fields=["draw_seed", "movement"])
    if championship.status == Championship.Status.DRAFT:
        championship.status = Championship.Status.RUNNING
        championship.save(update_fields=["status"])
    audit(
        championship, AuditEntry.Action.ROUND_DRAW, acting_user,
        target=_("ronda %(n)s") % {"n": round.number}, round_number=round.number,
        before=before if before["tables"] or before["byes"] else None,
        after={
            **_draw_snapshot(round),
            "seed": seed, "movement": method.value,
            "rematches": [list(pair) for pair in drawn.rematches],
        },
    )
    return seatings


def _draw_snapshot(round: Round) -> dict[str, list[Any]]:
    """A round's tables as ``[[table, NS pair, EW pair]]`` and its byes as pair numbers,
    for the audit row (two queries)."""
    return {
        "tables": [
            list(row) for row in Seating.objects.filter(round=round)
            .order_by("table__number")
            .values_list("table__number", "ns_pair__number", "ew_pair__number")
        ],
        "byes": sorted(Bye.objects.filter(round=round).values_list("pair__number", flat=True)),
    }


def _schedule(championship: Championship) -> list[int]:
    """The pairs of an all-play-all: those registered for round 1 (and present, with
    the check-in on)."""
    return sorted(
        Pair.objects.filter(championship=championship, joined_round=1)
        .exclude(absent_pairs(championship)).values_list("number", flat=True)
    )


def _round_robin_message(championship: Championship, round_number: int, detail: str) -> str:
    if "joined after" in detail:
        return _(
            "Una lliga (tots contra tots) no admet parelles inscrites tard: sortegeu la "
            "ronda %(n)s amb un altre moviment."
        ) % {"n": round_number}
    pairs = len(_schedule(championship))
    rounds = movement.round_robin_rounds(max(pairs, 2))
    return ngettext(
        "Una lliga de %(pairs)s parelles té %(rounds)s ronda: la ronda %(n)s no hi cap.",
        "Una lliga de %(pairs)s parelles té %(rounds)s rondes: la ronda %(n)s no hi cap.",
        rounds,
    ) % {"pairs": pairs, "rounds": rounds, "n": round_number}


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
    require(acting_user, round.championship, Capability.SEAT_BY_HAND)
    if ns_pair.pk == ew_pair.pk:
        raise DrawError(_("Una parella no pot jugar contra ella mateixa."), field="ew_pair")
    table, _created = Table.objects.get_or_create(
        championship_id=round.championship_id, number=table_number
    )
    seating = Seating.objects.create(round=round, table=table, ns_pair=ns_pair, ew_pair=ew_pair)
    _write_round_pairs(round, [seating])
    audit(
        round.championship_id, AuditEntry.Action.ROUND_SEAT, acting_user,
        target=_("ronda %(round)s, taula %(table)s") % {
            "round": round.number, "table": table_number,
        },
        round_number=round.number, table_number=table_number,
        after={"ns_pair": ns_pair.number, "ew_pair": ew_pair.number},
    )
    return seating





@transaction.atomic
def round_close(
    *, round: Round, acting_user: User | None, allow_missing: bool = False,
    analyse: bool = True,
) -> Round:
    """Close a round: from now on only a head referee or the organiser may change its
    results (capability ``CLOSE_ROUND``). Refused while a table lacks a result on one of
    the round's boards, unless ``allow_missing`` is passed and the acting user may close
    a round with results missing (``CLOSE_ROUND_WITH_MISSING``: the organiser;
    docs/decisions.md 17); a table that did not play a board then simply has no result.
    The audit row lists the missing "table/board". Once committed, the double-dummy
    tables of the round's boards are computed, on a worker or on the process's
    background thread (``settings.BOARD_ANALYSIS_ON_CLOSE``;
    :mod:`tournaments.services.analysis`); ``analyse=False`` leaves them to a caller that
    computes them itself (``manage.py demo``).

    Raises :class:`ChampionshipStateError` (already closed; missing results without
    ``allow_missing``: the message lists up to 10 missing "table/board"),
    :class:`NotAllowedError` (no ``CLOSE_ROUND``; ``allow_missing`` with results missing
    and no ``CLOSE_ROUND_WITH_MISSING``).
    """
    # The championship's row first, as every writer takes it: a result being saved
    # holds it (KEY SHARE) until it commits, so the missing results below are read after
    # it, and a save that comes later sees the round closed.
    championship = lock_championship(round.championship_id)
    round = Round.objects.select_for_update().get(pk=round.pk)
    round.championship = championship
    require(acting_user, championship, Capability.CLOSE_ROUND)
    if round.is_closed:
        raise ChampionshipStateError(_("La ronda %(n)s ja està tancada.") % {"n": round.number})
    missing = missing_results(round)
    if missing and championship.is_classic:
        message = ngettext(
            "Falta %(count)s partida a la ronda %(n)s (taula: %(list)s).",
            "Falten %(count)s partides a la ronda %(n)s (taula: %(list)s).",
            len(missing),
        ) % {"count": len(missing), "n": round.number, "list": ", ".join(missing[:10])}
        if not allow_missing:
            raise ChampionshipStateError(message)
        require(acting_user, championship, Capability.CLOSE_ROUND_WITH_MISSING)
    elif missing:
        message = ngettext(
            "Falta %(count)s resultat a la ronda %(n)s (taula/tauler: %(list)s).",
            "Falten %(count)s resultats a la ronda %(n)s (taula/tauler: %(list)s).",
            len(missing),
        ) % {"count": len(missing), "n": round.number, "list": ", ".join(missing[:10])}
        if not allow_missing:
            raise ChampionshipStateError(message)
        require(acting_user, championship, Capability.CLOSE_ROUND_WITH_MISSING)
    round.closed_at = timezone.now()
    round.save(update_fields=["closed_at"])
    audit(
        championship, AuditEntry.Action.ROUND_CLOSE, acting_user,
        target=_("ronda %(n)s") % {"n": round.number}, round_number=round.number,
        before={"closed_at": None},
        after={"closed_at": round.closed_at, "missing": missing},
        at=round.closed_at,
    )
    if analyse and settings.BOARD_ANALYSIS_ON_CLOSE and not championship.is_classic:
        # After the commit, so a worker reads the closed round; robust: a task or broker
        # that fails never turns the close into an error (services.analysis).
        transaction.on_commit(
            functools.partial(round_analysis_enqueue, round_id=round.pk), robust=True
        )
    return round


def missing_results(round: Round) -> list[str]:
    """The results a round still lacks, as ``"table/board"`` in table then board order:
    every seated table is due a result on every board of the round (three queries). In a
    classic championship, the tables (``"table"``) whose game is not in."""
    if round.championship.is_classic:
        played = set(Game.objects.filter(seating__round=round).values_list(
            "seating__table__number", flat=True))
        return [str(t) for t in Seating.objects.filter(round=round)
                .order_by("table__number").values_list("table__number", flat=True)
                if t not in played]
    boards = list(
        Board.objects.filter(round=round).order_by("number").values_list("number", flat=True)
    )
    done = set(
        Result.objects.filter(seating__round=round).values_list(
            "seating__table__number", "board__number"
        )
    )
    return [
        f"{table}/{board}"
        for table in Seating.objects.filter(round=round)
        .order_by("table__number").values_list("table__number", flat=True)
        for board in boards
        if (table, board) not in done
    ]


@transaction.atomic
def round_reopen(*, round: Round, acting_user: User | None) -> Round:
    """Reopen a closed round while the championship runs (``REOPEN_ROUND``: head referee
    or organiser); an open round stays as it is (nothing written, nothing audited). A
    knockout round gets the matches that became ready while it was closed.
    Raises :class:`ChampionshipStateError` (finished), :class:`NotAllowedError`."""
    championship = lock_championship(round.championship_id)  # first, as round_close
    round = Round.objects.select_for_update().get(pk=round.pk)
    round.championship = championship
    require(acting_user, round.championship, Capability.REOPEN_ROUND)
    if round.championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(_("El campionat ja s'ha acabat."))
    if not round.is_closed:
        return round
    before = round.closed_at
    round.closed_at = None
    round.save(update_fields=["closed_at"])
    audit(
        round.championship, AuditEntry.Action.ROUND_REOPEN, acting_user,
        target=_("ronda %(n)s") % {"n": round.number}, round_number=round.number,
        before={"closed_at": before}, after={"closed_at": None},
    )
    if round.stage_id is not None:
        stage = Stage.objects.filter(pk=round.stage_id, kind=Stage.Kind.KNOCKOUT).first()
        if stage is not None:
            # The matches that became ready while it was closed (never seated in a
            # closed round) are seated now.
            knockout_seat(stage, acting_user=acting_user)
    return round
