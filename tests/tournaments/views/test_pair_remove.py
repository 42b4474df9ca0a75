"""The organiser removes a pair registered by mistake from the pairs page while no round
is drawn (``services.pair_remove``); refusals show as a message."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments.models import Membership, Pair

pytestmark = pytest.mark.django_db


@pytest.fixture
def undrawn():
    championship = build_championship(pairs=4, rounds=1, drawn_rounds=0)
    organiser = UserFactory(username="org-treure")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    return championship, organiser


def test_the_pairs_page_offers_a_remove_button_per_pair_before_any_draw(client, undrawn):
    championship, organiser = undrawn
    client.force_login(organiser)
    page = client.get(reverse("pairs_register", args=[championship.slug])).content.decode()
    for number in (1, 2, 3, 4):
        assert f'action="{reverse("pair_remove", args=[championship.slug, number])}"' in page


def test_removing_a_pair_deletes_it_and_says_so(client, undrawn) -> None:
    championship, organiser = undrawn
    client.force_login(organiser)
    response = client.post(
        reverse("pair_remove", args=[championship.slug, 3]), follow=True
    )
    assert "Parella 3 treta." in " ".join(str(m) for m in response.context["messages"])
    assert sorted(Pair.objects.filter(championship=championship)
                  .values_list("number", flat=True)) == [1, 2, 4]


def test_after_a_draw_there_is_no_remove_button_and_the_service_refuses(
    client, web: Small
) -> None:
    client.force_login(web.organiser)
    slug = web.championship.slug
    page = client.get(reverse("pairs_register", args=[slug])).content.decode()
    assert reverse("pair_remove", args=[slug, 1]) not in page
    response = client.post(reverse("pair_remove", args=[slug, 1]), follow=True)
    assert "no es pot esborrar" in " ".join(str(m) for m in response.context["messages"])
    assert Pair.objects.filter(championship=web.championship, number=1).exists()


def test_a_referee_cannot_remove_a_pair(client, web: Small) -> None:
    client.force_login(web.referee)
    response = client.post(reverse("pair_remove", args=[web.championship.slug, 1]))
    assert response.status_code == 403
    assert Pair.objects.filter(championship=web.championship, number=1).exists()


def test_removing_a_pair_needs_a_post_and_a_get_goes_to_the_pairs_page(client, undrawn) -> None:
    championship, organiser = undrawn
    client.force_login(organiser)
    response = client.get(reverse("pair_remove", args=[championship.slug, 1]))
    assert response.status_code == 302
    assert response["Location"] == reverse("pairs_register", args=[championship.slug])
    assert client.put(reverse("pair_remove", args=[championship.slug, 1])).status_code == 405
    assert Pair.objects.filter(championship=championship).count() == 4
