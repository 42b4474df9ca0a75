"""Who may create a championship (the ``tournaments.add_championship`` permission), and
pairs refused once a round is drawn, shown on the pages as messages, never a 500."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import Championship, Pair

pytestmark = pytest.mark.django_db

NEW = {"name": "Obert de Nadal", "slug": "", "date": "2026-12-20", "variant": "obligada",
       "doubling": "duplicate", "method": "proportional", "scale_bottom": "1",
       "scale_top": "2", "rounding": "none", "infraction_score": "0",
       "carregar_scope": "void_only"}


def test_a_referee_without_the_permission_gets_403_and_no_link(client, web: Small) -> None:
    client.force_login(web.referee)
    assert client.get(reverse("championship_create")).status_code == 403
    assert client.post(reverse("championship_create"), NEW).status_code == 403
    assert not Championship.objects.filter(name="Obert de Nadal").exists()
    home = client.get(reverse("home")).content.decode()
    assert reverse("championship_create") not in home


def test_a_user_with_the_permission_sees_the_link_and_creates(client, db) -> None:
    user = UserFactory(username="creadora-permesa")
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    client.force_login(user)
    assert reverse("championship_create") in client.get(reverse("home")).content.decode()
    assert client.post(reverse("championship_create"), NEW).status_code == 302
    assert Championship.objects.filter(slug="obert-de-nadal").exists()


def test_a_superuser_may_create(client, db) -> None:
    admin = UserFactory(username="admin-prova", is_superuser=True, is_staff=True)
    admin.save()
    client.force_login(admin)
    assert client.get(reverse("championship_create")).status_code == 200


def test_a_pair_registered_after_the_draw_is_late_and_refused_once_the_last_round_is_drawn(
    client, web: Small
):
    client.force_login(web.organiser)
    url = reverse("pairs_register", args=[web.championship.slug])
    one = client.post(url, {"pair-number": "9", "pair-player1": "Laia", "pair-player2": "Pau",
                            "pair-submit": "1"})
    assert one.status_code == 302
    assert Pair.objects.get(championship=web.championship, number=9).joined_round == 2
    services.round_draw(round=web.round2, seed=3, acting_user=None)
    many = client.post(url, {"csv-text": "10;Laia;Pau", "csv-submit": "1"})
    assert many.status_code == 200
    assert "La darrera ronda (2) ja està sortejada" in many.content.decode()
    assert not Pair.objects.filter(championship=web.championship, number=10).exists()


@pytest.mark.parametrize(
    "line", ["99999999999999999999;a;b", "3000000000;a;b", "²;a;b", "1;" + "a" * 5000 + ";b"],
    ids=["20-digits", "3e9", "superscript-two", "long-name"],
)
def test_a_bad_csv_line_is_a_form_error_naming_its_line(client, web: Small, line) -> None:
    from tournaments.models import Seating

    Seating.objects.filter(round__championship=web.championship).delete()  # before the draw
    client.force_login(web.organiser)
    response = client.post(reverse("pairs_register", args=[web.championship.slug]),
                           {"csv-text": "20;Anna;Joan\n" + line, "csv-submit": "1"})
    assert response.status_code == 200
    assert response.context["csv_form"].errors["text"][0].startswith("línia 2: ")
    assert not Pair.objects.filter(championship=web.championship, number=20).exists()
