"""The ``stages`` of the interchange file (docs/file-format.md "Stages"): a championship
played as a sequence of stages (a Swiss stage, groups, a knockout, finals), each owning
a run of the file's rounds, with what it fixed as it went (the groups, the qualified
pairs, the bracket). The games themselves stay in ``rounds``.

- :func:`read_stages` checks the key, each problem by its JSON path;
- :func:`dump_stages` writes it back (every setting of the stage's kind);
- :func:`score_stages` computes from the file's games, with :mod:`scoring.stages`, each
  group's standings and who qualifies (independently of the stored ``qualified``) and
  the bracket's winners; :func:`dump_stage_scores` adds them to the written stages
  ("Export adds": recomputed, ignored on input).

A file without ``stages`` is one stage over all its rounds, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.classic import ClassicRules, ClassicStanding, PlayedGame
from scoring.interchange.checks import MISSING, Reader
from scoring.interchange.classic import number_out
from scoring.interchange.document import (
    FORMAT_STAGE_KINDS,
    STAGE_KINDS,
    BracketDoc,
    ChampionshipDoc,
    StageDoc,
)
from scoring.interchange.limits import (
    MAX_DRAW_SEED,
    MAX_GROUPS,
    MAX_SECOND_CHANCE,
    MAX_STAGE_NAME_LENGTH,
    MAX_STAGES,
)
from scoring.stages import (
    REST_RULE_CHOICES,
    SPLIT_METHOD_CHOICES,
    Bracket,
    BracketError,
    Group,
    GroupStanding,
    Match,
    MatchKey,
    Qualified,
    QualifyError,
    group_standings,
    play_bracket,
    qualify,
)
from scoring.text import show

#: How a pair went through a groups stage (``qualified[].how``).
QUALIFIED_HOW = ("group", "second_chance")
#: ``carry_over`` of a finals stage.
CARRY_OVER_CHOICES = ("none", "all", "percent")

#: The keys of a stage of each kind, after ``kind``, ``name`` and ``rounds``, in the
#: order the export writes them.
KIND_KEYS: dict[str, tuple[str, ...]] = {
    "swiss": (),
    "groups": ("group_count", "split", "per_group", "second_chance", "rest_rule",
               "exclude_zero_wins", "seed", "groups", "qualified"),
    "knockout": ("third_place", "avoid_same_group", "bracket"),
    "finals": ("finals", "carry_over", "carry_over_percent", "groups"),
}
#: Keys "Export adds" to a stage: accepted on input and ignored (recomputed).
EXPORTED_STAGE_KEYS = frozenset({
    "group_standings", "games_in", "games_due", "qualification", "qualified_agrees",
    "matches", "champion", "runner_up", "third",
})


# ------------------------------------------------------------------------------ read


def read_stages(
    rd: Reader, value: object, *, rounds: set[int], pairs: set[int], format: str,
) -> tuple[StageDoc, ...]:
    """The checked ``stages`` (``()`` when absent or null). ``rounds``, ``pairs``: the
    numbers the file gives; ``format``: ``championship.format`` (a duplicate
    championship takes Swiss and finals stages, a classic one Swiss, groups and a
    knockout)."""
    if value is MISSING or value is None:
        return ()
    listed = rd.array(value, "stages")
    if len(listed) > MAX_STAGES:
        rd.problem("stages", f"{len(listed)} stages, more than the {MAX_STAGES} a "
                             "championship may have")
        return ()
    out: list[StageDoc] = []
    owner: dict[int, str] = {}  # round -> path of the stage that owns it
    last = 0  # the last round of the stages so far
    for i, item in enumerate(listed):
        path = f"stages[{i}]"
        stage = _stage(rd, item, path, rounds, pairs, format)
        if stage is None:
            continue
        for k, number in enumerate(stage.rounds):
            r_path = f"{path}.rounds[{k}]"
            if number in owner:
                rd.problem(r_path, f"round {number} is already in {owner[number]}")
            elif number <= last:
                rd.problem(r_path, f"round {number} comes before the last round {last} of "
                                   "an earlier stage: stages play in order")
            owner.setdefault(number, path)
        last = max([last, *stage.rounds])
        if stage.bracket is not None and out and out[-1].qualified is not None:
            _bracket_of_qualified(rd, stage.bracket, out[-1].qualified, i)
        out.append(stage)
    return tuple(out)


def _bracket_of_qualified(rd: Reader, bracket: BracketDoc, qualified: Sequence[Qualified],
                          index: int) -> None:
    """A knockout after a groups stage seeds exactly the pairs that stage qualified."""
    seeded = {p for p in bracket.positions if p is not None}
    through = {q.pair for q in qualified}
    if seeded != through:
        rd.problem(f"stages[{index}].bracket.positions",
                   f"pairs {sorted(seeded)} are not the pairs stages[{index - 1}] qualified "
                   f"{sorted(through)}")


def _stage(
    rd: Reader, value: object, path: str, rounds: set[int], pairs: set[int], format: str,
) -> StageDoc | None:
    raw = value.get("kind") if isinstance(value, Mapping) else None
    kind = raw if isinstance(raw, str) and raw in STAGE_KINDS else None
    allowed = FORMAT_STAGE_KINDS.get(format, STAGE_KINDS)
    every = tuple(dict.fromkeys(k for keys in KIND_KEYS.values() for k in keys))
    obj = rd.obj(value, path, required=("kind", "rounds"),
                 optional=("name", *(KIND_KEYS[kind] if kind else every)),
                 ignored=EXPORTED_STAGE_KEYS)
    if obj is None or "kind" not in obj:
        return None
    if kind is None:
        rd.problem(f"{path}.kind", f"{show(raw)} is not one of {', '.join(STAGE_KINDS)}")
        return None
    if kind not in allowed:
        rd.problem(f"{path}.kind", f"a {format} championship has no {kind} stage (it takes "
                                   f"{', '.join(allowed)})")
        return None
    before = rd.count
    name = ""
    if obj.get("name") is not None:
        name = rd.text(obj["name"], f"{path}.name", empty=True,
                       max_length=MAX_STAGE_NAME_LENGTH) or ""
    own = _rounds(rd, obj.get("rounds", MISSING), f"{path}.rounds", rounds)
    stage = StageDoc(kind=kind, name=name, rounds=own)
    if kind == "groups":
        stage = _groups_stage(rd, obj, path, stage, pairs)
    elif kind == "knockout":
        stage = _knockout_stage(rd, obj, path, stage, pairs)
    elif kind == "finals":
        stage = _finals_stage(rd, obj, path, stage, pairs)
    return None if rd.count > before else stage


def _rounds(rd: Reader, value: object, path: str, rounds: set[int]) -> tuple[int, ...]:
    """A stage's rounds: round numbers of the file, each once, in increasing order."""
    if value is MISSING:
        return ()
    listed = rd.array(value, path)
    out: list[int] = []
    for k, raw in enumerate(listed):
        number = rd.item_number(raw, f"{path}[{k}]")
        if number is None:
            continue
        if number not in rounds:
            rd.problem(f"{path}[{k}]", f"round {number} is not in rounds")
        elif out and number <= out[-1]:
            rd.problem(f"{path}[{k}]", f"round {number} after round {out[-1]}: a stage's "
                                       "rounds are listed once each, in increasing order")
        else:
            out.append(number)
    return tuple(out)


def _choice(rd: Reader, obj: Mapping[str, Any], key: str, path: str,
            choices: Sequence[str], default: str) -> str:
    value = obj.get(key, MISSING)
    if value is MISSING or value is None:
        return default
    if value not in choices:
        rd.problem(f"{path}.{key}", f"{show(value)} is not one of {', '.join(choices)}")
        return default
    return str(value)


def _count(rd: Reader, obj: Mapping[str, Any], key: str, path: str, *, minimum: int,
           maximum: int, default: int) -> int:
    if obj.get(key) is None:
        return default
    found = rd.integer(obj[key], f"{path}.{key}", minimum=minimum, maximum=maximum)
    return default if found is None else found


def _flag(rd: Reader, obj: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    if obj.get(key) is None:
        return default
    return rd.boolean(obj[key], f"{path}.{key}")


def _groups_stage(rd: Reader, obj: Mapping[str, Any], path: str, stage: StageDoc,
                  pairs: set[int]) -> StageDoc:
    count = 0
    if "group_count" in obj:
        count = _count(rd, obj, "group_count", path, minimum=1, maximum=MAX_GROUPS, default=0)
    else:
        rd.problem(f"{path}.group_count", "is missing (how many groups)")
    per_group = _count(rd, obj, "per_group", path, minimum=0, maximum=MAX_GROUPS, default=1)
    second = _count(rd, obj, "second_chance", path, minimum=0, maximum=MAX_SECOND_CHANCE,
                    default=0)
    if per_group + second == 0:
        rd.problem(f"{path}.per_group", "per_group and second_chance are both 0: nobody "
                                        "qualifies")
    seed: int | None = None
    if obj.get("seed") is not None:
        seed = rd.integer(obj["seed"], f"{path}.seed", minimum=0, maximum=MAX_DRAW_SEED)
    groups = _groups(rd, obj.get("groups"), f"{path}.groups", pairs)
    if groups is not None and count and len(groups) != count:
        rd.problem(f"{path}.groups", f"{len(groups)} groups, not the group_count {count}")
    qualified = _qualified(rd, obj.get("qualified"), f"{path}.qualified", groups)
    return StageDoc(
        kind=stage.kind, name=stage.name, rounds=stage.rounds, group_count=count,
        split=_choice(rd, obj, "split", path, SPLIT_METHOD_CHOICES, "snake"),
        per_group=per_group, second_chance=second,
        rest_rule=_choice(rd, obj, "rest_rule", path, REST_RULE_CHOICES, "best_placed"),
        exclude_zero_wins=_flag(rd, obj, "exclude_zero_wins", path, True),
        seed=seed, groups=groups, qualified=qualified,
    )


def _groups(rd: Reader, value: object, path: str, pairs: set[int]
            ) -> tuple[Group, ...] | None:
    """The groups (or finals) fixed when the stage started: each a name and 2 pairs or
    more of the file, a pair in one group only; ``None`` when not fixed yet."""
    if value is None:
        return None
    listed = rd.array(value, path)
    if isinstance(value, list) and not listed:
        rd.problem(path, "lists no group (null while the stage has not started)")
    out: list[Group] = []
    names: set[str] = set()
    placed: dict[int, str] = {}  # pair -> path of its group
    for g, item in enumerate(listed):
        g_path = f"{path}[{g}]"
        obj = rd.obj(item, g_path, required=("name", "pairs"))
        if obj is None or "name" not in obj or "pairs" not in obj:
            continue
        name = rd.text(obj["name"], f"{g_path}.name", max_length=MAX_STAGE_NAME_LENGTH)
        if name is not None and name in names:
            rd.problem(f"{g_path}.name", f"group {show(name)} appears twice")
        members: list[int] = []
        for k, raw in enumerate(rd.array(obj["pairs"], f"{g_path}.pairs")):
            p_path = f"{g_path}.pairs[{k}]"
            pair = rd.item_number(raw, p_path)
            if pair is None:
                continue
            if pair not in pairs:
                rd.problem(p_path, f"pair {pair} does not exist")
            elif pair in placed:
                rd.problem(p_path, f"pair {pair} is already in {placed[pair]}")
            else:
                placed[pair] = g_path
                members.append(pair)
        if isinstance(obj["pairs"], list) and len(obj["pairs"]) < 2:
            rd.problem(f"{g_path}.pairs", "a group has 2 pairs or more")
        if name is not None:
            names.add(name)
            out.append(Group(name, tuple(members)))
    return tuple(out)


def _qualified(rd: Reader, value: object, path: str, groups: tuple[Group, ...] | None
               ) -> tuple[Qualified, ...] | None:
    """The qualified pairs in seed order, each in the group it names, at a place that
    group has; ``None`` when not fixed yet."""
    if value is None:
        return None
    if groups is None:
        rd.problem(path, "pairs qualified from groups that were never formed (groups is "
                         "null)")
        return None
    by_name = {g.name: g for g in groups}
    out: list[Qualified] = []
    seen: set[int] = set()
    for k, item in enumerate(rd.array(value, path)):
        q_path = f"{path}[{k}]"
        obj = rd.obj(item, q_path, required=("pair", "group", "place_in_group", "how"))
        if obj is None or not {"pair", "group", "place_in_group", "how"} <= obj.keys():
            continue
        pair = rd.item_number(obj["pair"], f"{q_path}.pair")
        group_name = obj["group"]
        group = by_name.get(group_name) if isinstance(group_name, str) else None
        if group is None:
            rd.problem(f"{q_path}.group", f"{show(group_name)} is not a group of this stage")
        place = rd.integer(obj["place_in_group"], f"{q_path}.place_in_group", minimum=1,
                           maximum=MAX_SECOND_CHANCE)
        how = _choice(rd, obj, "how", q_path, QUALIFIED_HOW, "group")
        if pair is None or group is None or place is None:
            continue
        if pair not in group.pairs:
            rd.problem(f"{q_path}.pair", f"pair {pair} is not in group {group.name}")
        elif pair in seen:
            rd.problem(f"{q_path}.pair", f"pair {pair} qualifies twice")
        elif place > group.size:
            rd.problem(f"{q_path}.place_in_group",
                       f"group {group.name} has {group.size} pairs, no place {place}")
        else:
            seen.add(pair)
            out.append(Qualified(pair, group.name, place, how))
    return tuple(out)


def _knockout_stage(rd: Reader, obj: Mapping[str, Any], path: str, stage: StageDoc,
                    pairs: set[int]) -> StageDoc:
    bracket = _bracket(rd, obj.get("bracket"), f"{path}.bracket", pairs)
    if bracket is not None and stage.rounds:
        needed = (len(bracket.positions) - 1).bit_length()
        if needed > len(stage.rounds):
            rd.problem(f"{path}.rounds", f"a bracket of {len(bracket.positions)} places "
                                         f"plays {needed} rounds, not {len(stage.rounds)}")
    return StageDoc(
        kind=stage.kind, name=stage.name, rounds=stage.rounds,
        third_place=_flag(rd, obj, "third_place", path, False),
        avoid_same_group=_flag(rd, obj, "avoid_same_group", path, True),
        bracket=bracket,
    )


def _bracket(rd: Reader, value: object, path: str, pairs: set[int]) -> BracketDoc | None:
    """A knockout's bracket: a power of two of places (2 or more), each a pair of the
    file once or null (a bye), no first-round match of two byes."""
    if value is None:
        return None
    obj = rd.obj(value, path, required=("positions",), optional=("third_place",))
    if obj is None or "positions" not in obj:
        return None
    before = rd.count
    p_path = f"{path}.positions"
    listed = rd.array(obj["positions"], p_path)
    size = len(listed)
    if isinstance(obj["positions"], list) and (size < 2 or size & (size - 1)):
        rd.problem(p_path, f"{size} places: a bracket has a power of two of places "
                           "(2, 4, 8, ...)")
    positions: list[int | None] = []
    seen: set[int] = set()
    for k, raw in enumerate(listed):
        if raw is None:
            positions.append(None)
            continue
        pair = rd.item_number(raw, f"{p_path}[{k}]")
        if pair is not None and pair not in pairs:
            rd.problem(f"{p_path}[{k}]", f"pair {pair} does not exist")
        elif pair is not None and pair in seen:
            rd.problem(f"{p_path}[{k}]", f"pair {pair} appears twice in the bracket")
        elif pair is not None:
            seen.add(pair)
        positions.append(pair)
    for k in range(0, size - 1, 2):
        if positions[k] is None and positions[k + 1] is None:
            rd.problem(f"{p_path}[{k}]", f"match {k // 2 + 1} of the first round has no "
                                         "pair (two byes)")
    third = _flag(rd, obj, "third_place", path, False)
    if third and len(seen) < 4:
        rd.problem(f"{path}.third_place", "a third-place match needs at least 4 pairs")
    if rd.count > before:
        return None
    return BracketDoc(tuple(positions), third)


def _finals_stage(rd: Reader, obj: Mapping[str, Any], path: str, stage: StageDoc,
                  pairs: set[int]) -> StageDoc:
    finals: list[tuple[str, int]] = []
    if "finals" not in obj:
        rd.problem(f"{path}.finals", "is missing (each final's name and size)")
    listed = rd.array(obj.get("finals", MISSING), f"{path}.finals")
    if isinstance(obj.get("finals"), list) and not listed:
        rd.problem(f"{path}.finals", "lists no final")
    for k, item in enumerate(listed):
        f_path = f"{path}.finals[{k}]"
        if not isinstance(item, list) or len(item) != 2:
            rd.problem(f_path, "must be a list [name, size], e.g. [\"A\", 16]")
            continue
        name = rd.text(item[0], f"{f_path}[0]", max_length=MAX_STAGE_NAME_LENGTH)
        size = rd.integer(item[1], f"{f_path}[1]", minimum=2, maximum=MAX_SECOND_CHANCE)
        if name is not None and name in {n for n, _s in finals}:
            rd.problem(f"{f_path}[0]", f"final {show(name)} appears twice")
        elif name is not None and size is not None:
            finals.append((name, size))
    groups = _groups(rd, obj.get("groups"), f"{path}.groups", pairs)
    if groups is not None and len(finals) == len(listed):
        made = [(g.name, g.size) for g in groups]
        if made != finals:
            rd.problem(f"{path}.groups", f"the finals formed {made} are not the finals "
                                         f"{finals}")
    carry_over = _choice(rd, obj, "carry_over", path, CARRY_OVER_CHOICES, "none")
    percent = _count(rd, obj, "carry_over_percent", path, minimum=0, maximum=100, default=0)
    return StageDoc(
        kind=stage.kind, name=stage.name, rounds=stage.rounds, finals=tuple(finals),
        carry_over=carry_over, carry_over_percent=percent, groups=groups,
    )


# ------------------------------------------------------------------------------ write


def dump_stages(stages: Sequence[StageDoc]) -> list[dict[str, Any]]:
    """The ``stages`` key: each stage's ``kind``, ``name``, ``rounds``, every setting of
    its kind, and what it fixed (``seed``, ``groups``, ``qualified``, ``bracket``) once
    fixed."""
    return [_dump_stage(s) for s in stages]


def _dump_stage(stage: StageDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": stage.kind, "name": stage.name,
                           "rounds": list(stage.rounds)}
    if stage.kind == "groups":
        out.update(
            group_count=stage.group_count, split=stage.split, per_group=stage.per_group,
            second_chance=stage.second_chance, rest_rule=stage.rest_rule,
            exclude_zero_wins=stage.exclude_zero_wins,
        )
        if stage.seed is not None:
            out["seed"] = stage.seed
    elif stage.kind == "knockout":
        out.update(third_place=stage.third_place, avoid_same_group=stage.avoid_same_group)
        if stage.bracket is not None:
            out["bracket"] = {"positions": list(stage.bracket.positions),
                              "third_place": stage.bracket.third_place}
    elif stage.kind == "finals":
        out.update(finals=[[name, size] for name, size in stage.finals],
                   carry_over=stage.carry_over, carry_over_percent=stage.carry_over_percent)
    if stage.groups is not None:
        out["groups"] = [{"name": g.name, "pairs": list(g.pairs)} for g in stage.groups]
    if stage.qualified is not None:
        out["qualified"] = [_qualified_json(q) for q in stage.qualified]
    return out


def _qualified_json(q: Qualified) -> dict[str, Any]:
    return {"pair": q.pair, "group": q.group, "place_in_group": q.place_in_group,
            "how": q.how}


# ------------------------------------------------------------------------------ score


@dataclass(frozen=True, slots=True)
class GroupsScore:
    """A groups stage scored from the file's games: each group's standings, the games
    in and due (an all-play-all: n(n-1)/2 a group), and the pairs that qualify by the
    stage's rule (``None`` when :func:`scoring.stages.qualify` cannot say, ``problem``
    then says why); ``final`` once every group game is in."""

    standings: tuple[GroupStanding, ...]
    games_in: int
    games_due: int
    qualified: tuple[Qualified, ...] | None
    problem: str = ""

    @property
    def final(self) -> bool:
        return self.games_in >= self.games_due

    def how(self, pair: int) -> str | None:
        """How ``pair`` qualifies (``group``, ``second_chance``), ``None``: it does not."""
        return next((q.how for q in self.qualified or () if q.pair == pair), None)

    def agrees(self, stored: Sequence[Qualified] | None) -> bool | None:
        """Whether the file's stored ``qualified`` is the games' (``None``: nothing to
        compare, one of them missing)."""
        if stored is None or self.qualified is None:
            return None
        return tuple(stored) == self.qualified


@dataclass(frozen=True, slots=True)
class KnockoutScore:
    """A knockout scored from the file's games: the stored bracket advanced by them
    (:func:`scoring.stages.play_bracket`) and each played match's game."""

    bracket: Bracket
    played: Mapping[MatchKey, PlayedGame] = field(default_factory=dict)


StageScore = GroupsScore | KnockoutScore | None


def score_stages(doc: ChampionshipDoc) -> tuple[StageScore, ...]:
    """Each stage of a classic file scored from its games (``None`` for a stage with
    nothing to score: a Swiss stage, finals, groups or a bracket not fixed yet)."""
    rules = doc.classic or ClassicRules()
    games = list(doc.games())
    byes = [(r.number, p) for r in doc.rounds for p in r.byes]
    withdrawn = [p.number for p in doc.pairs if p.withdrawn_after_round is not None]
    out: list[StageScore] = []
    for stage in doc.stages:
        own = set(stage.rounds)
        if stage.kind == "groups" and stage.groups is not None:
            stage_games = [g for g in games if g.round in own]
            standings = tuple(
                group_standings(g, stage_games, rules,
                                byes=[(r, p) for r, p in byes if r in own],
                                withdrawn=withdrawn)
                for g in stage.groups
            )
            due = sum(g.size * (g.size - 1) // 2 for g in stage.groups)
            members = {p: g.name for g in stage.groups for p in g.pairs}
            played = {(g.round, g.ns_pair, g.ew_pair) for g in stage_games
                      if g.ns_pair in members and members[g.ns_pair] == members.get(g.ew_pair)}
            qualified: tuple[Qualified, ...] | None = None
            problem = ""
            try:
                qualified = tuple(qualify(
                    standings, per_group=stage.per_group, best_of_rest=stage.second_chance,
                    rest_rule=stage.rest_rule, exclude_zero_wins=stage.exclude_zero_wins,
                ))
            except QualifyError as exc:
                problem = str(exc)
            out.append(GroupsScore(standings, len(played), due, qualified, problem))
        elif stage.kind == "knockout" and stage.bracket is not None:
            by_round = {k: [g for g in games if g.round == number]
                        for k, number in enumerate(stage.rounds, start=1)}
            bracket = Bracket(stage.bracket.positions, {}, stage.bracket.third_place)
            try:
                bracket, won = play_bracket(bracket, by_round)
            except BracketError:  # a game that contradicts the bracket: left unscored
                won = {}
            out.append(KnockoutScore(bracket, won))
        else:
            out.append(None)
    return tuple(out)


def disagreements(doc: ChampionshipDoc, scores: Sequence[StageScore]) -> list[str]:
    """Where a stage's stored ``qualified`` is not what the file's games give, one line
    each by JSON path (the games win: the file may have been edited by hand)."""
    out: list[str] = []
    for i, (stage, score) in enumerate(zip(doc.stages, scores, strict=True)):
        if not isinstance(score, GroupsScore) or score.agrees(stage.qualified) is not False:
            continue
        assert stage.qualified is not None and score.qualified is not None
        stored = [q.pair for q in stage.qualified]
        computed = [q.pair for q in score.qualified]
        out.append(f"stages[{i}].qualified: the file qualifies pairs {stored}, the games "
                   f"qualify {computed}")
    return out


def dump_stage_scores(stages: list[dict[str, Any]], doc: ChampionshipDoc,
                      scores: Sequence[StageScore]) -> None:
    """Add to each written stage (``dump_stages(doc.stages)``) what the games give:
    a groups stage's ``group_standings`` (each line as the standings', and ``qualified``
    how the pair qualifies by the games), ``games_in``, ``games_due``,
    ``qualification`` (the pairs the games qualify, in seed order) and
    ``qualified_agrees`` (when the file also stores ``qualified``); a knockout's
    ``matches`` (every match, its pairs, its game's points and winner), ``champion``,
    ``runner_up`` and, with a third-place match, ``third``."""
    for out, stage, score in zip(stages, doc.stages, scores, strict=True):
        if isinstance(score, GroupsScore):
            out["group_standings"] = [
                {"group": s.group.name, "standings": [
                    _standing_line(row, score.how(row.pair)) for row in s.rows
                ]}
                for s in score.standings
            ]
            out["games_in"] = score.games_in
            out["games_due"] = score.games_due
            if score.qualified is not None:
                out["qualification"] = [_qualified_json(q) for q in score.qualified]
            agrees = score.agrees(stage.qualified)
            if agrees is not None:
                out["qualified_agrees"] = agrees
        elif isinstance(score, KnockoutScore):
            out["matches"] = [_match_line(m, score) for m in score.bracket.matches()]
            final = score.bracket.final
            out["champion"] = final.winner
            out["runner_up"] = final.loser
            if score.bracket.third_place:
                out["third"] = score.bracket.third


def _standing_line(row: ClassicStanding, how: str | None) -> dict[str, Any]:
    line: dict[str, Any] = {
        "rank": row.place, "pair": row.pair, "wins": number_out(row.wins),
        "played": row.played, "points_for": row.points_for,
        "points_against": row.points_against, "difference": row.difference,
    }
    if row.byes:
        line["byes"] = row.byes
    if row.withdrawn:
        line["withdrawn"] = True
    line["qualified"] = how
    return line


def _match_line(match: Match, score: KnockoutScore) -> dict[str, Any]:
    line: dict[str, Any] = {"round": match.round, "number": match.number,
                            "top": match.top, "bottom": match.bottom}
    game = score.played.get(match.key)
    if game is not None:
        top_is_ns = game.ns_pair == match.top
        ns, ew = game.game.ns_points, game.game.ew_points
        line["top_points"], line["bottom_points"] = (ns, ew) if top_is_ns else (ew, ns)
    line["winner"] = match.winner
    if match.third_place:
        line["third_place"] = True
    return line
