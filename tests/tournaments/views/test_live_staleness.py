"""The live pages' staleness rule (docs/decisions.md 44): while a newer results version
exists, a fragment built less than LIVE_STALE_SECONDS ago, or one another request is
rebuilding, is served as it is, with the ETag and the poll version of ITS version; after
the window the next request rebuilds it, once. Each process keeps a championship's row
LIVE_VERSION_MEMO_SECONDS, so a cached page, a 304 and a 204 read no database.

The clock is the test's (``tournaments.web.live.time`` replaced): nothing here waits."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import record
from tournaments import selectors
from tournaments.models import Championship
from tournaments.selectors import live as live_reads
from tournaments.selectors import results as results_reads
from tournaments.web import live

pytestmark = pytest.mark.django_db


class Clock:
    """Stands for the ``time`` module in ``tournaments.live``: moves only when told."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(live, "time", fake)
    monkeypatch.setattr(live_reads, "time", fake)
    live.forget_rows()
    live_reads.forget_scored()
    yield fake
    live.forget_rows()
    live_reads.forget_scored()


@pytest.fixture
def stale(settings) -> None:
    """The production window, the row not kept (each request reads the version)."""
    settings.LIVE_STALE_SECONDS = 1.0
    settings.LIVE_VERSION_MEMO_SECONDS = 0


@pytest.fixture
def builds(monkeypatch) -> list[int]:
    """The versions the standings were computed for, one entry per computation."""
    seen: list[int] = []
    real = live.live_standings

    def counting(championship: Championship, **kwargs):
        seen.append(championship.results_version)
        return real(championship, **kwargs)

    monkeypatch.setattr(live, "live_standings", counting)
    return seen


def _version(response) -> int:
    return int(response["ETag"].strip('"').removeprefix("W/").strip('"').split(".")[0])


def _current(small: Small) -> int:
    return Championship.objects.get(pk=small.championship.pk).results_version


def test_within_the_window_the_old_standings_are_served_with_their_own_etag(
    client, web: Small, clock: Clock, stale, builds
) -> None:
    url = reverse("standings", args=[web.championship.slug])
    first = client.get(url)
    old = _current(web)
    assert _version(first) == old and "Resultats: 0 de 4" in first.content.decode()

    record(web.seatings[0], web.boards[0], 44)
    assert _current(web) == old + 1
    clock.advance(0.5)
    again = client.get(url)
    assert _version(again) == old  # the ETag describes the content sent
    html = again.content.decode()
    assert "Resultats: 0 de 4" in html and f'data-version="{old}"' in html
    # The client holding that copy is told it is up to date.
    assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
    assert builds == [old]

    clock.advance(0.6)  # the copy is now more than a second old: rebuilt
    after = client.get(url, HTTP_IF_NONE_MATCH=again["ETag"])
    assert after.status_code == 200 and _version(after) == old + 1
    assert "Resultats: 1 de 4" in after.content.decode()
    assert builds == [old, old + 1]


def test_the_poll_waits_for_the_window_and_then_gets_the_newest(
    client, web: Small, clock: Clock, stale, builds
) -> None:
    poll = reverse("live_standings", args=[web.championship.slug])
    old = _current(web)
    assert client.get(poll).status_code == 200  # built at the old version
    record(web.seatings[0], web.boards[0], 44)
    record(web.seatings[1], web.boards[0], 30)
    clock.advance(0.9)
    assert client.get(poll, {"v": old}).status_code == 204  # nothing newer to send yet
    clock.advance(0.2)
    newest = client.get(poll, {"v": old})
    assert newest.status_code == 200
    html = newest.content.decode()
    assert f"v={old + 2}" in html and "Resultats: 2 de 4" in html
    assert client.get(poll, {"v": old + 2}).status_code == 204
    assert builds == [old, old + 2]


def test_without_a_window_every_change_is_rebuilt_at_once(
    client, web: Small, clock: Clock, builds
) -> None:
    url = reverse("standings", args=[web.championship.slug])
    old = _current(web)
    client.get(url)
    record(web.seatings[0], web.boards[0], 44)
    assert _version(client.get(url)) == old + 1
    assert builds == [old, old + 1]


def test_one_rebuild_while_many_requests_arrive(web: Small, clock: Clock, stale, builds,
                                               monkeypatch) -> None:
    """While one request rebuilds the standings (it holds the lock), twenty more arrive:
    each gets the copy of the old version at once; the builder ran once."""
    factory = RequestFactory()
    slug = web.championship.slug

    def request(v: int | None = None):
        req = factory.get(reverse("live_standings", args=[slug]),
                          {} if v is None else {"v": v})
        req.user = AnonymousUser()
        return live.fragment(req, slug, "standings")

    old = _current(web)
    assert request().status_code == 200
    record(web.seatings[0], web.boards[0], 44)
    clock.advance(2)

    during: list[tuple[int, str]] = []
    real = live.live_standings

    def slow_build(championship: Championship, **kwargs):
        for _ in range(20):  # requests arriving while this one is computing
            response = request()
            during.append((response.status_code, response.content.decode()))
        return real(championship, **kwargs)

    monkeypatch.setattr(live, "live_standings", slow_build)
    rebuilt = request(old)
    assert rebuilt.status_code == 200 and f"v={old + 1}" in rebuilt.content.decode()
    assert len(during) == 20
    assert all(code == 200 and f"v={old}" in html for code, html in during)
    assert builds == [old, old + 1]  # one rebuild for the twenty-one requests
    monkeypatch.setattr(live, "live_standings", real)
    # The lock is released: the newest copy is served, nothing rebuilt again.
    assert request(old + 1).status_code == 204


def test_a_held_lock_serves_the_old_copy_whatever_its_age(
    client, web: Small, clock: Clock, stale, builds, settings
) -> None:
    url = reverse("live_standings", args=[web.championship.slug])
    old = _current(web)
    client.get(url)
    record(web.seatings[0], web.boards[0], 44)
    clock.advance(3)
    championship = Championship.objects.get(pk=web.championship.pk)
    key = f"{live._base(championship)}:{settings.LANGUAGE_CODE}:all:standings:None:None"
    assert cache.get(key) is not None, "the fragment is cached under this key"
    cache.add(f"{key}:rebuilding", 1, 5)  # another process is rebuilding it
    assert f"v={old}" in client.get(url).content.decode()
    assert builds == [old]
    cache.delete(f"{key}:rebuilding")
    assert f"v={old + 1}" in client.get(url).content.decode()
    assert builds == [old, old + 1]


def test_staff_always_get_the_current_traveller(client, web: Small, clock: Clock,
                                                 stale) -> None:
    client.force_login(web.organiser)
    url = reverse("live_traveller", args=[web.championship.slug, web.boards[0].number])
    old = _current(web)
    assert f"v={old}" in client.get(url).content.decode()
    record(web.seatings[0], web.boards[0], 44)
    assert f"v={old + 1}" in client.get(url).content.decode()


def test_the_fragments_rebuilt_for_one_version_score_it_once(
    client, web: Small, clock: Clock, stale, monkeypatch
) -> None:
    """After a change, the standings, the hall, a traveller and a pair card rebuilt in
    the same second share one scoring of the new version; the next version is scored
    again, and so is the same version once the second has passed."""
    scorings: list[tuple[int, bool]] = []
    real = selectors.scored_championship

    def counting(championship: Championship, *, public_only: bool):
        scorings.append((championship.results_version, public_only))
        return real(championship, public_only=public_only)

    monkeypatch.setattr(results_reads, "scored_championship", counting)
    slug = web.championship.slug
    old = _current(web)
    pages = [reverse("standings", args=[slug]), reverse("hall", args=[slug]),
             reverse("traveller", args=[slug, 1]), reverse("pair_card", args=[slug, 1])]
    for url in pages:
        assert client.get(url).status_code == 200
    assert scorings == [(old, True)]
    record(web.seatings[0], web.boards[0], 44)
    clock.advance(1.5)
    for url in pages:
        assert _version(client.get(url)) == old + 1
    assert scorings == [(old, True), (old + 1, True)]
    clock.advance(1.5)
    live_reads.live_standings(Championship.objects.get(pk=web.championship.pk))
    assert scorings[-1] == (old + 1, True) and len(scorings) == 3


# --------------------------------------------------------------------------- the row


@pytest.mark.parametrize("name,args", [
    ("standings", []), ("traveller", [1]), ("pair_card", [1]), ("hall", []),
])
def test_a_cached_page_reads_no_database_while_the_row_is_kept(
    client, web: Small, clock: Clock, settings, django_assert_num_queries, name, args
) -> None:
    settings.LIVE_VERSION_MEMO_SECONDS = 0.5
    url = reverse(name, args=[web.championship.slug, *args])
    first = client.get(url)
    assert first.status_code == 200
    clock.advance(0.4)
    with django_assert_num_queries(0):
        again = client.get(url)
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        poll = client.get(reverse(f"live_{name}", args=[web.championship.slug, *args]),
                          {"v": _version(first)})
    assert again.status_code == 200 and again["ETag"] == first["ETag"]
    assert not_modified.status_code == 304
    assert poll.status_code == 204
    clock.advance(0.2)  # the row is read again
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_a_change_shows_once_the_kept_row_expires(client, web: Small, clock: Clock,
                                                  settings) -> None:
    settings.LIVE_VERSION_MEMO_SECONDS = 0.5
    url = reverse("live_version", args=[web.championship.slug])
    old = client.get(url).json()["version"]
    record(web.seatings[0], web.boards[0], 44)
    clock.advance(0.3)
    assert client.get(url).json()["version"] == old
    clock.advance(0.3)
    assert client.get(url).json()["version"] == old + 1


def test_the_rows_kept_are_only_read(client, web: Small, clock: Clock, settings) -> None:
    """A page changes nothing on the kept row (other requests share it)."""
    settings.LIVE_VERSION_MEMO_SECONDS = 0.5
    client.get(reverse("standings", args=[web.championship.slug]))
    kept = live._ROWS[web.championship.slug][1]
    before = {k: v for k, v in kept.__dict__.items() if k != "_state"}
    client.get(reverse("pair_card", args=[web.championship.slug, 1]))
    client.get(reverse("traveller", args=[web.championship.slug, 1]))
    assert {k: v for k, v in kept.__dict__.items() if k != "_state"} == before

