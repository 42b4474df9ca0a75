"""A championship's stages read once: the groups with their standings and who qualified,
and the knockout bracket with each match's game and winner. The one read model the
groups page, the bracket page, the hall screen, the API, the PDFs and the export render;
the numbers come from ``scoring.stages`` (and ``scoring.classic`` through it).

A knockout match is the game of its knockout round whose two pairs are the match's
pairs (``services.stages`` seats match k of a round at table k, the upper pair NS); its
winner is the pair with more points as entered: a knockout game is never level (the
referee enters it after the extra deals), and the cap counts for standings, not here
(``scoring.stages.play_bracket``, the rule the interchange file's scorer uses too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring import stages as pure
from scoring.classic import EndedBy, PlayedGame
from scoring.classic import Game as ClassicGame
from tournaments.models import Championship, Game, Round, Seating, Stage
from tournaments.selectors.classic import (
    ChampionshipGames,
    championship_games,
    difference_text,
    wins_out,
    wins_text,
)
from tournaments.selectors.standings import PairName, pair_names

#: How a pair went through, as the API writes it.
QUALIFIED_GROUP = "group"
QUALIFIED_SECOND_CHANCE = "second_chance"


def championship_stages(championship: Championship) -> list[Stage]:
    """The championship's stages in playing order (empty: one stage, as before)."""
    return list(Stage.objects.filter(championship=championship).order_by("number"))


def stage_of_kind(championship: Championship, kind: str) -> Stage | None:
    """The championship's first stage of ``kind`` (``Stage.Kind``), ``None`` without one."""
    return Stage.objects.filter(championship=championship, kind=kind).order_by("number").first()


def is_knockout_round(round: Round) -> bool:
    """Whether ``round`` belongs to a knockout stage (one query, none for a round of a
    championship without stages)."""
    return round.stage_id is not None and Stage.objects.filter(
        pk=round.stage_id, kind=Stage.Kind.KNOCKOUT).exists()


def stage_round_numbers(stage: Stage) -> list[int]:
    """The championship round numbers of ``stage``, in order."""
    return list(Round.objects.filter(stage=stage).order_by("number")
                .values_list("number", flat=True))


# ---------------------------------------------------------------------------- groups


@dataclass(frozen=True, slots=True)
class GroupRow:
    """One line of a group's standings."""

    rank: int | None
    pair: PairName
    wins: Fraction
    played: int
    points_for: int
    points_against: int
    difference: int
    qualified: str | None  # "group", "second_chance" or None

    @property
    def number(self) -> int:
        return self.pair.number

    @property
    def wins_out(self) -> int | float:
        return wins_out(self.wins)

    @property
    def wins_text(self) -> str:
        return wins_text(self.wins)

    @property
    def rank_text(self) -> str:
        return "—" if self.rank is None else str(self.rank)

    @property
    def difference_text(self) -> str:
        return difference_text(self.difference)


@dataclass(frozen=True, slots=True)
class GroupTable:
    """A group: its name, its pairs (as drawn), its standings and whether every game of
    the group is in."""

    name: str
    pairs: tuple[int, ...]
    rows: tuple[GroupRow, ...]
    games_in: int
    games_due: int

    @property
    def complete(self) -> bool:
        return self.games_due > 0 and self.games_in >= self.games_due


@dataclass(frozen=True, slots=True)
class GroupsView:
    """The groups stage: every group, and the qualified pairs in seed order once they are
    known (every group game in, or fixed when the knockout started)."""

    stage: Stage
    groups: tuple[GroupTable, ...]
    qualified: tuple[pure.Qualified, ...]
    final: bool  # the qualification is known (not a provisional reading)

    @property
    def games_in(self) -> int:
        return sum(g.games_in for g in self.groups)

    @property
    def games_due(self) -> int:
        return sum(g.games_due for g in self.groups)


def _stage_games(data: ChampionshipGames, rounds: Sequence[int]) -> list[PlayedGame]:
    keep = set(rounds)
    return [g for g in data.games if g.round in keep]


def stored_qualified(stage: Stage) -> list[pure.Qualified]:
    """The qualified pairs fixed on ``stage`` when the next stage started."""
    return [pure.Qualified(int(q["pair"]), str(q["group"]), int(q["place_in_group"]),
                           str(q["how"])) for q in (stage.qualified or [])]


def group_standings(
    stage: Stage, data: ChampionshipGames | None = None
) -> list[pure.GroupStanding]:
    """Each group's standings over its games in ``stage``'s rounds (``scoring.stages``)."""
    championship = stage.championship
    data = data or championship_games(championship)
    rounds = stage_round_numbers(stage)
    games = _stage_games(data, rounds)
    keep = set(rounds)
    byes = [(r, p) for r, p in data.byes if r in keep]
    rules = championship.classic_rules()
    return [
        pure.group_standings(
            pure.Group(str(g["name"]), tuple(int(p) for p in g["pairs"])), games, rules,
            byes=byes, withdrawn=list(data.withdrawn),
        )
        for g in stage.group_list()
    ]


def qualification(stage: Stage, standings: Sequence[pure.GroupStanding]
                  ) -> list[pure.Qualified]:
    """The pairs through from ``stage`` by its rule (``scoring.stages.qualify``)."""
    return pure.qualify(
        standings, per_group=stage.per_group, best_of_rest=stage.second_chance,
        rest_rule=stage.rest_rule, exclude_zero_wins=stage.exclude_zero_wins,
    )


def _games_due(group: pure.Group, rounds: Sequence[int], withdrawn: dict[int, int],
               played: set[frozenset[int]]) -> int:
    """The games of ``group``'s all-play-all that are to be played: every one but those
    of a pair withdrawn before the round the game falls in (its opponent sits out
    instead), unless played all the same."""
    n = group.size
    if not any(p in withdrawn for p in group.pairs):
        return n * (n - 1) // 2
    due = 0
    for k, draw in enumerate(pure.group_schedule(group), start=1):
        number = rounds[k - 1] if k <= len(rounds) else None
        for t in draw.tables:
            gone = any(p in withdrawn and (number is None or withdrawn[p] < number)
                       for p in (t.ns, t.ew))
            if not gone or frozenset((t.ns, t.ew)) in played:
                due += 1
    return due


def groups_view(championship: Championship, stage: Stage | None = None) -> GroupsView | None:
    """The groups stage of ``championship`` (its first), ``None`` without one or before
    its groups are formed."""
    stage = stage or stage_of_kind(championship, Stage.Kind.GROUPS)
    if stage is None or not stage.groups:
        return None
    stage.championship = championship
    data = championship_games(championship)
    names = pair_names(championship)
    standings = group_standings(stage, data)
    ordered = stage_round_numbers(stage)
    rounds = set(ordered)
    played = {(g.round, g.ns_pair, g.ew_pair) for g in data.games if g.round in rounds}
    met = {frozenset((a, b)) for _r, a, b in played}
    due_per_group: dict[str, int] = {}
    in_per_group: dict[str, int] = {}
    for s in standings:
        members = set(s.group.pairs)
        due_per_group[s.group.name] = _games_due(s.group, ordered, data.withdrawn, met)
        in_per_group[s.group.name] = sum(
            1 for _r, a, b in played if a in members and b in members)
    complete = all(in_per_group[n] >= due_per_group[n] for n in due_per_group)
    qualified: list[pure.Qualified] = stored_qualified(stage)
    final = bool(qualified)
    if not qualified and complete:
        try:
            qualified = qualification(stage, standings)
            final = True
        except pure.QualifyError:
            qualified = []
    how = {q.pair: q.how for q in qualified}
    tables = []
    for s in standings:
        rows = tuple(
            GroupRow(
                rank=r.rank if r.placed else None, pair=names[r.pair], wins=r.wins,
                played=r.played, points_for=r.points_for, points_against=r.points_against,
                difference=r.difference, qualified=how.get(r.pair),
            )
            for r in s.rows if r.pair in names
        )
        tables.append(GroupTable(s.group.name, s.group.pairs, rows,
                                 in_per_group[s.group.name], due_per_group[s.group.name]))
    return GroupsView(stage, tuple(tables), tuple(qualified), final)


# --------------------------------------------------------------------------- bracket


@dataclass(frozen=True, slots=True)
class MatchGame:
    """A knockout game as played: the points of the match's upper and lower pair."""

    table: int
    top_points: int
    bottom_points: int
    deals: int


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match: its pairs (``None`` for a bye in the first round, or a pair not known
    yet), its game once played, its winner, and the championship round and table it is
    played at (``None`` before it is seated)."""

    round: int  # the knockout's round, 1 first
    number: int
    top: PairName | None
    bottom: PairName | None
    winner: int | None
    third_place: bool
    game: MatchGame | None
    round_number: int | None  # the championship's round
    table: int | None

    @property
    def bye(self) -> bool:
        return self.round == 1 and (self.top is None) != (self.bottom is None)

    @property
    def pair_numbers(self) -> tuple[int | None, int | None]:
        return (self.top.number if self.top else None,
                self.bottom.number if self.bottom else None)


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    round_number: int | None
    matches: tuple[BracketMatch, ...]

    @property
    def main_matches(self) -> int:
        """The round's matches but the third-place one: 1 the final, 2 the
        semifinals, 4 the quarterfinals..."""
        return sum(1 for m in self.matches if not m.third_place)


SCREEN_ROUNDS = 4  # the knockout rounds the hall screen always shows: the last four


@dataclass(frozen=True, slots=True)
class BracketView:
    stage: Stage
    rounds: tuple[BracketRound, ...]
    champion: PairName | None
    runner_up: PairName | None
    third: PairName | None

    @property
    def screen_rounds(self) -> tuple[BracketRound, ...]:
        """The rounds a screen of fixed height (the hall's projector) shows: from the
        first round with a match still to decide, and never fewer than the last
        :data:`SCREEN_ROUNDS` (a bracket of 16 pairs whole; of 32 pairs, its first
        round only while it is being played)."""
        count = len(self.rounds)
        first_open = next((r.number for r in self.rounds
                           if any(m.winner is None for m in r.matches)), count + 1)
        start = max(1, min(first_open, count - SCREEN_ROUNDS + 1))
        return self.rounds[start - 1:]

    @property
    def hidden_rounds(self) -> int:
        """How many of the first rounds :attr:`screen_rounds` leaves out."""
        return len(self.rounds) - len(self.screen_rounds)

    def next_match(self, pair: int) -> BracketMatch | None:
        """``pair``'s match to play (both pairs known or not), ``None`` when it is out or
        the champion."""
        for r in self.rounds:
            for m in r.matches:
                if pair in m.pair_numbers and m.winner is None:
                    return m
        return None

    def eliminated(self, pair: int) -> bool:
        """Whether ``pair`` played in the bracket and has no match left, not the
        champion."""
        seen = any(pair in m.pair_numbers for r in self.rounds for m in r.matches)
        champion = self.champion.number if self.champion else None
        return seen and pair != champion and self.next_match(pair) is None

    def last_match(self, pair: int) -> BracketMatch | None:
        """``pair``'s last decided match with an opponent (a bye is no match), ``None``
        before it has played one: where it went out, once :meth:`eliminated`."""
        last = None
        for r in self.rounds:
            for m in r.matches:
                if pair in m.pair_numbers and m.winner is not None and not m.bye:
                    last = m
        return last


def stored_bracket(stage: Stage) -> pure.Bracket | None:
    """The bracket fixed on ``stage`` when it started, no winner recorded."""
    if not stage.bracket:
        return None
    positions = tuple(None if p is None else int(p) for p in stage.bracket["positions"])
    return pure.Bracket(positions, {}, bool(stage.bracket.get("third_place", False)))


def bracket_with_winners(stage: Stage) -> tuple[pure.Bracket, dict[tuple[int, int], MatchGame],
                                                 dict[int, Round]]:
    """The stored bracket advanced by the knockout's games: the bracket, each played
    match's game, and the knockout's rounds by their place in the stage."""
    bracket = stored_bracket(stage)
    if bracket is None:
        raise pure.BracketError("the knockout has no bracket yet")
    rounds = {r.stage_round: r for r in Round.objects.filter(stage=stage)
              if r.stage_round is not None}
    games: dict[int, list[PlayedGame]] = {}
    tables: dict[tuple[int, frozenset[int]], int] = {}
    rows = Game.objects.filter(seating__round__stage=stage).values_list(
        "seating__round__stage_round", "seating__table__number", "seating__ns_pair__number",
        "seating__ew_pair__number", "ns_points", "ew_points", "deals", "ended_by")
    for k, table, ns, ew, nsp, ewp, deals, ended_by in rows:
        games.setdefault(k or 0, []).append(
            PlayedGame(k or 0, ns, ew, ClassicGame(nsp, ewp, deals, EndedBy(ended_by))))
        tables[(k or 0, frozenset((ns, ew)))] = table
    bracket, won = pure.play_bracket(bracket, games)
    played: dict[tuple[int, int], MatchGame] = {}
    for key, g in won.items():
        top_is_ns = g.ns_pair == bracket.match(key).top
        nsp, ewp = g.game.ns_points, g.game.ew_points
        played[key] = MatchGame(tables[(key[0], frozenset((g.ns_pair, g.ew_pair)))],
                                nsp if top_is_ns else ewp, ewp if top_is_ns else nsp,
                                g.game.deals)
    return bracket, played, rounds


def bracket_view(championship: Championship, stage: Stage | None = None) -> BracketView | None:
    """The knockout of ``championship`` (its first), ``None`` without one or before its
    bracket is seeded."""
    stage = stage or stage_of_kind(championship, Stage.Kind.KNOCKOUT)
    if stage is None or not stage.bracket:
        return None
    names = pair_names(championship)
    bracket, played, rounds = bracket_with_winners(stage)
    tables: dict[tuple[int, frozenset[int]], int] = {}
    for k, ns, ew, number in Seating.objects.filter(round__stage=stage).values_list(
            "round__stage_round", "ns_pair__number", "ew_pair__number", "table__number"):
        tables[(k or 0, frozenset((ns, ew)))] = number
    out = []
    for k, matches in enumerate(bracket.rounds, start=1):
        rnd = rounds.get(k)
        view = []
        for m in matches:
            table: int | None = None
            if m.top is not None and m.bottom is not None:
                table = tables.get((k, frozenset((m.top, m.bottom))))
            view.append(BracketMatch(
                round=k, number=m.number,
                top=names.get(m.top) if m.top is not None else None,
                bottom=names.get(m.bottom) if m.bottom is not None else None,
                winner=m.winner, third_place=m.third_place, game=played.get(m.key),
                round_number=rnd.number if rnd is not None else None, table=table,
            ))
        out.append(BracketRound(k, rnd.number if rnd is not None else None, tuple(view)))
    final = bracket.final
    return BracketView(
        stage=stage, rounds=tuple(out),
        champion=names.get(final.winner) if final.winner is not None else None,
        runner_up=names.get(final.loser) if final.loser is not None else None,
        third=names.get(bracket.third) if bracket.third is not None else None,
    )


# ------------------------------------------------------------------------- a pair


@dataclass(frozen=True, slots=True)
class PairStages:
    """Where pair ``number`` stands in the stages, for its card: its ``group`` (name,
    ``None`` outside the groups), how it ``qualified`` once the knockout started
    (``"group"``, ``"second_chance"``, ``None``), and in the knockout its ``next_match``
    to play, its ``last_match`` decided, and whether it is ``eliminated`` or the
    ``champion``."""

    number: int
    group: str | None
    qualified: str | None
    bracket: BracketView | None
    next_match: BracketMatch | None
    last_match: BracketMatch | None
    eliminated: bool
    champion: bool

    @property
    def in_bracket(self) -> bool:
        """Whether the pair has a place in the knockout's bracket."""
        return self.bracket is not None and any(
            self.number in m.pair_numbers for r in self.bracket.rounds for m in r.matches)

    @property
    def opponent(self) -> PairName | None:
        """The other pair of :attr:`next_match` (``None``: not known yet)."""
        return self._other(self.next_match)

    @property
    def last_opponent(self) -> PairName | None:
        """The other pair of :attr:`last_match`."""
        return self._other(self.last_match)

    @property
    def last_score(self) -> tuple[int, int] | None:
        """:attr:`last_match`'s points, this pair's first."""
        m = self.last_match
        if m is None or m.game is None:
            return None
        if m.top is not None and m.top.number == self.number:
            return (m.game.top_points, m.game.bottom_points)
        return (m.game.bottom_points, m.game.top_points)

    def _other(self, match: BracketMatch | None) -> PairName | None:
        if match is None:
            return None
        return match.bottom if match.top is not None and match.top.number == self.number \
            else match.top


def pair_stages(championship: Championship, number: int) -> PairStages | None:
    """Pair ``number``'s place in the stages of ``championship``; ``None`` without
    stages, or when the pair is in no group and not in the bracket."""
    stages = championship_stages(championship)
    if not stages:
        return None
    group = None
    how = None
    for stage in stages:
        if stage.kind == Stage.Kind.GROUPS:
            for g in stage.group_list():
                if number in {int(p) for p in g["pairs"]}:
                    group = str(g["name"])
            for q in stored_qualified(stage):
                if q.pair == number:
                    how = q.how
    knockout = next((s for s in stages if s.kind == Stage.Kind.KNOCKOUT and s.bracket), None)
    bracket = bracket_view(championship, knockout) if knockout is not None else None
    in_bracket = bracket is not None and any(
        number in m.pair_numbers for r in bracket.rounds for m in r.matches)
    if group is None and not in_bracket:
        return None
    if bracket is None or not in_bracket:
        return PairStages(number, group, how, bracket, None, None, False, False)
    return PairStages(
        number, group, how, bracket, bracket.next_match(number),
        bracket.last_match(number), bracket.eliminated(number),
        bracket.champion is not None and bracket.champion.number == number,
    )
