"""The schema checks of the interchange file: :func:`load` turns parsed JSON into a
checked :class:`~scoring.interchange.document.ChampionshipDoc` or lists every problem.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.deal import Deal
from engine.errors import EngineError
from engine.generate import generate_deal, secret_from_hex, verify_commitment
from engine.rules import CarregarScope, Variant
from scoring.classic import ClassicRules
from scoring.errors import InterchangeError
from scoring.interchange import classic as classic_file
from scoring.interchange import stages as stages_file
from scoring.interchange.checks import MISSING, Reader, check_field
from scoring.interchange.document import (
    CLASSIC,
    DUPLICATE,
    EXPORTED_RESULT_KEYS,
    FORMAT,
    FORMATS,
    STATUSES,
    BoardDoc,
    ChampionshipDoc,
    PairDoc,
    PlayDoc,
    PlayerDoc,
    RoundDoc,
    TableDoc,
)
from scoring.interchange.limits import (
    MAX_DRAW_SEED,
    MAX_ID_LENGTH,
    MAX_NOTE_LENGTH,
    MAX_NUMBER,
    MAX_RESULTS,
    MAX_SHORT_NAME_LENGTH,
    MAX_SLUG_LENGTH,
)
from scoring.model import (
    Doubling,
    Method,
    MissedBoards,
    Result,
    Rounding,
    ScoringRules,
)
from scoring.movement import Movement
from scoring.text import show
from scoring.validate import ResultRules, describe, parse_result, validate_result

_SLUG = re.compile(r"[-a-zA-Z0-9_]+")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")

def load(data: object) -> ChampionshipDoc:
    """Check a whole interchange document (parsed JSON) and return it as dataclasses.

    Raises :class:`InterchangeError` whose ``problems`` lists every problem as
    ``"JSON path: message"``: wrong types and enum values, unknown keys (typos), missing
    keys, recontro without contro, Sant Vicenç without recontro, both infraction and
    adjusted, null points without adjusted, points outside 0..72, duplicate numbers or ids,
    a pair at two tables of a round, a pair playing a board twice, a result's board, pair or
    player that does not exist, invalid deals, a secret that does not match the commitment
    or the deals; and past the limits of this module (``MAX_*``): numbers over 9999, text
    too long or with control characters, scale values out of range or with more than 4
    decimals, an :class:`OversizedNumber`, more than :data:`MAX_RESULTS` results. The first
    :data:`MAX_PROBLEMS` problems are listed, then a line counts the rest. Keys "Export
    adds" (scores, comparative points, standings) are ignored. Source: docs/file-format.md.
    """
    reader = Reader()
    doc = _load(reader, data)
    if reader.count or doc is None:
        raise InterchangeError(reader.report())
    return doc


def _load(rd: Reader, data: object) -> ChampionshipDoc | None:
    top = rd.obj(
        data,
        "",
        required=("format", "championship"),
        optional=("rules", "players", "pairs", "boards", "rounds", "stages"),
        ignored=frozenset({"standings"}),
    )
    if top is None:
        return None
    fmt = top.get("format", MISSING)
    if fmt is not MISSING and fmt != FORMAT:
        rd.problem("format", f"{show(fmt)} is not {FORMAT!r}")
    head = _championship(rd, top.get("championship", MISSING))
    classic = head.format == CLASSIC
    variant, rules, play, classic_rules = _rules(rd, top.get("rules", MISSING), classic)
    if classic:
        for key in ("deal_commitment", "deal_secret"):
            if getattr(head, key.removeprefix("deal_")) is not None:
                rd.problem(f"championship.{key}", "a classic championship deals no boards")
        if isinstance(top.get("boards"), list) and top["boards"]:
            rd.problem("boards", "a classic championship has no boards")
    players = _players(rd, top.get("players", MISSING))
    # Ids refused above still count as given, so their pairs do not repeat the problem.
    listed = top.get("players")
    given_ids = {
        item["id"]
        for item in (listed if isinstance(listed, list) else ())
        if isinstance(item, Mapping) and isinstance(item.get("id"), str)
    }
    pairs, pair_numbers = _pairs(rd, top.get("pairs", MISSING), given_ids)
    boards, board_paths = _boards(rd, top.get("boards", MISSING), head.secret, head.commitment)
    count = _count_results(top.get("rounds"))
    if count > MAX_RESULTS:
        rd.problem("rounds", f"{count} results, more than the {MAX_RESULTS} a file may hold")
        return None
    rounds = _rounds(
        rd, top.get("rounds", MISSING), pair_numbers, boards, play.result_rules, classic_rules
    )
    check_field(rd, pairs, rounds)
    round_numbers = {r.number for r in rounds}
    for board in boards.values():
        if board.round is not None and board.round not in round_numbers:
            rd.problem(f"{board_paths[board.number]}.round", f"round {board.round} does not exist")
    stages = stages_file.read_stages(
        rd, top.get("stages", MISSING), rounds=round_numbers, pairs=pair_numbers,
        format=head.format,
    )
    if head.name is None or head.slug is None:
        return None
    return ChampionshipDoc(
        name=head.name,
        slug=head.slug,
        date=head.date,
        venue=head.venue,
        deal_commitment=head.commitment,
        deal_secret=head.secret,
        variant=variant,
        rules=rules,
        players=players,
        pairs=pairs,
        boards=tuple(boards.values()),
        rounds=rounds,
        status=head.status,
        end_date=head.end_date,
        boards_per_round=head.boards_per_round,
        play=play,
        movement=head.movement,
        format=head.format,
        classic=classic_rules,
        stages=stages,
    )


def _count_results(rounds: object) -> int:
    """How many results the rounds hold, counted before anything is built from them (a
    classic game counts one, and one more for each deal of its score sheet)."""
    count = 0
    for round_ in rounds if isinstance(rounds, list) else ():
        tables = round_.get("tables") if isinstance(round_, Mapping) else None
        for table in tables if isinstance(tables, list) else ():
            results = table.get("results") if isinstance(table, Mapping) else None
            count += len(results) if isinstance(results, list) else 0
            game = table.get("game") if isinstance(table, Mapping) else None
            if isinstance(game, Mapping):
                hands = game.get("hands")
                count += 1 + (len(hands) if isinstance(hands, list) else 0)
    return count


def _deal_shape(value: object) -> bool:
    """A deal is an object of lists of text (checked before the engine reads it, so an odd
    value is one short problem)."""
    return isinstance(value, Mapping) and all(
        isinstance(hand, list) and all(isinstance(card, str) and len(card) <= 10 for card in hand)
        for hand in value.values()
    )


@dataclass(frozen=True, slots=True)
class _Head:
    """What ``championship`` holds."""

    name: str | None = None
    slug: str | None = None
    date: datetime.date | None = None
    venue: str = ""
    commitment: str | None = None
    secret: str | None = None
    status: str | None = None
    end_date: datetime.date | None = None
    boards_per_round: int | None = None
    movement: str | None = None
    format: str = DUPLICATE


def _date(rd: Reader, raw: object, path: str) -> datetime.date | None:
    if raw is None:
        return None
    try:
        date = datetime.date.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        date = None
    if date is None or not isinstance(raw, str) or len(raw) != 10:
        rd.problem(path, f"{show(raw)} is not a date YYYY-MM-DD")
        return None
    return date


def _championship(rd: Reader, value: object) -> _Head:
    path = "championship"
    if value is MISSING:
        return _Head()
    obj = rd.obj(
        value,
        path,
        required=("name", "slug"),
        optional=(
            "date", "venue", "deal_commitment", "deal_secret",
            "status", "end_date", "boards_per_round", "movement", "format",
        ),
    )
    if obj is None:
        return _Head()
    name = rd.text(obj["name"], f"{path}.name") if "name" in obj else None
    slug = (
        rd.text(obj["slug"], f"{path}.slug", max_length=MAX_SLUG_LENGTH)
        if "slug" in obj
        else None
    )
    if slug is not None and not _SLUG.fullmatch(slug):
        rd.problem(f"{path}.slug", f"{slug!r} may hold only letters, digits, '-' and '_'")
        slug = None
    date = _date(rd, obj.get("date"), f"{path}.date")
    end_date = _date(rd, obj.get("end_date"), f"{path}.end_date")
    venue = ""
    if obj.get("venue") is not None:
        venue = rd.text(obj["venue"], f"{path}.venue", empty=True) or ""
    hexes: dict[str, str | None] = {}
    for key in ("deal_commitment", "deal_secret"):
        raw = obj.get(key)
        hexes[key] = None
        if raw is None:
            continue
        if not isinstance(raw, str) or not _HEX64.fullmatch(raw):
            rd.problem(f"{path}.{key}", "must be 64 hex digits (0-9, a-f)")
            continue
        hexes[key] = raw
    commitment, secret = hexes["deal_commitment"], hexes["deal_secret"]
    if (
        commitment is not None
        and secret is not None
        and not verify_commitment(secret_from_hex(secret), commitment)
    ):
        rd.problem(f"{path}.deal_secret", "does not match deal_commitment")
        secret = None  # its deals would only repeat the same problem
    status: str | None = None
    if obj.get("status") is not None:
        if obj["status"] in STATUSES:
            status = obj["status"]
        else:
            rd.problem(
                f"{path}.status", f"{show(obj['status'])} is not one of {', '.join(STATUSES)}"
            )
    boards_per_round: int | None = None
    if obj.get("boards_per_round") is not None:
        boards_per_round = rd.integer(
            obj["boards_per_round"], f"{path}.boards_per_round", minimum=0, maximum=MAX_NUMBER
        )
    movement = _movement_name(rd, obj.get("movement"), f"{path}.movement")
    format = DUPLICATE
    if obj.get("format") is not None:
        if obj["format"] in FORMATS:
            format = obj["format"]
        else:
            rd.problem(f"{path}.format", f"{show(obj['format'])} is not one of "
                                         f"{', '.join(FORMATS)}")
    return _Head(
        name, slug, date, venue, commitment, secret, status, end_date, boards_per_round,
        movement, format,
    )


def _movement_name(rd: Reader, raw: object, path: str) -> str | None:
    """``random``, ``swiss`` or ``round-robin`` (``scoring.movement.Movement``)."""
    if raw is None:
        return None
    names = [m.value for m in Movement]
    if raw not in names:
        rd.problem(path, f"{show(raw)} is not one of {', '.join(names)}")
        return None
    return str(raw)


_PLAY_FLAGS = ("sant_vicenc", "sant_vicenc_on_botifarra", "carregar", "barraca")


def _rules(
    rd: Reader, value: object, classic: bool
) -> tuple[Variant, ScoringRules, PlayDoc, ClassicRules | None]:
    """The rules: a duplicate championship's scoring rules, or (``classic``) the rules of
    a classic championship's games (lliure by default, as the web app creates it); the
    play settings of both."""
    if classic:
        return _classic_rules(rd, value)
    if value is MISSING:
        return (Variant.OBLIGADA, ScoringRules(), PlayDoc(), None)
    obj = rd.obj(
        value,
        "rules",
        optional=(
            "variant", "doubling", "method", "scale", "rounding", "infraction_score",
            *_PLAY_FLAGS, "carregar_scope", "missed_boards",
        ),
    )
    if obj is None:
        return (Variant.OBLIGADA, ScoringRules(), PlayDoc(), None)
    default = ScoringRules()
    variant = rd.choice(obj.get("variant", MISSING), "rules.variant", Variant, Variant.OBLIGADA)
    doubling = rd.choice(
        obj.get("doubling", MISSING), "rules.doubling", Doubling, default.doubling
    )
    method = rd.choice(obj.get("method", MISSING), "rules.method", Method, default.method)
    rounding = rd.choice(
        obj.get("rounding", MISSING), "rules.rounding", Rounding, default.rounding
    )
    missed = rd.choice(
        obj.get("missed_boards", MISSING), "rules.missed_boards", MissedBoards,
        default.missed_boards,
    )
    bottom, top = default.bottom, default.top
    if "scale" in obj:
        scale = rd.obj(obj["scale"], "rules.scale", required=("bottom", "top"))
        if scale is not None and "bottom" in scale and "top" in scale:
            low = rd.scale_value(scale["bottom"], "rules.scale.bottom")
            high = rd.scale_value(scale["top"], "rules.scale.top")
            if low is not None and high is not None:
                if low >= high:
                    rd.problem("rules.scale", f"bottom {show(scale['bottom'])} must be below top")
                else:
                    bottom, top = low, high
    infraction = default.infraction_score
    if "infraction_score" in obj:
        given = rd.scale_value(obj["infraction_score"], "rules.infraction_score")
        infraction = infraction if given is None else given
    return (
        variant,
        ScoringRules(
            doubling=doubling,
            method=method,
            bottom=bottom,
            top=top,
            rounding=rounding,
            infraction_score=infraction,
            missed_boards=missed,
        ),
        _play(rd, obj),
        None,
    )


def _play(rd: Reader, obj: Mapping[str, object]) -> PlayDoc:
    """The play settings next to ``rules.variant`` (each ``None`` when not given)."""
    flags: dict[str, bool | None] = {}
    for key in _PLAY_FLAGS:
        flags[key] = (
            None if obj.get(key) is None else rd.boolean(obj[key], f"rules.{key}")
        )
    scope: CarregarScope | None = None
    if obj.get("carregar_scope") is not None:
        scope = rd.choice(
            obj["carregar_scope"], "rules.carregar_scope", CarregarScope,
            CarregarScope.VOID_ONLY,
        )
    return PlayDoc(
        sant_vicenc=flags["sant_vicenc"],
        sant_vicenc_on_botifarra=flags["sant_vicenc_on_botifarra"],
        carregar=flags["carregar"],
        carregar_scope=scope,
        barraca=flags["barraca"],
    )


def _classic_rules(
    rd: Reader, value: object
) -> tuple[Variant, ScoringRules, PlayDoc, ClassicRules | None]:
    """A classic file's ``rules``: the variant (default lliure), the play settings and
    the games' rules (docs/file-format.md "Classic championships")."""
    scoring = ScoringRules(doubling=Doubling.CLASSIC)
    obj = {} if value is MISSING else rd.obj(
        value,
        "rules",
        optional=("variant", *_PLAY_FLAGS, "carregar_scope", *classic_file.CLASSIC_RULE_KEYS),
        ignored=frozenset(classic_file.DUPLICATE_RULE_KEYS),
    )
    if obj is None:
        return (Variant.LLIURE, scoring, PlayDoc(), ClassicRules())
    variant = rd.choice(obj.get("variant", MISSING), "rules.variant", Variant, Variant.LLIURE)
    play = _play(rd, obj)
    rules = classic_file.read_rules(
        rd, obj, sant_vicenc=play.sant_vicenc,
        sant_vicenc_on_botifarra=play.sant_vicenc_on_botifarra,
    )
    return (variant, scoring, play, rules)


def _players(rd: Reader, value: object) -> tuple[PlayerDoc, ...]:
    out: list[PlayerDoc] = []
    seen: set[str] = set()
    for i, item in enumerate(rd.array(value, "players")):
        path = f"players[{i}]"
        obj = rd.obj(item, path, required=("id", "name"), optional=("short_name",))
        if obj is None or "id" not in obj or "name" not in obj:
            continue
        pid = rd.text(obj["id"], f"{path}.id", max_length=MAX_ID_LENGTH)
        name = rd.text(obj["name"], f"{path}.name")
        short = rd.text(obj.get("short_name", ""), f"{path}.short_name", empty=True,
                        max_length=MAX_SHORT_NAME_LENGTH)
        if pid is None or name is None or short is None:
            continue
        if pid in seen:
            rd.problem(f"{path}.id", f"player {show(pid)} appears twice")
            continue
        seen.add(pid)
        out.append(PlayerDoc(pid, name, short.strip()))
    return tuple(out)


def _pairs(
    rd: Reader, value: object, player_ids: set[str]
) -> tuple[tuple[PairDoc, ...], set[int]]:
    """The valid pairs, and every pair number given (a pair with a bad player is one
    problem, not one more at each table it sits)."""
    out: list[PairDoc] = []
    seen: set[int] = set()
    for i, item in enumerate(rd.array(value, "pairs")):
        path = f"pairs[{i}]"
        obj = rd.obj(
            item, path, required=("number", "players"),
            optional=("joined_round", "withdrawn_after_round", "withdrawal_reason"),
        )
        if obj is None or "number" not in obj or "players" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        joined = 1
        if obj.get("joined_round") is not None:
            joined = rd.item_number(obj["joined_round"], f"{path}.joined_round") or 1
        withdrawn: int | None = None
        if obj.get("withdrawn_after_round") is not None:
            withdrawn = rd.integer(
                obj["withdrawn_after_round"], f"{path}.withdrawn_after_round",
                minimum=0, maximum=MAX_NUMBER,
            )
        reason = ""
        if obj.get("withdrawal_reason") is not None:
            reason = rd.text(
                obj["withdrawal_reason"], f"{path}.withdrawal_reason", empty=True,
                max_length=MAX_NOTE_LENGTH,
            ) or ""
        members = obj["players"]
        ok = True
        if not isinstance(members, list) or len(members) != 2:
            rd.problem(f"{path}.players", "must be a list of two player ids")
            ok = False
        else:
            for j, pid in enumerate(members):
                if not isinstance(pid, str) or pid not in player_ids:
                    rd.problem(f"{path}.players[{j}]", f"player {show(pid)} does not exist")
                    ok = False
            if ok and members[0] == members[1]:
                rd.problem(f"{path}.players", f"player {show(members[0])} twice in one pair")
                ok = False
        if number is None:
            continue
        if number in seen:
            rd.problem(f"{path}.number", f"pair {number} appears twice")
            continue
        seen.add(number)
        if ok:
            out.append(
                PairDoc(number, (members[0], members[1]), joined, withdrawn, reason)
            )
    return tuple(out), seen


def _boards(
    rd: Reader, value: object, secret: str | None, commitment: str | None
) -> tuple[dict[int, BoardDoc], dict[int, str]]:
    """The valid boards by number, and the JSON path of each."""
    out: dict[int, BoardDoc] = {}
    paths: dict[int, str] = {}
    secret_bytes = secret_from_hex(secret) if secret is not None else None
    for i, item in enumerate(rd.array(value, "boards")):
        path = f"boards[{i}]"
        obj = rd.obj(item, path, required=("number",), optional=("deal", "round"))
        if obj is None or "number" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        deal: Deal | None = None
        if obj.get("deal") is not None and not _deal_shape(obj["deal"]):
            rd.problem(
                f"{path}.deal", "must be an object of seats N, E, S, W, each a list of cards"
            )
        elif obj.get("deal") is not None:
            try:
                deal = Deal.from_json(obj["deal"])
            except EngineError as exc:
                rd.problem(f"{path}.deal", str(exc))
        round_number: int | None = None
        if obj.get("round") is not None:
            round_number = rd.item_number(obj["round"], f"{path}.round")
        if number is None:
            continue
        if number in out:
            rd.problem(f"{path}.number", f"board {number} appears twice")
            continue
        if (
            deal is not None
            and secret_bytes is not None
            and generate_deal(secret_bytes, number) != deal
        ):
            rd.problem(f"{path}.deal", f"is not board {number}'s deal from deal_secret")
        out[number] = BoardDoc(number, deal, round_number)
        paths[number] = path
    return out, paths


_RESULT_KEYS = (
    "trump",
    "delegated",
    "contro",
    "recontro",
    "sant_vicenc",
    "ns_points_taken",
    "infraction",
    "adjusted",
    "note",
)


def _rounds(
    rd: Reader,
    value: object,
    pair_numbers: set[int],
    boards: Mapping[int, BoardDoc],
    result_rules: ResultRules,
    classic_rules: ClassicRules | None,
) -> tuple[RoundDoc, ...]:
    out: list[RoundDoc] = []
    seen_rounds: set[int] = set()
    played: dict[tuple[int, int], str] = {}  # (pair, board) -> path of the first result
    for i, item in enumerate(rd.array(value, "rounds")):
        path = f"rounds[{i}]"
        obj = rd.obj(
            item, path, required=("number",),
            optional=("tables", "closed_at", "draw_seed", "byes", "movement"),
        )
        if obj is None or "number" not in obj:
            continue
        number = rd.item_number(obj["number"], f"{path}.number")
        if number is not None and number in seen_rounds:
            rd.problem(f"{path}.number", f"round {number} appears twice")
            number = None
        if number is not None:
            seen_rounds.add(number)
        closed_at = _moment(rd, obj.get("closed_at"), f"{path}.closed_at")
        draw_seed: int | None = None
        if obj.get("draw_seed") is not None:
            draw_seed = rd.integer(
                obj["draw_seed"], f"{path}.draw_seed", minimum=0, maximum=MAX_DRAW_SEED
            )
        tables: list[TableDoc] = []
        seen_tables: set[int] = set()
        seated: dict[int, str] = {}  # pair -> path of its table in this round
        for j, t_item in enumerate(rd.array(obj.get("tables", MISSING), f"{path}.tables")):
            t_path = f"{path}.tables[{j}]"
            table = _table(
                rd, t_item, t_path, number, pair_numbers, boards, played, result_rules,
                classic_rules,
            )
            if table is None:
                continue
            if table.number in seen_tables:
                rd.problem(f"{t_path}.number", f"table {table.number} appears twice")
                continue
            seen_tables.add(table.number)
            for side, pair in (("ns", table.ns), ("ew", table.ew)):
                if pair in seated and seated[pair] != t_path:
                    rd.problem(f"{t_path}.{side}", f"pair {pair} already sits at {seated[pair]}")
                seated.setdefault(pair, t_path)
            tables.append(table)
        byes: list[int] = []
        for k, raw in enumerate(rd.array(obj.get("byes", MISSING), f"{path}.byes")):
            b_path = f"{path}.byes[{k}]"
            out_pair = rd.item_number(raw, b_path)
            if out_pair is None:
                continue
            if out_pair not in pair_numbers:
                rd.problem(b_path, f"pair {out_pair} does not exist")
            elif out_pair in seated:
                rd.problem(b_path, f"pair {out_pair} sits out but also sits at "
                                   f"{seated[out_pair]}")
            elif out_pair in byes:
                rd.problem(b_path, f"pair {out_pair} sits out twice")
            else:
                byes.append(out_pair)
        movement_name = _movement_name(rd, obj.get("movement"), f"{path}.movement")
        if number is not None:
            out.append(
                RoundDoc(number, tuple(tables), closed_at, draw_seed, tuple(sorted(byes)),
                         movement_name)
            )
    return tuple(out)


def _moment(rd: Reader, raw: object, path: str) -> datetime.datetime | None:
    """An ISO 8601 date and time with its time zone (``2026-11-29T18:30:00+00:00``)."""
    if raw is None:
        return None
    moment: datetime.datetime | None = None
    if isinstance(raw, str) and len(raw) <= 40:
        try:
            moment = datetime.datetime.fromisoformat(raw)
        except ValueError:
            moment = None
    if moment is None or moment.tzinfo is None:
        rd.problem(path, f"{show(raw)} is not a date and time with its time zone "
                         "(YYYY-MM-DDTHH:MM:SS+00:00)")
        return None
    return moment


def _table(
    rd: Reader,
    value: object,
    path: str,
    round_number: int | None,
    pair_numbers: set[int],
    boards: Mapping[int, BoardDoc],
    played: dict[tuple[int, int], str],
    result_rules: ResultRules,
    classic_rules: ClassicRules | None = None,
) -> TableDoc | None:
    """A table of a round: its results, or (``classic_rules`` given) its game."""
    obj = rd.obj(value, path, required=("number", "ns", "ew"),
                 optional=("results",) if classic_rules is None else ("game",))
    if obj is None or not {"number", "ns", "ew"} <= obj.keys():
        return None
    number = rd.item_number(obj["number"], f"{path}.number")
    ns = rd.item_number(obj["ns"], f"{path}.ns")
    ew = rd.item_number(obj["ew"], f"{path}.ew")
    for key, pair in (("ns", ns), ("ew", ew)):
        if pair is not None and pair not in pair_numbers:
            rd.problem(f"{path}.{key}", f"pair {pair} does not exist")
    if ns is not None and ns == ew:
        rd.problem(f"{path}.ew", f"pair {ns} cannot play against itself")
    results: list[Result] = []
    notes: list[tuple[int, str]] = []
    seen_boards: set[int] = set()
    listed = obj.get("results", MISSING) if classic_rules is None else MISSING
    for k, r_item in enumerate(rd.array(listed, f"{path}.results")):
        r_path = f"{path}.results[{k}]"
        found = _result(rd, r_item, r_path, (round_number, number, ns, ew), boards, result_rules)
        if found is None:
            continue
        result, note = found
        if result.board in seen_boards:
            rd.problem(f"{r_path}.board", f"board {result.board} twice at this table")
            continue
        seen_boards.add(result.board)
        for pair in (result.ns_pair, result.ew_pair):
            first = played.setdefault((pair, result.board), r_path)
            if first != r_path:
                rd.problem(
                    f"{r_path}.board", f"pair {pair} already played board {result.board} at {first}"
                )
        results.append(result)
        if note:
            notes.append((result.board, note))
    game, game_note = None, ""
    if classic_rules is not None:
        game, game_note = classic_file.read_game(
            rd, obj.get("game", MISSING), f"{path}.game", classic_rules
        )
    if number is None or ns is None or ew is None:
        return None
    return TableDoc(number, ns, ew, tuple(results), tuple(notes), game, game_note)


def _result(
    rd: Reader,
    value: object,
    path: str,
    where: tuple[int | None, int | None, int | None, int | None],
    boards: Mapping[int, BoardDoc],
    result_rules: ResultRules,
) -> tuple[Result, str] | None:
    """The result at ``path`` and its note; ``where``: (round, table, NS pair, EW pair).
    What a valid result is comes from :func:`scoring.validate.validate_result`."""
    obj = rd.obj(
        value, path, required=("board",), optional=_RESULT_KEYS, ignored=EXPORTED_RESULT_KEYS
    )
    if obj is None or "board" not in obj:
        return None
    before = rd.count
    board = rd.item_number(obj["board"], f"{path}.board")
    if board is not None and board not in boards:
        rd.problem(f"{path}.board", f"board {board} does not exist")
    adjusted = obj.get("adjusted")
    if isinstance(adjusted, Mapping):
        rd.obj(adjusted, f"{path}.adjusted", optional=("NS", "EW"))  # unknown keys
    raw = {
        key: obj.get(key, False) for key in ("delegated", "contro", "recontro", "sant_vicenc")
    }
    problems = validate_result(
        trump=obj.get("trump"),
        ns_points_taken=obj.get("ns_points_taken"),
        infraction=obj.get("infraction"),
        adjusted=adjusted,
        rules=result_rules,
        **raw,
    )
    for problem in problems:
        rd.problem(f"{path}.{problem.field}" if problem.field else path, describe(problem))
    note = ""
    if obj.get("note") is not None:
        note = rd.text(obj["note"], f"{path}.note", empty=True, max_length=MAX_NOTE_LENGTH) or ""
    round_number, table, ns, ew = where
    if rd.count > before or None in (board, round_number, table, ns, ew):
        return None
    assert board is not None and round_number is not None and table is not None
    assert ns is not None and ew is not None
    values = parse_result(
        trump=obj.get("trump"),
        ns_points_taken=obj.get("ns_points_taken"),
        infraction=obj.get("infraction"),
        adjusted=adjusted,
        rules=result_rules,
        **raw,
    )
    result = Result(
        round=round_number,
        table=table,
        board=board,
        ns_pair=ns,
        ew_pair=ew,
        trump=values.trump,
        ns_points_taken=values.ns_points_taken,
        delegated=values.delegated,
        contro=values.contro,
        recontro=values.recontro,
        sant_vicenc=values.sant_vicenc,
        infraction=values.infraction,
        adjusted=values.adjusted,
    )
    return result, note
