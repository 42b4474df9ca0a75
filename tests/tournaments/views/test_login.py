"""After logging in: a user with roles in one championship lands on its page for the role
(``views.after_login`` as ``LOGIN_REDIRECT_URL``); ``next`` still wins."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory, build_championship
from tests.tournaments.conftest import Small
from tournaments.models import Membership

pytestmark = pytest.mark.django_db

PASSWORD = "contrasenya-prova"  # UserFactory's


def _login(client, username: str, next_url: str | None = None):
    data = {"username": username, "password": PASSWORD}
    if next_url is not None:
        data["next"] = next_url
    response = client.post(reverse("login"), data, follow=True)
    assert response.context["user"].is_authenticated
    return response


def test_a_referee_lands_on_the_referee_tables_of_their_championship(client, web: Small):
    response = _login(client, "arbitre-prova")
    assert response.redirect_chain[-1][0] == reverse(
        "referee_tables", args=[web.championship.slug]
    )


def test_an_organiser_lands_on_their_championship_page(client, web: Small) -> None:
    response = _login(client, "organitzador-prova")
    assert response.redirect_chain[-1][0] == reverse("championship", args=[web.championship.slug])


def test_a_head_referee_lands_on_the_referee_tables(client, web: Small) -> None:
    head = UserFactory(username="cap-arbitres")
    head.save()
    Membership.objects.create(championship=web.championship, user=head, role="head_referee")
    response = _login(client, "cap-arbitres")
    assert response.redirect_chain[-1][0] == reverse(
        "referee_tables", args=[web.championship.slug]
    )


def test_roles_in_two_championships_land_on_the_home_page(client, web: Small) -> None:
    other = build_championship(pairs=4, rounds=1, drawn_rounds=0)
    Membership.objects.create(championship=other, user=web.referee, role="referee")
    response = _login(client, "arbitre-prova")
    assert response.redirect_chain[-1][0] == reverse("home")


def test_a_user_without_roles_lands_on_the_home_page(client, db) -> None:
    UserFactory(username="sense-rol").save()
    response = _login(client, "sense-rol")
    assert response.redirect_chain[-1][0] == reverse("home")


def test_next_still_wins_over_the_role_page(client, web: Small) -> None:
    target = reverse("standings", args=[web.championship.slug])
    response = _login(client, "arbitre-prova", next_url=target)
    assert response.redirect_chain[-1][0] == target


def test_the_login_link_on_the_home_page_carries_no_next(client, db) -> None:
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("login")}"' in page


def test_the_login_link_elsewhere_comes_back_to_the_page(client, web: Small) -> None:
    url = reverse("standings", args=[web.championship.slug])
    page = client.get(url).content.decode()
    assert f'href="{reverse("login")}?next=' in page


def test_the_login_page_shows_no_login_link_so_next_never_nests(client, db) -> None:
    page = client.get(reverse("login") + "?next=/c/demo/").content.decode()
    assert f'href="{reverse("login")}?next=' not in page
    assert "%3Fnext%3D" not in page
