"""The parts of the interchange file that only a classic championship has
(docs/file-format.md "Classic championships"): its ``rules``, each table's ``game`` and
the standings "Export adds". What a valid game is comes from
:func:`scoring.classic.validate_game`; its problems are reported here in English by
JSON path, as :mod:`scoring.validate`'s are for a board's result.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.seats import Side
from scoring.classic import (
    ClassicRules,
    ClassicStanding,
    EndedBy,
    Game,
    Hand,
    LevelGame,
    Tiebreak,
    validate_game,
)
from scoring.interchange.checks import MISSING, Reader
from scoring.interchange.limits import MAX_CLASSIC_NUMBER, MAX_GAME_HANDS, MAX_NOTE_LENGTH
from scoring.model import Trump
from scoring.text import OversizedNumber, kind, show
from scoring.validate import MESSAGES as RESULT_MESSAGES
from scoring.validate import Problem

#: The keys of ``rules`` only a classic championship reads, in the order the export
#: writes them (after ``variant`` and the play settings).
CLASSIC_RULE_KEYS = (
    "game_target", "max_deals", "time_limit_minutes", "score_cap", "level_game",
    "extra_deals", "tiebreaks", "bye_wins", "bye_points_for", "bye_points_against",
    "contro", "recontro",
)
#: The keys of ``rules`` only a duplicate championship reads.
DUPLICATE_RULE_KEYS = (
    "doubling", "method", "scale", "rounding", "infraction_score", "missed_boards",
)
#: The keys of a table's ``game``.
GAME_KEYS = ("ns_points", "ew_points", "deals", "ended_by", "hands", "note")

#: English message of each ``scoring.classic`` problem code (the file's language).
MESSAGES: dict[str, str] = {
    **RESULT_MESSAGES,
    "value_missing": "is missing",
    "not_integer": "must be a whole number, not {kind}",
    "out_of_range": "{value} is not in {minimum}..{maximum}",
    "unknown_field": "unknown key",
    "game_not_object": "must be an object, not {kind}",
    "ended_by_unknown": "{value} is not one of {choices}",
    "deals_out_of_range": "{value} is not in {minimum}..{maximum}",
    "both_reached_target": "both pairs at {target} or more: the game ends when one "
                           "reaches it",
    "target_not_reached": "a game ended by target needs a pair at {target} or more",
    "beyond_last_deal": "{value} points cannot be made in a game to {target} (at most "
                        "{maximum})",
    "target_reached": "a pair reached {target}: the game ended by target, not {value}",
    "no_deal_limit": "this championship has no deal limit",
    "no_time_limit": "this championship has no time limit",
    "deal_limit_not_reached": "a game ended by deals needs the {limit} deals played, "
                              "not {value}",
    "level_needs_extra_deals": "level after deal {limit}: {extra} more deals are played",
    "extra_deals_count": "with the extra deals a game lasts {limit} and {extra} more "
                         "deals, not {value}",
    "hands_not_list": "must be a list, not {kind}",
    "hands_empty": "the score sheet has no deal",
    "sheet_too_long": "a score sheet has at most {maximum} deals, not {value}",
    "hand_not_object": "must be an object, not {kind}",
    "chooser_missing": "is missing (the side that chose trump: NS or EW)",
    "chooser_unknown": "{value} is not one of {choices}",
    "hand_points_missing": "is missing (the points the choosing side took, 0..72)",
    "hand_points_out_of_range": "{value} is not in {minimum}..{maximum}",
    "revoke_unknown": "{value} is not one of null, {choices}",
    "contro_not_allowed": "contro is not played in this championship",
    "recontro_not_allowed": "recontro is not played in this championship",
    "hand_after_end": "the game ended at deal {ended}: deal {deal} is one too many",
    "sheet_not_finished": "after {deals} deals no pair reached {target}: ended_by must "
                          "be time or adjusted",
    "sheet_mismatch": "the score sheet gives {sheet}, not {value}",
}


class _Shown(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def describe(problem: Problem) -> str:
    """The English message of a classic game's ``problem`` (without its JSON path).

    >>> describe(Problem("target_not_reached", "ns_points", {"target": 101}))
    'a game ended by target needs a pair at 101 or more'
    """
    params = problem.params
    shown = _Shown({name: show(value) for name, value in params.items()})
    shown["kind"] = kind(params.get("value"))
    shown["choices"] = ", ".join(str(c) for c in params.get("choices", ()))
    if params.get("maximum", 0) is None:
        shown["maximum"] = "…"
    template = MESSAGES.get(problem.code, problem.code)
    if isinstance(params.get("value"), OversizedNumber):
        template = "{value} is out of range"  # as every oversized number of a file
    return template.format_map(shown)


# ------------------------------------------------------------------------------ read


def _optional_number(rd: Reader, obj: Mapping[str, Any], key: str, default: int | None,
                     ) -> int | None:
    """``rules.<key>``: 1..MAX_CLASSIC_NUMBER or null (none); absent, ``default``."""
    if key not in obj:
        return default
    if obj[key] is None:
        return None
    return rd.integer(obj[key], f"rules.{key}", minimum=1, maximum=MAX_CLASSIC_NUMBER)


def read_rules(rd: Reader, obj: Mapping[str, Any], *, sant_vicenc: bool | None,
               sant_vicenc_on_botifarra: bool | None) -> ClassicRules:
    """A classic championship's rules from ``rules`` (absent keys: the defaults of
    :class:`~scoring.classic.ClassicRules`). A Sant Vicenç setting the file leaves out
    allows the double, as for a duplicate file's results (docs/decisions.md 11)."""
    for key in DUPLICATE_RULE_KEYS:
        if key in obj:
            rd.problem(f"rules.{key}", "is a rule of duplicate championships, not of a "
                                       "classic one (championship.format)")
    default = ClassicRules()
    before = rd.count
    target = default.game_target
    if "game_target" in obj:
        target = rd.integer(obj["game_target"], "rules.game_target", minimum=1,
                            maximum=MAX_CLASSIC_NUMBER) or target
    max_deals = _optional_number(rd, obj, "max_deals", default.max_deals)
    minutes = _optional_number(rd, obj, "time_limit_minutes", default.time_limit_minutes)
    cap = _optional_number(rd, obj, "score_cap", default.score_cap)
    if cap is not None and cap < target:
        rd.problem("rules.score_cap", f"{cap} is below game_target {target}")
        cap = None
    level = rd.choice(obj.get("level_game", MISSING), "rules.level_game", LevelGame,
                      default.level_game)
    extra = default.extra_deals
    if "extra_deals" in obj:
        extra = rd.integer(obj["extra_deals"], "rules.extra_deals", minimum=0,
                           maximum=MAX_CLASSIC_NUMBER) or 0
    tiebreaks = _tiebreaks(rd, obj.get("tiebreaks", MISSING)) or default.tiebreaks
    bye_wins = default.bye_wins
    if "bye_wins" in obj:
        number = rd.number(obj["bye_wins"], "rules.bye_wins")
        if number is not None and not 0 <= number <= 1:
            rd.problem("rules.bye_wins", f"{show(obj['bye_wins'])} is not in 0..1")
        elif number is not None:
            bye_wins = number
    points: dict[str, int] = {}
    for key in ("bye_points_for", "bye_points_against"):
        points[key] = 0
        if key in obj:
            points[key] = rd.integer(obj[key], f"rules.{key}", minimum=0,
                                     maximum=MAX_CLASSIC_NUMBER) or 0
    flags = {key: True if obj.get(key) is None else rd.boolean(obj[key], f"rules.{key}")
             for key in ("contro", "recontro")}
    if rd.count > before:
        return default
    return ClassicRules(
        game_target=target, max_deals=max_deals, time_limit_minutes=minutes,
        score_cap=cap, level_game=level, extra_deals=extra, tiebreaks=tiebreaks,
        bye_wins=bye_wins, bye_points_for=points["bye_points_for"],
        bye_points_against=points["bye_points_against"],
        contro=flags["contro"], recontro=flags["recontro"],
        sant_vicenc=sant_vicenc is not False,
        sant_vicenc_on_botifarra=sant_vicenc_on_botifarra is not False,
    )


def _tiebreaks(rd: Reader, value: object) -> tuple[Tiebreak, ...]:
    if value is MISSING or value is None:
        return ()
    items = rd.array(value, "rules.tiebreaks")
    if isinstance(value, list) and not items:
        rd.problem("rules.tiebreaks", "must list one criterion or more")
        return ()
    out: list[Tiebreak] = []
    for i, item in enumerate(items):
        path = f"rules.tiebreaks[{i}]"
        found = rd.choice(item, path, Tiebreak, Tiebreak.WINS)
        if found.value != item:
            continue
        if found in out:
            rd.problem(path, f"{show(item)} appears twice")
            continue
        out.append(found)
    return tuple(out)


def read_game(rd: Reader, value: object, path: str, rules: ClassicRules,
              ) -> tuple[Game | None, str]:
    """The game at ``path`` (a table's ``game``) and its note; ``(None, "")`` for a
    null game (not played yet) or a game with a problem (each listed by its path)."""
    if value is None or value is MISSING:
        return None, ""
    obj = rd.obj(value, path, optional=GAME_KEYS)
    if obj is None:
        return None, ""
    before = rd.count
    note = ""
    if obj.get("note") is not None:
        note = rd.text(obj["note"], f"{path}.note", empty=True,
                       max_length=MAX_NOTE_LENGTH) or ""
    hands = obj.get("hands")
    if isinstance(hands, list) and len(hands) > MAX_GAME_HANDS:
        rd.problem(f"{path}.hands", f"{len(hands)} deals, more than the {MAX_GAME_HANDS} "
                                    "a game may list")
        return None, note
    raw = {key: obj[key] for key in GAME_KEYS if key in obj and key != "note"}
    game, problems = validate_game(raw, rules)
    for problem in problems:
        rd.problem(f"{path}.{problem.field}" if problem.field else path, describe(problem))
    if rd.count > before:
        return None, note
    return game, note


def stored_game(ns_points: int, ew_points: int, deals: int, ended_by: str,
                hands: list[dict[str, Any]] | None) -> Game:
    """A game as the web app stores it (``hands``: ``Hand.as_json`` of each deal, as
    checked when it was entered), unchecked again: what was accepted is exported."""
    return Game(ns_points, ew_points, deals, EndedBy(ended_by),
                tuple(_stored_hand(h) for h in hands or ()))


def _stored_hand(raw: Mapping[str, Any]) -> Hand:
    revoke = raw.get("revoke")
    return Hand(
        chooser=Side(raw["chooser"]), trump=Trump(raw["trump"]), points=raw.get("points"),
        delegated=bool(raw.get("delegated")), contro=bool(raw.get("contro")),
        recontro=bool(raw.get("recontro")), sant_vicenc=bool(raw.get("sant_vicenc")),
        revoke=None if revoke is None else Side(revoke),
    )


# ------------------------------------------------------------------------------ write


def number_out(value: Fraction) -> int | float:
    """Games won (or a bye's wins) as the file writes them: ``2`` or ``2.5``."""
    return int(value) if value.denominator == 1 else float(value)


def dump_rules(rules: ClassicRules) -> dict[str, Any]:
    """The classic keys of ``rules``, every one written (the Sant Vicenç settings are
    the play settings', written with them)."""
    return {
        "game_target": rules.game_target,
        "max_deals": rules.max_deals,
        "time_limit_minutes": rules.time_limit_minutes,
        "score_cap": rules.score_cap,
        "level_game": rules.level_game.value,
        "extra_deals": rules.extra_deals,
        "tiebreaks": [t.value for t in rules.tiebreaks],
        "bye_wins": number_out(rules.bye_wins),
        "bye_points_for": rules.bye_points_for,
        "bye_points_against": rules.bye_points_against,
        "contro": rules.contro,
        "recontro": rules.recontro,
    }


def dump_game(game: Game, note: str) -> dict[str, Any]:
    """A table's ``game``: the final as entered (the sheet's deals when it has them)."""
    out = game.as_json()
    if note:
        out["note"] = note
    return out


def dump_standings(rows: list[ClassicStanding], rules: ClassicRules) -> list[dict[str, Any]]:
    """"Export adds" of a classic championship: a line for every pair with a game or a
    bye, in rank order. ``rank`` is the pair's place (``null`` when it has none: a
    withdrawn pair, listed last); ``byes`` and ``withdrawn`` only when they apply;
    ``buchholz`` and ``head_to_head`` only when the rules rank by them."""
    out: list[dict[str, Any]] = []
    for s in rows:
        if not s.has_score:
            continue
        line: dict[str, Any] = {
            "rank": s.place, "pair": s.pair, "wins": number_out(s.wins),
            "played": s.played, "points_for": s.points_for,
            "points_against": s.points_against, "difference": s.difference,
        }
        if Tiebreak.BUCHHOLZ in rules.tiebreaks:
            line["buchholz"] = number_out(s.buchholz)
        if s.head_to_head is not None:
            line["head_to_head"] = number_out(s.head_to_head)
        if s.byes:
            line["byes"] = s.byes
        if s.withdrawn:
            line["withdrawn"] = True
        out.append(line)
    return out
