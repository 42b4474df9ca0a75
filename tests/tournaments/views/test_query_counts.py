"""Public pages use a constant number of queries, whatever the number of pairs and
rounds; a page already rendered for the current results version costs one query, and a
poll or a conditional GET of an unchanged page costs one query and computes nothing."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import build_championship

pytestmark = pytest.mark.django_db

# Measured for an anonymous visitor: the championship's row, then the scorer's fixed
# queries (results as values, boards, tables seated per round, byes and withdrawals) and
# the pair names as values; never one per row.
STANDINGS_QUERIES = 6
TRAVELLER_QUERIES = 8  # + the board, and the tables due to play it
PAIR_CARD_QUERIES = 8  # + the pair's seats and its byes (the next seat), by number
# Once rendered for this results version: the championship's row only.
CACHED_QUERIES = 1


def _without_csrf(html: bytes) -> bytes:
    """The page without its CSRF token (masked afresh on every response)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", html)


@pytest.fixture(
    params=[(4, 2), (12, 2), (12, 4)], ids=["4-pairs-2-rounds", "12-pairs-2-rounds",
                                            "12-pairs-4-rounds"]
)
def played(request):
    """A championship of 4 or 12 pairs, 2 or 4 rounds of 3 boards, every round played."""
    pairs, rounds = request.param
    return build_championship(
        pairs=pairs, rounds=rounds, boards_per_round=3, drawn_rounds=rounds,
        played_rounds=rounds,
    )


def test_standings_page_queries_do_not_grow_with_pairs_or_rounds(
    client: Client, played, django_assert_num_queries
) -> None:
    url = reverse("standings", args=[played.slug])
    # The overall standings also ask whether finals started (selectors.finals).
    with django_assert_num_queries(STANDINGS_QUERIES + 1):
        response = client.get(url)
    assert response.status_code == 200
    assert len(response.context["standings"].rows) == played.pairs.count()


def test_standings_of_a_round_queries_do_not_grow_with_pairs(
    client: Client, played, django_assert_num_queries
) -> None:
    with django_assert_num_queries(STANDINGS_QUERIES):
        response = client.get(reverse("standings", args=[played.slug]), {"round": 2})
    assert response.context["standings"].progress.results_in == 3 * played.pairs.count() // 2


def test_traveller_page_queries_do_not_grow_with_pairs(
    client: Client, played, django_assert_num_queries
) -> None:
    with django_assert_num_queries(TRAVELLER_QUERIES):
        response = client.get(reverse("traveller", args=[played.slug, 1]))
    assert len(response.context["traveller"].rows) == played.pairs.count() // 2


def test_pair_card_queries_do_not_grow_with_pairs(
    client: Client, played, django_assert_num_queries
) -> None:
    with django_assert_num_queries(PAIR_CARD_QUERIES):
        response = client.get(reverse("pair_card", args=[played.slug, 1]))
    rounds = played.rounds.count()
    assert len(response.context["card"].rows) == 3 * rounds
    assert [n for n, _rank in response.context["card"].ranks] == list(range(1, rounds + 1))


@pytest.mark.parametrize("name,args", [
    ("standings", []), ("traveller", [1]), ("pair_card", [1]), ("hall", []),
])
def test_a_page_rendered_for_this_version_costs_one_query(
    client: Client, played, django_assert_num_queries, name, args
) -> None:
    url = reverse(name, args=[played.slug, *args])
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(CACHED_QUERIES):
        again = client.get(url)
    assert again.status_code == 200
    assert _without_csrf(again.content) == _without_csrf(first.content)


@pytest.mark.parametrize("name,args", [
    ("live_standings", []), ("live_traveller", [1]), ("live_pair_card", [1]),
    ("live_hall", []),
])
def test_a_poll_of_an_unchanged_fragment_is_204_after_one_query(
    client: Client, played, django_assert_num_queries, name, args
) -> None:
    url = reverse(name, args=[played.slug, *args])
    cache.clear()
    with django_assert_num_queries(CACHED_QUERIES):
        response = client.get(url, {"v": played.results_version})
    assert response.status_code == 204
    assert response.content == b""


def test_a_conditional_get_of_an_unchanged_page_is_304_after_one_query(
    client: Client, played, django_assert_num_queries
) -> None:
    url = reverse("standings", args=[played.slug])
    etag = client.get(url)["ETag"]
    cache.clear()  # nothing rendered to fall back on: the 304 must not need it
    with django_assert_num_queries(CACHED_QUERIES):
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
