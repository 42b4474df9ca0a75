"""A board's double-dummy table, its traveller and a pair's score card: the read models
the traveller and pair card pages, their live fragments, the hall screen, the API and the
printed travellers and score cards render.

:func:`traveller` and :func:`score_card` (and :func:`travellers`, :func:`score_cards`
for a whole printed set) build frozen values of plain numbers and strings from one
scoring of the championship: hand scores and comparative points from ``scoring``, each
comparative value's text as the pages and the PDF print it (:mod:`.formats`), and the
API's numbers (the ``*_out`` fields, the export's values). None of the renderers computes
a number of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Any

import scoring
from engine.cards import SUIT_ORDER, Card, other_side_points, sort_hand
from engine.deal import Deal
from engine.seats import Seat, Side, dealer, first_leader
from tournaments.models import (
    Board,
    BoardAnalysis,
    Championship,
    Seating,
)
from tournaments.numbers import comparative_out
from tournaments.selectors.formats import column
from tournaments.selectors.results import ResultValues, ScoredChampionship, scored_or_new
from tournaments.selectors.standings import (
    PairName,
    StandingRow,
    pair_names,
    standing_rows,
    total_places,
)

#: Decimals at most in a traveller's or pair card's column of comparative points: the
#: export's (``scoring.interchange.export_number``), so no value is shown rounded.
EXPORT_DECIMALS = 4

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


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat of the compass: its cards by suit (O C E B), ranks high to low in the
    trick order (the board sheet's order), and whether it deals or leads."""

    seat: Seat
    is_dealer: bool
    is_leader: bool
    suits: tuple[tuple[str, tuple[str, ...]], ...]


def hand_view(cards: Iterable[Card], seat: Seat, board: int) -> HandView:
    """A hand as the compass shows it (:class:`HandView`)."""
    held = sort_hand(cards)
    suits = tuple((suit.value, tuple(str(c.rank) for c in held if c.suit is suit))
                  for suit in SUIT_ORDER)
    return HandView(seat, seat is dealer(board), seat is first_leader(board), suits)


@dataclass(frozen=True, slots=True)
class TravellerRow:
    """One table's result on the board.

    ``result``: what was played (plain values); ``score``: both sides' hand scores
    (``int``, ``None`` when adjusted or at an infraction) and comparative points (exact
    ``Fraction``); ``*_comparative_out``: those points as the export and the API write
    them; ``*_comparative_text``: as the pages and the PDF print them.
    ``dd_difference``: NS's points taken minus the double-dummy value of the
    declaration played (:meth:`DoubleDummy.difference`; ``None``: no table or no mark).
    """

    round: int
    table: int
    ns: PairName
    ew: PairName
    result: ResultValues
    score: scoring.ResultScore
    ns_comparative_out: int | float
    ew_comparative_out: int | float
    ns_comparative_text: str
    ew_comparative_text: str
    dd_difference: int | None = None


@dataclass(frozen=True, slots=True)
class Traveller:
    """Every table's result on one board, its deal and dealer.

    ``round``: the board's round (``None``: a board of no single round). ``public``:
    whether the public may see it; built ``for_public`` and not public, ``rows`` is
    empty and ``deal``, ``hands`` and ``double_dummy`` are ``None``. ``tables_due``:
    tables seated in the board's round; ``tables_missing``: those of them without a
    result yet. ``hands``: the compass, ``{"N": HandView, ...}``. ``previous`` and
    ``next``: the neighbouring board numbers. ``double_dummy``: the stored table,
    where the deal is shown.
    """

    board: int
    round: int | None
    dealer: Seat
    leader: Seat
    public: bool
    deal: Deal | None
    hands: Mapping[str, HandView] | None
    rows: tuple[TravellerRow, ...]
    tables_due: tuple[int, ...] = ()
    tables_missing: tuple[int, ...] = ()
    previous: int | None = None
    next: int | None = None
    double_dummy: DoubleDummy | None = None


def _traveller_rows(
    scored: ScoredChampionship, results: Iterable[ResultValues],
    names: Mapping[int, PairName], dd: DoubleDummy | None,
) -> tuple[TravellerRow, ...]:
    """The rows of one board's traveller from its ``results`` (those scored), in round
    and table order (no query)."""
    rules = scored.score.rules
    results = list(results)
    scores = [scored.score_of(r) for r in results]
    # Both comparative columns with one number of decimals, as many as the value that
    # needs most (at most the export's 4): "1,5000" above "0,2500", never "1,5".
    texts = column([s.ns_comparative for s in scores] + [s.ew_comparative for s in scores],
                   rules, cap=EXPORT_DECIMALS)
    rows = []
    for i, (r, score) in enumerate(zip(results, scores, strict=True)):
        rows.append(TravellerRow(
            round=r.round, table=r.table, ns=names[r.ns_pair], ew=names[r.ew_pair],
            result=r, score=score,
            ns_comparative_out=comparative_out(score.ns_comparative, rules),
            ew_comparative_out=comparative_out(score.ew_comparative, rules),
            ns_comparative_text=texts[i],
            ew_comparative_text=texts[len(results) + i],
            dd_difference=None if dd is None else dd.difference(r),
        ))
    rows.sort(key=lambda row: (row.round, row.table))
    return tuple(rows)


def _by_board(results: Iterable[ResultValues]) -> dict[int, list[ResultValues]]:
    out: dict[int, list[ResultValues]] = {}
    for r in results:
        out.setdefault(r.board, []).append(r)
    return out


def _traveller_of(
    scored: ScoredChampionship, board: Board, names: Mapping[int, PairName],
    due: list[int], *, for_public: bool, rules: Any,
    scored_results: list[ResultValues], played: set[int],
) -> Traveller:
    """One board's :class:`Traveller` from rows already read: ``scored_results``, the
    board's results in ``scored``; ``played``, the tables with a result on it, hidden
    or not. No query when ``board`` came with ``select_related("analysis")``."""
    number = board.number
    rounds = scored.visibility.board_rounds
    public = scored.visibility.is_public(number)
    hide = for_public and not public
    deal = None if hide else board.get_deal()
    dd = None if hide else double_dummy(board, rules)
    numbers = sorted(rounds)
    at = numbers.index(number) if number in rounds else -1
    return Traveller(
        board=number,
        round=rounds.get(number),
        dealer=dealer(number),
        leader=first_leader(number),
        public=public,
        deal=deal,
        hands=None if deal is None else {
            seat.value: hand_view(deal[seat], seat, number) for seat in Seat},
        rows=() if hide else _traveller_rows(scored, scored_results, names, dd),
        tables_due=tuple(due),
        tables_missing=tuple(t for t in due if t not in played),
        previous=numbers[at - 1] if at > 0 else None,
        next=numbers[at + 1] if 0 <= at < len(numbers) - 1 else None,
        double_dummy=dd,
    )


def traveller(
    championship: Championship, number: int, *, for_public: bool = False,
    scored: ScoredChampionship | None = None,
) -> Traveller | None:
    """The traveller of board ``number`` (``None``: no such board).

    ``for_public=True`` (the public, a plain referee): a hidden board (some table due
    has not played it) comes back with no rows, no deal and no double-dummy table, and a
    public one is scored from the public boards alone, as the public standings are
    (:func:`scored_championship`); the organiser and the head referee see every board
    at once. ``scored``: the championship already scored that way (the live pages keep
    one per results version), else scored here (the whole championship, since
    matchpoints compare with the busiest board).

    Seven queries, whatever the size: the board with its analysis, the scoring (four),
    the tables due, the pair names; three when ``scored`` is given (one for no such
    board).
    """
    board = (Board.objects.filter(championship=championship, number=number)
             .select_related("analysis").first())
    if board is None:
        return None
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    due: list[int] = []
    if board.round_id is not None:
        due = list(Seating.objects.filter(round_id=board.round_id)
                   .order_by("table__number").values_list("table__number", flat=True))
    return _traveller_of(
        scored, board, pair_names(championship), due, for_public=for_public,
        rules=championship.engine_rules(),
        scored_results=[r for r in scored.results if r.board == number],
        played={r.table for r in scored.all_results if r.board == number},
    )


def travellers(
    championship: Championship, *, round_number: int = 0, for_public: bool = True,
    scored: ScoredChampionship | None = None,
) -> list[Traveller]:
    """:func:`traveller` of every board (of round ``round_number`` when not 0), in board
    order, for a printed set: seven queries whatever the number of boards."""
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    boards = Board.objects.filter(championship=championship).select_related("analysis")
    if round_number:
        boards = boards.filter(round__number=round_number)
    due: dict[int, list[int]] = {}
    for round_id, table in (Seating.objects.filter(round__championship=championship)
                            .order_by("table__number")
                            .values_list("round_id", "table__number")):
        due.setdefault(round_id, []).append(table)
    names = pair_names(championship)
    rules = championship.engine_rules()
    scored_by_board, all_by_board = _by_board(scored.results), _by_board(scored.all_results)
    return [
        _traveller_of(
            scored, board, names,
            due.get(board.round_id, []) if board.round_id is not None else [],
            for_public=for_public, rules=rules,
            scored_results=scored_by_board.get(board.number, []),
            played={r.table for r in all_by_board.get(board.number, [])},
        )
        for board in boards.order_by("number")
    ]


# --------------------------------------------------------------------------- score card


@dataclass(frozen=True, slots=True)
class ScoreCardRow:
    """One board a pair played: its direction, opponent, what was played, its own hand
    score and comparative points (exact, as the export writes them, as printed), and
    the running total over the card's rows so far. ``public``: whether the board is
    public yet."""

    round: int
    table: int
    board: int
    direction: Side
    opponent: PairName
    result: ResultValues
    score: int | None
    comparative: Fraction
    comparative_out: int | float
    comparative_text: str
    running_total: Fraction
    running_total_out: int | float
    running_total_text: str
    public: bool


@dataclass(frozen=True, slots=True)
class ScoreCard:
    """A pair's score card: its boards in round and board order; ``total``, ``boards``,
    ``missed`` and ``rank`` are its line of the standings of the same scope (rounds
    1..``through_round``, or all) so the card and the standings never disagree (under
    the missed-board rule ``average`` the total includes the missed boards' A, the rows
    do not): ``total_text`` is the standings' own text of the total, and the running
    totals have its decimals; ``rank`` ``None``: no place there (no score, or
    withdrawn; ``scoring.Standing.place``). ``ranks``: ``(round, place after it)`` for
    every round with results where the pair had a place (a round it sat out or after
    it withdrew is left out); ``pairs_ranked``: the pairs placed in those standings."""

    pair: PairName
    rows: tuple[ScoreCardRow, ...]
    total: Fraction
    total_out: int | float
    total_text: str
    boards: int
    missed: int
    rank: int | None
    ranks: tuple[tuple[int, int], ...]
    pairs_ranked: int
    through_round: int | None = None


def _card_of(
    scored: ScoredChampionship, pair: PairName, played: Iterable[ResultValues],
    names: Mapping[int, PairName], ranked: list[scoring.Standing],
    ranks: tuple[tuple[int, int], ...], through_round: int | None,
    lines: Mapping[int, StandingRow], places: int,
) -> ScoreCard:
    """One pair's :class:`ScoreCard` from its results and the standings (no query);
    ``lines``: the standings' rows by pair (:func:`.standings.standing_rows` of
    ``ranked``), ``places``: the decimals of their total column."""
    rules = scored.score.rules
    ordered = sorted(played, key=lambda r: (r.round, r.board))
    sides = [Side.NS if r.ns_pair == pair.number else Side.EW for r in ordered]
    scores = [scored.score_of(r) for r in ordered]
    comparatives = [score.comparative(side) for score, side in zip(scores, sides, strict=True)]
    running_totals = list(accumulate(comparatives))
    mine = next((s for s in ranked if s.pair == pair.number), None)
    total = mine.total if mine else Fraction(0)
    # The board's comparative points keep the export's decimals (docs/decisions.md 70);
    # the total is the standings' text and the running totals that lead to it have its
    # decimals, so the card's total reads as it does in the standings.
    comparative_texts = column(comparatives, rules, cap=EXPORT_DECIMALS)
    running_texts = column(running_totals, rules, places=places)
    line = lines.get(pair.number)
    total_text = (line.total_text if line and line.has_score
                  else column([total], rules, places=places)[0])
    rows: list[ScoreCardRow] = []
    for i, (r, side, score) in enumerate(zip(ordered, sides, scores, strict=True)):
        comparative, running = comparatives[i], running_totals[i]
        rows.append(ScoreCardRow(
            round=r.round, table=r.table, board=r.board, direction=side,
            opponent=names[r.ew_pair if side is Side.NS else r.ns_pair], result=r,
            score=score.ns_score if side is Side.NS else score.ew_score,
            comparative=comparative, comparative_out=comparative_out(comparative, rules),
            comparative_text=comparative_texts[i], running_total=running,
            running_total_out=comparative_out(running, rules),
            running_total_text=running_texts[i],
            public=scored.visibility.is_public(r.board),
        ))
    return ScoreCard(
        pair=pair, rows=tuple(rows), total=total,
        total_out=comparative_out(total, rules), total_text=total_text,
        boards=mine.boards if mine else 0, missed=mine.missed if mine else 0,
        rank=mine.place if mine else None, ranks=ranks,
        pairs_ranked=sum(1 for s in ranked if s.placed),
        through_round=through_round,
    )


def _ranks_after_each_round(
    scored: ScoredChampionship, through_round: int | None
) -> dict[int, list[tuple[int, int]]]:
    """``{pair: [(round, place after it)]}`` over the rounds with results (up to
    ``through_round``) where the pair had a place (``scoring.Standing.place``)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for n, table in sorted(scored.score.progressive_standings().items()):
        if through_round is not None and n > through_round:
            continue
        for s in table:
            if s.place is not None:
                out.setdefault(s.pair, []).append((n, s.place))
    return out


def score_card(
    championship: Championship, number: int, *, for_public: bool = False,
    through_round: int | None = None, scored: ScoredChampionship | None = None,
) -> ScoreCard | None:
    """Pair ``number``'s score card (``None``: no such pair): every board it played in
    round and board order (rounds 1..``through_round`` when given), with its total,
    boards and rank and its rank after each round.

    ``for_public=True`` (the public, a plain referee): the boards still hidden are left
    out of the rows *and* of the total, boards and rank, which are those of the public
    standings. Five queries (the pair names, then the scoring, four); one when
    ``scored`` is given or there is no such pair."""
    names = pair_names(championship)
    pair = names.get(number)
    if pair is None:
        return None
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    played = [r for r in scored.results if number in (r.ns_pair, r.ew_pair)
              and (through_round is None or r.round <= through_round)]
    ranks = _ranks_after_each_round(scored, through_round).get(number, [])
    ranked = scored.score.standings(through_round=through_round)
    return _card_of(scored, pair, played, names, ranked, tuple(ranks), through_round,
                    *_lines(ranked, names, scored.score.rules))


def _lines(ranked: list[scoring.Standing], names: dict[int, PairName],
           rules: scoring.ScoringRules) -> tuple[dict[int, StandingRow], int]:
    """The standings' rows by pair and the decimals of their total column."""
    rows = standing_rows(ranked, names, rules)
    return {row.number: row for row in rows}, total_places(ranked, names, rules)


def score_cards(
    championship: Championship, *, for_public: bool = True,
    through_round: int | None = None, scored: ScoredChampionship | None = None,
) -> list[ScoreCard]:
    """:func:`score_card` of every pair, by number, for a printed set (five queries)."""
    scored = scored_or_new(championship, public_only=for_public, scored=scored)
    names = pair_names(championship)
    by_pair: dict[int, list[ResultValues]] = {}
    for r in scored.results:
        if through_round is not None and r.round > through_round:
            continue
        by_pair.setdefault(r.ns_pair, []).append(r)
        by_pair.setdefault(r.ew_pair, []).append(r)
    ranked = scored.score.standings(through_round=through_round)
    ranks = _ranks_after_each_round(scored, through_round)
    lines, places = _lines(ranked, names, scored.score.rules)
    return [
        _card_of(scored, names[number], by_pair.get(number, []), names, ranked,
                 tuple(ranks.get(number, [])), through_round, lines, places)
        for number in sorted(names)
    ]
