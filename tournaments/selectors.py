"""Reads that need care: standings, travellers, score cards, board visibility, referee
sheets (docs/architecture.md).

Every selector loads a championship's rows in a constant number of queries (whatever
the number of pairs, tables or results) and lets ``scoring`` compute the numbers, so the
app shows exactly what ``python -m scoring`` computes on the exported file.

Comparative points are ``Fraction`` on the championship's scale; hand scores are ``int``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet

import scoring
from engine.deal import Deal
from engine.seats import Seat, Side, dealer
from scoring.comparative import result_hand_score as result_hand_score_of
from scoring.visibility import board_is_complete, count_by, public_boards
from tournaments import permissions
from tournaments.models import (
    Board,
    BoardAnalysis,
    Championship,
    Membership,
    Pair,
    Result,
    Round,
    Seating,
)

# --------------------------------------------------------------------------- roles


def user_roles(user: Any, championship: Championship) -> frozenset[str]:
    """The roles (``Membership.Role`` values) ``user`` holds in ``championship``: see
    :func:`tournaments.permissions.roles_of` (one query the first time per user object
    and championship; none for an anonymous user); a superuser holds every role."""
    return permissions.roles_of(user, championship)


def user_is_organiser(user: Any, championship: Championship) -> bool:
    return Membership.Role.ORGANISER in user_roles(user, championship)


def user_can_referee(user: Any, championship: Championship) -> bool:
    """Referee, head referee or organiser of this championship (not of another)."""
    return permissions.allows(user_roles(user, championship), permissions.Capability.ENTER_RESULT)


#: The roles that see a board while it is hidden from the public (docs/decisions.md 16):
#: the organiser and the head referee (the director). A plain referee sees hidden boards
#: only through the sheets of the tables (``referee_table``), like a player at that table
#: would. The rule is ``permissions.Capability.SEE_HIDDEN_BOARDS``.
HIDDEN_BOARD_ROLES = permissions.roles_for(permissions.Capability.SEE_HIDDEN_BOARDS)


def user_sees_hidden_boards(user: Any, championship: Championship) -> bool:
    """Whether ``user`` may see the deals, travellers and totals of boards still hidden
    from the public: organiser or head referee of this championship (a superuser holds
    every role). One query for a logged-in user, none for the public."""
    return bool(user_roles(user, championship) & HIDDEN_BOARD_ROLES)


def championships_for_user(user: Any) -> QuerySet[Championship]:
    """The championships where ``user`` holds any role (all of them for a superuser)."""
    if user is None or not user.is_authenticated:
        return Championship.objects.none()
    if getattr(user, "is_superuser", False):
        return Championship.objects.all()
    return Championship.objects.filter(memberships__user_id=user.pk).distinct()


# --------------------------------------------------------------------------- loading

#: The columns of a result that scoring and the public pages read, in
#: :class:`ResultValues` order. Reading them as tuples (no model instances, no joined rows
#: turned into objects) is what keeps a 200-pair championship's standings cheap.
_RESULT_COLUMNS = (
    "id", "version", "seating__round__number", "seating__table__number", "board__number",
    "board_id", "board__round__number", "seating__ns_pair__number",
    "seating__ew_pair__number", "trump", "ns_points_taken", "delegated", "contro",
    "recontro", "sant_vicenc", "infraction", "adjusted_ns", "adjusted_ew",
)


_TRUMPS = {trump.value: trump for trump in scoring.Trump}
_SIDES = {side.value: side for side in Side}


@dataclass(frozen=True, slots=True)
class ResultValues:
    """One table's result on one board as plain values (what the pages, PDFs and the
    scorer read). Field names follow :class:`tournaments.models.Result`; ``round``,
    ``table``, ``board`` and the pairs are numbers; ``board_round`` is the round number
    the board belongs to (``None``: a board of no single round)."""

    id: int
    version: int
    round: int
    table: int
    board: int
    board_id: int
    board_round: int | None
    ns_pair: int
    ew_pair: int
    trump: str | None
    ns_points_taken: int | None
    delegated: bool
    contro: bool
    recontro: bool
    sant_vicenc: bool
    infraction: str | None
    adjusted_ns: str | None
    adjusted_ew: str | None

    @property
    def key(self) -> tuple[int, int, int]:
        """``(round, table, board)``: how ``scoring`` names a result."""
        return (self.round, self.table, self.board)

    @property
    def is_adjusted(self) -> bool:
        return self.adjusted_ns is not None

    @property
    def ew_points_taken(self) -> int | None:
        return None if self.ns_points_taken is None else 72 - self.ns_points_taken

    @classmethod
    def of(cls, result: Result) -> ResultValues:
        """From a model instance (with seating's round, table and pairs and the board
        loaded)."""
        s = result.seating
        return cls(
            result.pk, result.version, s.round.number, s.table.number, result.board.number,
            # The board's round is the seating's when the board belongs to one (a board of
            # no single round was imported played over several rounds).
            result.board_id, s.round.number if result.board.round_id == s.round_id else None,
            s.ns_pair.number, s.ew_pair.number, result.trump, result.ns_points_taken,
            result.delegated, result.contro, result.recontro, result.sant_vicenc,
            result.infraction, result.adjusted_ns, result.adjusted_ew,
        )

    def to_scoring(self) -> scoring.Result:
        # Dictionary lookups, not Enum(value) calls: this runs once per result on every
        # recomputed page (4,000 times for 200 pairs x 40 boards).
        return scoring.Result(
            round=self.round,
            table=self.table,
            board=self.board,
            ns_pair=self.ns_pair,
            ew_pair=self.ew_pair,
            trump=_TRUMPS[self.trump] if self.trump else None,
            ns_points_taken=self.ns_points_taken,
            delegated=self.delegated,
            contro=self.contro,
            recontro=self.recontro,
            sant_vicenc=self.sant_vicenc,
            infraction=_SIDES[self.infraction] if self.infraction else None,
            adjusted=(
                (scoring.Adjustment(self.adjusted_ns), scoring.Adjustment(self.adjusted_ew))
                if self.adjusted_ns and self.adjusted_ew
                else None
            ),
        )


def result_hand_score(championship: Championship, result: Result) -> dict[str, int] | None:
    """The hand score of one stored result as ``{"ns": int, "ew": int}`` (the scorer's
    own ``scoring.comparative.result_hand_score``, so the form shows what the standings
    count), or ``None`` for an adjusted result or one with an infraction (no hand
    score). A plain dict, which templates index by ``"ns"``."""
    score = result_hand_score_of(championship.scoring_rules(), to_scoring_result(result))
    return None if score is None else {"ns": score[0], "ew": score[1]}


def to_scoring_result(result: Result) -> scoring.Result:
    """One model instance as ``scoring.Result`` (needs seating's round, table and pairs
    and the board loaded)."""
    return ResultValues.of(result).to_scoring()


def load_results(championship: Championship) -> list[ResultValues]:
    """Every result of the championship as values, in board, round and table order (one
    query)."""
    rows = (
        Result.objects.filter(board__championship=championship)
        .order_by("board__number", "seating__round__number", "seating__table__number")
        .values_list(*_RESULT_COLUMNS)
    )
    return [ResultValues(*row) for row in rows]


# --------------------------------------------------------------------------- visibility


@dataclass(frozen=True)
class Visibility:
    """What the public may see of a championship at one moment (``scoring.visibility``'s
    rule applied to the rows): ``public``, the numbers of the public boards;
    ``board_rounds``, ``{board number: round number or None}`` for every board;
    ``tables_due``, ``{round number: tables seated}``."""

    public: frozenset[int]
    board_rounds: dict[int, int | None]
    tables_due: dict[int, int]

    def is_public(self, board_number: int) -> bool:
        return board_number in self.public


def visibility(
    championship: Championship, results: Sequence[ResultValues] | None = None
) -> Visibility:
    """The championship's :class:`Visibility`: two queries (boards, tables seated per
    round), three when ``results`` (the championship's, from :func:`load_results`) is not
    given."""
    board_rounds: dict[int, int | None] = dict(
        Board.objects.filter(championship=championship).values_list("number", "round__number")
    )
    tables_due: dict[int, int] = dict(
        Seating.objects.filter(round__championship=championship)
        .values("round__number").annotate(n=Count("id")).values_list("round__number", "n")
    )
    if results is None:
        per_board: dict[int, int] = dict(
            Result.objects.filter(board__championship=championship)
            .values("board__number").annotate(n=Count("id")).values_list("board__number", "n")
        )
    else:
        per_board = count_by(r.board for r in results)
    public = public_boards(
        finished=championship.status == Championship.Status.FINISHED,
        board_rounds=board_rounds, tables_due=tables_due, results_per_board=per_board,
    )
    return Visibility(public, board_rounds, tables_due)


def public_board_numbers(championship: Championship) -> set[int]:
    """Numbers of the boards whose deal and results the public may see (three queries;
    the rule: ``scoring.visibility``)."""
    return set(visibility(championship).public)


def board_is_public(board: Board) -> bool:
    """Whether the public may see ``board`` now (at most three queries; the rule:
    ``scoring.visibility``)."""
    championship = board.championship
    if championship.status == Championship.Status.FINISHED:
        return True
    round_number = None if board.round_id is None else board.round.number
    due = {round_number: Seating.objects.filter(round_id=board.round_id).count()} \
        if round_number is not None else {}
    return board_is_complete(
        round=round_number, tables_due=due, results=Result.objects.filter(board=board).count()
    )


@dataclass
class ScoredChampionship:
    """The results a reader may see and their scores.

    ``results``: values in board/round/table order; ``public_only``: they were restricted
    to the boards public at load time, so no number here depends on a hidden board;
    ``visibility``: the public boards at load time (for every reader, so a page can mark
    which boards the public sees).
    """

    championship: Championship
    results: list[ResultValues]
    score: scoring.ChampionshipScore
    visibility: Visibility
    public_only: bool = False
    all_results: list[ResultValues] = field(default_factory=list)

    def score_of(self, result: ResultValues) -> scoring.ResultScore:
        return self.score.result(result.key)


def scored_championship(
    championship: Championship, *, public_only: bool
) -> ScoredChampionship:
    """Every number a reader sees comes from here: load the results (one query), find
    the public boards (two queries) and score with ``scoring``.

    ``public_only=True`` (the public, a plain referee, every printed standings): only the
    results on boards public now are scored, so totals, boards counted, averages, ranks
    *and* each board's comparative points (which under matchpoints depend on the busiest
    board, Neuberg's E) say nothing about hidden boards, on the pages, the API and the
    PDFs alike. ``False`` (organiser, head referee): every result.
    """
    all_results = load_results(championship)
    seen = visibility(championship, all_results)
    results = (
        [r for r in all_results if r.board in seen.public] if public_only else all_results
    )
    score = scoring.score_championship(
        championship.scoring_rules(), [r.to_scoring() for r in results],
        absences(championship),
    )
    return ScoredChampionship(championship, results, score, seen, public_only, all_results)


def absences(championship: Championship) -> scoring.Absences:
    """Byes, late entries and withdrawals as ``scoring`` ranks them (one query): a late
    pair sat out the rounds before its ``joined_round``."""
    sat_out: dict[int, set[int]] = {}
    withdrawn: dict[int, int] = {}
    rows = (
        Pair.objects.filter(championship=championship)
        .filter(
            Q(byes__isnull=False) | Q(joined_round__gt=1) | Q(withdrawn_after_round__isnull=False)
        )
        .values_list("number", "joined_round", "withdrawn_after_round", "byes__round__number")
    )
    for number, joined, after, bye_round in rows:
        rounds = sat_out.setdefault(number, set(range(1, joined)))
        if bye_round is not None:
            rounds.add(bye_round)
        if after is not None:
            withdrawn[number] = after
    return scoring.Absences(
        {pair: frozenset(rounds) for pair, rounds in sat_out.items() if rounds}, withdrawn
    )


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True, slots=True)
class Progress:
    """Results in / results expected (tables seated x boards of their round)."""

    results_in: int
    results_expected: int

    @property
    def complete(self) -> bool:
        return self.results_expected > 0 and self.results_in >= self.results_expected

    @property
    def percent(self) -> int:
        if not self.results_expected:
            return 0
        return min(100, 100 * self.results_in // self.results_expected)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``total``/``average`` in comparative points (Fraction)."""

    rank: int
    pair: Pair
    total: Fraction
    boards: int
    average: Fraction
    missed: int = 0  # boards scored as average (A) under that missed-board rule
    withdrawn: bool = False

    @property
    def number(self) -> int:
        return self.pair.number


@dataclass(frozen=True)
class StandingsView:
    """Standings of a championship: ``rows`` ranked, ``progress`` of the results in scope,
    ``rounds``: round numbers that have tables (for per-round links)."""

    championship: Championship
    rows: list[StandingRow]
    progress: Progress
    rounds: list[int]
    through_round: int | None = None
    round_only: int | None = None


def _rows(standings: Iterable[scoring.Standing], pairs: dict[int, Pair]) -> list[StandingRow]:
    return [
        StandingRow(s.rank, pairs[s.pair], s.total, s.boards, s.average, s.missed, s.withdrawn)
        for s in standings
        if s.pair in pairs
    ]


def _pairs(championship: Championship) -> dict[int, Pair]:
    return {
        p.number: p
        for p in Pair.objects.filter(championship=championship).select_related(
            "player1", "player2"
        )
    }


def standings(
    championship: Championship,
    *,
    through_round: int | None = None,
    round_only: int | None = None,
    for_public: bool = False,
) -> StandingsView:
    """Overall standings, standings after round ``through_round`` (rounds 1..n) or of
    ``round_only`` alone, with progress (results in / expected in that scope).

    ``for_public=True`` (the public, a plain referee, printed standings): the rows count
    only the boards public now (:func:`scored_championship`), so saving a result on a
    hidden board changes no public total, board count, average or rank; the progress
    still counts every result (it says how many are in, not what they are).

    Four queries, whatever the size: results, boards, tables per round, pairs.
    Comparative points are those of the whole championship
    (``scoring.ChampionshipScore.standings``). Raises ``ValueError`` when both are given.
    """
    scored = scored_championship(championship, public_only=for_public)
    pairs = _pairs(championship)
    rows = _rows(
        scored.score.standings(through_round=through_round, round_only=round_only), pairs
    )
    seen = scored.visibility
    boards_of_round = count_by(r for r in seen.board_rounds.values() if r is not None)

    def in_scope(number: int) -> bool:
        if round_only is not None:
            return number == round_only
        if through_round is not None:
            return number <= through_round
        return True

    expected = sum(
        tables * boards_of_round.get(number, 0)
        for number, tables in seen.tables_due.items()
        if in_scope(number)
    )
    results_in = 0
    for result in scored.all_results:
        if not in_scope(result.round):
            continue
        results_in += 1
        if result.board_round is None:
            expected += 1  # an imported board with no single round: due where played
    return StandingsView(
        championship=championship,
        rows=rows,
        progress=Progress(results_in, expected),
        rounds=sorted(seen.tables_due),
        through_round=through_round,
        round_only=round_only,
    )


def standings_after_each_round(
    championship: Championship, *, for_public: bool = False
) -> dict[int, list[StandingRow]]:
    """``{round: standings over rounds 1..round}`` for every round with results (four
    queries; ``for_public`` counts only the public boards, as :func:`standings` does)."""
    scored = scored_championship(championship, public_only=for_public)
    pairs = _pairs(championship)
    return {n: _rows(rows, pairs) for n, rows in scored.score.progressive_standings().items()}


# --------------------------------------------------------------------------- double dummy


#: The five declarations in the order of a table, keyed as a result's ``trump``.
DD_DECLARATIONS = ("O", "C", "E", "B", "botifarra")


@dataclass(frozen=True, slots=True)
class DoubleDummyLine:
    """One declaration of a double-dummy table: ``trump`` as a result's (``O`` ...
    ``botifarra``), the points each side takes with perfect play (72 together), and
    whether it is par."""

    trump: str
    ns_points: int
    is_par: bool

    @property
    def ew_points(self) -> int:
        return 72 - self.ns_points


@dataclass(frozen=True)
class DoubleDummy:
    """A board's stored double-dummy table as the traveller shows it
    (:class:`tournaments.models.BoardAnalysis`, docs/decisions.md "Double-dummy
    analysis"): ``lines`` in the order O, C, E, B, botifarra; ``declarer``, the dealer's
    side, which names trump; ``par_score``, that side's hand score at par without
    doubles."""

    lines: tuple[DoubleDummyLine, ...]
    declarer: Side
    par_score: int

    @property
    def par(self) -> DoubleDummyLine:
        return next(line for line in self.lines if line.is_par)

    def ns_points(self, trump: str | None) -> int | None:
        """NS's double-dummy points for a result's ``trump`` (``None``: no such line)."""
        return next((line.ns_points for line in self.lines if line.trump == trump), None)

    def difference(self, result: ResultValues) -> int | None:
        """NS's points taken minus the double-dummy value of the declaration played:
        above 0, NS took more than perfect play gives them. ``None`` (no mark) for an
        adjusted score, an infraction, or a result without trump or points."""
        if result.is_adjusted or result.infraction or result.ns_points_taken is None:
            return None
        value = self.ns_points(result.trump)
        return None if value is None else result.ns_points_taken - value


def double_dummy(board: Board, rules: Any = None) -> DoubleDummy | None:
    """``board``'s stored double-dummy table, or ``None`` when none is stored or it is
    stale (computed from another deal or other play settings). No query when the board
    was loaded with ``select_related("analysis")``, else one. ``rules``: the
    championship's ``engine_rules()`` (read from ``board.championship`` when not given).

    The caller decides who may see it: only where the deal itself is shown."""
    try:
        analysis = board.analysis
    except BoardAnalysis.DoesNotExist:
        return None
    if rules is None:
        rules = board.championship.engine_rules()
    if not analysis.is_current(board, rules):
        return None
    par = analysis.par.get("trump")
    return DoubleDummy(
        lines=tuple(
            DoubleDummyLine(trump, int(analysis.table[trump]), trump == par)
            for trump in DD_DECLARATIONS
        ),
        declarer=board.dealer.side,
        par_score=int(analysis.par.get("score", 0)),
    )


# --------------------------------------------------------------------------- traveller


@dataclass(frozen=True)
class TravellerRow:
    """One table's result on the board; ``score``: hand scores and comparative points."""

    round: int
    table: int
    ns_pair: Pair
    ew_pair: Pair
    result: ResultValues
    score: scoring.ResultScore


@dataclass(frozen=True)
class Traveller:
    """Every table's result on one board, the deal and its dealer.

    ``public``: whether the public may see it; when the caller asked ``for_public=True``
    and it is not, ``rows`` is empty and ``deal`` and ``double_dummy`` are ``None``.
    ``tables_due``: tables seated in the board's round; ``tables_missing``: those of
    them without a result yet. ``double_dummy``: the stored table (:func:`double_dummy`),
    shown where the deal is.
    """

    board: Board
    dealer: Seat
    deal: Deal | None
    rows: list[TravellerRow]
    public: bool
    tables_due: list[int] = field(default_factory=list)
    tables_missing: list[int] = field(default_factory=list)
    double_dummy: DoubleDummy | None = None


def traveller_rows(
    scored: ScoredChampionship, board_number: int, pairs: dict[int, Pair]
) -> list[TravellerRow]:
    """The rows of one board's traveller from an already scored championship, in round
    and table order (no query)."""
    return [
        TravellerRow(
            round=r.round,
            table=r.table,
            ns_pair=pairs[r.ns_pair],
            ew_pair=pairs[r.ew_pair],
            result=r,
            score=scored.score_of(r),
        )
        for r in scored.results
        if r.board == board_number
    ]


def traveller(board: Board, *, for_public: bool = False) -> Traveller:
    """The traveller of ``board``: a constant number of queries (the whole championship
    is scored, since matchpoints compare with the busiest board).

    ``for_public=True`` (the public, a plain referee): a hidden board comes back with no
    rows, no deal and no double-dummy table, and a public one is scored from the public
    boards alone, as the public standings are (:func:`scored_championship`). The table
    costs one query unless ``board`` was loaded with ``select_related("analysis")``."""
    championship = board.championship
    scored = scored_championship(championship, public_only=for_public)
    played = {r.table for r in scored.all_results if r.board == board.number}
    due: list[int] = []
    if board.round_id is not None:
        due = list(
            Seating.objects.filter(round_id=board.round_id)
            .order_by("table__number").values_list("table__number", flat=True)
        )
    missing = [t for t in due if t not in played]
    public = scored.visibility.is_public(board.number)
    hide = for_public and not public
    return Traveller(
        board=board,
        dealer=dealer(board.number),
        deal=None if hide else board.get_deal(),
        rows=[] if hide else traveller_rows(scored, board.number, _pairs(championship)),
        public=public,
        tables_due=due,
        tables_missing=missing,
        double_dummy=None if hide else double_dummy(board, championship.engine_rules()),
    )


# --------------------------------------------------------------------------- score card


@dataclass(frozen=True)
class ScoreCardRow:
    """One board a pair played: its direction, opponent, result, its own hand score and
    comparative points. ``public``: whether the board is public yet."""

    round: int
    table: int
    board: int
    direction: Side
    opponent: Pair
    result: ResultValues
    score: int | None
    comparative: Fraction
    public: bool


@dataclass(frozen=True)
class ScoreCard:
    pair: Pair
    rows: list[ScoreCardRow]
    total: Fraction
    boards: int
    rank: int | None


def score_card_of(
    scored: ScoredChampionship, pair: Pair, pairs: dict[int, Pair]
) -> ScoreCard:
    """``pair``'s score card from an already scored championship (no query): its boards
    in round and board order, total, boards and rank, from the results in ``scored``."""
    rows: list[ScoreCardRow] = []
    for r in scored.results:
        if pair.number not in (r.ns_pair, r.ew_pair):
            continue
        side = Side.NS if r.ns_pair == pair.number else Side.EW
        score = scored.score_of(r)
        rows.append(
            ScoreCardRow(
                round=r.round,
                table=r.table,
                board=r.board,
                direction=side,
                opponent=pairs[r.ew_pair if side is Side.NS else r.ns_pair],
                result=r,
                score=score.ns_score if side is Side.NS else score.ew_score,
                comparative=score.comparative(side),
                public=scored.visibility.is_public(r.board),
            )
        )
    rows.sort(key=lambda row: (row.round, row.board))
    standing = next((s for s in scored.score.standings() if s.pair == pair.number), None)
    return ScoreCard(
        pair=pair,
        rows=rows,
        total=standing.total if standing else Fraction(0),
        boards=standing.boards if standing else 0,
        rank=standing.rank if standing else None,
    )


def pair_score_card(pair: Pair, *, for_public: bool = False) -> ScoreCard:
    """Every board ``pair`` played, in round and board order, with its total and rank.

    ``for_public=True`` (the public, a plain referee): the boards still hidden are left
    out of ``rows`` *and* of the total, boards and rank, which are those of the public
    standings (:func:`standings` ``for_public``). Constant number of queries.
    """
    scored = scored_championship(pair.championship, public_only=for_public)
    return score_card_of(scored, pair, _pairs(pair.championship))


# --------------------------------------------------------------------------- referee


@dataclass(frozen=True)
class BoardSlot:
    """A board of the round at one table, its dealer and the result so far (or None)."""

    board: Board
    dealer: Seat
    result: Result | None


@dataclass(frozen=True)
class TableSheet:
    seating: Seating
    boards: list[BoardSlot]

    @property
    def done(self) -> int:
        return sum(slot.result is not None for slot in self.boards)


def current_round(championship: Championship) -> Round | None:
    """The first drawn round that is not closed, else the last drawn round, else None."""
    rounds = list(
        Round.objects.filter(championship=championship)
        .annotate(tables=Count("seatings")).order_by("number")
    )
    drawn = [r for r in rounds if r.tables]  # type: ignore[attr-defined]
    for r in drawn:
        if not r.is_closed:
            return r
    return drawn[-1] if drawn else None


def referee_round(round: Round) -> list[TableSheet]:
    """Every table of ``round`` with the round's boards, their dealer and results so far
    (three queries)."""
    seatings = list(
        Seating.objects.filter(round=round)
        .select_related("table", "ns_pair__player1", "ns_pair__player2",
                        "ew_pair__player1", "ew_pair__player2")
        .order_by("table__number")
    )
    boards = list(Board.objects.filter(round=round).order_by("number"))
    results: dict[tuple[int, int], Result] = {
        (r.seating_id, r.board_id): r for r in Result.objects.filter(seating__round=round)
    }
    return [
        TableSheet(
            seating=s,
            boards=[BoardSlot(b, dealer(b.number), results.get((s.pk, b.pk))) for b in boards],
        )
        for s in seatings
    ]


def referee_table(seating: Seating) -> TableSheet:
    """One table's sheet: the round's boards with dealer and result (two queries)."""
    boards = list(Board.objects.filter(round_id=seating.round_id).order_by("number"))
    results = {r.board_id: r for r in Result.objects.filter(seating=seating)}
    return TableSheet(
        seating=seating,
        boards=[BoardSlot(b, dealer(b.number), results.get(b.pk)) for b in boards],
    )


def result_history(result: Result) -> list[Any]:
    """The audit rows of one result, oldest first (one query)."""
    return list(result.audits.select_related("acting_user").order_by("at", "id"))


def pairs_by_number(championship: Championship) -> dict[int, Pair]:
    """``{number: Pair}`` with both players loaded (one query)."""
    return _pairs(championship)


def results_by_table(round: Round) -> dict[int, list[Result]]:
    """``{table number: results}`` of one round (one query)."""
    out: dict[int, list[Result]] = defaultdict(list)
    for r in Result.objects.filter(seating__round=round).select_related("seating__table",
                                                                        "board"):
        out[r.seating.table.number].append(r)
    return dict(out)
