"""Reads that need care: standings, travellers, score cards, board visibility, referee
sheets (STYLE.md "selectors").

Every selector loads a championship's rows in a constant number of queries (whatever
the number of pairs, tables or results) and lets ``scoring`` compute the numbers, so the
app shows exactly what ``python -m scoring`` computes on the exported file.

Comparative points are ``Fraction`` on the championship's scale; hand scores are ``int``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, QuerySet

import scoring
from engine.deal import Deal
from engine.seats import Seat, Side, dealer
from tournaments.models import (
    Board,
    Championship,
    Membership,
    Pair,
    Result,
    Round,
    Seating,
)

# --------------------------------------------------------------------------- roles


def user_roles(user: Any, championship: Championship) -> set[str]:
    """The roles (``Membership.Role`` values) ``user`` holds in ``championship`` (one
    query; none for an anonymous user); a superuser holds every role."""
    if user is None or not user.is_authenticated:
        return set()
    if getattr(user, "is_superuser", False):
        return {role.value for role in Membership.Role}
    return set(
        Membership.objects.filter(championship=championship, user_id=user.pk).values_list(
            "role", flat=True
        )
    )


def user_is_organiser(user: Any, championship: Championship) -> bool:
    return Membership.Role.ORGANISER in user_roles(user, championship)


def user_can_referee(user: Any, championship: Championship) -> bool:
    """Referee, head referee or organiser of this championship (not of another)."""
    return bool(user_roles(user, championship))


#: The roles that see a board while it is hidden from the public (issue 4): the organiser
#: and the head referee (the director). A plain referee sees hidden boards only through
#: the sheets of the tables (``referee_table``), like a player at that table would.
HIDDEN_BOARD_ROLES = frozenset({Membership.Role.ORGANISER.value,
                                Membership.Role.HEAD_REFEREE.value})


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


def _results_queryset(championship: Championship) -> QuerySet[Result]:
    return Result.objects.filter(board__championship=championship).select_related(
        "seating__round", "seating__table", "seating__ns_pair", "seating__ew_pair", "board"
    )


def to_scoring_result(result: Result) -> scoring.Result:
    """One ORM result as ``scoring.Result`` (needs seating's round, table and pairs and
    the board loaded)."""
    seating = result.seating
    return scoring.Result(
        round=seating.round.number,
        table=seating.table.number,
        board=result.board.number,
        ns_pair=seating.ns_pair.number,
        ew_pair=seating.ew_pair.number,
        trump=scoring.Trump(result.trump) if result.trump else None,
        ns_points_taken=result.ns_points_taken,
        delegated=result.delegated,
        contro=result.contro,
        recontro=result.recontro,
        sant_vicenc=result.sant_vicenc,
        infraction=Side(result.infraction) if result.infraction else None,
        adjusted=(
            (scoring.Adjustment(result.adjusted_ns), scoring.Adjustment(result.adjusted_ew))
            if result.adjusted_ns and result.adjusted_ew
            else None
        ),
    )


def result_key(result: Result) -> tuple[int, int, int]:
    return (result.seating.round.number, result.seating.table.number, result.board.number)


@dataclass
class ScoredChampionship:
    """Results of a championship (ORM rows, in board/table order) and their scores.

    ``public_only``: the results were restricted to the boards public at load time
    (:func:`public_board_ids`), so no number here depends on a hidden board.
    """

    championship: Championship
    results: list[Result]
    score: scoring.ChampionshipScore
    public_only: bool = False

    def score_of(self, result: Result) -> scoring.ResultScore:
        return self.score.result(result_key(result))


def _load_results(championship: Championship) -> list[Result]:
    return list(
        _results_queryset(championship).order_by("board__number", "seating__table__number")
    )


def _score(
    championship: Championship, results: list[Result], *, public_only: bool
) -> ScoredChampionship:
    score = scoring.score_championship(
        championship.scoring_rules(), [to_scoring_result(r) for r in results]
    )
    return ScoredChampionship(championship, results, score, public_only)


def scored_championship(
    championship: Championship, *, public_only: bool = False
) -> ScoredChampionship:
    """Load the results (one query) and score the championship with ``scoring``.

    ``public_only=True`` (one query more) keeps only the results on boards public now
    (issue 4: a board's results stay hidden until every table due to play it has one), so
    totals, boards counted, averages and ranks say nothing about hidden boards. A board's
    comparative points depend only on that board's results (with ``matchpoints`` also on
    E, the most results of any board; hidden boards have fewer results than the public
    ones of a full round, so E is the same), hence a public board scores the same either way.
    """
    results = _load_results(championship)
    if public_only:
        public = public_board_ids(championship, results)
        results = [r for r in results if r.board_id in public]
    return _score(championship, results, public_only=public_only)


# --------------------------------------------------------------------------- visibility


def _expected_by_round(championship: Championship) -> tuple[dict[int, int], dict[int, int]]:
    """({round_id: tables seated}, {round_id: boards of the round}): two queries."""
    tables = _tables_by_round(championship)
    boards = dict(
        Board.objects.filter(championship=championship, round__isnull=False)
        .values("round_id").annotate(n=Count("id")).values_list("round_id", "n")
    )
    return tables, boards


def public_board_numbers(championship: Championship) -> set[int]:
    """Numbers of the boards whose deal and results the public may see (three queries):
    every table due to play the board in its round has a result on it, or the
    championship is finished. An imported board with no single round is public once it
    has a result (no movement says which tables were due)."""
    boards = list(
        Board.objects.filter(championship=championship).values_list("id", "number", "round_id")
    )
    if championship.status == Championship.Status.FINISHED:
        return {number for _id, number, _round in boards}
    tables = dict(
        Seating.objects.filter(round__championship=championship)
        .values("round_id").annotate(n=Count("id")).values_list("round_id", "n")
    )
    done = dict(
        Result.objects.filter(board__championship=championship)
        .values("board_id").annotate(n=Count("id")).values_list("board_id", "n")
    )
    public = set()
    for board_id, number, round_id in boards:
        have = done.get(board_id, 0)
        if round_id is None:
            if have:
                public.add(number)
        elif tables.get(round_id, 0) and have >= tables[round_id]:
            public.add(number)
    return public


def _tables_by_round(championship: Championship) -> dict[int, int]:
    """``{round_id: tables seated}`` (one query)."""
    return dict(
        Seating.objects.filter(round__championship=championship)
        .values("round_id").annotate(n=Count("id")).values_list("round_id", "n")
    )


def public_board_ids(
    championship: Championship, results: Iterable[Result],
    tables: dict[int, int] | None = None,
) -> set[int]:
    """Ids of the boards with a result that the public may see, from the championship's
    ``results`` already loaded (with ``board``) and ``tables`` (``{round_id: tables
    seated}``; one query when not given, none when finished). Same rule as
    :func:`public_board_numbers`; a board with no result is never in the set (it adds
    nothing to any total)."""
    results = list(results)
    if championship.status == Championship.Status.FINISHED:
        return {r.board_id for r in results}
    if tables is None:
        tables = _tables_by_round(championship)
    have: dict[int, int] = defaultdict(int)
    round_of: dict[int, int | None] = {}
    for r in results:
        have[r.board_id] += 1
        round_of[r.board_id] = r.board.round_id
    public = set()
    for board_id, count in have.items():
        round_id = round_of[board_id]
        if round_id is None or (tables.get(round_id, 0) and count >= tables[round_id]):
            public.add(board_id)
    return public


def board_is_public(board: Board) -> bool:
    """A board's deal and results stay hidden from the public until every table due to
    play it in its round has a result (issue 4); all boards are public once the
    championship is finished. At most three queries."""
    championship = board.championship
    if championship.status == Championship.Status.FINISHED:
        return True
    have = Result.objects.filter(board=board).count()
    if board.round_id is None:
        return have > 0
    due = Seating.objects.filter(round_id=board.round_id).count()
    return due > 0 and have >= due


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
        StandingRow(s.rank, pairs[s.pair], s.total, s.boards, s.average)
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

    ``for_public=True`` (the public, a plain referee): the rows count only the boards
    public now (:func:`scored_championship` ``public_only``), so saving a result on a
    hidden board changes no public total, board count, average or rank (issue 4); the
    progress still counts every result (it says how many are in, not what they are).

    Six queries, whatever the size: results, pairs, rounds, tables
    per round, boards per round (and none more). Comparative points are those of the
    whole championship (``scoring.ChampionshipScore.standings``). Raises ``ValueError``
    when both are given.
    """
    results = _load_results(championship)
    tables, boards = _expected_by_round(championship)
    scored_results = results
    if for_public:
        public = public_board_ids(championship, results, tables)
        scored_results = [r for r in results if r.board_id in public]
    scored = _score(championship, scored_results, public_only=for_public)
    pairs = _pairs(championship)
    rows = _rows(
        scored.score.standings(through_round=through_round, round_only=round_only), pairs
    )
    rounds = {
        r.id: r.number for r in Round.objects.filter(championship=championship).only("id",
                                                                                     "number")
    }

    def in_scope(number: int) -> bool:
        if round_only is not None:
            return number == round_only
        if through_round is not None:
            return number <= through_round
        return True

    expected = sum(
        n * boards.get(round_id, 0)
        for round_id, n in tables.items()
        if in_scope(rounds.get(round_id, 0))
    )
    results_in = 0
    for result in results:
        if not in_scope(result.seating.round.number):
            continue
        results_in += 1
        if result.board.round_id is None:
            expected += 1  # an imported board with no single round: due where played
    return StandingsView(
        championship=championship,
        rows=rows,
        progress=Progress(results_in, expected),
        rounds=sorted(rounds[r] for r in tables if r in rounds),
        through_round=through_round,
        round_only=round_only,
    )


def standings_after_each_round(
    championship: Championship, *, for_public: bool = False
) -> dict[int, list[StandingRow]]:
    """``{round: standings over rounds 1..round}`` for every round with results (two
    queries; three ``for_public``, which counts only the public boards as
    :func:`standings` does)."""
    scored = scored_championship(championship, public_only=for_public)
    pairs = _pairs(championship)
    return {n: _rows(rows, pairs) for n, rows in scored.score.progressive_standings().items()}


# --------------------------------------------------------------------------- traveller


@dataclass(frozen=True)
class TravellerRow:
    """One table's result on the board; ``score``: hand scores and comparative points."""

    round: int
    table: int
    ns_pair: Pair
    ew_pair: Pair
    result: Result
    score: scoring.ResultScore


@dataclass(frozen=True)
class Traveller:
    """Every table's result on one board, the deal and its dealer.

    ``public``: whether the public may see it (:func:`board_is_public`); when the caller
    asked ``for_public=True`` and it is not, ``rows`` is empty and ``deal`` is ``None``.
    ``tables_due``: tables seated in the board's round; ``tables_missing``: those of them
    without a result yet.
    """

    board: Board
    dealer: Seat
    deal: Deal | None
    rows: list[TravellerRow]
    public: bool
    tables_due: list[int] = field(default_factory=list)
    tables_missing: list[int] = field(default_factory=list)


def traveller(board: Board, *, for_public: bool = False) -> Traveller:
    """The traveller of ``board``: a constant number of queries (the whole championship
    is scored, since matchpoints compare with the busiest board).

    ``for_public=True`` (the public, a plain referee): a hidden board comes back with no
    rows and no deal, and a public one is scored from the public boards alone, as the
    public standings are (the same numbers; see :func:`scored_championship`)."""
    championship = board.championship
    results = _load_results(championship)
    played = {r.seating.table.number for r in results if r.board_id == board.pk}
    if for_public:
        public_ids = public_board_ids(championship, results)
        results = [r for r in results if r.board_id in public_ids]
    scored = _score(championship, results, public_only=for_public)
    rows = [
        TravellerRow(
            round=r.seating.round.number,
            table=r.seating.table.number,
            ns_pair=r.seating.ns_pair,
            ew_pair=r.seating.ew_pair,
            result=r,
            score=scored.score_of(r),
        )
        for r in scored.results
        if r.board_id == board.pk
    ]
    due: list[int] = []
    if board.round_id is not None:
        due = list(
            Seating.objects.filter(round_id=board.round_id)
            .order_by("table__number").values_list("table__number", flat=True)
        )
    missing = [t for t in due if t not in played]
    if championship.status == Championship.Status.FINISHED:
        public = True
    elif board.round_id is None:
        public = bool(played)
    else:
        public = bool(due) and not missing
    hide = for_public and not public
    return Traveller(
        board=board,
        dealer=dealer(board.number),
        deal=None if hide else board.get_deal(),
        rows=[] if hide else rows,
        public=public,
        tables_due=due,
        tables_missing=missing,
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
    result: Result
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


def pair_score_card(pair: Pair, *, for_public: bool = False) -> ScoreCard:
    """Every board ``pair`` played, in round and board order, with its total and rank.

    ``for_public=True`` (the public, a plain referee): the boards still hidden are left
    out of ``rows`` *and* of the total, boards and rank, which are those of the public
    standings (:func:`standings` ``for_public``; issue 4). Constant number of queries.
    """
    championship = pair.championship
    results = _load_results(championship)
    public_ids = public_board_ids(championship, results)
    if for_public:
        results = [r for r in results if r.board_id in public_ids]
    scored = _score(championship, results, public_only=for_public)
    pairs = _pairs(championship)
    rows: list[ScoreCardRow] = []
    for r in scored.results:
        s = r.seating
        if pair.pk not in (s.ns_pair_id, s.ew_pair_id):
            continue
        side = Side.NS if s.ns_pair_id == pair.pk else Side.EW
        score = scored.score_of(r)
        rows.append(
            ScoreCardRow(
                round=s.round.number,
                table=s.table.number,
                board=r.board.number,
                direction=side,
                opponent=pairs.get(s.ew_pair.number if side is Side.NS else s.ns_pair.number,
                                   s.ew_pair if side is Side.NS else s.ns_pair),
                result=r,
                score=score.ns_score if side is Side.NS else score.ew_score,
                comparative=score.comparative(side),
                public=r.board_id in public_ids,
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
