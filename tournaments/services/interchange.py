"""ORM rows <-> the championship interchange file (docs/file-format.md).

Both directions go through ``scoring.interchange`` (``load``/``dump``), so the file the
app writes is the file ``python -m scoring`` reads, and the checks on import are the
spec's own:

- :func:`championship_import` checks the whole document with ``load`` first and writes
  nothing unless it is valid (one transaction; raises ``scoring.InterchangeError`` whose
  ``problems`` name the JSON path of each problem).
- :func:`championship_export` builds a ``ChampionshipDoc`` from the rows and dumps it with
  the scores of ``scoring.score_championship`` ("Export adds").

Importing an exported file and exporting again gives the same document, and the same
championship: players are written in id order, pairs, boards, rounds and tables by
number, a table's results by board number; the export carries the state the file format
leaves out (status, end date, boards per round, the play settings, each board's round,
each round's ``closed_at`` and draw seed, result notes: docs/decisions.md "Interchange
file: fields added by this program"), so a closed round stays closed. Whatever is
exported can be imported: the export is checked with the import's own checks
(:func:`scoring.interchange.export_problems`: the file's limits, the document size).

Questions the spec leaves open, and the reading chosen here:
- A file without the play settings (``sant_vicenc``, ``carregar``...) takes their
  defaults, except that a file with Sant Vicenç on a botifarra hand turns
  ``sant_vicenc_on_botifarra`` on (the spec's checks allow it; it was played that way).
  Without ``sant_vicenc`` the default follows the doubling (``engine.sant_vicenc_default``:
  off under duplicate, on under classic), and a file with a Sant Vicenç turns it on.
- A file without ``championship.status``: an import with a ``deal_secret`` is a
  published, finished championship; one with rounds is ``running``; otherwise ``draft``.
- A file without ``boards[].round`` or ``championship.boards_per_round`` derives them
  from where the results were played.
- A slug already taken gets ``-2``, ``-3``... (the command prints the new slug); a slug
  that would then pass the column's length is shortened first.
- A name already another championship's gets `` (2)``, `` (3)``... (the next free
  number), so that no two championships show the same name in a list; the returned
  :class:`Imported` holds the file's name in ``renamed_from`` then (``None`` otherwise),
  the command says so, and the import's audit row keeps it (``name_in_file``).
- A classic championship (``championship.format`` ``classic``) travels with its games'
  rules and each table's game (docs/file-format.md "Classic championships"): the import
  writes each game as entered (version 1, with its ``game.create`` audit row), the export
  adds the standings by games won (``ChampionshipDoc.classic_standings``, the numbers
  ``tournaments.selectors.classic`` shows). A file without the Sant Vicenç settings takes
  them from its score sheets (on when a deal has one), else the classic default (off);
  without ``championship.movement``, Swiss.
- A championship in stages (docs/file-format.md "Stages") travels with its ``Stage``
  rows: each stage's settings, its rounds (``Round.stage``, ``Round.stage_round``) and
  what it fixed (groups, qualified pairs, bracket). The import marks started a stage
  that fixed something (or a Swiss stage with a table), so a later draw does not fix
  it again; the export adds what the games give (``scoring.interchange.stages``).
- Every value is checked against its model field (``max_length``, integer range, NUL,
  slug pattern, decimal digits) before anything is written, so a file the spec-level
  limits of ``scoring.interchange`` let through can still never reach the database as a
  ``DataError`` (PostgreSQL) or be stored cut short (SQLite).
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.rules import CarregarScope, Variant, sant_vicenc_default
from scoring import InterchangeError, score_championship
from scoring import Result as ScoringResult
from scoring.classic import ClassicRules
from scoring.interchange import (
    BoardDoc,
    ChampionshipDoc,
    PairDoc,
    PlayDoc,
    PlayerDoc,
    RoundDoc,
    TableDoc,
    dump,
    export_problems,
    load,
)
from scoring.interchange.classic import stored_game
from scoring.interchange.document import BracketDoc, StageDoc
from scoring.interchange.public import without_private_words
from scoring.interchange.stages import score_stages
from scoring.stages import Group, Qualified
from tournaments.models import (
    AuditEntry,
    Board,
    Bye,
    Championship,
    Game,
    Pair,
    PairBoard,
    Player,
    Result,
    Round,
    RoundPair,
    Seating,
    Stage,
    Table,
)
from tournaments.selectors import to_scoring_result
from tournaments.selectors.presence import absent_pairs
from tournaments.services.bulk import JsonText, insert_rows
from tournaments.services.championships import CREATE_PERMISSION
from tournaments.services.common import User, acting_person, audit, audit_entry
from tournaments.services.errors import NotAllowedError


def _decimal(value: Fraction, path: str, problems: list[str], field: str) -> Decimal:
    """``value`` as the DecimalField ``Championship.<field>`` stores it; a value that does
    not fit its digits, or needs more decimals, is a problem (and 0 is returned)."""
    column = Championship._meta.get_field(field)
    assert isinstance(column, models.DecimalField)
    places = column.decimal_places or 0
    limit = Fraction(10) ** ((column.max_digits or 0) - places)
    if not -limit < value < limit:
        problems.append(f"{path}: {float(value):g} does not fit (-{limit}..{limit})")
        return Decimal(0)
    try:
        number = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            Decimal(1).scaleb(-places)
        )
    except InvalidOperation:
        problems.append(f"{path}: {float(value):g} does not fit")
        return Decimal(0)
    if Fraction(number) != value:
        problems.append(f"{path}: {float(value):g} needs more than {places} decimals")
    return number


def _field_problems(model: type[models.Model], name: str, value: Any, path: str) -> list[str]:
    """What the column of ``model.name`` cannot hold of ``value``, as problems: the
    field's validators (``max_length``, slug pattern), NUL characters (PostgreSQL refuses
    them) and, for integers, the portable range of its column type (SQLite would store
    40000 in a smallint; PostgreSQL refuses it)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column, not a reverse relation
    problems: list[str] = []
    try:
        field.run_validators(value)
    except ValidationError as exc:
        problems.extend(f"{path}: {message}" for message in exc.messages)
    if isinstance(value, str) and "\x00" in value and not problems:
        # (A text field's own validator already names it: tournaments/fields.py.)
        problems.append(f"{path}: holds a NUL character")
    internal = field.get_internal_type()
    if (
        isinstance(value, int)
        and not problems  # PostgreSQL's own range validator already spoke
        and internal in BaseDatabaseOperations.integer_field_ranges
    ):
        low, high = BaseDatabaseOperations.integer_field_ranges[internal]
        if not low <= value <= high:
            problems.append(f"{path}: {value} is not in {low}..{high}")
    return problems


def _model_values(doc: ChampionshipDoc) -> Iterator[tuple[type[models.Model], str, Any, str]]:
    """(model, field, value, JSON path) of every value an import writes to a limited column."""
    yield Championship, "name", doc.name, "championship.name"
    yield Championship, "slug", doc.slug, "championship.slug"
    yield Championship, "venue", doc.venue, "championship.venue"
    if doc.boards_per_round is not None:
        yield (Championship, "boards_per_round", doc.boards_per_round,
               "championship.boards_per_round")
    for i, player in enumerate(doc.players):
        yield Player, "code", player.id, f"players[{i}].id"
        yield Player, "name", player.name, f"players[{i}].name"
        yield Player, "short_name", player.short_name, f"players[{i}].short_name"
    for i, pair in enumerate(doc.pairs):
        yield Pair, "number", pair.number, f"pairs[{i}].number"
    for i, board in enumerate(doc.boards):
        yield Board, "number", board.number, f"boards[{i}].number"
    for i, round_ in enumerate(doc.rounds):
        yield Round, "number", round_.number, f"rounds[{i}].number"
        if round_.draw_seed is not None:
            yield Round, "draw_seed", round_.draw_seed, f"rounds[{i}].draw_seed"
        for j, table in enumerate(round_.tables):
            yield Table, "number", table.number, f"rounds[{i}].tables[{j}].number"
            if table.game is not None:
                path = f"rounds[{i}].tables[{j}].game"
                yield Game, "ns_points", table.game.ns_points, f"{path}.ns_points"
                yield Game, "ew_points", table.game.ew_points, f"{path}.ew_points"
                yield Game, "deals", table.game.deals, f"{path}.deals"
                yield Game, "note", table.game_note, f"{path}.note"
    if doc.classic is not None:
        for name in ("game_target", "max_deals", "time_limit_minutes", "score_cap",
                     "extra_deals", "bye_points_for", "bye_points_against"):
            value = getattr(doc.classic, name)
            if value is not None:
                yield Championship, name, value, f"rules.{name}"


def model_limit_problems(doc: ChampionshipDoc) -> list[str]:
    """Every value of ``doc`` that its model field would refuse, as ``"json.path: message"``
    (limits derived from the models, e.g. ``Player.code`` max_length, smallint ranges)."""
    problems: list[str] = []
    for model, name, value, path in _model_values(doc):
        problems.extend(_field_problems(model, name, value, path))
    return problems


def _free_slug(slug: str) -> str:
    """``slug``, or ``slug-2``, ``slug-3``... when taken; shortened to fit the column."""
    max_length = Championship._meta.get_field("slug").max_length or 50
    taken = set(Championship.objects.filter(slug__startswith=slug[: max_length - 8])
                .values_list("slug", flat=True))
    if slug not in taken:
        return slug
    n = 2
    while True:
        suffix = f"-{n}"
        candidate = slug[: max_length - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        n += 1


def _free_name(name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``... (the first free number) when another
    championship has it; shortened to fit the column."""
    max_length = Championship._meta.get_field("name").max_length or 200
    if not Championship.objects.filter(name=name).exists():
        return name
    base = name[: max_length - 12].rstrip()
    taken = set(Championship.objects.filter(name__startswith=base)
                .values_list("name", flat=True))
    n = 2
    while f"{base} ({n})" in taken:
        n += 1
    return f"{base} ({n})"


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import made: the new championship, and the name the file gave it when
    another championship already had that name (``None`` when kept)."""

    championship: Championship
    renamed_from: str | None


@transaction.atomic
def championship_import(*, data: Any, acting_user: User | None) -> Imported:
    """Create a championship from a parsed interchange document, all or nothing.

    ``acting_user``: who imports (``None``: the system, e.g. the command line); a person
    needs the permission to create championships. ``data``: the parsed JSON (``dict``,
    e.g. from ``scoring.interchange.read_json``).
    Results are written as they are in the file (already checked by ``load``), each with an
    ``AuditEntry`` ``result.create`` row by ``acting_user``, and the championship with one
    ``championship.import`` row (its status and how many pairs, rounds, boards and
    results; never a deal nor the secret). A name another championship already has is
    given the next free number (:func:`_free_name`: ``Name (2)``); the returned
    :class:`Imported` names the file's name in ``renamed_from``, else ``None``.
    Raises ``scoring.InterchangeError``
    (``problems``: ``"json.path: message"``) for anything ``load`` refuses and for any value
    its column cannot hold (:func:`model_limit_problems`, the scale's decimal digits),
    before a row is written.
    """
    if acting_user is not None and not acting_user.has_perm(CREATE_PERMISSION):
        raise NotAllowedError(_("No teniu permís per crear campionats."))
    doc = load(data)
    problems = model_limit_problems(doc)
    rules = doc.rules
    bottom = _decimal(rules.bottom, "rules.scale.bottom", problems, "scale_bottom")
    top = _decimal(rules.top, "rules.scale.top", problems, "scale_top")
    infraction_score = _decimal(
        rules.infraction_score, "rules.infraction_score", problems, "infraction_score"
    )
    if not problems and top <= bottom:
        problems.append(f"rules.scale: top {top} must be above bottom {bottom}")
    classic_rules = doc.classic if doc.is_classic else None
    bye_wins = Decimal(1)
    if classic_rules is not None:
        bye_wins = _decimal(classic_rules.bye_wins, "rules.bye_wins", problems, "bye_wins")
    if problems:
        raise InterchangeError(problems)
    results = list(doc.results())
    play = doc.play
    # For every Sant Vicenç called in the file (a result or a deal): on a botifarra hand?
    called = [(r.trump is not None and r.trump.suit is None) for r in results if r.sant_vicenc]
    called += [h.trump.suit is None for g in doc.games() for h in g.game.hands if h.sant_vicenc]
    sant_vicenc = play.sant_vicenc
    if sant_vicenc is None:
        default = False if classic_rules is not None else sant_vicenc_default(rules.doubling)
        sant_vicenc = default or bool(called)
    sv_on_botifarra = play.sant_vicenc_on_botifarra
    if sv_on_botifarra is None:
        sv_on_botifarra = any(called)
    status = doc.status or (
        Championship.Status.FINISHED if doc.deal_secret
        else Championship.Status.RUNNING if doc.rounds
        else Championship.Status.DRAFT
    )
    defaults = Championship()
    name = _free_name(doc.name)
    movement = doc.movement or (
        Championship.Movement.SWISS if classic_rules is not None
        else Championship.Movement.RANDOM
    )
    championship = Championship.objects.create(
        format=doc.format,
        **_classic_fields(classic_rules or ClassicRules(), bye_wins),
        name=name,
        slug=_free_slug(doc.slug),
        date=doc.date,
        end_date=doc.end_date,
        venue=doc.venue,
        status=status,
        sant_vicenc=sant_vicenc,
        carregar=_given(play.carregar, defaults.carregar),
        carregar_scope=(
            play.carregar_scope.value if play.carregar_scope is not None
            else defaults.carregar_scope
        ),
        barraca=_given(play.barraca, defaults.barraca),
        boards_per_round=doc.boards_per_round or 0,
        variant=doc.variant.value,
        doubling=rules.doubling.value,
        method=rules.method.value,
        scale_bottom=bottom,
        scale_top=top,
        rounding=rules.rounding.value,
        infraction_score=infraction_score,
        missed_boards=rules.missed_boards.value,
        movement=movement,
        sant_vicenc_on_botifarra=sv_on_botifarra,
        deal_commitment=(doc.deal_commitment or "").lower(),
        deal_secret=(doc.deal_secret or "").lower(),
        deal_secret_published_at=timezone.now() if doc.deal_secret else None,
    )
    try:
        _write_rows(championship, doc, acting_user)
        _write_stages(championship, doc)
    except IntegrityError as exc:  # a rule load() does not check (e.g. a pair of one player)
        raise InterchangeError([f"championship: the database refused the file ({exc})"]) \
            from None
    audit(
        championship, AuditEntry.Action.CHAMPIONSHIP_IMPORT, acting_user,
        target=championship.name,
        after={
            "slug": championship.slug, "status": championship.status,
            "pairs": Pair.objects.filter(championship=championship).count(),
            "rounds": Round.objects.filter(championship=championship).count(),
            "boards": Board.objects.filter(championship=championship).count(),
            "results": Result.objects.filter(board__championship=championship).count(),
            **({"games": Game.objects.filter(seating__round__championship=championship)
                .count()} if classic_rules is not None else {}),
            **({"stages": len(doc.stages)} if doc.stages else {}),
            "deal_commitment": championship.deal_commitment,
            **({"name_in_file": doc.name} if name != doc.name else {}),
        },
    )
    return Imported(championship, doc.name if name != doc.name else None)


def _classic_fields(rules: ClassicRules, bye_wins: Decimal) -> dict[str, Any]:
    """The ``Championship`` columns of a classic championship's rules (a duplicate
    championship keeps their defaults)."""
    return {
        "game_target": rules.game_target, "max_deals": rules.max_deals,
        "time_limit_minutes": rules.time_limit_minutes, "score_cap": rules.score_cap,
        "level_game": rules.level_game.value, "extra_deals": rules.extra_deals,
        "tiebreaks": [t.value for t in rules.tiebreaks], "bye_wins": bye_wins,
        "bye_points_for": rules.bye_points_for,
        "bye_points_against": rules.bye_points_against,
        "contro_allowed": rules.contro, "recontro_allowed": rules.recontro,
    }


def _write_rows(
    championship: Championship, doc: ChampionshipDoc, acting_user: User | None
) -> None:
    players = {
        p.code: p
        for p in Player.objects.bulk_create(
            [Player(championship=championship, code=p.id, name=p.name, short_name=p.short_name)
             for p in doc.players]
        )
    }
    pairs = {
        p.number: p
        for p in Pair.objects.bulk_create(
            [
                Pair(championship=championship, number=p.number,
                     player1=players[p.players[0]], player2=players[p.players[1]],
                     joined_round=p.joined_round,
                     withdrawn_after_round=p.withdrawn_after_round,
                     withdrawal_reason=p.withdrawal_reason)
                for p in doc.pairs
            ]
        )
    }
    rounds = {
        r.number: r
        for r in Round.objects.bulk_create(
            [
                Round(championship=championship, number=r.number, closed_at=r.closed_at,
                      draw_seed=r.draw_seed, movement=r.movement or "")
                for r in doc.rounds
            ]
        )
    }
    table_numbers = sorted({t.number for r in doc.rounds for t in r.tables})
    tables = {
        t.number: t
        for t in Table.objects.bulk_create(
            [Table(championship=championship, number=n) for n in table_numbers]
        )
    }
    # A board belongs to a round when every table that played it did so in that round.
    rounds_of_board: dict[int, set[int]] = defaultdict(set)
    for r in doc.rounds:
        for t in r.tables:
            for res in t.results:
                rounds_of_board[res.board].add(r.number)
    round_of_board = _rounds_of_boards(doc, rounds_of_board)
    boards = {
        b.number: b
        for b in Board.objects.bulk_create(
            [
                Board(
                    championship=championship,
                    number=b.number,
                    deal=b.deal.to_json() if b.deal is not None else None,
                    round=rounds.get(
                        b.round if b.round is not None else round_of_board.get(b.number, 0)
                    ),
                )
                for b in doc.boards
            ]
        )
    }
    per_round = _boards_per_round(rounds_of_board)
    if per_round and doc.boards_per_round is None:
        championship.boards_per_round = per_round
        championship.save(update_fields=["boards_per_round"])
    # The rows below grow with the results (200,000 in a file, twice as many pair-board
    # rows): written as plain tuples through insert_rows (COPY on PostgreSQL).
    seated = [(r, t) for r in doc.rounds for t in r.tables]
    seating_ids = insert_rows(
        Seating, ("round_id", "table_id", "ns_pair_id", "ew_pair_id"),
        [(rounds[r.number].pk, tables[t.number].pk, pairs[t.ns].pk, pairs[t.ew].pk)
         for r, t in seated],
        with_ids=True,
    )
    Bye.objects.bulk_create(
        [Bye(round=rounds[r.number], pair=pairs[n]) for r in doc.rounds for n in r.byes]
    )
    insert_rows(
        RoundPair, ("round_id", "pair_id", "seating_id"),
        [
            (rounds[r.number].pk, pairs[number].pk, seating_id)
            for (r, t), seating_id in zip(seated, seating_ids, strict=True)
            for number in (t.ns, t.ew)
        ],
    )
    now = timezone.now()
    _write_games(championship, seated, seating_ids, acting_user, now)
    played = [  # (round, table, seating id, result, its column values, its note)
        (r, t, seating_id, res, _result_values(res), notes.get(res.board, ""))
        for (r, t), seating_id in zip(seated, seating_ids, strict=True)
        for notes in (dict(t.notes),)
        for res in t.results
    ]
    result_ids = insert_rows(
        Result, _RESULT_FIELDS,
        (
            (seating_id, boards[res.board].pk, *values, note, now, now, 1)
            for _r, _t, seating_id, res, values, note in played
        ),
        with_ids=True, count=len(played),
    )
    insert_rows(
        PairBoard, ("pair_id", "board_id", "result_id"),
        (
            (pairs[number].pk, boards[res.board].pk, result_id)
            for (_r, t, _s, res, _v, _n), result_id in zip(played, result_ids, strict=True)
            for number in (t.ns, t.ew)
        ),
        count=2 * len(played),
    )
    person = acting_person(acting_user)
    acting = person.pk if person is not None else None
    target = _("ronda %(round)s, taula %(table)s, tauler %(board)s")
    snapshots: dict[tuple[Any, ...], str] = {}
    insert_rows(
        AuditEntry,
        ("championship_id", "result_id", "round_number", "table_number", "board_number",
         "action", "at", "target", "acting_user_id", "before", "after", "reason"),
        (
            (championship.pk, result_id, r.number, t.number, res.board,
             AuditEntry.Action.RESULT_CREATE.value, now,
             target % {"round": r.number, "table": t.number, "board": res.board},
             acting, None, _snapshot_json(res.board, values, note, snapshots), "")
            for (r, t, _s, res, values, note), result_id
            in zip(played, result_ids, strict=True)
        ),
        count=len(played),
    )


def _write_stages(championship: Championship, doc: ChampionshipDoc) -> None:
    """The file's stages as ``Stage`` rows, each round tagged with its stage and its
    place in it (``Round.stage``, ``Round.stage_round``). A stage that fixed its groups
    or its bracket, or a Swiss stage with a table seated, is started (``started_at``:
    now), so that nothing it fixed is drawn again."""
    if not doc.stages:
        return
    rounds = {r.number: r for r in Round.objects.filter(championship=championship)}
    seated = set(Seating.objects.filter(round__championship=championship)
                 .values_list("round__number", flat=True))
    now = timezone.now()
    tagged: list[Round] = []
    for number, spec in enumerate(doc.stages, start=1):
        started = (
            spec.groups is not None or spec.bracket is not None
            or (spec.kind == Stage.Kind.SWISS and any(r in seated for r in spec.rounds))
        )
        stage = Stage.objects.create(
            championship=championship, number=number, kind=spec.kind, name=spec.name,
            group_count=spec.group_count, split=spec.split, per_group=spec.per_group,
            second_chance=spec.second_chance, rest_rule=spec.rest_rule,
            exclude_zero_wins=spec.exclude_zero_wins, third_place=spec.third_place,
            avoid_same_group=spec.avoid_same_group,
            finals=[[name, size] for name, size in spec.finals],
            carry_over=spec.carry_over, carry_over_percent=spec.carry_over_percent,
            seed=spec.seed,
            groups=None if spec.groups is None else [
                {"name": g.name, "pairs": list(g.pairs)} for g in spec.groups],
            qualified=None if spec.qualified is None else [
                {"pair": q.pair, "group": q.group, "place_in_group": q.place_in_group,
                 "how": q.how} for q in spec.qualified],
            bracket=None if spec.bracket is None else {
                "positions": list(spec.bracket.positions),
                "third_place": spec.bracket.third_place},
            started_at=now if started else None,
        )
        for k, round_number in enumerate(spec.rounds, start=1):
            rnd = rounds[round_number]
            rnd.stage = stage
            rnd.stage_round = k
            tagged.append(rnd)
    Round.objects.bulk_update(tagged, ["stage", "stage_round"])


def _stage_docs(championship: Championship) -> tuple[StageDoc, ...]:
    """The championship's stages as the file writes them (``()``: one stage)."""
    stages = list(Stage.objects.filter(championship=championship).order_by("number"))
    if not stages:
        return ()
    rounds: dict[int, list[int]] = defaultdict(list)
    for stage_id, number in (Round.objects.filter(championship=championship,
                                                  stage__isnull=False)
                             .order_by("number").values_list("stage_id", "number")):
        rounds[stage_id].append(number)
    return tuple(
        StageDoc(
            kind=s.kind, name=s.name, rounds=tuple(rounds[s.pk]), group_count=s.group_count,
            split=s.split, per_group=s.per_group, second_chance=s.second_chance,
            rest_rule=s.rest_rule, exclude_zero_wins=s.exclude_zero_wins,
            third_place=s.third_place, avoid_same_group=s.avoid_same_group,
            finals=tuple((str(name), int(size)) for name, size in s.finals or ()),
            carry_over=s.carry_over, carry_over_percent=s.carry_over_percent, seed=s.seed,
            groups=None if s.groups is None else tuple(
                Group(str(g["name"]), tuple(int(p) for p in g["pairs"])) for g in s.groups),
            qualified=None if s.qualified is None else tuple(
                Qualified(int(q["pair"]), str(q["group"]), int(q["place_in_group"]),
                          str(q["how"])) for q in s.qualified),
            bracket=None if not s.bracket else BracketDoc(
                tuple(None if p is None else int(p) for p in s.bracket["positions"]),
                bool(s.bracket.get("third_place", False))),
        )
        for s in stages
    )


def _write_games(
    championship: Championship,
    seated: list[tuple[RoundDoc, TableDoc]],
    seating_ids: list[int],
    acting_user: User | None,
    now: datetime.datetime,
) -> None:
    """A classic championship's games as the file has them (version 1), each with its
    ``game.create`` audit row, as a referee's entry writes it."""
    games = [
        (r, t, Game(
            seating_id=seating_id, ns_points=t.game.ns_points, ew_points=t.game.ew_points,
            deals=t.game.deals, ended_by=t.game.ended_by.value,
            hands=[h.as_json() for h in t.game.hands] or None, note=t.game_note,
            entered_by=acting_person(acting_user), entered_at=now, updated_at=now,
            version=1,
        ))
        for (r, t), seating_id in zip(seated, seating_ids, strict=True)
        if t.game is not None
    ]
    if not games:
        return
    Game.objects.bulk_create([g for _r, _t, g in games])
    where = _("ronda %(round)s, taula %(table)s")
    AuditEntry.objects.bulk_create([
        audit_entry(
            championship, AuditEntry.Action.GAME_CREATE, acting_user,
            target=where % {"round": r.number, "table": t.number},
            round_number=r.number, table_number=t.number,
            before=None, after=g.snapshot(), at=now,
        )
        for r, t, g in games
    ])


#: The columns of a result an import writes, in the order of :func:`_result_values`
#: (then ``note``, ``entered_at``, ``updated_at``, ``version``).
_RESULT_FIELDS = (
    "seating_id", "board_id", "trump", "delegated", "contro", "recontro", "sant_vicenc",
    "ns_points_taken", "infraction", "adjusted_ns", "adjusted_ew",
    "note", "entered_at", "updated_at", "version",
)


def _result_values(res: ScoringResult) -> tuple[Any, ...]:
    """A file's result as ``Result`` columns, trump to ``adjusted_ew``."""
    adjusted = res.adjusted
    return (
        res.trump.value if res.trump is not None else None,
        res.delegated, res.contro, res.recontro, res.sant_vicenc, res.ns_points_taken,
        res.infraction.value if res.infraction is not None else None,
        adjusted[0].value if adjusted else None,
        adjusted[1].value if adjusted else None,
    )


def _snapshot_json(
    board: int, values: tuple[Any, ...], note: str, cache: dict[tuple[Any, ...], str]
) -> JsonText:
    """``Result.snapshot()`` of the row an import writes (version 1), as JSON text, built
    without the model instance (the audit's ``after``). ``values``: the result's
    :func:`_result_values`; ``cache`` keeps the text after the board for each distinct
    result (a few thousand kinds among 200,000 results)."""
    rest = cache.get((values, note))
    if rest is None:
        trump, delegated, contro, recontro, sant_vicenc, points, infraction, adj_ns, adj_ew = (
            values
        )
        rest = json.dumps({
            "trump": trump, "delegated": delegated, "contro": contro, "recontro": recontro,
            "sant_vicenc": sant_vicenc, "ns_points_taken": points, "infraction": infraction,
            "adjusted": {"NS": adj_ns, "EW": adj_ew} if adj_ns is not None else None,
            "note": note, "version": 1,
        })[1:]
        cache[(values, note)] = rest
    return JsonText(f'{{"board": {board}, {rest}')


def _boards_per_round(rounds_of_board: dict[int, set[int]]) -> int:
    """b when the results follow the app's movement (round r plays boards (r-1)*b+1..r*b;
    a round may be partly played), else 0."""
    by_round: dict[int, set[int]] = defaultdict(set)
    for board, rounds in rounds_of_board.items():
        if len(rounds) != 1:
            return 0
        by_round[next(iter(rounds))].add(board)
    if not by_round:
        return 0
    b = max(len(boards) for boards in by_round.values())
    ok = all(
        (r - 1) * b < board <= r * b for r, boards in by_round.items() for board in boards
    )
    return b if ok else 0


def _rounds_of_boards(
    doc: ChampionshipDoc, rounds_of_board: dict[int, set[int]]
) -> dict[int, int]:
    """``{board: round}``: the round every table that played the board played it in; with
    the app's movement, also the boards no table has played yet."""
    out = {b: next(iter(rs)) for b, rs in rounds_of_board.items() if len(rs) == 1}
    b = _boards_per_round(rounds_of_board)
    if b:
        numbers = {r.number for r in doc.rounds}
        for board in doc.boards:
            r = (board.number - 1) // b + 1
            if board.number not in out and r in numbers:
                out[board.number] = r
    return out


def championship_doc(championship: Championship) -> ChampionshipDoc:
    """The championship's rows as a ``ChampionshipDoc`` (a constant number of queries).

    The deal secret appears only once published; the commitment once boards were dealt.
    """
    # A pair never present (the check-in on) is left out with its players, as the
    # standings leave it out (selectors.presence.absent_pairs, docs/decisions.md 106).
    kept = list(Pair.objects.filter(championship=championship).exclude(
        absent_pairs(championship)).select_related("player1", "player2").order_by("number"))
    absent = Pair.objects.filter(championship=championship).filter(absent_pairs(championship))
    playing = {p.player1_id for p in kept} | {p.player2_id for p in kept}
    unplayed = ({pk for pair in absent.values_list("player1_id", "player2_id") for pk in pair}
                - playing)
    players = tuple(
        PlayerDoc(p.code, p.name, p.short_name)
        for p in Player.objects.filter(championship=championship).order_by("id")
        if p.pk not in unplayed
    )
    pairs = tuple(
        PairDoc(p.number, (p.player1.code, p.player2.code), p.joined_round,
                p.withdrawn_after_round, p.withdrawal_reason)
        for p in kept
    )
    boards = tuple(
        BoardDoc(b.number, b.get_deal(), b.round.number if b.round is not None else None)
        for b in Board.objects.filter(championship=championship)
        .select_related("round").order_by("number")
    )
    results_by_seating: dict[int, list[Result]] = defaultdict(list)
    for r in (
        Result.objects.filter(board__championship=championship)
        .select_related("seating__round", "seating__table", "seating__ns_pair",
                        "seating__ew_pair", "board")
        .order_by("board__number", "id")
    ):
        results_by_seating[r.seating_id].append(r)
    games = {
        g.seating_id: g for g in Game.objects.filter(seating__round__championship=championship)
    } if championship.is_classic else {}
    tables_by_round: dict[int, list[TableDoc]] = defaultdict(list)
    for s in (
        Seating.objects.filter(round__championship=championship)
        .select_related("table", "ns_pair", "ew_pair").order_by("table__number")
    ):
        rows = results_by_seating[s.pk]
        game = games.get(s.pk)
        tables_by_round[s.round_id].append(
            TableDoc(
                s.table.number, s.ns_pair.number, s.ew_pair.number,
                tuple(to_scoring_result(r) for r in rows),
                tuple((r.board.number, r.note) for r in rows if r.note),
                game=None if game is None else stored_game(
                    game.ns_points, game.ew_points, game.deals, game.ended_by, game.hands
                ),
                game_note="" if game is None else game.note,
            )
        )
    byes_by_round: dict[int, list[int]] = defaultdict(list)
    for round_id, number in Bye.objects.filter(round__championship=championship).values_list(
        "round_id", "pair__number"
    ):
        byes_by_round[round_id].append(number)
    rounds = tuple(
        RoundDoc(
            r.number, tuple(tables_by_round[r.pk]),
            closed_at=r.closed_at.astimezone(datetime.UTC) if r.closed_at else None,
            draw_seed=r.draw_seed,
            byes=tuple(sorted(byes_by_round[r.pk])),
            movement=r.movement or None,
        )
        for r in Round.objects.filter(championship=championship).order_by("number")
    )
    return ChampionshipDoc(
        name=championship.name,
        slug=championship.slug,
        date=championship.date,
        venue=championship.venue,
        deal_commitment=championship.deal_commitment or None,
        deal_secret=championship.public_deal_secret or None,
        variant=Variant(championship.variant),
        rules=championship.scoring_rules(),
        players=players,
        pairs=pairs,
        boards=boards,
        rounds=rounds,
        status=championship.status,
        end_date=championship.end_date,
        boards_per_round=championship.boards_per_round,
        movement=championship.movement,
        play=PlayDoc(
            sant_vicenc=championship.sant_vicenc,
            sant_vicenc_on_botifarra=championship.sant_vicenc_on_botifarra,
            carregar=championship.carregar,
            carregar_scope=CarregarScope(championship.carregar_scope),
            barraca=championship.barraca,
        ),
        format=championship.format,
        classic=championship.classic_rules() if championship.is_classic else None,
        stages=_stage_docs(championship),
    )


def championship_export(championship: Championship, *, public: bool = False) -> dict[str, Any]:
    """The interchange document with every score and the standings ("Export adds"; a
    classic championship's by games won);
    ``public``: the public download's, without the withdrawals' reasons and the
    referees' notes (:func:`scoring.interchange.public.without_private_words`).

    Raises ``scoring.InterchangeError`` when the document would not import back (a value
    past the file's limits, e.g. a pair number over 9999 entered in the admin, or a
    document over the size cap): :func:`scoring.interchange.export_problems`, the import's
    own checks.
    """
    doc = championship_doc(championship)
    if public:
        doc = without_private_words(doc)
    stages = score_stages(doc) if doc.stages else None
    if doc.is_classic:
        document = dump(doc, classic_standings=doc.classic_standings(), stage_scores=stages)
    else:
        document = dump(doc, score_championship(doc.rules, doc.results(), doc.absences()),
                        stage_scores=stages)
    problems = export_problems(document)
    if problems:
        raise InterchangeError(problems)
    return document


def _given(value: bool | None, default: bool) -> bool:
    return default if value is None else value
