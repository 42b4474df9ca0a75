"""What the live public pages show, computed from values: the standings' rows with short
names and aligned decimals, the round progress, the traveller as a compass, the pair card
with its rank chart, and the hall screen's latest complete board.

Everything here reads :func:`tournaments.selectors.scored_championship` (results as
tuples) and pair names as tuples, never a model instance per row, in a constant number
of queries; :mod:`tournaments.live` renders and caches it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

import scoring
from engine.cards import SUIT_ORDER, sort_hand
from engine.seats import Seat, Side, dealer, first_leader
from scoring.championship import percentage
from scoring.interchange import export_number
from scoring.progress import RoundProgress
from scoring.progress import rounds_progress as scoring_rounds_progress
from tournaments import selectors  # the package, complete by the time these run
from tournaments.models import Board, Championship, Pair, Seating
from tournaments.numbers import comparative_out

#: Decimals shown at most in the standings' totals and averages (the same number down a
#: column; the exact values are in the API, the export and the printed standings).
MAX_DECIMALS = 2


# --------------------------------------------------------------------------- numbers


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _number_formatter(places: int) -> Callable[[Decimal], str]:
    """``number_format(value, decimal_pos=places)`` with the language's formats looked
    up once, for a whole column (looking them up per value cost more than the rest of
    the standings' formatting)."""
    language = get_language()
    separator = get_format("DECIMAL_SEPARATOR", language, use_l10n=True)
    grouping = get_format("NUMBER_GROUPING", language, use_l10n=True)
    thousands = get_format("THOUSAND_SEPARATOR", language, use_l10n=True)

    def formatted(value: Decimal) -> str:
        return str(numberformat.format(value, separator, places, grouping, thousands,
                                       use_l10n=True))

    return formatted


def column(values: Iterable[Fraction | None], rules: scoring.ScoringRules,
           *, cap: int = MAX_DECIMALS) -> list[str]:
    """Comparative totals or averages with the same number of decimals down the column:
    as many as the value that needs most (the export's value, ``tournaments.numbers``),
    at most ``cap``, rounded half up, with the language's separator; ``—`` for ``None``.

    >>> from scoring.model import ScoringRules
    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     column([Fraction(3, 2), Fraction(2), None], ScoringRules())
    ['1.5', '2.0', '—']
    """
    exact = [None if v is None else Decimal(str(comparative_out(Fraction(v), rules)))
             for v in values]
    places = min(cap, max((_decimals(v) for v in exact if v is not None), default=0))
    quantum = Decimal(1).scaleb(-places)
    formatted = _number_formatter(places)
    return [
        "—" if v is None else formatted(v.quantize(quantum, rounding=ROUND_HALF_UP))
        for v in exact
    ]


def percent(average: Fraction, championship: Championship) -> str:
    """The average as a percentage of the scale, one decimal (as the printed standings:
    bottom 0 %, top 100 %, docs/decisions.md 13)."""
    return percents([average], championship)[0]


def percents(averages: Iterable[Fraction], championship: Championship) -> list[str]:
    """:func:`percent` of each average (``scoring.percentage``, one decimal rounded half
    up), the scale and the formats read once."""
    rules = championship.scoring_rules()
    formatted = _number_formatter(1)
    return [
        formatted(Decimal(str(export_number(percentage(a, rules), places=1))))
        for a in averages
    ]


def short_name(name: str) -> str:
    """"Jordi Vila Puig" -> "J. Vila": the initial and the first surname (a one-word name
    is left as it is).

    >>> short_name("Jordi Vila Puig"), short_name("Núria"), short_name("  ")
    ('J. Vila', 'Núria', '')
    """
    parts = name.split()
    if len(parts) < 2:
        return " ".join(parts)
    return f"{parts[0][0]}. {parts[1]}"


# --------------------------------------------------------------------------- scoring

#: ``{(championship id, public only): (its creation, version, time.monotonic(), scored)}``:
#: the latest scored championship of each, shared by the fragments this process rebuilds
#: for the same version within ``LIVE_STALE_SECONDS`` (the standings, the hall, the
#: travellers and pair cards polled after a change score the championship once).
_SCORED: dict[tuple[int, bool], tuple[Any, int, float, selectors.ScoredChampionship]] = {}


def scored_for_version(championship: Championship, *, public_only: bool
                       ) -> selectors.ScoredChampionship:
    """:func:`tournaments.selectors.scored_championship` of the championship's version,
    computed once per version and ``LIVE_STALE_SECONDS`` by this process (0: every
    time). Every write bumps the version (docs/decisions.md 36), so a kept scoring is
    never older than the version it is kept for."""
    keep = float(getattr(settings, "LIVE_STALE_SECONDS", 0) or 0)
    if keep <= 0:
        return selectors.scored_championship(championship, public_only=public_only)
    key = (championship.pk, public_only)
    now = time.monotonic()
    kept = _SCORED.get(key)
    if (kept is not None and kept[0] == championship.created_at
            and kept[1] == championship.results_version and now - kept[2] < keep):
        return kept[3]
    result = selectors.scored_championship(championship, public_only=public_only)
    if len(_SCORED) > 64:
        _SCORED.clear()
    _SCORED[key] = (championship.created_at, championship.results_version, now, result)
    return result


def forget_scored() -> None:
    """Forget the scorings this process keeps (benchmarks and tests)."""
    _SCORED.clear()


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class PairName:
    number: int
    player1: str
    player2: str
    withdrawn_after_round: int | None

    @property
    def names(self) -> str:
        return f"{self.player1} – {self.player2}"

    @property
    def short(self) -> str:
        return f"{short_name(self.player1)} – {short_name(self.player2)}"


def pair_names(championship: Championship) -> dict[int, PairName]:
    """``{number: PairName}`` read as tuples (one query)."""
    rows = Pair.objects.filter(championship=championship).values_list(
        "number", "player1__name", "player2__name", "withdrawn_after_round"
    )
    return {row[0]: PairName(*row) for row in rows}


@dataclass(frozen=True, slots=True)
class LiveRow:
    """One line of the phone standings; numbers already formatted."""

    rank: int
    pair: PairName
    boards: int
    missed: int
    withdrawn: bool
    total: str
    average: str
    percent: str

    @property
    def number(self) -> int:
        return self.pair.number


@dataclass
class LiveStandings:
    """What the standings fragment shows (``rows`` ranked)."""

    rows: list[LiveRow]
    progress: selectors.Progress
    rounds: list[int]
    round_only: int | None = None
    through_round: int | None = None
    round_progress: list[RoundProgress] = field(default_factory=list)


def rounds_progress(scored: selectors.ScoredChampionship) -> list[RoundProgress]:
    """Every drawn round's progress from an already scored championship (no query; the
    rule: ``scoring.progress.rounds_progress``)."""
    seen = scored.visibility
    return scoring_rounds_progress(
        board_rounds=seen.board_rounds, tables_due=seen.tables_due,
        results=[(r.round, r.board_round) for r in scored.all_results], public=seen.public,
    )


def live_standings(
    championship: Championship, *, round_only: int | None = None,
    through_round: int | None = None,
) -> LiveStandings:
    """The public standings (every reader sees the public boards only, docs/decisions.md
    16) with progress in scope and every round's progress. Five queries: results,
    boards, tables per round, absences, pair names."""
    scored = scored_for_version(championship, public_only=True)
    names = pair_names(championship)
    rules = championship.scoring_rules()
    standings = [
        s for s in scored.score.standings(through_round=through_round, round_only=round_only)
        if s.pair in names
    ]
    totals = column([s.total for s in standings], rules)
    averages = column([s.average for s in standings], rules)
    rows = [
        LiveRow(s.rank, names[s.pair], s.boards, s.missed, s.withdrawn, total, avg, pct)
        for s, total, avg, pct in zip(
            standings, totals, averages, percents([s.average for s in standings],
                                                  championship), strict=True)
    ]
    seen = scored.visibility
    return LiveStandings(
        rows=rows, progress=selectors.progress_of(scored, round_only=round_only,
                                                 through_round=through_round),
        rounds=sorted(seen.tables_due), round_only=round_only, through_round=through_round,
        round_progress=rounds_progress(scored),
    )


# --------------------------------------------------------------------------- traveller


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat of the compass: its cards by suit, high to low, and its marks."""

    seat: Seat
    is_dealer: bool
    is_leader: bool
    suits: list[tuple[str, list[str]]]


@dataclass(frozen=True, slots=True)
class TravellerLine:
    round: int
    table: int
    ns: PairName
    ew: PairName
    result: selectors.ResultValues
    score: scoring.ResultScore


@dataclass
class LiveTraveller:
    board: int
    round: int | None
    dealer: Seat
    leader: Seat
    public: bool
    hands: dict[str, HandView] | None
    rows: list[TravellerLine]
    tables_missing: list[int]
    previous: int | None
    next: int | None
    # The stored double-dummy table, shown where the deal is (None: hidden or none yet).
    double_dummy: selectors.DoubleDummy | None = None

    @property
    def deal(self) -> dict[str, HandView] | None:
        return self.hands


def hand_view(cards: Iterable[Any], seat: Seat, board: int) -> HandView:
    """A hand as the compass shows it: suits in the order O C E B, ranks high to low in
    the trick order (the board sheet's order)."""
    held = sort_hand(cards)
    suits = [(suit.value, [str(c.rank) for c in held if c.suit is suit]) for suit in SUIT_ORDER]
    return HandView(seat, seat is dealer(board), seat is first_leader(board), suits)


def live_traveller(championship: Championship, number: int, *, for_public: bool
                   ) -> LiveTraveller | None:
    """The traveller of board ``number`` (``None``: no such board). Hidden from the public
    (no deal, no rows) until every table due has played it; the staff see it at once.
    Seven queries: the championship's scoring (four), pair names, the board, tables due."""
    scored = scored_for_version(championship, public_only=for_public)
    rounds = scored.visibility.board_rounds
    if number not in rounds:
        return None
    board = (Board.objects.filter(championship=championship, number=number)
             .select_related("analysis").first())
    if board is None:
        return None
    public = scored.visibility.is_public(number)
    hide = for_public and not public
    played = {r.table for r in scored.all_results if r.board == number}
    due: list[int] = []
    if board.round_id is not None:
        due = list(Seating.objects.filter(round_id=board.round_id)
                   .order_by("table__number").values_list("table__number", flat=True))
    names = pair_names(championship)
    hands = None
    if not hide:
        deal = board.get_deal()
        hands = {seat.value: hand_view(deal[seat], seat, number) for seat in Seat}
    rows = [] if hide else [
        TravellerLine(r.round, r.table, names[r.ns_pair], names[r.ew_pair], r,
                      scored.score_of(r))
        for r in scored.results if r.board == number
    ]
    numbers = sorted(rounds)
    at = numbers.index(number)
    return LiveTraveller(
        board=number, round=rounds[number], dealer=dealer(number),
        leader=first_leader(number), public=public, hands=hands, rows=rows,
        tables_missing=[t for t in due if t not in played],
        previous=numbers[at - 1] if at > 0 else None,
        next=numbers[at + 1] if at + 1 < len(numbers) else None,
        double_dummy=None if hide else selectors.double_dummy(
            board, championship.engine_rules()),
    )


# --------------------------------------------------------------------------- pair card


@dataclass(frozen=True, slots=True)
class CardLine:
    round: int
    table: int
    board: int
    direction: Side
    opponent: PairName
    result: selectors.ResultValues
    score: int | None
    comparative: Fraction
    public: bool


@dataclass
class LiveCard:
    pair: PairName
    rows: list[CardLine]
    total: Fraction
    boards: int
    rank: int | None
    ranks: list[tuple[int, int]]  # (round, rank after it)
    pairs_ranked: int
    chart: SafeString


def rank_chart(ranks: list[tuple[int, int]], field_size: int, label: str) -> SafeString:
    """A small SVG line chart of the rank after each round (rank 1 at the top), drawn on
    the server: ``ranks`` as ``[(round, rank)]``. Only numbers and the escaped ``label``
    go into it."""
    from django.utils.html import escape

    if not ranks:
        return mark_safe("")
    width, height, pad = 320, 140, 28
    top = max(field_size, max(r for _n, r in ranks), 2)
    count = max(len(ranks) - 1, 1)

    def x(i: int) -> float:
        return pad + i * (width - 2 * pad) / count if len(ranks) > 1 else width / 2

    def y(rank: int) -> float:
        return 16 + (rank - 1) * (height - 40) / (top - 1)

    points = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (_n, r) in enumerate(ranks))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="4"/>'
        f'<text x="{x(i):.1f}" y="{y(r) - 8:.1f}" class="rank">{r}</text>'
        f'<text x="{x(i):.1f}" y="{height - 6}" class="round">R{n}</text>'
        for i, (n, r) in enumerate(ranks)
    )
    svg = (
        f'<svg class="rank-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(label)}</title>'
        f'<line x1="{pad}" y1="16" x2="{width - pad}" y2="16" class="top"/>'
        f'<polyline points="{points}"/>{dots}</svg>'
    )
    return mark_safe(svg)  # noqa: S308 - numbers and an escaped label only


def live_card(championship: Championship, number: int, *, for_public: bool,
              chart_label: Callable[[list[tuple[int, int]]], str]) -> LiveCard | None:
    """Pair ``number``'s score card board by board, its total and rank, and its rank
    after each round (``None``: no such pair). Five queries."""
    scored = scored_for_version(championship, public_only=for_public)
    names = pair_names(championship)
    pair = names.get(number)
    if pair is None:
        return None
    rows: list[CardLine] = []
    for r in scored.results:
        if number not in (r.ns_pair, r.ew_pair):
            continue
        side = Side.NS if r.ns_pair == number else Side.EW
        score = scored.score_of(r)
        rows.append(CardLine(
            r.round, r.table, r.board, side, names[r.ew_pair if side is Side.NS else r.ns_pair],
            r, score.ns_score if side is Side.NS else score.ew_score,
            score.comparative(side), scored.visibility.is_public(r.board),
        ))
    rows.sort(key=lambda row: (row.round, row.board))
    standings = scored.score.standings()
    mine = next((s for s in standings if s.pair == number), None)
    ranks = [
        (n, s.rank)
        for n, table in sorted(scored.score.progressive_standings().items())
        for s in table if s.pair == number
    ]
    return LiveCard(
        pair=pair, rows=rows, total=mine.total if mine else Fraction(0),
        boards=mine.boards if mine else 0, rank=mine.rank if mine else None,
        ranks=ranks, pairs_ranked=len(standings),
        chart=rank_chart(ranks, len(standings), chart_label(ranks)),
    )


# --------------------------------------------------------------------------- hall


def latest_complete_board(scored: selectors.ScoredChampionship) -> int | None:
    """The public board whose last result came in last (highest result id), or None."""
    latest: dict[int, int] = {}
    for r in scored.all_results:
        if scored.visibility.is_public(r.board):
            latest[r.board] = max(latest.get(r.board, 0), r.id)
    return max(latest, key=lambda b: latest[b]) if latest else None


def current_progress(progress: list[RoundProgress]) -> RoundProgress | None:
    """The first round still missing results, else the last drawn round."""
    for p in progress:
        if p.results_in < p.results_expected:
            return p
    return progress[-1] if progress else None
