"""A classic championship's games, standings, rounds and pair cards: the one read model
the pages, the live fragments, the hall screen, the API, the PDFs and the export render.
The numbers come from ``scoring.classic`` (wins, points counted up to the cap, the
tiebreaks); this module reads the rows and words the numbers, nothing more.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.seats import Side
from scoring import classic
from scoring.interchange.classic import number_out
from scoring.model import Trump
from scoring.progress import Progress, RoundProgress
from tournaments.models import Bye, Championship, Game, Pair, Round, Seating
from tournaments.selectors.presence import absent_pairs
from tournaments.selectors.standings import PairName, pair_names

#: Games won as the API and the file write them: ``2`` or ``2.5`` (the file's rule).
wins_out = number_out


def wins_text(value: Fraction) -> str:
    """Games won as people write them: ``3``, ``2½``, ``½``.

    >>> [wins_text(Fraction(n, 2)) for n in (0, 1, 5, 6)]
    ['0', '½', '2½', '3']
    """
    whole, half = divmod(value * 2, 2)
    if value.denominator not in (1, 2):
        return f"{float(value):.2f}"
    return f"{int(whole) or ''}½" if half else str(int(whole))


def difference_text(value: int) -> str:
    """A points difference as the standings write it: ``+12``, ``0``, ``−7`` (a true
    minus sign).

    >>> [difference_text(n) for n in (12, 0, -7)]
    ['+12', '0', '−7']
    """
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


@dataclass(frozen=True, slots=True)
class ChampionshipGames:
    """Every game and bye of a classic championship, read once (three queries)."""

    games: tuple[classic.PlayedGame, ...]
    byes: tuple[tuple[int, int], ...]  # (round, pair)
    tables_due: dict[int, int]  # round -> tables seated
    pairs: tuple[int, ...]
    withdrawn: dict[int, int]  # pair -> last round it played
    joined: dict[int, int]  # pair -> first round it may play


def championship_games(championship: Championship) -> ChampionshipGames:
    """Every game, bye, seated table and pair of ``championship``."""
    rows = Game.objects.filter(seating__round__championship=championship).values_list(
        "seating__round__number", "seating__ns_pair__number", "seating__ew_pair__number",
        "ns_points", "ew_points", "deals", "ended_by",
    )
    games = tuple(
        classic.PlayedGame(r, ns, ew, _game(nsp, ewp, deals, ended))
        for r, ns, ew, nsp, ewp, deals, ended in rows
    )
    byes = tuple(Bye.objects.filter(round__championship=championship).values_list(
        "round__number", "pair__number"))
    due: dict[int, int] = defaultdict(int)
    for number in Seating.objects.filter(round__championship=championship).values_list(
            "round__number", flat=True):
        due[number] += 1
    # A pair never present (the check-in on) is not listed (presence.absent_pairs).
    pairs = list(Pair.objects.filter(championship=championship).exclude(
        absent_pairs(championship)).order_by().values_list(
        "number", "withdrawn_after_round", "joined_round"))
    return ChampionshipGames(
        games=games, byes=byes, tables_due=dict(due),
        pairs=tuple(p for p, _w, _j in pairs),
        withdrawn={p: w for p, w, _j in pairs if w is not None},
        joined={p: j for p, _w, j in pairs},
    )


def _game(ns: int, ew: int, deals: int, ended: str) -> classic.Game:
    """A stored game as ``scoring.classic`` takes it: the final only (the standings and
    the draw read nothing else; the score sheets are not read, a round of 100 tables'
    sheets is 1,200 deals of JSON)."""
    return classic.Game(ns, ew, deals, classic.EndedBy(ended))


# ------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class ClassicRow:
    """One line of a classic championship's standings (``scoring.classic.ClassicStanding``
    with the pair's names and each number's text). ``rank`` is ``None`` for a row with
    no place (no game yet, or withdrawn)."""

    rank: int | None
    pair: PairName
    wins: Fraction
    played: int
    points_for: int
    points_against: int
    difference: int
    buchholz: Fraction
    head_to_head: Fraction | None
    byes: int
    withdrawn: bool
    bye: bool
    has_score: bool
    joins: int | None = None

    @property
    def number(self) -> int:
        return self.pair.number

    @property
    def rank_text(self) -> str:
        return "—" if self.rank is None else str(self.rank)

    @property
    def wins_text(self) -> str:
        return wins_text(self.wins)

    @property
    def wins_out(self) -> int | float:
        return wins_out(self.wins)

    @property
    def buchholz_text(self) -> str:
        return wins_text(self.buchholz)

    @property
    def difference_text(self) -> str:
        return difference_text(self.difference)

    @property
    def status(self) -> str:
        """``withdrawn``, ``bye``, ``late`` or ``playing`` (as the duplicate rows)."""
        if self.withdrawn:
            return "withdrawn"
        if self.bye:
            return "bye"
        if self.joins is not None:
            return "late"
        return "playing"


@dataclass(frozen=True, slots=True)
class ClassicStandings:
    """The standings in a scope (overall, or after round ``through_round``) with the
    games in / tables seated of the rounds in scope and every round's progress."""

    rows: tuple[ClassicRow, ...]
    progress: Progress
    rounds: tuple[int, ...]
    round_progress: tuple[RoundProgress, ...]
    tiebreaks: tuple[str, ...]
    through_round: int | None = None


def classic_rows(
    championship: Championship, data: ChampionshipGames, names: dict[int, PairName], *,
    through_round: int | None = None,
) -> tuple[ClassicRow, ...]:
    """The ranked rows over rounds 1..``through_round`` (all when ``None``)."""
    rules = championship.classic_rules()
    scope_end = through_round if through_round is not None else max(
        data.tables_due, default=0)
    withdrawn = [p for p, last in data.withdrawn.items() if last <= scope_end]
    ranked = classic.classic_standings(
        data.games, rules, pairs=data.pairs, byes=data.byes, withdrawn=withdrawn,
        through_round=through_round,
    )
    return tuple(
        ClassicRow(
            rank=s.place, pair=names[s.pair], wins=s.wins, played=s.played,
            points_for=s.points_for, points_against=s.points_against,
            difference=s.difference, buchholz=s.buchholz, head_to_head=s.head_to_head,
            byes=s.byes, withdrawn=s.withdrawn, bye=s.bye, has_score=s.has_score,
            joins=(data.joined[s.pair] if data.joined.get(s.pair, 1) > scope_end
                   else None),
        )
        for s in ranked if s.pair in names
    )


def classic_progress(data: ChampionshipGames) -> list[RoundProgress]:
    """Every drawn round: games in out of tables seated (``boards`` 0)."""
    done: dict[int, int] = defaultdict(int)
    for g in data.games:
        done[g.round] += 1
    return [RoundProgress(r, done[r], due, 0, 0) for r, due in sorted(data.tables_due.items())]


def classic_standings(
    championship: Championship, *, through_round: int | None = None,
    data: ChampionshipGames | None = None,
) -> ClassicStandings:
    """The standings of a classic championship (four queries; one when ``data`` is
    given): every registered pair, ranked by the championship's tiebreaks."""
    data = data or championship_games(championship)
    rounds = classic_progress(data)
    scope = [p for p in rounds if through_round is None or p.number <= through_round]
    return ClassicStandings(
        rows=classic_rows(championship, data, pair_names(championship),
                          through_round=through_round),
        progress=Progress(sum(p.results_in for p in scope),
                          sum(p.results_expected for p in scope)),
        rounds=tuple(p.number for p in rounds),
        round_progress=tuple(rounds),
        tiebreaks=tuple(t.value for t in championship.classic_rules().tiebreaks),
        through_round=through_round,
    )


def ranks_before(championship: Championship, round_number: int) -> dict[int, int]:
    """pair -> rank over the rounds before ``round_number`` (for the Swiss draw): the
    championship's ranking, wins first; pairs with no game yet left out."""
    if round_number <= 1:
        return {}
    data = championship_games(championship)
    rows = classic.classic_standings(
        data.games, championship.classic_rules(), byes=data.byes,
        through_round=round_number - 1,
    )
    return {s.pair: s.rank for s in rows if s.has_score}


# ----------------------------------------------------------------------- rounds, cards


@dataclass(frozen=True, slots=True)
class TableGame:
    """One table of a round: its pairs and its game (``None`` while it is played)."""

    table: int
    ns: PairName
    ew: PairName
    game: Game | None
    #: The pair number that won (on the counted points, as the standings count the
    #: game: 150 to 130 under a cap of 121 is level), ``None`` while playing or level.
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class RoundGames:
    """A round's tables with their games, and its byes."""

    number: int
    tables: tuple[TableGame, ...]
    byes: tuple[PairName, ...]
    closed: bool

    @property
    def games_in(self) -> int:
        return sum(1 for t in self.tables if t.game is not None)


def round_games(championship: Championship, round: Round) -> RoundGames:
    """The round's pairings (table, NS pair, EW pair) with each game, and the byes."""
    names = pair_names(championship)
    seatings = (Seating.objects.filter(round=round)
                .select_related("table", "ns_pair", "ew_pair", "game")
                .order_by("table__number"))
    rules = championship.classic_rules()
    tables = []
    for s in seatings:
        game = s.game if hasattr(s, "game") else None
        winner = None
        if game is not None:
            ns_wins, ew_wins = classic.outcome(
                _game(game.ns_points, game.ew_points, game.deals, game.ended_by), rules)
            if ns_wins != ew_wins:
                winner = s.ns_pair.number if ns_wins > ew_wins else s.ew_pair.number
        tables.append(TableGame(s.table.number, names[s.ns_pair.number],
                                names[s.ew_pair.number], game, winner))
    byes = tuple(names[n] for n in Bye.objects.filter(round=round)
                 .values_list("pair__number", flat=True) if n in names)
    return RoundGames(round.number, tuple(tables), byes, round.is_closed)


@dataclass(frozen=True, slots=True)
class CardLine:
    """One round on a pair's card: the opponent (``None`` for a bye), the pair's points
    and the opponent's (as entered; ``counted_*`` up to the cap), the result
    (``won``, ``lost``, ``level``, ``bye``, ``playing``), the running wins and the rank
    after the round."""

    round: int
    table: int | None
    opponent: PairName | None
    points: int | None
    opponent_points: int | None
    counted: int | None
    opponent_counted: int | None
    result: str
    wins_after: Fraction
    rank_after: int | None

    @property
    def wins_after_text(self) -> str:
        return wins_text(self.wins_after)


def pair_card(championship: Championship, pair_number: int) -> list[CardLine]:
    """A pair's rounds: opponent, score, result, the running wins and the rank after
    each round (the standings through that round)."""
    return pair_cards(championship, [pair_number])[pair_number]


def pair_cards(championship: Championship, numbers: Iterable[int] | None = None
               ) -> dict[int, list[CardLine]]:
    """:func:`pair_card` of each pair in ``numbers`` (every registered pair when
    ``None``), read once: the games, the names and the seatings in five queries and the
    standings after each round computed once, whatever the number of cards (the
    printed pair cards of 200 pairs)."""
    data = championship_games(championship)
    names = pair_names(championship)
    rules = championship.classic_rules()
    wanted = list(data.pairs if numbers is None else numbers)
    seated: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for r, t, ns, ew in Seating.objects.filter(round__championship=championship).values_list(
            "round__number", "table__number", "ns_pair__number", "ew_pair__number"):
        seated[ns][r] = seated[ew][r] = (t, ns, ew)
    games = {(g.round, pair): g for g in data.games for pair in (g.ns_pair, g.ew_pair)}
    byes = set(data.byes)
    rounds = sorted({r for pair in wanted for r in seated[pair]}
                    | {r for r, p in byes if p in wanted})
    after = {
        r: {s.pair: s for s in classic.classic_standings(
            data.games, rules, pairs=data.pairs, byes=data.byes, through_round=r,
            withdrawn=[p for p, last in data.withdrawn.items() if last <= r])}
        for r in rounds
    }
    return {n: _card_lines(n, seated[n], games, byes, after, names, rules) for n in wanted}


def _card_lines(
    pair_number: int, seated: dict[int, tuple[int, int, int]],
    games: dict[tuple[int, int], classic.PlayedGame], byes: set[tuple[int, int]],
    after: dict[int, dict[int, classic.ClassicStanding]], names: dict[int, PairName],
    rules: classic.ClassicRules,
) -> list[CardLine]:
    lines: list[CardLine] = []
    for r in sorted(set(seated) | {r for r, p in byes if p == pair_number}):
        mine = after[r].get(pair_number)
        wins_after = mine.wins if mine else Fraction(0)
        rank_after = mine.place if mine else None
        if (r, pair_number) in byes:
            lines.append(CardLine(r, None, None, None, None, None, None, "bye",
                                  wins_after, rank_after))
            continue
        table, ns, ew = seated[r]
        is_ns = ns == pair_number
        other = ew if is_ns else ns
        game = games.get((r, pair_number))
        if game is None:
            lines.append(CardLine(r, table, names.get(other), None, None, None, None,
                                  "playing", wins_after, rank_after))
            continue
        mine_pts = game.game.ns_points if is_ns else game.game.ew_points
        theirs = game.game.ew_points if is_ns else game.game.ns_points
        ns_w, ew_w = classic.outcome(game.game, rules)
        won = ns_w if is_ns else ew_w
        lost = ew_w if is_ns else ns_w
        result = "won" if won > lost else "lost" if lost > won else "level"
        lines.append(CardLine(r, table, names.get(other), mine_pts, theirs,
                              rules.counted(mine_pts), rules.counted(theirs), result,
                              wins_after, rank_after))
    return lines


def stored_hand(raw: dict[str, object]) -> classic.Hand:
    """One deal of a stored score sheet (``scoring.classic.Hand.as_json``) as the value
    it was made from: the sheet was checked when it was saved, against the rules of
    that day, so it is read as it is."""
    points = raw.get("points")
    revoke = raw.get("revoke")
    return classic.Hand(
        chooser=Side(str(raw["chooser"])), trump=Trump(str(raw["trump"])),
        points=None if points is None else int(str(points)),
        delegated=bool(raw.get("delegated")), contro=bool(raw.get("contro")),
        recontro=bool(raw.get("recontro")), sant_vicenc=bool(raw.get("sant_vicenc")),
        revoke=None if revoke is None else Side(str(revoke)),
    )


def game_sheet(game: Game) -> tuple[classic.SheetLine, ...]:
    """A game's score sheet, line by line (each deal's scores and the running totals,
    ``scoring.classic.sheet_lines``); empty when the game was entered by its final."""
    if not game.hands:
        return ()
    return tuple(classic.sheet_lines([stored_hand(h) for h in game.hands]))
