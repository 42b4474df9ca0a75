"""The live public pages: standings, traveller, pair card and the hall screen, cheap for a
hall full of phones. A classic championship has the same pages from its own read models
(``selectors.classic_live``), no traveller, and a live page per round (``round_games``);
one in stages also its groups page and its knockout bracket (``selectors.stages``), which
answer a conditional GET by ETag or by Last-Modified.

How they stay cheap (docs/architecture.md, docs/performance.md, docs/decisions.md 44):

- Every accepted change that can alter a public page bumps the championship's
  ``results_version`` in its own transaction (``services.common.bump_results_version``).
- Each process keeps a championship's row ``LIVE_VERSION_MEMO_SECONDS`` (half a second):
  within it a cached page, a 304 and a 204 poll read no database.
- The part of a page that the results make (a *fragment*) is kept in Django's cache
  (``CACHES``: local memory, or Redis when ``REDIS_URL`` is set) per language, viewer
  class (public or staff, who see hidden boards) and parameters, with the version it was
  built from and when. While a newer version exists, the copy is still served if it was
  built less than ``LIVE_STALE_SECONDS`` ago (a second) or another process is already
  rebuilding it (a short lock, ``cache.add``); else this request takes the lock and
  rebuilds it. A fragment is thus recomputed at most about once a second, whatever the
  number of phones and results, and never by every worker at once.
- Each page carries an ETag made of the version of the content actually sent, the
  language and the viewer (anonymous or one user); a conditional GET naming the
  current version, or the version that would be sent, is a 304 computing nothing. The
  public's whole page is kept in the cache too, with a hole for the CSRF token.
- The fragment polls ``live/<fragment>/?v=<version>`` every second with htmx (``v``: the
  version of the fragment it shows): ``204 No Content`` (htmx swaps nothing) while
  there is nothing newer than ``v`` to send, else the fragment; once results stop, the
  poll after about a second gets the newest.
  Without JavaScript the pages are plain pages.

What the fragments compute reads values (``selectors.scored_championship``'s tuples and
pair names as tuples), never a model instance per row, in a constant number of queries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournaments import permissions, selectors
from tournaments.models import Championship, Seating, Stage
from tournaments.permissions import Capability
from tournaments.selectors.classic import ClassicStandings
from tournaments.selectors.classic_live import (
    live_classic_card,
    live_classic_hall,
    live_classic_standings,
    live_round_games,
)
from tournaments.selectors.classic_words import ranking_order
from tournaments.selectors.finals import FinalsView
from tournaments.selectors.live import (
    FIND_MAX,
    find_pairs,
    live_card,
    live_finals,
    live_hall,
    live_standings,
    live_traveller,
    rank_chart,
)
from tournaments.selectors.seating import next_seat, pair_seats
from tournaments.selectors.stages import bracket_view, groups_view, pair_stages, stage_of_kind
from tournaments.selectors.standings import Standings
from tournaments.web.live_rows import (
    CLASSIC_EXTRA_COLUMNS,
    classic_standings_rows,
    standings_rows,
    traveller_rows,
)

#: Seconds a rendered fragment stays in the cache (a newer version replaces it).
FRAGMENT_TTL = 15 * 60
#: How often the live fragments ask whether something changed (htmx ``every``), in
#: seconds: a change shows within about this much plus the staleness allowed
#: (``LIVE_VERSION_MEMO_SECONDS``, ``LIVE_STALE_SECONDS``), and a poll of an unchanged
#: page costs at most one query (a 204).
POLL_SECONDS = 1
#: Seconds a rebuild's lock lasts at most: a rebuild that died frees it by itself.
REBUILD_LOCK_SECONDS = 5



# --------------------------------------------------------------------------- the row

#: ``{slug: (time.monotonic() when read, the row)}``: the rows this process keeps.
_ROWS: dict[str, tuple[float, Championship]] = {}
_ROWS_MAX = 1000


def _championship(request: HttpRequest, slug: str) -> Championship:
    """The championship of ``slug``, or 404: read once per request, and kept by the
    process ``LIVE_VERSION_MEMO_SECONDS`` (0: read by every request). The kept row is
    only read (its version, name and rules), never saved."""
    cached: dict[str, Championship] = request.__dict__.setdefault("_live_championships", {})
    if slug in cached:
        return cached[slug]
    keep = float(getattr(settings, "LIVE_VERSION_MEMO_SECONDS", 0) or 0)
    now = time.monotonic()
    kept = _ROWS.get(slug) if keep > 0 else None
    if kept is not None and now - kept[0] < keep:
        championship = kept[1]
    else:
        found = Championship.objects.filter(slug=slug).first()
        if found is None:
            _ROWS.pop(slug, None)
            raise Http404("No such championship")
        championship = found
        if keep > 0:
            if len(_ROWS) >= _ROWS_MAX:
                _ROWS.clear()
            _ROWS[slug] = (now, championship)
    cached[slug] = championship
    return championship


def forget_rows() -> None:
    """Forget the rows this process keeps (tests)."""
    _ROWS.clear()


def _viewer_key(request: HttpRequest) -> str:
    """Who the page is for, in the ETag: the public (``a``) or one logged-in user (their
    roles decide what they see and the page shows their name)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return "a"
    return f"u{user.pk}"


def _tag(request: HttpRequest, version: int) -> str:
    """``<version>.<language>.<viewer>``: the ETag of content built from ``version``."""
    return f"{version}.{get_language()}.{_viewer_key(request)}"


def _sees_hidden(request: HttpRequest, championship: Championship) -> bool:
    return selectors.user_sees_hidden_boards(request.user, championship)


def _base(championship: Championship) -> str:
    """The championship, unique even if a deleted championship's id is reused: a cache
    key's prefix."""
    born = championship.created_at.timestamp() if championship.created_at else 0
    return f"live:{championship.pk}:{born:.6f}"


# --------------------------------------------------------------------------- the cache


@dataclass(frozen=True, slots=True)
class Served:
    """A fragment as sent: the version it was built from (the page's ETag and the
    poll's ``v`` say this version), its HTML (``None``: no such round, board or pair, a
    404) and, when this request built it, the values it shows."""

    version: int
    html: str | None
    data: Any = None


def _stale_seconds() -> float:
    return float(getattr(settings, "LIVE_STALE_SECONDS", 0) or 0)


def _cached(championship: Championship, name: str, build: Callable[[], tuple[str | None, Any]],
            *, stale: float | None = None) -> Served:
    """The fragment ``name`` (which names the viewer class and the parameters; the
    language is added): the cached copy when it is of the current version or newer;
    while a newer version exists, still the cached copy if it was built less than
    ``stale`` seconds ago (default ``LIVE_STALE_SECONDS``) or another request holds the
    rebuild lock; else rebuilt by ``build`` (``(html, values)``) under the lock and
    stored with its version. ``None`` (a 404) is cached too, so a wrong address is as
    cheap as a right one."""
    key = f"{_base(championship)}:{get_language()}:{name}"
    version = championship.results_version
    hit = cache.get(key)
    lock = None
    if hit is not None:
        built_version, built_at, html = hit
        if built_version >= version:
            return Served(built_version, html)
        window = _stale_seconds() if stale is None else stale
        if time.time() - built_at < window:
            return Served(built_version, html)
        lock = f"{key}:rebuilding"
        if not cache.add(lock, 1, REBUILD_LOCK_SECONDS):
            return Served(built_version, html)  # another request is rebuilding it
    try:
        html, data = build()
        latest = cache.get(key)
        if latest is None or latest[0] <= version:  # never replace a newer copy
            cache.set(key, (version, time.time(), html), FRAGMENT_TTL)
    finally:
        if lock is not None:
            cache.delete(lock)
    return Served(version, html, data)


def _live(response: HttpResponse, *, private: bool) -> HttpResponse:
    """Browsers must ask again every time (they then get a 304 when nothing changed)."""
    # Only ``private`` when it is: ``private=None`` would write "private=None".
    patch_cache_control(response, no_cache=True, **({"private": True} if private else {}))
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


#: Stands for the CSRF token in a page kept whole in the cache (the public's pages):
#: each request puts its own token in (:func:`_page`).
CSRF_HOLE = "__live_csrf_token__"


def _page(request: HttpRequest, championship: Championship, template: str,
          context: Callable[[], dict[str, Any]], name: str, version: int) -> HttpResponse:
    """The page for the public is rendered once per version of its fragment, language
    and address and kept whole in the cache, with a hole for the CSRF token (the
    language form's) that each request fills with its own; a logged-in user, or a
    request with messages to show, gets a page rendered for it."""
    from django.contrib.messages import get_messages
    from django.middleware.csrf import get_token

    if request.user.is_authenticated or len(get_messages(request)):
        return render(request, template, context())
    key = (f"{_base(championship)}:{version}:{get_language()}:page:{name}:"
           f"{request.get_full_path()}")
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, {**context(), "csrf_token": CSRF_HOLE}, request)
        cache.set(key, html, FRAGMENT_TTL)
    return HttpResponse(html.replace(CSRF_HOLE, get_token(request)))


def _shell(request: HttpRequest, championship: Championship, **extra: Any) -> dict[str, Any]:
    # The roles and what they allow, from tournaments.permissions as every page reads
    # them (views._context): the layout's links must not disagree between pages.
    roles = selectors.user_roles(request.user, championship)
    caps = permissions.capabilities_of(roles)
    return {
        "championship": championship,
        "roles": roles,
        "is_organiser": bool(roles & permissions.ORGANISER),
        "can_referee": Capability.ENTER_RESULT in caps,
        "sees_hidden": Capability.SEE_HIDDEN_BOARDS in caps,
        "poll_seconds": POLL_SECONDS,
        **extra,
    }


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
                       through: int | None) -> Served:
    """The standings fragment (the same for every viewer), as :func:`_cached` serves it."""
    if championship.is_classic:
        if round_only is not None:  # a round alone is its games (round_games)
            return Served(championship.results_version, None)
        return classic_standings_fragment(championship, through)

    def build() -> tuple[str | None, Standings | None]:
        data = live_standings(championship, round_only=round_only, through_round=through)
        asked = round_only if round_only is not None else through
        if asked is not None and asked not in data.rounds and not championship.rounds.filter(
            number=asked
        ).exists():
            return None, None
        poll = reverse("live_standings", args=[championship.slug]) + _query(
            round=round_only, through=through)
        finals, shown = _finals_and_qualifying(championship, data, round_only, through)
        return render_to_string("tournaments/live/standings.html", _fragment_context(
            championship, "standings", poll, standings=shown, finals=finals,
            rows_html=standings_rows(championship.slug, shown.rows,
                                     by_average=shown.by_average))), data

    return _cached(championship, f"all:standings:{round_only}:{through}", build)


def _finals_and_qualifying(
    championship: Championship, data: Standings, round_only: int | None,
    through: int | None,
) -> tuple[FinalsView | None, Standings]:
    """Once a duplicate championship's finals started, its overall standings are each
    final's (``selectors.finals``) above the qualifying stage's (the standings after its
    last round, with the whole championship's progress): the finals' boards are compared
    within each final, so an overall total over both stages would mix them. Any other
    scope: ``data`` as it is."""
    if round_only is not None or through is not None:
        return None, data
    finals = live_finals(championship)
    if finals is None or finals.last_qualifying_round is None:
        return None, data
    qualifying = live_standings(championship, through_round=finals.last_qualifying_round)
    return finals, replace(qualifying, progress=data.progress,
                           round_progress=data.round_progress)


def classic_standings_fragment(championship: Championship, through: int | None) -> Served:
    """A classic championship's standings fragment, overall or after round ``through``
    (a round the championship lacks: ``None``, a 404)."""

    def build() -> tuple[str | None, ClassicStandings | None]:
        data = live_classic_standings(championship, through_round=through)
        if through is not None and through not in data.rounds and not (
                championship.rounds.filter(number=through).exists()):
            return None, None
        extra = [t for t in data.tiebreaks if t in CLASSIC_EXTRA_COLUMNS]
        poll = reverse("live_standings", args=[championship.slug]) + _query(through=through)
        return render_to_string("tournaments/live/classic_standings.html", _fragment_context(
            championship, "standings", poll, standings=data, extra_columns=extra,
            ranking_order=ranking_order(championship.classic_rules()),
            bracket=_started_bracket(championship),
            rows_html=classic_standings_rows(championship.slug, data.rows, extra))), data

    return _cached(championship, f"all:classic-standings:{through}", build)


def round_games_fragment(championship: Championship, number: int) -> Served:
    """A classic championship's round: its tables, each game or "en joc", its byes
    (no such round, or a championship that is not classic: ``None``, a 404)."""

    def build() -> tuple[str | None, Any]:
        data = live_round_games(championship, number) if championship.is_classic else None
        if data is None:
            return None, None
        poll = reverse("live_round_games", args=[championship.slug, number])
        return render_to_string("tournaments/live/round_games.html", _fragment_context(
            championship, "round", poll, round=data,
            rules=championship.classic_rules())), data

    return _cached(championship, f"all:round:{number}", build)


def _staff_stale(staff: bool) -> float | None:
    """The organiser and the head referee (few, and checking what they just entered)
    always get the current version; the public may get a copy up to a second old."""
    return 0.0 if staff else None


def traveller_fragment(championship: Championship, number: int, *, staff: bool) -> Served:
    def build() -> tuple[str | None, Any]:
        if championship.is_classic:  # no boards: games are entered whole
            return None, None
        data = live_traveller(championship, number, for_public=not staff)
        if data is None:
            return None, None
        poll = reverse("live_traveller", args=[championship.slug, number])
        return render_to_string("tournaments/live/traveller.html", _fragment_context(
            championship, "traveller", poll, traveller=data, sees_hidden=staff,
            rows_html=traveller_rows(championship.slug, data),
        )), data

    viewer = "staff" if staff else "public"
    return _cached(championship, f"{viewer}:traveller:{number}", build,
                   stale=_staff_stale(staff))


def card_fragment(championship: Championship, number: int, *, staff: bool) -> Served:
    from django.utils.translation import gettext as _

    if championship.is_classic:
        return classic_card_fragment(championship, number)

    def build() -> tuple[str | None, Any]:
        data = live_card(championship, number, for_public=not staff)
        if data is None:
            return None, None
        label = _("Posició després de cada ronda: %(ranks)s") % {
            "ranks": ", ".join(f"R{n} {r}" for n, r in data.ranks)}
        chart = rank_chart(data.ranks, data.pairs_ranked, label)
        seats = pair_seats(championship, number)
        poll = reverse("live_pair_card", args=[championship.slug, number])
        return render_to_string("tournaments/live/pair_card.html", _fragment_context(
            championship, "card", poll, card=data, chart=chart, seats=seats,
            next_seat=next_seat(seats))), data

    viewer = "staff" if staff else "public"
    return _cached(championship, f"{viewer}:card:{number}", build, stale=_staff_stale(staff))


def classic_card_fragment(championship: Championship, number: int) -> Served:
    """A classic pair's card: round by round its table, opponent, score, result and
    running wins, the rank after each round as a chart, and its next seat (the same for
    every viewer: a classic championship hides nothing)."""
    from django.utils.translation import gettext as _

    def build() -> tuple[str | None, Any]:
        data = live_classic_card(championship, number)
        if data is None:
            return None, None
        label = _("Posició després de cada ronda: %(ranks)s") % {
            "ranks": ", ".join(f"R{n} {r}" for n, r in data.ranks)}
        chart = rank_chart(data.ranks, data.pairs_ranked, label)
        seats = pair_seats(championship, number)
        # A round whose game is in is behind the pair, closed or not (a knockout's
        # loser would otherwise read its last table as where it sits next).
        played = {line.round for line in data.lines if line.result not in ("playing", "bye")}
        poll = reverse("live_pair_card", args=[championship.slug, number])
        return render_to_string("tournaments/live/classic_pair_card.html", _fragment_context(
            championship, "card", poll, card=data, chart=chart, seats=seats,
            next_seat=next_seat(s for s in seats if s.round not in played),
            rules=championship.classic_rules(),
            stages=pair_stages(championship, number))), data

    return _cached(championship, f"all:classic-card:{number}", build)


def hall_fragment(championship: Championship) -> Served:
    if championship.is_classic:
        return classic_hall_fragment(championship)

    def build() -> tuple[str, None]:
        data = live_hall(championship)
        return render_to_string("tournaments/live/hall.html", _fragment_context(
            championship, "hall", reverse("live_hall", args=[championship.slug]),
            standings=data.standings, current=data.current, latest=data.latest,
        )), None

    return _cached(championship, "all:hall", build)


def classic_hall_fragment(championship: Championship) -> Served:
    def build() -> tuple[str, None]:
        data = live_classic_hall(championship)
        return render_to_string("tournaments/live/classic_hall.html", _fragment_context(
            championship, "hall", reverse("live_hall", args=[championship.slug]),
            hall=data, standings=data.standings,
            ranking_order=ranking_order(championship.classic_rules()),
            bracket=_started_bracket(championship),
        )), None

    return _cached(championship, "all:classic-hall", build)


def _started_bracket(championship: Championship) -> Any:
    """The knockout's bracket once it has started (the hall shows it then), else
    ``None``."""
    stage = stage_of_kind(championship, Stage.Kind.KNOCKOUT)
    if stage is None or not stage.is_started:
        return None
    return bracket_view(championship, stage)


def groups_fragment(championship: Championship) -> Served:
    """A classic championship's groups: each group's standings and who goes through
    (``selectors.stages.groups_view``). No groups stage: ``None``, a 404."""

    def build() -> tuple[str | None, Any]:
        stage = (stage_of_kind(championship, Stage.Kind.GROUPS)
                 if championship.is_classic else None)
        if stage is None:
            return None, None
        data = groups_view(championship, stage)
        poll = reverse("live_groups", args=[championship.slug])
        return render_to_string("tournaments/live/groups.html", _fragment_context(
            championship, "groups", poll, stage=stage, groups=data)), data

    return _cached(championship, "all:groups", build)


def bracket_fragment(championship: Championship) -> Served:
    """A classic championship's knockout bracket (``selectors.stages.bracket_view``). No
    knockout stage: ``None``, a 404."""

    def build() -> tuple[str | None, Any]:
        stage = (stage_of_kind(championship, Stage.Kind.KNOCKOUT)
                 if championship.is_classic else None)
        if stage is None:
            return None, None
        data = bracket_view(championship, stage)
        poll = reverse("live_bracket", args=[championship.slug])
        return render_to_string("tournaments/live/bracket.html", _fragment_context(
            championship, "bracket", poll, stage=stage, bracket=data)), data

    return _cached(championship, "all:bracket", build)


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


Serve = Callable[..., Served]


def _serve_standings(request: HttpRequest, championship: Championship) -> Served:
    return standings_fragment(championship, *_round_params(request))


def _serve_traveller(request: HttpRequest, championship: Championship, number: int) -> Served:
    return traveller_fragment(championship, number, staff=_sees_hidden(request, championship))


def _serve_card(request: HttpRequest, championship: Championship, number: int) -> Served:
    return card_fragment(championship, number, staff=_sees_hidden(request, championship))


def _serve_hall(request: HttpRequest, championship: Championship) -> Served:
    return hall_fragment(championship)


def _serve_round(request: HttpRequest, championship: Championship, number: int) -> Served:
    return round_games_fragment(championship, number)


def _serve_groups(request: HttpRequest, championship: Championship) -> Served:
    return groups_fragment(championship)


def _serve_bracket(request: HttpRequest, championship: Championship) -> Served:
    return bracket_fragment(championship)


def _served(request: HttpRequest, serve: Serve, slug: str, *args: Any) -> Served:
    """What this request sends, found once (by the ETag, else by the view)."""
    served: Served | None = request.__dict__.get("_live_served")
    if served is None:
        served = serve(request, _championship(request, slug), *args)
        request.__dict__["_live_served"] = served
    return served


def _etag_of(serve: Serve) -> Callable[..., str]:
    """The ETag of what the view would send: a client that names the current version
    gets its 304 from the row alone (nothing looked up, nothing built); otherwise the
    fragment is found (or rebuilt) and the ETag names the version it was built from."""

    def etag(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> str:
        championship = _championship(request, slug)
        current = _tag(request, championship.results_version)
        held = request.META.get("HTTP_IF_NONE_MATCH")
        if held and f'"{current}"' in {t.removeprefix("W/") for t in parse_etags(held)}:
            return current
        return _tag(request, _served(request, serve, slug, *args, *kwargs.values()).version)

    return etag


def _modified_of(serve: Serve) -> Callable[..., Any]:
    """The Last-Modified of what the view would send: when the championship's results
    last changed, if the content sent is of the current version (a copy still being
    rebuilt has none: its date would be newer than what it shows). A request naming an
    ETag gets none (the ETag decides, and the 304 then computes nothing)."""

    def modified(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> Any:
        if request.META.get("HTTP_IF_NONE_MATCH"):
            return None
        championship = _championship(request, slug)
        served = _served(request, serve, slug, *args, *kwargs.values())
        if served.html is None or served.version != championship.results_version:
            return None
        return championship.results_changed_at or championship.created_at

    return modified


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings (:func:`_standings`). A classic championship's round alone
    (``?round=N``) is its games: the round's page (``round_games``)."""
    championship = _championship(request, slug)
    if championship.is_classic:
        round_only, _through = _round_params(request)
        if round_only is not None:
            return redirect("round_games", championship.slug, round_only)
    return _standings(request, slug)


@condition(etag_func=_etag_of(_serve_standings))
def _standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Live standings: overall, ``?round=N`` or ``?through=N``, public boards only for
    everyone; a malformed round is ignored, a round the championship lacks is a 404.
    ``?find=`` lists the pairs "find my pair" finds (:func:`selectors.live.find_pairs`),
    each linked to its pair card: the search works without JavaScript."""
    championship = _championship(request, slug)
    round_only, through = _round_params(request)
    served = _served(request, _serve_standings, slug)
    if served.html is None:
        raise Http404("No such round")
    html = served.html

    find = " ".join(request.GET.get("find", "").split())[:FIND_MAX]

    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      round_only=round_only, through=through, standings=served.data,
                      rounds=_rounds(championship, served), find=find,
                      found=find_pairs(championship, find) if find else ())

    if find:  # a search is one reader's: not kept in the cache
        response = render(request, "tournaments/standings.html", context())
    else:
        response = _page(request, championship, "tournaments/standings.html", context,
                         "standings", served.version)
    return _live(response, private=request.user.is_authenticated)


def _rounds(championship: Championship, served: Served) -> list[int]:
    """Rounds with tables, for the round selector (cached with the version)."""
    key = f"{_base(championship)}:{served.version}:rounds"
    if served.data is not None:
        rounds = served.data.rounds
        cache.set(key, rounds, FRAGMENT_TTL)
        return list(rounds)
    rounds = cache.get(key)
    if rounds is None:
        rounds = sorted(set(
            Seating.objects.filter(round__championship=championship)
            .values_list("round__number", flat=True)
        ))
        cache.set(key, rounds, FRAGMENT_TTL)
    return list(rounds)


@condition(etag_func=_etag_of(_serve_traveller))
def traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A board's traveller: the deal as a compass, every table's result, previous/next
    board. Hidden from the public until every table due has played it."""
    championship = _championship(request, slug)
    served = _served(request, _serve_traveller, slug, number)
    if served.html is None:
        raise Http404("No such board")
    html = served.html

    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      number=number, traveller=served.data)

    response = _page(request, championship, "tournaments/traveller.html", context,
                     "traveller", served.version)
    return _live(response, private=request.user.is_authenticated)


@condition(etag_func=_etag_of(_serve_card))
def pair_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A pair's card: board by board, rank after each round, next seat."""
    championship = _championship(request, slug)
    served = _served(request, _serve_card, slug, number)
    if served.html is None:
        raise Http404("No such pair")
    html = served.html

    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      number=number, card=served.data)

    response = _page(request, championship, "tournaments/pair_card.html", context, "card",
                     served.version)
    return _live(response, private=request.user.is_authenticated)


@condition(etag_func=_etag_of(_serve_hall))
def hall(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector screen: large type, no controls, the whole standings paged by
    itself, the round's progress and the latest complete board."""
    championship = _championship(request, slug)
    served = _served(request, _serve_hall, slug)

    def context() -> dict[str, Any]:
        return {"championship": championship, "poll_seconds": POLL_SECONDS,
                "fragment": mark_safe(served.html or "")}  # noqa: S308

    return _live(_page(request, championship, "tournaments/hall.html", context, "hall",
                       served.version),
                 private=request.user.is_authenticated)


@condition(etag_func=_etag_of(_serve_round))
def round_games(request: HttpRequest, slug: str, round: int) -> HttpResponse:
    """A classic championship's round, public and live: each table's pairs and game
    (the score, or "en joc"), the byes, games in out of tables. A round the
    championship lacks, or a championship that is not classic: 404."""
    championship = _championship(request, slug)
    served = _served(request, _serve_round, slug, round)
    if served.html is None:
        raise Http404("No such round")
    html = served.html

    def context() -> dict[str, Any]:
        numbers = set(championship.rounds.values_list("number", flat=True))
        return _shell(request, championship, fragment=mark_safe(html),  # noqa: S308
                      number=round,
                      previous=round - 1 if round - 1 in numbers else None,
                      next=round + 1 if round + 1 in numbers else None)

    response = _page(request, championship, "tournaments/round_games.html", context,
                     "round", served.version)
    return _live(response, private=request.user.is_authenticated)


def _stage_page(request: HttpRequest, slug: str, serve: Serve, template: str,
                name: str) -> HttpResponse:
    championship = _championship(request, slug)
    served = _served(request, serve, slug)
    if served.html is None:
        raise Http404("No such stage")
    html = served.html

    def context() -> dict[str, Any]:
        return _shell(request, championship, fragment=mark_safe(html))  # noqa: S308

    response = _page(request, championship, template, context, name, served.version)
    return _live(response, private=request.user.is_authenticated)


@condition(etag_func=_etag_of(_serve_groups),
           last_modified_func=_modified_of(_serve_groups))
def groups(request: HttpRequest, slug: str) -> HttpResponse:
    """A classic championship's groups, public and live: each group's standings, who
    goes through and how, the rule. A championship without a groups stage: 404."""
    return _stage_page(request, slug, _serve_groups, "tournaments/groups.html", "groups")


@condition(etag_func=_etag_of(_serve_bracket),
           last_modified_func=_modified_of(_serve_bracket))
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """A classic championship's knockout bracket, public and live: each round's matches
    with their pairs, score, winner, round and table; the champion, runner-up and third.
    A championship without a knockout stage: 404."""
    return _stage_page(request, slug, _serve_bracket, "tournaments/bracket.html", "bracket")


_FRAGMENTS: dict[str, Serve] = {
    "standings": _serve_standings, "traveller": _serve_traveller, "card": _serve_card,
    "hall": _serve_hall, "round": _serve_round, "groups": _serve_groups,
    "bracket": _serve_bracket,
}


def fragment(request: HttpRequest, slug: str, name: str, number: int | None = None
             ) -> HttpResponse:
    """``live/<name>/?v=<version>``, what the pages poll (``v``: the version of the
    fragment shown): ``204`` when the current version is ``v`` (nothing looked up) or
    the fragment that would be sent is not newer than ``v`` (htmx swaps nothing), else
    the fragment."""
    championship = _championship(request, slug)
    raw = request.GET.get("v", "")
    shown = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None
    private = request.user.is_authenticated
    if shown == championship.results_version:
        return _live(HttpResponse(status=204), private=private)
    serve = _FRAGMENTS.get(name)
    takes_number = name in ("traveller", "card", "round")
    if serve is None or takes_number != (number is not None):
        raise Http404("No such fragment")
    served = serve(request, championship, *([number] if takes_number else []))
    if shown is not None and served.version <= shown:
        return _live(HttpResponse(status=204), private=private)
    if served.html is None:
        raise Http404("Not found")
    return _live(HttpResponse(served.html), private=private)


def version(request: HttpRequest, slug: str) -> JsonResponse:
    """``{"version": int, "changed_at": ISO 8601 or null}`` (at most one query)."""
    championship = _championship(request, slug)
    at = championship.results_changed_at
    return _live(JsonResponse({  # type: ignore[return-value]  # _live returns what it is given
        "version": championship.results_version,
        "changed_at": at.isoformat() if at else None,
    }), private=False)
