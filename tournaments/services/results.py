"""Results: validate, record (optimistic concurrency), correct, delete; every change audited."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.text import normalise
from scoring.validate import parse_result
from tournaments.db.plans import replan_if_stale
from tournaments.db.results import (
    SaveContext,
    insert_result,
    result_locked,
    save_context,
    save_context_at,
    seating_at,
)
from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Result,
    Round,
    Seating,
    TableEntry,
)
from tournaments.permissions import remember_roles
from tournaments.result_messages import normalise_side, result_problems
from tournaments.services.common import Capability, User, audit, audit_entry, require
from tournaments.services.common import acting_person as _person
from tournaments.services.errors import (
    AddressError,
    ChampionshipStateError,
    ResultConflict,
    ResultError,
)
from tournaments.services.movements import round_check


@dataclass(frozen=True, slots=True)
class ResultData:
    """A result as entered (docs/file-format.md "A result"), validated by
    :func:`validate_result`. ``adjusted``: ``None`` or ``(NS, EW)`` adjustments."""

    trump: str | None
    ns_points_taken: int | None
    delegated: bool = False
    contro: bool = False
    recontro: bool = False
    sant_vicenc: bool = False
    infraction: str | None = None
    adjusted: tuple[str, str] | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class OnBehalfOfTable:
    """A save made for the players of a table (``tournaments.services.tables``): pair
    ``entered_by`` entered it with the table's secret, pair ``confirmed_by`` (the
    opponents) confirmed it. Such a save needs no role but runs every rule check; it
    cannot replace a stored result (a referee's wins), put an adjusted score or touch a
    closed round; its audit row's reason names the table and both pairs."""

    table_number: int
    entered_by: int
    confirmed_by: int

    def text(self) -> str:
        return _("taula %(table)s, parella %(pair)s (confirmada per la parella %(other)s)") % {
            "table": self.table_number, "pair": self.entered_by, "other": self.confirmed_by,
        }


def table_closed_round(round_number: int) -> ChampionshipStateError:
    """The refusal of a table's entry in a closed round."""
    return ChampionshipStateError(
        _("La ronda %(n)s està tancada: demaneu a un àrbitre que hi entri el resultat.")
        % {"n": round_number}
    )


def supersede_table_entries(round: Round, table_number: int, board: Board | None) -> None:
    """A referee's save wins over the table's: its entries of that board (``None``: the
    table's game) still waiting or disputed become superseded, in the save's
    transaction."""
    TableEntry.objects.filter(
        round=round, table_number=table_number, board=board,
        status__in=(TableEntry.Status.PROVISIONAL, TableEntry.Status.DISPUTED),
    ).update(status=TableEntry.Status.SUPERSEDED, updated_at=timezone.now())


class SaveKind(StrEnum):
    """What a save did with the table's result of the board (a conflict is no save:
    :class:`ResultConflict`, with the stored result)."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"  # the same values as stored: nothing written


@dataclass(frozen=True, slots=True)
class ResultSaved:
    """The outcome of :func:`result_record`: ``kind``, and ``result``, the stored result
    as it is now, its ``seating`` (with round, championship, table and pairs) and
    ``board`` the rows the save read."""

    kind: SaveKind
    result: Result


def validate_result(
    championship: Championship,
    *,
    trump: Any,
    ns_points_taken: Any,
    delegated: bool = False,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    infraction: Any = None,
    adjusted: Any = None,
    note: str = "",
) -> ResultData:
    """Check one result against the rules and the championship's settings.

    The rule is :func:`scoring.validate.validate_result` (docs/rules.md; every problem,
    each with a code), its messages :mod:`tournaments.result_messages`. ``trump``:
    ``"O"``, ``"C"``, ``"E"``, ``"B"``, ``"botifarra"`` (or a ``scoring.Trump``,
    ``engine.Suit``; ``None`` only when adjusted). ``ns_points_taken``: 0..72 (``None``
    when adjusted or at an infraction, where points do not count). ``infraction``:
    ``None``, ``"NS"`` or ``"EW"`` (``"EO"`` too), never with ``adjusted``: ``None``,
    ``(NS, EW)`` or ``{"NS": ..., "EW": ...}``.

    Raises :class:`ResultError` with the first problem's message and ``field``, and
    ``problems``: every ``(field, message)``.
    """
    problems = result_problems(
        championship, trump=trump, ns_points_taken=ns_points_taken, delegated=delegated,
        contro=contro, recontro=recontro, sant_vicenc=sant_vicenc, infraction=infraction,
        adjusted=adjusted,
    )
    if problems:
        field, message = problems[0]
        raise ResultError(message, field=field, problems=problems)
    values = parse_result(
        trump=trump or None, ns_points_taken=ns_points_taken, delegated=delegated,
        contro=contro, recontro=recontro, sant_vicenc=sant_vicenc,
        infraction=normalise_side(infraction), adjusted=adjusted, rules=championship,
    )
    return ResultData(
        trump=values.trump.value if values.trump is not None else None,
        ns_points_taken=values.ns_points_taken,
        delegated=values.delegated,
        contro=values.contro,
        recontro=values.recontro,
        sant_vicenc=values.sant_vicenc,
        infraction=values.infraction.value if values.infraction is not None else None,
        adjusted=(
            (values.adjusted[0].value, values.adjusted[1].value)
            if values.adjusted is not None else None
        ),
        # Composed (NFC) before it is cut and compared: the column stores it composed,
        # and composing can lengthen a text (some letters decompose) or change it (a
        # decomposed accent), which made a stored note too long or differ from itself.
        note=normalise(note or "").strip()[:500],
    )


def _audit_fields(
    result: Result | None, *, seating: Seating, board: Board,
    before: dict[str, Any] | None, after: dict[str, Any] | None, at: Any, reason: str = "",
) -> dict[str, Any]:
    """The audit row's fields of a result's change (``before``/``after``:
    ``Result.snapshot()``), as :func:`common.audit` takes them."""
    return {
        "target": _("ronda %(round)s, taula %(table)s, tauler %(board)s") % {
            "round": seating.round.number, "table": seating.table.number,
            "board": board.number,
        },
        "result": result, "round_number": seating.round.number,
        "table_number": seating.table.number, "board_number": board.number,
        "before": before, "after": after, "reason": reason, "at": at,
    }


def _audit(
    result: Result | None, *, seating: Seating, board: Board, action: str,
    acting_user: User | None, before: dict[str, Any] | None, after: dict[str, Any] | None,
    at: Any, reason: str = "",
) -> None:
    """Write the audit row of a result's change (and bump the results version)."""
    audit(board.championship_id, action, acting_user,
          **_audit_fields(result, seating=seating, board=board, before=before,
                          after=after, at=at, reason=reason))


def _check_seating_before_first_result(round: Round, *, started: bool | None = None) -> None:
    """Every draw, also one typed in or edited by hand in the admin, is checked before
    the round starts, i.e. before its first result (docs/decisions.md 41): a pair seated
    twice or both sitting out and seated, a table with the same pair on both sides, a
    table listed twice, a pair that does not play the round (``round_check``). Rematches
    are no problem here: the draw refuses them unless the organiser accepts them, and a
    seating set by hand is the organiser's own choice. ``started``: whether the round
    already has a result, when the caller read it (:func:`result_record` does, in its
    seating lock); else one query. Once the round has a result nothing more is read; a
    few more queries (``round_check``) for its first.

    Raises :class:`ChampionshipStateError` listing the problems."""
    if started is None:
        started = Result.objects.filter(seating__round=round).exists()
    if started:
        return
    problems = round_check(round).problems
    if problems:
        raise ChampionshipStateError(
            _("La distribució de la ronda %(n)s té problemes; corregiu-la abans d'entrar-hi "
              "resultats: %(problems)s") % {"n": round.number, "problems": " ".join(problems)}
        )


def _seating_changed(table_number: int, board_number: int) -> ResultConflict:
    """The refusal of a save whose table was drawn again or edited while it waited."""
    return ResultConflict(
        _("Taula %(table)s, tauler %(board)s: la distribució de la taula ha canviat "
          "mentre es desava. Torneu a desar.")
        % {"table": table_number, "board": board_number},
        current=None,
    )


def _user_id(user: User | None) -> int | None:
    """The id of a person (``None``: the system or an anonymous user)."""
    return user.pk if user is not None and user.is_authenticated else None


@transaction.atomic
def result_record_at(
    *, slug: str, round_number: int, table_number: int, board_number: int, **values: Any
) -> ResultSaved:
    """:func:`result_record` on the table and board named by their numbers (the API's
    address), located and locked in the same statement as the checks and the acting
    user's roles (:func:`tournaments.db.results.save_context_at`). ``values``:
    :func:`result_record`'s other keywords. Raises :class:`AddressError` when the
    championship, round, table or board does not exist, :class:`ResultConflict` when
    the table's seating kept changing under three reads (edits or draws at that very
    moment); otherwise as :func:`result_record`."""
    replan_if_stale()
    address = (slug, round_number, table_number, board_number)
    user_id = _user_id(values.get("acting_user"))
    for _attempt in range(3):
        context = save_context_at(*address, user_id=user_id)
        if context is not None:
            return _record(context, **values)
        # Nothing, or a seating row that another transaction changed (an edit of the
        # table's pairs, a new draw) while this read waited for its lock: PostgreSQL
        # then drops the row whose joins no longer hold. A fresh read tells which.
        if seating_at(*address) is None:
            raise AddressError(
                _("No hi ha aquesta taula o aquest tauler en aquest campionat.")
            )
    raise _seating_changed(table_number, board_number)


@transaction.atomic
def result_record(*, seating: Seating, board: Board, **values: Any) -> ResultSaved:
    """Enter (``expected_version=None``) or correct (``expected_version`` = the version
    the form was loaded with) the result of ``board`` at ``seating``'s table.
    ``expected_id``: the id of the result that version is of, when the caller knows it
    (the API's ETag): a result deleted and entered again is then a conflict too. The
    other keywords (all keyword-only): the result's values as :func:`validate_result`
    takes them (``trump``, ``ns_points_taken``, ``delegated``, ``contro``,
    ``recontro``, ``sant_vicenc``, ``infraction``, ``adjusted``, ``note``),
    ``acting_user`` and ``on_behalf_of_table`` (an :class:`OnBehalfOfTable`: the save
    the opponents' confirmation makes, with no role; ``acting_user`` then ``None``). A
    referee's save supersedes the table's entries of that board still waiting.

    Locks the seating and the result row (``select_for_update``) so that two referees
    saving at once are serialised; the second then sees a version other than the one it
    expected and gets :class:`ResultConflict` instead of overwriting the first. A
    correction bumps ``version`` by one; every write adds an :class:`AuditEntry` row
    (before/after) in the same transaction. Values identical to the stored result are a
    success that writes nothing (same version, no audit row), whatever
    ``expected_version`` says: only a different value over a newer version conflicts.
    Returns a :class:`ResultSaved`: its ``kind`` says which (created, updated,
    unchanged), its ``result`` is the stored result.

    Refusals: :class:`NotAllowedError` (not a referee/head referee/organiser of this
    championship; a closed round needs head referee or organiser; so does an adjusted
    score, put or replaced),
    :class:`ChampionshipStateError` (championship finished),
    :class:`ResultError` (rules, see :func:`validate_result`; a board of another round;
    a pair that already played the board), :class:`ResultConflict`. The round's first
    result is refused with :class:`ChampionshipStateError` naming the problems while its
    seating has any (:func:`_check_seating_before_first_result`).
    """
    replan_if_stale()
    context = save_context(seating.pk, board, user_id=_user_id(values.get("acting_user")))
    if context is None:  # the table drawn again (its seating replaced) meanwhile
        raise _seating_changed(seating.table.number, board.number)
    return _record(context, **values)


def _where(seating: Seating, board: Board) -> str:
    """"taula T, tauler B", for a refusal's message (translated only when one is made)."""
    return _("taula %(table)s, tauler %(board)s") % {
        "table": seating.table.number, "board": board.number
    }


def _record(
    context: SaveContext,
    *,
    trump: Any,
    ns_points_taken: int | None,
    delegated: bool = False,
    contro: bool = False,
    recontro: bool = False,
    sant_vicenc: bool = False,
    infraction: Any = None,
    adjusted: Any = None,
    note: str = "",
    expected_version: int | None,
    expected_id: int | None = None,
    acting_user: User | None,
    on_behalf_of_table: OnBehalfOfTable | None = None,
) -> ResultSaved:
    """:func:`result_record`'s work, with the table's seating read and locked in this
    transaction with the checks and the user's roles (``context``)."""
    seating, board = context.seating, context.board
    round = context.round
    championship = context.championship
    table = on_behalf_of_table
    if context.roles is not None:
        remember_roles(acting_user, championship.pk, context.roles)
    if table is None:
        require(acting_user, championship, Capability.ENTER_RESULT)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    if not context.board_fits:
        raise ResultError(
            _("El tauler %(board)s no es juga a la ronda %(round)s.")
            % {"board": board.number, "round": round.number},
            field="board",
        )
    data = validate_result(
        championship, trump=trump, ns_points_taken=ns_points_taken, delegated=delegated,
        contro=contro, recontro=recontro, sant_vicenc=sant_vicenc, infraction=infraction,
        adjusted=adjusted, note=note,
    )
    current = result_locked(seating.pk, board.pk)
    if table is not None:
        _table_checks(table, round, data, current, where=_where(seating, board))
    fields = {
        "trump": data.trump,
        "ns_points_taken": data.ns_points_taken,
        "delegated": data.delegated,
        "contro": data.contro,
        "recontro": data.recontro,
        "sant_vicenc": data.sant_vicenc,
        "infraction": data.infraction,
        "adjusted_ns": data.adjusted[0] if data.adjusted else None,
        "adjusted_ew": data.adjusted[1] if data.adjusted else None,
        "note": data.note,
    }
    if current is not None and all(
        getattr(current, name) == value for name, value in fields.items()
    ):
        # The same values saved again (a retry after a lost response, a second tap):
        # success with nothing written, whatever version the client sent
        # (docs/decisions.md "Saving the same thing twice").
        return _saved(SaveKind.UNCHANGED, current, context)
    if round.is_closed:  # after the same values: a retry once the round closed is no change
        require(acting_user, championship, Capability.CHANGE_CLOSED_ROUND)
    if data.adjusted is not None or (current is not None and current.is_adjusted):
        # Putting an adjusted score, or replacing one by a played result, is the
        # director's (docs/decisions.md 17).
        require(acting_user, championship, Capability.ADJUST_SCORE)
    if current is None and expected_version is not None:
        raise ResultConflict(
            _("%(where)s: el resultat que corregies ja no existeix.")
            % {"where": _where(seating, board)},
            current=None,
        )
    if current is not None and (
        expected_version != current.version
        or (expected_id is not None and expected_id != current.pk)
    ):
        raise _stale(current, acting_user, where=_where(seating, board))
    now = timezone.now()
    if current is None:
        _check_seating_before_first_result(round, started=context.round_started)
        played = context.played_by
        if played is not None:
            raise ResultError(
                _("La parella %(pair)s ja ha jugat el tauler %(board)s.")
                % {"pair": played, "board": board.number},
                field="board",
            )
        result = Result(
            seating=seating, board=board, entered_by=_person(acting_user),
            entered_at=now, updated_at=now, version=1, **fields,
        )
        # The audit row's ``after`` is the result's snapshot, which needs no id.
        entry = audit_entry(
            board.championship_id, AuditEntry.Action.RESULT_CREATE, acting_user,
            **_audit_fields(None, seating=seating, board=board, before=None,
                            after=result.snapshot(), at=now,
                            reason=table.text() if table is not None else ""),
        )
        try:
            # No savepoint: a refusal here ends the whole transaction anyway. The
            # result, its pairs' rows, the audit row and the version bump: one statement.
            with transaction.atomic(savepoint=False):
                insert_result(result, ns_pair_id=seating.ns_pair_id,
                              ew_pair_id=seating.ew_pair_id, entry=entry)
        except IntegrityError:
            # Only reachable in a race the row lock did not cover (a pair of this table
            # saved on this board at another table at the same moment); the database
            # constraint keeps the invariant. The transaction is spoilt: nothing more
            # can be read in it.
            raise ResultConflict(
                _("%(where)s: un altre àrbitre ja ha desat aquest resultat.")
                % {"where": _where(seating, board)},
                current=None,
            ) from None
        if table is None and context.table_waiting:
            supersede_table_entries(round, seating.table.number, board)
        return _saved(SaveKind.CREATED, result, context)
    before = current.snapshot()
    for name, value in fields.items():
        setattr(current, name, value)
    current.version += 1
    current.updated_at = now
    current.entered_by = _person(acting_user) or current.entered_by
    current.save()
    _audit(current, seating=seating, board=board, action=AuditEntry.Action.RESULT_UPDATE,
           acting_user=acting_user, before=before, after=current.snapshot(), at=now)
    if context.table_waiting:
        supersede_table_entries(round, seating.table.number, board)
    return _saved(SaveKind.UPDATED, current, context)


def table_may_not_adjust(field: str) -> ResultError:
    """The refusal of an adjusted score entered at a table (the director's)."""
    return ResultError(
        _("Una puntuació ajustada només la pot posar un àrbitre."), field=field
    )


def _table_checks(table: OnBehalfOfTable, round: Round, data: ResultData,
                  current: Result | None, *, where: str) -> None:
    """What a table may not do that a referee may: replace a stored result, enter in a
    closed round, put an adjusted score."""
    if current is not None:
        raise ResultConflict(
            _("%(where)s: un àrbitre ja hi ha desat el resultat; per canviar-lo, "
              "demaneu-ho a un àrbitre.") % {"where": where},
            current=current,
        )
    if round.is_closed:
        raise table_closed_round(round.number)
    if data.adjusted is not None:
        raise table_may_not_adjust("adjusted")


def _stale(current: Result, acting_user: User | None, *, where: str) -> ResultConflict:
    """The ``ResultConflict`` of a save or delete based on an older version than
    ``current`` (``where``: :func:`_where`). Whoever saved ``current`` last is
    ``current.entered_by`` (each save sets it): when that is the acting user, the version
    they missed is their own, saved in another tab or on another phone, and the message
    says so rather than blame another referee."""
    person = _person(acting_user)
    same = person is not None and current.entered_by_id == person.pk
    if same:
        message = _("%(where)s: ja ho havíeu desat en una altra pestanya (versió %(v)s). "
                    "Reviseu-lo abans de tornar a desar.")
    else:
        message = _("%(where)s: un altre àrbitre ja ha desat aquest resultat (versió %(v)s). "
                    "Reviseu-lo abans de tornar a desar.")
    return ResultConflict(
        message % {"where": where, "v": current.version}, current=current, by_same_user=same
    )


def _saved(kind: SaveKind, result: Result, context: SaveContext) -> ResultSaved:
    """The outcome, the result's seating and board the rows ``context`` read (a caller
    answering with them reads nothing more)."""
    result.seating, result.board = context.seating, context.board
    return ResultSaved(kind, result)


def result_correct(
    *, result: Result, expected_version: int, acting_user: User | None, **data: Any
) -> ResultSaved:
    """Correct a stored result (audited, version + 1): :func:`result_record` on the same
    table and board, with ``data`` the result's fields (all of them, as in a form)."""
    return result_record(
        seating=result.seating, board=result.board, expected_version=expected_version,
        acting_user=acting_user, **data,
    )


@transaction.atomic
def result_delete(
    *, result: Result, expected_version: int, acting_user: User | None, reason: str = ""
) -> None:
    """Delete a result entered by mistake (head referee or organiser; audited, with
    ``reason`` in the audit row's ``reason``; its ``after`` is ``None``).

    Raises :class:`ResultConflict` when it changed since ``expected_version``.
    """
    current = (
        Result.objects.select_for_update(of=("self",))
        .select_related("seating__round__championship", "seating__table", "board")
        .filter(pk=result.pk)
        .first()
    )
    if current is None:
        raise ResultConflict(_("El resultat ja no existeix."), current=None)
    championship = current.seating.round.championship
    require(acting_user, championship, Capability.DELETE_RESULT)
    if championship.status == Championship.Status.FINISHED:
        raise ChampionshipStateError(
            _("El campionat ja s'ha acabat: els resultats no es poden canviar.")
        )
    if current.version != expected_version:
        raise _stale(current, acting_user, where=_where(current.seating, current.board))
    before = current.snapshot()
    _audit(None, seating=current.seating, board=current.board,
           action=AuditEntry.Action.RESULT_DELETE, acting_user=acting_user, before=before,
           after=None, reason=reason, at=timezone.now())
    current.delete()
