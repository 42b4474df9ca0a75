"""Games of a classic championship: validate, record (optimistic concurrency), delete;
every change audited, as a board's result (:mod:`tournaments.services.results`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import classic
from scoring.text import normalise
from tournaments.db.games import share_round
from tournaments.game_messages import game_problems
from tournaments.models import AuditEntry, Championship, Game, Round, Seating, Stage
from tournaments.selectors.stages import is_knockout_round
from tournaments.services.common import Capability, User, audit, require
from tournaments.services.common import acting_person as _person
from tournaments.services.errors import (
    AddressError,
    ChampionshipStateError,
    GameConflict,
    ResultError,
)
from tournaments.services.results import (
    OnBehalfOfTable,
    SaveKind,
    supersede_table_entries,
    table_closed_round,
    table_may_not_adjust,
)
from tournaments.services.stages import knockout_level_check, knockout_seat

NOTE_MAX = 500


@dataclass(frozen=True, slots=True)
class GameSaved:
    """The outcome of :func:`game_record`: ``kind`` (created, updated, unchanged) and the
    stored ``game`` as it is now."""

    kind: SaveKind
    game: Game


def validate_game(
    championship: Championship, raw: dict[str, Any], *, knockout: bool = False
) -> classic.Game:
    """The game ``raw`` describes (``ns_points``, ``ew_points``, ``deals``, ``ended_by``,
    optional ``hands``), checked by ``scoring.classic.validate_game`` against the
    championship's rules. Raises :class:`ResultError` naming every problem, each at its
    field, in the reader's language."""
    if not championship.is_classic:
        raise ResultError(
            _("Aquest campionat és de predonats: els resultats s'entren per tauler."),
            field="ended_by",
        )
    game, problems = classic.validate_game(raw, championship.classic_rules(knockout=knockout))
    if game is None:
        found = game_problems(problems, championship)
        raise ResultError(found[0][1], field=found[0][0], problems=found)
    return game


def _where(seating: Seating) -> str:
    return _("ronda %(round)s, taula %(table)s") % {
        "round": seating.round.number, "table": seating.table.number,
    }


def _share_round(by: str, params: list[Any]) -> None:
    """The championship's and the round's rows held before the seating is read
    (:func:`tournaments.db.games.share_round`): a finish, a close or a rules change
    runs wholly before this save, which then sees it, or after it."""
    share_round(by, params, using=router.db_for_write(Game))


def _locked_seating(slug: str, round_number: int, table_number: int) -> Seating:
    lock_knockout(Round.objects.filter(championship__slug=slug, number=round_number)
                   .values_list("pk", flat=True).first())
    _share_round("slug", [slug, round_number])
    seating = (
        Seating.objects.select_for_update(of=("self",))
        .select_related("round__championship", "table", "ns_pair", "ew_pair")
        .filter(round__championship__slug=slug, round__number=round_number,
                table__number=table_number)
        .first()
    )
    if seating is None:
        raise AddressError(_("No hi ha aquesta taula en aquesta ronda del campionat."))
    return seating


@transaction.atomic
def game_record_at(
    *, slug: str, round_number: int, table_number: int, **values: Any
) -> GameSaved:
    """:func:`game_record` on the table named by the championship's slug, the round and
    the table number (the API's address). Raises :class:`AddressError` when there is no
    such table in that round."""
    return _record(_locked_seating(slug, round_number, table_number), **values)


@transaction.atomic
def game_record(*, seating: Seating, **values: Any) -> GameSaved:
    """Enter (``expected_version=None``) or correct (``expected_version`` = the version
    the form was loaded with) the game at ``seating``'s table. Keywords:
    ``ns_points``, ``ew_points``, ``deals``, ``ended_by``, ``hands`` (the score sheet,
    optional: the final is then computed from it), ``note``, ``expected_version``,
    ``expected_id``, ``acting_user``, ``on_behalf_of_table`` (the opponents'
    confirmation of the table's entry: ``services.results.OnBehalfOfTable``).

    The same guarantees as a board's result: the seating row is locked, so two saves
    run one after the other and the second, based on an older version, gets
    :class:`GameConflict` (with the stored game); values identical to the stored game
    are a success that writes nothing; every write is audited with before and after.
    An adjusted game (``ended_by="adjusted"``), put or replaced, and any change in a
    closed round need the head referee or the organiser.

    Raises :class:`NotAllowedError`, :class:`ChampionshipStateError` (finished),
    :class:`ResultError` (every problem at its field), :class:`GameConflict`.
    """
    lock_knockout(seating.round_id)
    _share_round("round", [seating.round_id])
    locked = Seating.objects.select_for_update(of=("self",)).select_related(
        "round__championship", "table", "ns_pair", "ew_pair"
    ).filter(pk=seating.pk).first()
    if locked is None:
        raise GameConflict(
            _("La taula %(table)s s'ha tornat a sortejar: torneu a carregar la pàgina.")
            % {"table": seating.table.number},
            current=None,
        )
    return _record(locked, **values)


def check_game(
    seating: Seating, *, ns_points: Any = None, ew_points: Any = None, deals: Any = None,
    ended_by: Any = None, hands: Any = None, note: str = "",
) -> tuple[classic.Game, str]:
    """Every rule check of a game at ``seating``'s table (its round and championship
    loaded), as :func:`game_record` runs them: the game (``validate_game``, with the
    knockout's rules in a knockout round), the note's length, a knockout's level score.
    Returns the game and the note as stored. Raises :class:`ResultError`."""
    round = seating.round
    championship = round.championship
    raw: dict[str, Any] = {"ended_by": ended_by}
    if hands:
        raw["hands"] = hands
        # A final typed with the sheet must agree with it; left out, it is the sheet's.
        raw.update({k: v for k, v in (("ns_points", ns_points), ("ew_points", ew_points),
                                       ("deals", deals)) if v is not None})
    else:
        raw.update(ns_points=ns_points, ew_points=ew_points, deals=deals)
    data = validate_game(championship, raw, knockout=is_knockout_round(round))
    note = normalise(note or "").strip()
    if len(note) > NOTE_MAX:
        raise ResultError(
            _("La nota pot tenir com a màxim %(n)s caràcters.") % {"n": NOTE_MAX},
            field="note",
        )
    knockout_level_check(seating, data.ns_points, data.ew_points, data.deals,
                         championship.max_deals,
                         adjusted=data.ended_by is classic.EndedBy.ADJUSTED)
    return data, note


def _record(
    seating: Seating,
    *,
    ns_points: Any = None,
    ew_points: Any = None,
    deals: Any = None,
    ended_by: Any = None,
    hands: Any = None,
    note: str = "",
    expected_version: int | None,
    expected_id: int | None = None,
    acting_user: User | None,
    on_behalf_of_table: OnBehalfOfTable | None = None,
) -> GameSaved:
    round = seating.round
    championship = round.championship
    table = on_behalf_of_table
    if table is None:
        require(acting_user, championship, Capability.ENTER_RESULT)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    data, note = check_game(seating, ns_points=ns_points, ew_points=ew_points, deals=deals,
                            ended_by=ended_by, hands=hands, note=note)
    fields: dict[str, Any] = {
        "ns_points": data.ns_points, "ew_points": data.ew_points, "deals": data.deals,
        "ended_by": data.ended_by.value,
        "hands": [h.as_json() for h in data.hands] if data.hands else None,
        "note": note,
    }
    current = Game.objects.filter(seating=seating).first()
    if table is not None:
        _table_checks(seating, data, current)
    if current is not None and all(
        getattr(current, name) == value for name, value in fields.items()
    ):
        current.seating = seating
        return GameSaved(SaveKind.UNCHANGED, current)
    if round.is_closed:
        require(acting_user, championship, Capability.CHANGE_CLOSED_ROUND)
    adjusted = classic.EndedBy.ADJUSTED.value
    if fields["ended_by"] == adjusted or (current is not None and current.ended_by == adjusted):
        require(acting_user, championship, Capability.ADJUST_SCORE)
    if current is None and expected_version is not None:
        raise GameConflict(
            _("%(where)s: la partida que corregíeu ja no existeix.")
            % {"where": _where(seating)},
            current=None,
        )
    if current is not None and (
        expected_version != current.version
        or (expected_id is not None and expected_id != current.pk)
    ):
        person = _person(acting_user)
        same = person is not None and current.entered_by_id == person.pk
        message = (
            _("%(where)s: ja ho havíeu desat en una altra pestanya (versió %(v)s). "
              "Reviseu-la abans de tornar a desar.") if same else
            _("%(where)s: un altre àrbitre ja ha desat aquesta partida (versió %(v)s). "
              "Reviseu-la abans de tornar a desar.")
        )
        current.seating = seating
        raise GameConflict(
            message % {"where": _where(seating), "v": current.version},
            current=current, by_same_user=same,
        )
    now = timezone.now()
    target = _where(seating)
    if current is None:
        game = Game(seating=seating, entered_by=_person(acting_user), entered_at=now,
                    updated_at=now, version=1, **fields)
        try:
            with transaction.atomic():
                game.save()
        except IntegrityError:
            raise GameConflict(
                _("%(where)s: un altre àrbitre ja ha desat aquesta partida.")
                % {"where": target},
                current=None,
            ) from None
        audit(championship, AuditEntry.Action.GAME_CREATE, acting_user, target=target,
              round_number=round.number, table_number=seating.table.number,
              before=None, after=game.snapshot(), at=now,
              reason=table.text() if table is not None else "")
        if table is None:
            supersede_table_entries(round, seating.table.number, None)
        _knockout_follows(seating, acting_user)
        return GameSaved(SaveKind.CREATED, game)
    before = current.snapshot()
    for name, value in fields.items():
        setattr(current, name, value)
    current.version += 1
    current.updated_at = now
    current.entered_by = _person(acting_user) or current.entered_by
    current.save()
    current.seating = seating
    audit(championship, AuditEntry.Action.GAME_UPDATE, acting_user, target=target,
          round_number=round.number, table_number=seating.table.number,
          before=before, after=current.snapshot(), at=now)
    supersede_table_entries(round, seating.table.number, None)
    _knockout_follows(seating, acting_user)
    return GameSaved(SaveKind.UPDATED, current)


def _table_checks(seating: Seating, data: classic.Game, current: Game | None) -> None:
    """What a table may not do that a referee may (``results._table_checks``)."""
    if current is not None:
        current.seating = seating
        raise GameConflict(
            _("%(where)s: un àrbitre ja hi ha desat la partida; per canviar-la, "
              "demaneu-ho a un àrbitre.") % {"where": _where(seating)},
            current=current,
        )
    if seating.round.is_closed:
        raise table_closed_round(seating.round.number)
    if data.ended_by is classic.EndedBy.ADJUSTED:
        raise table_may_not_adjust("ended_by")


def lock_knockout(round_id: int | None) -> None:
    """A knockout round's stage row, locked before the table's: a game entered here
    may seat or drop a later match (``knockout_seat`` locks the stage, then that
    match's table), so every save in the knockout takes the stage first and two saves
    never wait on each other in opposite orders."""
    if round_id is None:
        return
    stage_id = (Round.objects.filter(pk=round_id, stage__kind=Stage.Kind.KNOCKOUT)
                .values_list("stage_id", flat=True).first())
    if stage_id is not None:
        list(Stage.objects.select_for_update().filter(pk=stage_id).values_list("pk"))


def _knockout_follows(seating: Seating, acting_user: User | None) -> None:
    """In a knockout, seat the matches this game's winner (or a correction) makes ready
    (``services.stages.knockout_seat``)."""
    if seating.round.stage_id is None:
        return
    stage = Stage.objects.filter(pk=seating.round.stage_id).first()
    if stage is not None and stage.kind == Stage.Kind.KNOCKOUT:
        knockout_seat(stage, acting_user=acting_user)


@transaction.atomic
def game_delete(
    *, game: Game, expected_version: int, acting_user: User | None, reason: str = ""
) -> None:
    """Delete a table's game (the version the referee saw; audited). Same capabilities
    as a correction. Raises :class:`GameConflict` when it changed meanwhile."""
    lock_knockout(Seating.objects.filter(pk=game.seating_id).values_list(
        "round_id", flat=True).first())
    _share_round("seating", [game.seating_id])
    seating = Seating.objects.select_for_update(of=("self",)).select_related(
        "round__championship", "table"
    ).get(pk=game.seating_id)
    championship = seating.round.championship
    require(acting_user, championship, Capability.ENTER_RESULT)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    if seating.round.is_closed:
        require(acting_user, championship, Capability.CHANGE_CLOSED_ROUND)
    current = Game.objects.filter(pk=game.pk).first()
    if current is None or current.version != expected_version:
        raise GameConflict(
            _("%(where)s: la partida ha canviat des que l'heu obert.")
            % {"where": _where(seating)},
            current=current,
        )
    if current.ended_by == classic.EndedBy.ADJUSTED.value:
        require(acting_user, championship, Capability.ADJUST_SCORE)
    before = current.snapshot()
    current.delete()
    audit(championship, AuditEntry.Action.GAME_DELETE, acting_user,
          target=_where(seating), round_number=seating.round.number,
          table_number=seating.table.number, before=before, after=None, reason=reason)
    _knockout_follows(seating, acting_user)
