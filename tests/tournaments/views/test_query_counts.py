"""Public pages use a constant number of queries, whatever the championship's size."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import build_championship

pytestmark = pytest.mark.django_db

# Measured for an anonymous visitor: the championship, then the selector's fixed queries
# (results as values, boards, tables seated per round, pairs), never one per row.
STANDINGS_QUERIES = 5
TRAVELLER_QUERIES = 7  # + the board, and the tables due to play it
PAIR_CARD_QUERIES = 6  # + the pair


@pytest.fixture(params=[4, 12], ids=["4-pairs", "12-pairs"])
def played(request):
    """A championship of 4 or 12 pairs with two rounds of 3 boards played."""
    return build_championship(
        pairs=request.param, rounds=2, boards_per_round=3, drawn_rounds=2, played_rounds=2
    )


def test_standings_page_queries_do_not_grow_with_pairs(
    client: Client, played, django_assert_num_queries
) -> None:
    url = reverse("standings", args=[played.slug])
    with django_assert_num_queries(STANDINGS_QUERIES):
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
    assert len(response.context["card"].rows) == 6
