"""The seating page (public once drawn), the pair card's next seat, withdrawing a pair
and deleting a championship from the organiser's pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.conftest import Small
from tournaments.models import Championship, Pair, Seating

pytestmark = pytest.mark.django_db


def test_the_seating_page_is_public_once_drawn_and_shows_tables_and_pairs(client, web: Small):
    page = client.get(reverse("round_seating", args=[web.championship.slug, 1]))
    assert page.status_code == 200
    first = Seating.objects.filter(round=web.round1).order_by("table__number").first()
    text = page.content.decode()
    assert 'id="seating"' in text and first.ns_pair.names in text
    assert client.get(reverse("round_seating", args=[web.championship.slug, 2])).status_code \
        == 404


def test_the_pair_card_says_where_the_pair_sits_next(client, web: Small):
    seating = Seating.objects.filter(round=web.round1).order_by("table__number").first()
    page = client.get(reverse("pair_card", args=[web.championship.slug,
                                                 seating.ew_pair.number]))
    assert page.context["next_seat"].table == seating.table.number
    assert page.context["next_seat"].direction == "EW"
    assert 'id="next-seat"' in page.content.decode()


def test_the_organiser_withdraws_a_pair_with_a_reason(client, web: Small):
    client.force_login(web.organiser)
    pair = Seating.objects.filter(round=web.round1).first().ns_pair
    url = reverse("pair_withdraw", args=[web.championship.slug, pair.number])
    refused = client.post(url, {"after_round": "1", "reason": ""})
    assert refused.status_code == 200 and not Pair.objects.get(pk=pair.pk).is_withdrawn
    done = client.post(url, {"after_round": "1", "reason": "Malaltia"})
    assert done.status_code == 302
    assert Pair.objects.get(pk=pair.pk).withdrawn_after_round == 1


def test_deleting_a_championship_names_what_goes_and_needs_its_identifier(client, web: Small):
    client.force_login(web.organiser)
    url = reverse("championship_delete", args=[web.championship.slug])
    page = client.get(url)
    assert page.context["summary"].pairs == 4 and 'id="deletion-summary"' in page.content.decode()
    assert client.post(url, {"confirm_slug": "no"}).status_code == 200
    assert Championship.objects.filter(pk=web.championship.pk).exists()
    assert client.post(url, {"confirm_slug": web.championship.slug}).status_code == 302
    assert not Championship.objects.filter(pk=web.championship.pk).exists()
