"""A board's double-dummy table and traveller, and a pair's score card."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import scoring
from engine.cards import other_side_points
from engine.deal import Deal
from engine.seats import Seat, Side, dealer
from tournaments.models import (
    Board,
    BoardAnalysis,
    Pair,
    Seating,
)
from tournaments.selectors.results import (
    ResultValues,
    ScoredChampionship,
    scored_championship,
)
from tournaments.selectors.standings import _pairs

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
        return other_side_points(self.ns_points)


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
