"""Results read as values, which boards the public sees, and the one scoring of a
championship that every public number comes from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count

import scoring
from engine.cards import other_side_points
from engine.seats import Side
from scoring.comparative import result_hand_score as result_hand_score_of
from scoring.visibility import board_is_complete, count_by, public_boards
from tournaments.models import (
    Board,
    Championship,
    Pair,
    Result,
    Round,
    Seating,
)
from tournaments.selectors.presence import absent_pairs

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
_ADJUSTMENTS = {adjustment.value: adjustment for adjustment in scoring.Adjustment}


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
        return None if self.ns_points_taken is None else other_side_points(self.ns_points_taken)

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
        # Dictionary lookups, not Enum(value) calls, and positional arguments: this runs
        # once per result on every recomputed page (4,000 times for 200 pairs x 40 boards).
        adjusted_ns, adjusted_ew = self.adjusted_ns, self.adjusted_ew
        return scoring.Result(
            self.round, self.table, self.board, self.ns_pair, self.ew_pair,
            _TRUMPS[self.trump] if self.trump else None, self.ns_points_taken,
            self.delegated, self.contro, self.recontro, self.sant_vicenc,
            _SIDES[self.infraction] if self.infraction else None,
            (_ADJUSTMENTS[adjusted_ns], _ADJUSTMENTS[adjusted_ew])
            if adjusted_ns and adjusted_ew else None,
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
    championship: Championship, results: Sequence[ResultValues] | None = None,
    *, results_per_board: Mapping[int, int] | None = None,
) -> Visibility:
    """The championship's :class:`Visibility`: two queries (boards, tables seated per
    round), three when neither ``results`` (the championship's, from
    :func:`load_results`) nor ``results_per_board`` (``{board number: results}``) is
    given."""
    board_rounds: dict[int, int | None] = dict(
        Board.objects.filter(championship=championship).values_list("number", "round__number")
    )
    tables_due: dict[int, int] = dict(
        Seating.objects.filter(round__championship=championship)
        .values("round__number").annotate(n=Count("id")).values_list("round__number", "n")
    )
    per_board: dict[int, int]
    if results_per_board is not None:
        per_board = dict(results_per_board)
    elif results is None:
        per_board = dict(
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
    """Whether the public may see ``board`` now (one query, none for a finished
    championship whose row ``board`` holds; the rule: ``scoring.visibility``). The query
    is written out: a result's save asks it, and Django's building of the same query
    cost more than PostgreSQL answering it."""
    championship = board.championship
    if championship.status == Championship.Status.FINISHED:
        return True
    with connection.cursor() as cursor:
        cursor.execute(_BOARD_COUNTS, [board.pk])
        row = cursor.fetchone()
    if row is None:
        return False
    round_number, tables, played = row
    if round_number is None:
        return board_is_complete(round=None, tables_due={}, results=played)
    return board_is_complete(round=round_number, tables_due={round_number: tables},
                             results=played)


#: A board's round number (NULL: none), the tables seated in that round and the
#: results entered on the board (table names from the models; the board's id a parameter).
_BOARD_COUNTS = (
    f"SELECT r.number,"  # noqa: S608
    f" (SELECT COUNT(*) FROM {Seating._meta.db_table} s WHERE s.round_id = b.round_id),"
    f" (SELECT COUNT(*) FROM {Result._meta.db_table} x WHERE x.board_id = b.id)"
    f" FROM {Board._meta.db_table} b LEFT JOIN {Round._meta.db_table} r ON r.id = b.round_id"
    f" WHERE b.id = %s"
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


def scored_or_new(championship: Championship, *, public_only: bool,
                  scored: ScoredChampionship | None = None) -> ScoredChampionship:
    """``scored`` when given (a scoring already made, e.g. kept per results version by
    the live pages), else the championship scored now (:func:`scored_championship`,
    looked up at each call so that a test may stand in for it)."""
    if scored is not None:
        return scored
    return scored_championship(championship, public_only=public_only)


def absences(championship: Championship) -> scoring.Absences:
    """Byes, late entries and withdrawals as ``scoring`` ranks them, with every
    registered pair and the round it joins, so that the standings list each of them
    (one query): a late pair sat out the rounds before its ``joined_round``. A pair
    never present (the check-in on, not checked in) is not listed, as a pair that did
    not play (``presence.absent_pairs``; docs/decisions.md, check-in)."""
    sat_out: dict[int, set[int]] = {}
    byes: dict[int, set[int]] = {}
    withdrawn: dict[int, int] = {}
    pairs: dict[int, int] = {}
    rows = Pair.objects.filter(championship=championship).exclude(
        absent_pairs(championship)).values_list(
        "number", "joined_round", "withdrawn_after_round", "byes__round__number")
    for number, joined, after, bye_round in rows:
        pairs[number] = joined
        rounds = sat_out.setdefault(number, set(range(1, joined)))
        if bye_round is not None:
            rounds.add(bye_round)
            byes.setdefault(number, set()).add(bye_round)
        if after is not None:
            withdrawn[number] = after
    return scoring.Absences(
        {pair: frozenset(rounds) for pair, rounds in sat_out.items() if rounds}, withdrawn,
        pairs, {pair: frozenset(rounds) for pair, rounds in byes.items()},
    )
