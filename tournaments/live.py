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

from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournaments import selectors
from tournaments.models import Championship, Membership, Pair, Seating
from tournaments.selectors.live import (
    LiveCard,
    LiveStandings,
    LiveTraveller,
    current_progress,
    latest_complete_board,
    live_card,
    live_standings,
    live_traveller,
)

#: Seconds a rendered fragment stays in the cache. A change makes the old entries
#: unreachable at once (the version is in the key); this only frees the memory.
FRAGMENT_TTL = 15 * 60
#: How often the live fragments ask whether something changed (htmx ``every``), in
#: seconds: a change shows within about this much plus one request, and a poll of an
#: unchanged page costs one query (a 204).
POLL_SECONDS = 1

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
