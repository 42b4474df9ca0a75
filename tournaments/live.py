"""The live public pages: standings, traveller, pair card and the hall screen, cheap for a
hall full of phones.

How they stay cheap (docs/architecture.md, docs/performance.md):

- Every accepted change that can alter a public page bumps the championship's
  ``results_version`` in its own transaction (``services.common.bump_results_version``).
- Each page carries an ETag made of that version, the language and the viewer (anonymous
  or one user); a conditional GET of an unchanged page is a 304 after reading the
  championship's row (one query), computing nothing.
- The part of a page that the results make (a *fragment*) is rendered once per version,
  language and viewer class (public or staff, who see hidden boards) and kept in
  Django's cache (``CACHES``: local memory, or Redis when ``REDIS_URL`` is set); the
  page around it is rendered per request (it carries the user's name and CSRF token).
- The fragment polls ``live/<fragment>/?v=<version>`` every second with htmx: while the
  version is the same the answer is ``204 No Content`` (htmx swaps nothing) after one
  query; after a change it is the new fragment, from the cache after its first reader.
  Without JavaScript the pages are plain pages.

What the fragments compute reads values (``selectors.scored_championship``'s tuples and
pair names as tuples), never a model instance per row, in a constant number of queries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition

import scoring
from engine.cards import SUIT_ORDER, sort_hand
from engine.seats import Seat, Side, dealer, first_leader
from tournaments import selectors
from tournaments.models import Board, Championship, Membership, Pair, Seating
from tournaments.numbers import comparative_out

#: Seconds a rendered fragment stays in the cache. A change makes the old entries
#: unreachable at once (the version is in the key); this only frees the memory.
FRAGMENT_TTL = 15 * 60
#: How often the live fragments ask whether something changed (htmx ``every``), in
#: seconds: a change shows within about this much plus one request, and a poll of an
#: unchanged page costs one query (a 204).
POLL_SECONDS = 1
#: Decimals shown at most in the standings' totals and averages (the same number down a
#: column; the exact values are in the API, the export and the printed standings).
MAX_DECIMALS = 2

ORGANISER = Membership.Role.ORGANISER.value
REFEREES = frozenset(
    {Membership.Role.ORGANISER.value, Membership.Role.HEAD_REFEREE.value,
     Membership.Role.REFEREE.value}
)


# --------------------------------------------------------------------------- the row


def _championship(request: HttpRequest, slug: str) -> Championship:
    """The championship of ``slug``, read once per request (one query), or 404."""
    cached: dict[str, Championship] = request.__dict__.setdefault("_live_championships", {})
    if slug not in cached:
        championship = Championship.objects.filter(slug=slug).first()
        if championship is None:
            raise Http404("No such championship")
        cached[slug] = championship
    return cached[slug]


def _viewer_key(request: HttpRequest) -> str:
    """Who the page is for, in the ETag: the public (``a``) or one logged-in user (their
    roles decide what they see and the page shows their name)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return "a"
    return f"u{user.pk}"


def etag(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> str:
    """``<version>.<language>.<viewer>``: reads the championship's row and nothing else."""
    championship = _championship(request, slug)
    return f"{championship.results_version}.{get_language()}.{_viewer_key(request)}"


def _sees_hidden(request: HttpRequest, championship: Championship) -> bool:
    return selectors.user_sees_hidden_boards(request.user, championship)


def _stamp(championship: Championship) -> str:
    """The championship and the version, unique even if a deleted championship's id is
    reused: a cache key's prefix."""
    born = championship.created_at.timestamp() if championship.created_at else 0
    return f"live:{championship.pk}:{born:.6f}:{championship.results_version}"


def _cached(
    championship: Championship, name: str, build: Callable[[], str | None]
) -> str | None:
    """The fragment ``name`` (which names the language, the viewer class and the
    parameters) of the championship's current version, rendered by ``build`` once and
    then read from the cache. ``None`` (a 404: no such board or pair) is cached too, so
    a wrong address is as cheap as a right one."""
    key = f"{_stamp(championship)}:{get_language()}:{name}"
    hit = cache.get(key)
    if hit is not None:
        return hit[0]
    html = build()
    cache.set(key, (html,), FRAGMENT_TTL)
    return html


def _live(response: HttpResponse, *, private: bool) -> HttpResponse:
    """Browsers must ask again every time (they then get a 304 when nothing changed)."""
    patch_cache_control(response, no_cache=True, private=private or None)
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


#: Stands for the CSRF token in a page kept whole in the cache (the public's pages):
#: each request puts its own token in (:func:`_page`).
CSRF_HOLE = "__live_csrf_token__"


def _page(request: HttpRequest, championship: Championship, template: str,
          context: Callable[[], dict[str, Any]], name: str) -> HttpResponse:
    """The page for the public is rendered once per version, language and address and
    kept whole in the cache, with a hole for the CSRF token (the language form's) that
    each request fills with its own; a logged-in user, or a request with messages to
    show, gets a page rendered for it."""
    from django.contrib.messages import get_messages
    from django.middleware.csrf import get_token

    if request.user.is_authenticated or len(get_messages(request)):
        return render(request, template, context())
    key = f"{_stamp(championship)}:{get_language()}:page:{name}:{request.get_full_path()}"
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, {**context(), "csrf_token": CSRF_HOLE}, request)
        cache.set(key, html, FRAGMENT_TTL)
    return HttpResponse(html.replace(CSRF_HOLE, get_token(request)))


def _shell(request: HttpRequest, championship: Championship, **extra: Any) -> dict[str, Any]:
    roles = selectors.user_roles(request.user, championship)
    return {
        "championship": championship,
        "roles": roles,
        "is_organiser": ORGANISER in roles,
        "can_referee": bool(roles & REFEREES),
        "sees_hidden": bool(roles & selectors.HIDDEN_BOARD_ROLES),
        "poll_seconds": POLL_SECONDS,
        **extra,
    }


# --------------------------------------------------------------------------- numbers


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


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
    return [
        "—" if v is None
        else str(number_format(v.quantize(quantum, rounding=ROUND_HALF_UP),
                               decimal_pos=places))
        for v in exact
    ]


def percent(average: Fraction, championship: Championship) -> str:
    """The average as a percentage of the scale, one decimal (as the printed standings:
    bottom 0 %, top 100 %, docs/decisions.md 13)."""
    bottom = Fraction(str(championship.scale_bottom))
    top = Fraction(str(championship.scale_top))
    value = float((average - bottom) / (top - bottom) * 100) if top > bottom else 0.0
    return str(number_format(Decimal(f"{value:.1f}"), decimal_pos=1))


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


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """One round: results in / expected, boards complete (public) / boards."""

    number: int
    results_in: int
    results_expected: int
    boards_complete: int
    boards: int

    @property
    def percent(self) -> int:
        if not self.results_expected:
            return 0
        return min(100, 100 * self.results_in // self.results_expected)


@dataclass
class LiveStandings:
    """What the standings fragment shows (``rows`` ranked)."""

    rows: list[LiveRow]
    progress: selectors.Progress
    rounds: list[int]
    round_only: int | None = None
    through_round: int | None = None
    round_progress: list[RoundProgress] = field(default_factory=list)


def _in_scope(number: int, round_only: int | None, through: int | None) -> bool:
    if round_only is not None:
        return number == round_only
    if through is not None:
        return number <= through
    return True


def rounds_progress(scored: selectors.ScoredChampionship) -> list[RoundProgress]:
    """Every drawn round's progress from an already scored championship (no query)."""
    seen = scored.visibility
    boards_of: dict[int, list[int]] = {}
    for board, rnd in seen.board_rounds.items():
        if rnd is not None:
            boards_of.setdefault(rnd, []).append(board)
    results_in: dict[int, int] = {}
    for r in scored.all_results:
        results_in[r.round] = results_in.get(r.round, 0) + 1
    return [
        RoundProgress(
            number=n,
            results_in=results_in.get(n, 0),
            results_expected=tables * len(boards_of.get(n, [])),
            boards_complete=sum(seen.is_public(b) for b in boards_of.get(n, [])),
            boards=len(boards_of.get(n, [])),
        )
        for n, tables in sorted(seen.tables_due.items())
    ]


def live_standings(
    championship: Championship, *, round_only: int | None = None,
    through_round: int | None = None,
) -> LiveStandings:
    """The public standings (every reader sees the public boards only, docs/decisions.md
    16) with progress in scope and every round's progress. Five queries: results,
    boards, tables per round, absences, pair names."""
    scored = selectors.scored_championship(championship, public_only=True)
    names = pair_names(championship)
    rules = championship.scoring_rules()
    standings = [
        s for s in scored.score.standings(through_round=through_round, round_only=round_only)
        if s.pair in names
    ]
    totals = column([s.total for s in standings], rules)
    averages = column([s.average for s in standings], rules)
    rows = [
        LiveRow(s.rank, names[s.pair], s.boards, s.missed, s.withdrawn, total, avg,
                percent(s.average, championship))
        for s, total, avg in zip(standings, totals, averages, strict=True)
    ]
    seen = scored.visibility
    boards_of_round: dict[int, int] = {}
    for rnd in seen.board_rounds.values():
        if rnd is not None:
            boards_of_round[rnd] = boards_of_round.get(rnd, 0) + 1
    expected = sum(tables * boards_of_round.get(n, 0) for n, tables in seen.tables_due.items()
                   if _in_scope(n, round_only, through_round))
    results_in = 0
    for r in scored.all_results:
        if _in_scope(r.round, round_only, through_round):
            results_in += 1
            if r.board_round is None:
                expected += 1  # an imported board of no single round: due where played
    return LiveStandings(
        rows=rows, progress=selectors.Progress(results_in, expected),
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
    scored = selectors.scored_championship(championship, public_only=for_public)
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
    scored = selectors.scored_championship(championship, public_only=for_public)
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


# --------------------------------------------------------------------------- rendering


def _updated(championship: Championship) -> Any:
    at = championship.results_changed_at or championship.created_at
    return timezone.localtime(at) if at else None


def _fragment_context(championship: Championship, name: str, poll: str, **extra: Any
                      ) -> dict[str, Any]:
    return {
        "championship": championship,
        "fragment_id": f"live-{name}",
        "poll_url": f"{poll}{'&' if '?' in poll else '?'}v={championship.results_version}",
        "poll_seconds": POLL_SECONDS,
        "updated_at": _updated(championship),
        **extra,
    }


def _query(**params: int | None) -> str:
    parts = [f"{k}={v}" for k, v in params.items() if v is not None]
    return ("?" + "&".join(parts)) if parts else ""


def standings_fragment(championship: Championship, round_only: int | None,
                       through: int | None) -> tuple[str | None, LiveStandings | None]:
    """The standings fragment's HTML (cached per version and language) and, when it was
    computed now, the values it shows."""
    computed: list[LiveStandings] = []

    def build() -> str | None:
        data = live_standings(championship, round_only=round_only, through_round=through)
        asked = round_only if round_only is not None else through
        if asked is not None and asked not in data.rounds and not championship.rounds.filter(
            number=asked
        ).exists():
            return None
        computed.append(data)
        poll = reverse("live_standings", args=[championship.slug]) + _query(
            round=round_only, through=through)
        return render_to_string("tournaments/live/standings.html", _fragment_context(
            championship, "standings", poll, standings=data))

    html = _cached(championship, f"all:standings:{round_only}:{through}", build)
    return html, (computed[0] if computed else None)


def traveller_fragment(championship: Championship, number: int, *, staff: bool
                       ) -> tuple[str | None, LiveTraveller | None]:
    computed: list[LiveTraveller] = []

    def build() -> str | None:
        data = live_traveller(championship, number, for_public=not staff)
        if data is None:
            return None
        computed.append(data)
        poll = reverse("live_traveller", args=[championship.slug, number])
        return render_to_string("tournaments/live/traveller.html", _fragment_context(
            championship, "traveller", poll, traveller=data, sees_hidden=staff))

    viewer = "staff" if staff else "public"
    html = _cached(championship, f"{viewer}:traveller:{number}", build)
    return html, (computed[0] if computed else None)


def card_fragment(championship: Championship, number: int, *, staff: bool
                  ) -> tuple[str | None, LiveCard | None]:
    from django.utils.translation import gettext as _

    computed: list[LiveCard] = []

    def label(ranks: list[tuple[int, int]]) -> str:
        return _("Posició després de cada ronda: %(ranks)s") % {
            "ranks": ", ".join(f"R{n} {r}" for n, r in ranks)}

    def build() -> str | None:
        data = live_card(championship, number, for_public=not staff, chart_label=label)
        if data is None:
            return None
        computed.append(data)
        seats: list[Any] = []
        next_seat = None
        try:
            from tournaments import seating
        except ImportError:  # pragma: no cover - the seating guide is optional
            seating = None  # type: ignore[assignment]
        if seating is not None:
            pair = Pair.objects.get(championship=championship, number=number)
            pair.championship = championship
            seats = seating.pair_seats(pair)
            next_seat = seating.next_seat(seats)
        poll = reverse("live_pair_card", args=[championship.slug, number])
        return render_to_string("tournaments/live/pair_card.html", _fragment_context(
            championship, "card", poll, card=data, seats=seats, next_seat=next_seat))

    viewer = "staff" if staff else "public"
    html = _cached(championship, f"{viewer}:card:{number}", build)
    return html, (computed[0] if computed else None)


def hall_fragment(championship: Championship) -> str:
    def build() -> str:
        data = live_standings(championship)
        scored = selectors.scored_championship(championship, public_only=True)
        board = latest_complete_board(scored)
        latest = live_traveller(championship, board, for_public=True) if board else None
        return render_to_string("tournaments/live/hall.html", _fragment_context(
            championship, "hall", reverse("live_hall", args=[championship.slug]),
            standings=data, current=current_progress(data.round_progress), latest=latest))

    return _cached(championship, "all:hall", build) or ""


# --------------------------------------------------------------------------- views


def _round_params(request: HttpRequest) -> tuple[int | None, int | None]:
    def number(name: str) -> int | None:
        raw = request.GET.get(name, "").strip()
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else None

    # The round selector without JavaScript sends ``scope=round=N`` / ``scope=through=N``.
    kind, _sep, value = request.GET.get("scope", "").partition("=")
    if kind in ("round", "through") and value.isascii() and value.isdigit() and len(value) <= 6:
        return (int(value), None) if kind == "round" else (None, int(value))
    round_only = number("round")
    return round_only, (None if round_only is not None else number("through"))


@condition(etag_func=etag)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings: overall, ``?round=N`` or ``?through=N``, public boards only for
    everyone; a malformed round is ignored, a round the championship lacks is a 404."""
    championship = _championship(request, slug)
    round_only, through = _round_params(request)
    html, data = standings_fragment(championship, round_only, through)
    if html is None:
        raise Http404("No such round")

    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      round_only=round_only, through=through, standings=data,
                      rounds=_rounds(championship, data))

    response = _page(request, championship, "tournaments/standings.html", context,
                     "standings")
    return _live(response, private=request.user.is_authenticated)


def _rounds(championship: Championship, data: LiveStandings | None) -> list[int]:
    """Rounds with tables, for the round selector (cached with the version)."""
    if data is not None:
        rounds = data.rounds
        cache.set(f"{_stamp(championship)}:rounds", rounds, FRAGMENT_TTL)
        return rounds
    rounds = cache.get(f"{_stamp(championship)}:rounds")
    if rounds is None:
        rounds = sorted(set(
            Seating.objects.filter(round__championship=championship)
            .values_list("round__number", flat=True)
        ))
        cache.set(f"{_stamp(championship)}:rounds", rounds, FRAGMENT_TTL)
    return list(rounds)


@condition(etag_func=etag)
def traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A board's traveller: the deal as a compass, every table's result, previous/next
    board. Hidden from the public until every table due has played it."""
    championship = _championship(request, slug)
    staff = _sees_hidden(request, championship)
    html, data = traveller_fragment(championship, number, staff=staff)
    if html is None:
        raise Http404("No such board")
    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      number=number, traveller=data)

    response = _page(request, championship, "tournaments/traveller.html", context,
                     "traveller")
    return _live(response, private=request.user.is_authenticated)


@condition(etag_func=etag)
def pair_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A pair's card: board by board, rank after each round, next seat."""
    championship = _championship(request, slug)
    staff = _sees_hidden(request, championship)
    html, data = card_fragment(championship, number, staff=staff)
    if html is None:
        raise Http404("No such pair")
    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      number=number, card=data)

    response = _page(request, championship, "tournaments/pair_card.html", context, "card")
    return _live(response, private=request.user.is_authenticated)


@condition(etag_func=etag)
def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector screen: large type, no controls, the whole standings paged by
    itself, the round's progress and the latest complete board."""
    championship = _championship(request, slug)
    def context() -> dict[str, Any]:
        return {"championship": championship, "poll_seconds": POLL_SECONDS,
                "fragment": mark_safe(hall_fragment(championship))}  # noqa: S308

    return _live(_page(request, championship, "tournaments/hall.html", context, "hall"),
                 private=request.user.is_authenticated)


def fragment(request: HttpRequest, slug: str, name: str, number: int | None = None
             ) -> HttpResponse:
    """``live/<name>/?v=<version>``, what the pages poll: ``204`` while the version is
    ``v`` (one query, htmx swaps nothing), else the fragment (from the cache)."""
    championship = _championship(request, slug)
    if request.GET.get("v") == str(championship.results_version):
        return _live(HttpResponse(status=204), private=request.user.is_authenticated)
    html: str | None
    if name == "standings":
        html, _data = standings_fragment(championship, *_round_params(request))
    elif name == "traveller" and number is not None:
        html, _t = traveller_fragment(championship, number,
                                      staff=_sees_hidden(request, championship))
    elif name == "card" and number is not None:
        html, _c = card_fragment(championship, number,
                                 staff=_sees_hidden(request, championship))
    elif name == "hall":
        html = hall_fragment(championship)
    else:
        raise Http404("No such fragment")
    if html is None:
        raise Http404("Not found")
    return _live(HttpResponse(html), private=request.user.is_authenticated)


def version(request: HttpRequest, slug: str) -> JsonResponse:
    """``{"version": int, "changed_at": ISO 8601 or null}`` (one query)."""
    championship = _championship(request, slug)
    at = championship.results_changed_at
    return _live(JsonResponse({  # type: ignore[return-value]
        "version": championship.results_version,
        "changed_at": at.isoformat() if at else None,
    }), private=False)
