"""Withdraw, late entry and the bye from a round's seating page (and the pairs page)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Bye, Membership, Pair, Round, Seating

pytestmark = pytest.mark.django_db


def _seating_url(small: Small, number: int = 1) -> str:
    return reverse("round_seating", args=[small.championship.slug, number])


def test_the_organiser_withdraws_a_pair_from_the_seating_page(client, web: Small) -> None:
    client.force_login(web.organiser)
    seating = _seating_url(web)
    page = client.get(seating).content.decode()
    withdraw = reverse("pair_withdraw", args=[web.championship.slug, 3])
    assert f'href="{withdraw}?next=' in page
    form = client.get(withdraw, {"next": seating})
    assert f'name="next" value="{seating}"' in form.content.decode()
    response = client.post(withdraw, {"after_round": "0", "reason": "Malaltia",
                                      "next": seating})
    assert response.status_code == 302 and response["Location"] == seating
    pair = Pair.objects.get(championship=web.championship, number=3)
    assert pair.withdrawn_after_round == 0
    # Round 1 had no result: its draw is undone, to be drawn again without pair 3.
    assert not Seating.objects.filter(round=web.round1).exists()


def test_an_outside_next_is_ignored(client, web: Small) -> None:
    client.force_login(web.organiser)
    withdraw = reverse("pair_withdraw", args=[web.championship.slug, 3])
    response = client.post(withdraw, {"after_round": "0", "reason": "x",
                                      "next": "https://evil.example/"})
    assert response["Location"] == reverse("pairs_register", args=[web.championship.slug])


def test_a_late_pair_registers_from_the_seating_page(client, web: Small) -> None:
    client.force_login(web.organiser)
    seating = _seating_url(web)
    page = client.get(seating)
    assert page.context["late_round"] == 2
    assert 'id="late-entry"' in page.content.decode()
    response = client.post(
        reverse("pairs_register", args=[web.championship.slug]),
        {"pair-number": "5", "pair-player1": "Anna", "pair-player2": "Pere",
         "pair-submit": "1", "next": seating},
    )
    assert response.status_code == 302 and response["Location"] == seating
    assert Pair.objects.get(championship=web.championship, number=5).joined_round == 2


def test_the_bye_shows_on_the_seating_and_pairs_pages(client) -> None:
    championship = build_championship(pairs=5, rounds=2, drawn_rounds=1)
    organiser = UserFactory(username="org-senar")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    (bye,) = Bye.objects.filter(round__championship=championship)
    number = bye.pair.number
    client.force_login(organiser)
    page = client.get(reverse("round_seating", args=[championship.slug, 1]))
    html = page.content.decode()
    assert page.context["may_redraw"] is True
    assert 'id="bye-how"' in html
    assert reverse("round_draw", args=[championship.slug, 1]) in html
    # The pair sitting out can be withdrawn from here too.
    assert reverse("pair_withdraw", args=[championship.slug, number]) in html
    pairs = client.get(reverse("pairs_register", args=[championship.slug])).content.decode()
    assert "descansa a la ronda 1" in pairs


def test_players_see_no_organiser_actions_on_the_seating(client, web: Small) -> None:
    for user in (None, web.referee):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        page = client.get(_seating_url(web))
        assert page.status_code == 200
        assert 'id="round-actions"' not in page.content.decode()


def test_no_late_entry_once_the_last_round_is_drawn(client, web: Small) -> None:
    services.round_draw(round=Round.objects.get(pk=web.round2.pk), seed=3, acting_user=None)
    client.force_login(web.organiser)
    page = client.get(_seating_url(web, 2))
    assert page.context["late_round"] is None
    assert 'id="late-entry"' not in page.content.decode()


def test_the_seating_title_holds_no_actions(client, web: Small) -> None:
    client.force_login(web.organiser)
    html = client.get(_seating_url(web)).content.decode()
    title = html[html.index("<title>") + 7:html.index("</title>")]
    assert "Taules de la ronda 1" in title
    assert "<" not in title and "round-actions" not in title
    assert html.count('id="round-actions"') == 1


def test_a_late_pair_is_told_the_round_it_joins_when_registered(client) -> None:
    """The seating page said "from round 2" when it was loaded; if round 2 was drawn
    meanwhile the pair joins round 3, and the message after the save says which."""
    championship = build_championship(pairs=4, rounds=3, drawn_rounds=1)
    organiser = UserFactory(username="org-tarda")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client.force_login(organiser)
    seating = reverse("round_seating", args=[championship.slug, 1])
    assert client.get(seating).context["late_round"] == 2
    services.round_draw(round=Round.objects.get(championship=championship, number=2),
                        acting_user=None, seed=3)
    response = client.post(
        reverse("pairs_register", args=[championship.slug]),
        {"pair-number": "5", "pair-player1": "Anna", "pair-player2": "Pere",
         "pair-submit": "1", "next": seating}, follow=True,
    )
    assert Pair.objects.get(championship=championship, number=5).joined_round == 3
    assert "Parella 5 inscrita: entra a la ronda 3." in response.content.decode()
    client.post(reverse("set_language"), {"language": "en"})
    response = client.post(
        reverse("pairs_register", args=[championship.slug]),
        {"pair-number": "6", "pair-player1": "Marta", "pair-player2": "Joan",
         "pair-submit": "1"}, follow=True,
    )
    assert "Pair 6 registered: it joins in round 3." in response.content.decode()
    translation.activate("ca")  # the requests left English active in this thread
