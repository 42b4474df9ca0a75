"""Results entered at the table by the players, confirmed by the opponents
(docs/decisions.md "Results from the table").

Each table of a championship has one live secret (:class:`TableAccess`): its link (the
QR code on the table card) lets whoever holds it enter that table's results of its
current round, with no account. One pair enters a board's result (a classic
championship: the table's game); it is a :class:`TableEntry`, provisional, counted
nowhere. The other pair of the table confirms it: the real result is then recorded
through ``result_record`` / ``game_record`` on behalf of the table (every rule check,
the audit row naming the table and both pairs), or disputes it (with a note, for the
referees). A referee's save always wins: it supersedes the table's entries still
waiting, and a table cannot enter where a result is stored.

The refusals are the services' errors: :class:`TableRefused` (403: an unknown or
reissued secret, table entry off, no round in play, a board not of the table's round,
a pair confirming its own entry), :class:`ResultError` (400, at its field),
:class:`ResultConflict` / :class:`GameConflict` (409, with the stored result),
:class:`TableEntryMissing` (404: nothing to confirm).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.text import normalise
from tournaments import referee_checks
from tournaments.db.games import share_round
from tournaments.models import (
    AuditEntry,
    Board,
    Championship,
    Game,
    Result,
    Round,
    Seating,
    TableAccess,
    TableEntry,
)
from tournaments.services.common import Capability, User, audit, lock_championship, require
from tournaments.services.errors import (
    GameConflict,
    NotAllowedError,
    ResultConflict,
    ResultError,
    TournamentError,
)
from tournaments.services.games import check_game, game_record, lock_knockout
from tournaments.services.results import (
    OnBehalfOfTable,
    result_record,
    table_may_not_adjust,
    validate_result,
)

#: Bytes of randomness in a table's secret (192 bits; 32 URL-safe characters).
SECRET_BYTES = 24

#: The longest ``Idempotency-Key`` kept (the column's width).
IDEMPOTENCY_KEY_MAX = 100

#: The fields of a game as the referee's API takes them.
GAME_FIELDS = ("ns_points", "ew_points", "deals", "ended_by", "hands", "note")

#: The statuses of an entry a table may still act on.
WAITING = (TableEntry.Status.PROVISIONAL, TableEntry.Status.DISPUTED)


class TableRefused(NotAllowedError):
    """What a table's secret does not allow (403, with the reason)."""


class TableEntryMissing(TournamentError):
    """No entry of the table waits for confirmation on that board or game (404)."""


class UnusualResult(TournamentError):
    """A legal but unusual board result (``referee_checks.unusual``: all 72 points, a
    Sant Vicenç, far from the other tables), entered without ``confirm_unusual``: asked
    once, as the referee's form asks (422 with each ``(code, message)`` in ``unusual``)."""

    def __init__(self, message: str, *, unusual: list[tuple[str, str]]) -> None:
        super().__init__(message, field="confirm_unusual")
        self.unusual = unusual


@dataclass(frozen=True, slots=True)
class TablePlace:
    """Where a live secret lets its holder enter: the ``access``, its championship, and
    the table's ``seating`` in its current round (round, table and pairs loaded)."""

    access: TableAccess
    championship: Championship
    seating: Seating

    @property
    def round(self) -> Round:
        return self.seating.round

    @property
    def pairs(self) -> tuple[int, int]:
        return self.seating.ns_pair.number, self.seating.ew_pair.number


# ------------------------------------------------------------------------ secrets


def _new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


@transaction.atomic
def table_secret(*, championship: Championship, table_number: int) -> TableAccess:
    """The live secret of table ``table_number`` of ``championship``, issued now if it
    has none (what the table card's QR code and ``manage.py table_links`` print). No
    role needed: whoever may print the table cards may read it."""
    live = TableAccess.objects.filter(championship=championship, table_number=table_number,
                                      revoked_at__isnull=True).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return TableAccess.objects.create(championship=championship,
                                              table_number=table_number,
                                              secret=_new_secret())
    except IntegrityError:  # issued by another request at the same moment
        return TableAccess.objects.get(championship=championship, table_number=table_number,
                                       revoked_at__isnull=True)


@transaction.atomic
def table_secret_reissue(*, championship: Championship, table_number: int,
                         acting_user: User | None) -> TableAccess:
    """Revoke table ``table_number``'s secret (its link and QR code are refused from
    now on) and issue a new one (organiser only; audited). Returns the new access."""
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.MANAGE_TABLE_ENTRY)
    now = timezone.now()
    TableAccess.objects.filter(championship=championship, table_number=table_number,
                               revoked_at__isnull=True).update(revoked_at=now)
    access = TableAccess.objects.create(championship=championship, table_number=table_number,
                                        secret=_new_secret(), issued_at=now)
    audit(championship, AuditEntry.Action.TABLE_SECRET_REISSUE, acting_user,
          target=_("taula %(table)s") % {"table": table_number}, table_number=table_number,
          at=now)
    return access


@transaction.atomic
def table_entry_set(*, championship: Championship, enabled: bool,
                    acting_user: User | None) -> Championship:
    """Switch entry from the tables on or off (organiser only; audited). Off, every
    table's secret is refused with the reason; only referees enter."""
    championship = lock_championship(championship)
    require(acting_user, championship, Capability.MANAGE_TABLE_ENTRY)
    if championship.table_entry == enabled:
        return championship
    before = championship.table_entry
    championship.table_entry = enabled
    championship.save(update_fields=["table_entry"])
    audit(championship, AuditEntry.Action.TABLE_ENTRY_SWITCH, acting_user,
          target=championship.name, before={"table_entry": before},
          after={"table_entry": enabled})
    return championship


# ------------------------------------------------------------------------ access


def _refused_secret() -> TableRefused:
    return TableRefused(_("Aquest enllaç de taula no és vàlid o s'ha renovat: demaneu-ne "
                          "el nou codi a l'organització."))


def table_place(secret: str, *, lock: bool = False) -> TablePlace:
    """The table and current round ``secret`` opens: the latest drawn round in which
    that table is seated, when it is not closed. ``lock``: the seating's row locked
    (``FOR UPDATE``) as a referee's save locks it, so the two run one after the other.

    Raises :class:`TableRefused` with the reason: no such live secret, table entry off,
    the championship finished, no round in play at that table."""
    access = (TableAccess.objects.select_related("championship")
              .filter(secret=secret or "", revoked_at__isnull=True).first())
    if access is None or not secret:
        raise _refused_secret()
    championship = access.championship
    if not championship.table_entry:
        raise TableRefused(_("L'organització ha desactivat l'entrada des de les taules"))
    if championship.status == Championship.Status.FINISHED:
        raise TableRefused(_("El campionat ja s'ha acabat."))
    seatings = Seating.objects.select_related(
        "round__championship", "table", "ns_pair__player1", "ns_pair__player2",
        "ew_pair__player1", "ew_pair__player2",
    ).filter(round__championship=championship, table__number=access.table_number)
    latest = seatings.order_by("-round__number").values_list("pk", flat=True).first()
    seating = None
    if latest is not None:
        chosen = seatings.filter(pk=latest)
        if lock:
            # As a referee's save: the championship's and round's rows shared first,
            # then the seating's locked, so a close, a draw or a seating edited by hand
            # (each locks the championship first) never waits on this in reverse order.
            # A knockout's stage first, as every save in a knockout round takes it.
            lock_knockout(seatings.filter(pk=latest).values_list("round_id", flat=True)
                          .first())
            share_round("seating", [latest], using=router.db_for_write(Seating))
            chosen = chosen.select_for_update(of=("self",))
        seating = chosen.first()
    if seating is None or seating.round.is_closed:
        raise TableRefused(
            _("La taula %(table)s no té cap ronda en joc.") % {"table": access.table_number}
        )
    return TablePlace(access=access, championship=championship, seating=seating)


def _board_of(place: TablePlace, board_number: int | None) -> Board | None:
    """The board ``board_number`` of the table's round (``None`` for a classic game).
    Raises :class:`TableRefused` for a board of another round, and :class:`ResultError`
    for a board's address in a classic championship or a game's in a duplicate one."""
    classic = place.championship.is_classic
    if board_number is None:
        if not classic:
            raise ResultError(
                _("Aquest campionat és de predonats: els resultats s'entren per tauler."),
                field="board",
            )
        return None
    if classic:
        raise ResultError(
            _("Aquest campionat és clàssic: s'hi entra la partida de la taula, no taulers."),
            field="board",
        )
    board = Board.objects.filter(championship=place.championship, round=place.round,
                                 number=board_number).first()
    if board is None:
        raise TableRefused(
            _("El tauler %(board)s no és de la taula %(table)s a la ronda en joc "
              "(ronda %(round)s).")
            % {"board": board_number, "table": place.access.table_number,
               "round": place.round.number}
        )
    return board


def _pair_of_table(place: TablePlace, pair: Any, *, field: str) -> int:
    """``pair`` as one of the two pair numbers seated at the table, else
    :class:`ResultError` at ``field``."""
    ns, ew = place.pairs
    if isinstance(pair, bool) or not isinstance(pair, int) or pair not in (ns, ew):
        raise ResultError(
            _("Indiqueu el número d'una de les dues parelles d'aquesta taula: "
              "%(ns)s o %(ew)s.") % {"ns": ns, "ew": ew},
            field=field,
        )
    return int(pair)


def _where(place: TablePlace, board: Board | None) -> str:
    if board is None:
        return _("ronda %(round)s, taula %(table)s") % {
            "round": place.round.number, "table": place.access.table_number}
    return _("ronda %(round)s, taula %(table)s, tauler %(board)s") % {
        "round": place.round.number, "table": place.access.table_number,
        "board": board.number,
    }


def stored_result(place: TablePlace, board: Board | None) -> Result | Game | None:
    """The result (the game) a referee or a confirmation already stored at the table
    on ``board`` (``None``: the game), its seating (and board) the place's."""
    if board is None:
        game = Game.objects.filter(seating=place.seating).first()
        if game is not None:
            game.seating = place.seating
        return game
    result = Result.objects.filter(seating=place.seating, board=board).first()
    if result is not None:
        result.seating, result.board = place.seating, board
    return result


def _refuse_if_stored(place: TablePlace, board: Board | None) -> None:
    """A table never enters over a stored result: 409 with it (ask a referee)."""
    stored = stored_result(place, board)
    if stored is None:
        return
    message = _("%(where)s: el resultat ja és desat; per canviar-lo, demaneu-ho a un "
                "àrbitre.") % {"where": _where(place, board)}
    if isinstance(stored, Game):
        raise GameConflict(message, current=stored)
    raise ResultConflict(message, current=stored)


def _result_values(values: dict[str, Any]) -> dict[str, Any]:
    """A board's stored ``values`` as ``validate_result`` and ``result_record`` take
    them (every field, the flags false when left out)."""
    return {
        "trump": values.get("trump"), "ns_points_taken": values.get("ns_points_taken"),
        **{flag: bool(values.get(flag))
           for flag in ("delegated", "contro", "recontro", "sant_vicenc")},
        "infraction": values.get("infraction"), "adjusted": values.get("adjusted"),
        "note": str(values.get("note") or ""),
    }


def _game_values(values: dict[str, Any]) -> dict[str, Any]:
    """A game's stored ``values`` as ``check_game`` and ``game_record`` take them."""
    return {**{name: values.get(name) for name in GAME_FIELDS if name != "note"},
            "note": str(values.get("note") or "")}


def _check_values(place: TablePlace, board: Board | None, values: dict[str, Any],
                  *, confirm_unusual: bool = True) -> None:
    """The referee's checks of these values, at entry (a bad body is refused now, not
    when the opponents confirm), and what a table may not enter (an adjusted score);
    without ``confirm_unusual``, the referee's form's question about an unusual result
    (:class:`UnusualResult`)."""
    if board is not None:
        data = validate_result(place.championship, **_result_values(values))
        if data.adjusted is not None:
            raise table_may_not_adjust("adjusted")
        if not confirm_unusual:
            _ask_if_unusual(place, board, values)
        return
    game, _note = check_game(place.seating, **_game_values(values))
    if game.ended_by.value == "adjusted":
        raise table_may_not_adjust("ended_by")


def _ask_if_unusual(place: TablePlace, board: Board, values: dict[str, Any]) -> None:
    """:class:`UnusualResult` when ``values`` are unusual (``referee_checks.unusual``,
    against the board's other regular results). Asked once: not again when the table's
    entry still waiting on the board has the same points and Sant Vicenç (the pair
    answered "yes, it is right" for it)."""
    points, sant_vicenc = values.get("ns_points_taken"), bool(values.get("sant_vicenc"))
    waiting = (TableEntry.objects
               .filter(round=place.round, table_number=place.access.table_number,
                       board=board, status__in=WAITING)
               .order_by("-created_at", "-pk").values_list("values", flat=True).first())
    if waiting is not None and waiting.get("ns_points_taken") == points \
            and bool(waiting.get("sant_vicenc")) == sant_vicenc:
        return
    others = [n for n in Result.objects.filter(board=board, infraction__isnull=True)
              .exclude(seating=place.seating).values_list("ns_points_taken", flat=True)
              if n is not None]
    found = referee_checks.unusual(
        trump=values.get("trump"), ns_points_taken=points, sant_vicenc=sant_vicenc,
        infraction=values.get("infraction"), adjusted=values.get("adjusted"),
        others=others, doubling=place.championship.doubling)
    if found:
        raise UnusualResult(
            _("Resultat poc habitual: comproveu-lo. Si és correcte, torneu-lo a enviar "
              "confirmant-lo."), unusual=found)


# ------------------------------------------------------------------------ entries


@dataclass(frozen=True, slots=True)
class EntrySaved:
    """The outcome of :func:`table_entry_enter`: the stored ``entry`` and whether this
    call ``created`` it (``False``: a retry with the same idempotency key)."""

    entry: TableEntry
    created: bool


@transaction.atomic
def table_entry_enter(*, secret: str, board_number: int | None, values: dict[str, Any],
                      entered_by: Any, idempotency_key: str | None = None,
                      confirm_unusual: bool = True) -> EntrySaved:
    """Enter a board's result (``board_number``) or the table's game (``None``) for
    pair ``entered_by``: a provisional :class:`TableEntry` that counts nowhere until the
    other pair confirms it. ``values``: the body as the referee's API takes it. The same
    ``idempotency_key`` again returns the entry it stored, never a second one. An entry
    still waiting on that board (the table's earlier try) is superseded by this one.
    ``confirm_unusual`` false: an unusual board result is refused once with the
    question (:class:`UnusualResult`), as the referee's form asks it."""
    key = (idempotency_key or "").strip()[:IDEMPOTENCY_KEY_MAX] or None
    place = table_place(secret, lock=True)
    if key is not None:
        earlier = TableEntry.objects.filter(championship=place.championship,
                                            idempotency_key=key).first()
        if earlier is not None:
            return _retry(place, earlier, board_number)
    board = _board_of(place, board_number)
    pair = _pair_of_table(place, entered_by, field="entered_by")
    _refuse_if_stored(place, board)
    _check_values(place, board, values, confirm_unusual=confirm_unusual)
    now = timezone.now()
    TableEntry.objects.filter(round=place.round, table_number=place.access.table_number,
                              board=board, status__in=WAITING).update(
        status=TableEntry.Status.SUPERSEDED, updated_at=now)
    entry = TableEntry(
        championship=place.championship, round=place.round,
        table_number=place.access.table_number, board=board, values=values,
        entered_by_pair=pair, idempotency_key=key, created_at=now, updated_at=now,
    )
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError:  # the same key from a parallel retry, stored first
        return _retry(place, TableEntry.objects.get(championship=place.championship,
                                                    idempotency_key=key), board_number)
    return EntrySaved(entry, True)


def _retry(place: TablePlace, earlier: TableEntry, board_number: int | None) -> EntrySaved:
    """A request repeated with the key of ``earlier``: the stored entry, unless the key
    was used for another table's or board's entry (refused, at the header)."""
    same_board = (earlier.board.number if earlier.board is not None else None) == board_number
    if earlier.table_number != place.access.table_number or not same_board:
        raise ResultError(
            _("Aquesta clau d'idempotència ja s'ha fet servir per a una altra entrada."),
            field="Idempotency-Key",
        )
    return EntrySaved(earlier, False)


def _waiting(place: TablePlace, board: Board | None) -> TableEntry:
    """The table's latest entry still waiting on ``board`` (locked)."""
    entry = (TableEntry.objects.select_for_update()
             .filter(round=place.round, table_number=place.access.table_number, board=board,
                     status=TableEntry.Status.PROVISIONAL)
             .order_by("-created_at", "-pk").first())
    if entry is None:
        raise TableEntryMissing(
            _("%(where)s: no hi ha cap resultat que esperi la confirmació.")
            % {"where": _where(place, board)}
        )
    return entry


def _the_opponents(place: TablePlace, entry: TableEntry, pair: int) -> None:
    if pair == entry.entered_by_pair:
        ns, ew = place.pairs
        raise TableRefused(
            _("La parella %(pair)s ha entrat aquest resultat: l'ha de confirmar la parella "
              "contrària (%(other)s).") % {"pair": pair, "other": ew if pair == ns else ns}
        )


def _confirmed_already(place: TablePlace, board: Board | None, pair: int) -> TableEntry | None:
    """A confirmation repeated by the pair that made it (a retry): the entry it
    confirmed, when nothing waits since."""
    return (TableEntry.objects
            .filter(round=place.round, table_number=place.access.table_number, board=board,
                    status=TableEntry.Status.CONFIRMED, confirmed_by_pair=pair)
            .order_by("-updated_at", "-pk").first())


@transaction.atomic
def table_entry_confirm(*, secret: str, board_number: int | None, pair: Any) -> TableEntry:
    """Pair ``pair``, the opponents of the pair that entered it, confirm the table's
    entry waiting on that board (the game): the result is recorded through
    ``result_record`` (``game_record``) on behalf of the table, with every rule check,
    and counts from now on. The entering pair itself is refused (403)."""
    place = table_place(secret, lock=True)
    board = _board_of(place, board_number)
    number = _pair_of_table(place, pair, field="pair")
    try:
        entry = _waiting(place, board)
    except TableEntryMissing:
        repeated = _confirmed_already(place, board, number)
        if repeated is not None:
            return repeated
        raise
    _the_opponents(place, entry, number)
    actor = OnBehalfOfTable(table_number=place.access.table_number,
                            entered_by=entry.entered_by_pair, confirmed_by=number)
    if board is not None:
        result_record(seating=place.seating, board=board, expected_version=None,
                      acting_user=None, on_behalf_of_table=actor,
                      **_result_values(entry.values))
    else:
        game_record(seating=place.seating, expected_version=None, acting_user=None,
                    on_behalf_of_table=actor, **_game_values(entry.values))
    entry.status = TableEntry.Status.CONFIRMED
    entry.confirmed_by_pair = number
    entry.updated_at = timezone.now()
    entry.save(update_fields=["status", "confirmed_by_pair", "updated_at"])
    return entry


@transaction.atomic
def table_entry_dispute(*, secret: str, board_number: int | None, pair: Any,
                        note: str) -> TableEntry:
    """The opponents do not agree with the table's entry waiting on that board (the
    game): it becomes disputed, with their ``note``, for the referees (audited); it is
    not counted. The entering pair itself is refused (403)."""
    place = table_place(secret, lock=True)
    board = _board_of(place, board_number)
    number = _pair_of_table(place, pair, field="pair")
    text = normalise(note or "").strip()[:500]
    if not text:
        raise ResultError(_("Expliqueu què no és correcte perquè ho vegin els àrbitres."),
                          field="note")
    entry = _waiting(place, board)
    _the_opponents(place, entry, number)
    entry.status = TableEntry.Status.DISPUTED
    entry.note = text
    entry.confirmed_by_pair = None
    entry.updated_at = timezone.now()
    entry.save(update_fields=["status", "note", "confirmed_by_pair", "updated_at"])
    audit(place.championship, AuditEntry.Action.TABLE_ENTRY_DISPUTE, None,
          target=_where(place, board), round_number=place.round.number,
          table_number=place.access.table_number,
          board_number=board.number if board is not None else None,
          after=entry.values, reason=_("parella %(pair)s: %(note)s") % {
              "pair": number, "note": text})
    return entry


# ------------------------------------------------------------------------ referees


def _referee_place(round: Round, table_number: int) -> Seating:
    """The seating of ``table_number`` in ``round``, locked as a table's save locks it
    (a knockout's stage, the championship's and round's rows shared, the seating's
    row), so a referee's action and the table's confirmation run one after the other."""
    seatings = Seating.objects.select_related(
        "round__championship", "table", "ns_pair__player1", "ns_pair__player2",
        "ew_pair__player1", "ew_pair__player2",
    ).filter(round=round, table__number=table_number)
    pk = seatings.values_list("pk", flat=True).first()
    if pk is None:
        raise ResultError(
            _("La taula %(table)s no juga la ronda %(round)s.")
            % {"table": table_number, "round": round.number}, field="table")
    lock_knockout(round.pk)
    share_round("seating", [pk], using=router.db_for_write(Seating))
    seating = seatings.filter(pk=pk).select_for_update(of=("self",)).first()
    assert seating is not None
    return seating


def _referee_where(seating: Seating, board: Board | None) -> str:
    if board is None:
        return _("ronda %(round)s, taula %(table)s") % {
            "round": seating.round.number, "table": seating.table.number}
    return _("ronda %(round)s, taula %(table)s, tauler %(board)s") % {
        "round": seating.round.number, "table": seating.table.number, "board": board.number}


@transaction.atomic
def table_entry_accept(*, round: Round, table_number: int, board_number: int | None,
                       acting_user: User | None) -> TableEntry:
    """A referee accepts the table's entry waiting on that board (``None``: the
    classic game), provisional (the opponents left without confirming) or disputed
    (the referee settles the dispute with the table's values): the result is recorded
    as the referee's own (``result_record`` / ``game_record``, every rule check; it
    counts like any referee's result) and the entry becomes confirmed. Referee and up;
    audited (``table.accept``, the values and the pair that entered them)."""
    championship = round.championship
    require(acting_user, championship, Capability.ENTER_RESULT)
    seating = _referee_place(round, table_number)
    board: Board | None = None
    if board_number is not None:
        board = Board.objects.filter(round=round, number=board_number).first()
        if board is None:
            raise ResultError(
                _("El tauler %(board)s no es juga a la ronda %(round)s.")
                % {"board": board_number, "round": round.number}, field="board")
    elif not championship.is_classic:
        raise ResultError(
            _("Aquest campionat és de predonats: els resultats s'entren per tauler."),
            field="board")
    entry = (TableEntry.objects.select_for_update()
             .filter(round=round, table_number=table_number, board=board, status__in=WAITING)
             .order_by("-created_at", "-pk").first())
    if entry is None:
        raise TableEntryMissing(
            _("%(where)s: no hi ha cap resultat de la taula per acceptar.")
            % {"where": _referee_where(seating, board)})
    before = entry.status
    if board is not None:
        result_record(seating=seating, board=board, expected_version=None,
                      acting_user=acting_user, **_result_values(entry.values))
    else:
        game_record(seating=seating, expected_version=None, acting_user=acting_user,
                    **_game_values(entry.values))
    entry.status = TableEntry.Status.CONFIRMED
    entry.confirmed_by_pair = None
    entry.updated_at = timezone.now()
    entry.save(update_fields=["status", "confirmed_by_pair", "updated_at"])
    reason = (_("resultat discutit, acceptat tal com el va entrar la parella %(pair)s")
              if before == TableEntry.Status.DISPUTED
              else _("resultat provisional de la parella %(pair)s, confirmat per un àrbitre"))
    audit(championship, AuditEntry.Action.TABLE_ENTRY_ACCEPT, acting_user,
          target=_referee_where(seating, board), round_number=round.number,
          table_number=table_number, board_number=board_number,
          before={"status": before, "note": entry.note}, after=entry.values,
          reason=reason % {"pair": entry.entered_by_pair})
    return entry


@transaction.atomic
def table_entries_clear(*, round: Round, table_number: int,
                        acting_user: User | None) -> int:
    """A referee clears the entries of table ``table_number`` in ``round`` still
    waiting (provisional or disputed): they become superseded, counted nowhere, and the
    table may enter again. The results already stored are untouched. Referee and up;
    audited (``table.clear``). Returns how many were cleared."""
    championship = round.championship
    require(acting_user, championship, Capability.ENTER_RESULT)
    seating = _referee_place(round, table_number)
    waiting = TableEntry.objects.filter(round=round, table_number=table_number,
                                        status__in=WAITING)
    cleared = [{"board": board, "pair": pair, "status": status}
               for board, pair, status in waiting.order_by("board__number", "pk")
               .values_list("board__number", "entered_by_pair", "status")]
    if not cleared:
        return 0
    waiting.update(status=TableEntry.Status.SUPERSEDED, updated_at=timezone.now())
    audit(championship, AuditEntry.Action.TABLE_ENTRY_CLEAR, acting_user,
          target=_referee_where(seating, None), round_number=round.number,
          table_number=table_number, before={"entries": cleared}, after=None)
    return len(cleared)
