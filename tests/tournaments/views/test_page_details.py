"""Small things the testers saw on the pages: dates written as each language does, no
stray separators, the right words before a draw and after the end, labels, links."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.forms import ChampionshipForm, RulesForm
from tournaments.models import Championship, Round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "expected"),
    [("ca", "29 de novembre de 2026"), ("es", "29 de noviembre de 2026"),
     ("en", "Nov. 29, 2026")],
)
def test_the_date_is_written_as_the_language_does_on_both_pages(
    client, web: Small, language, expected
) -> None:
    client.cookies["django_language"] = language
    assert expected in client.get(reverse("home")).content.decode()
    page = client.get(reverse("championship", args=[web.championship.slug])).content.decode()
    assert expected in page


def test_catalan_elides_de_before_a_vowel_in_a_date() -> None:
    from django.utils.formats import date_format

    with translation.override("ca"):
        assert date_format(datetime.date(2026, 4, 5), "DATE_FORMAT") == "5 d'abril de 2026"
        assert date_format(datetime.date(2026, 11, 29)) == "29 de novembre de 2026"


def test_no_stray_separator_without_date_or_venue(client, db) -> None:
    championship = services.championship_create(
        name="Sense data", date=None, venue="", acting_user=None
    )
    home = client.get(reverse("home")).content.decode()
    page = client.get(reverse("championship", args=[championship.slug])).content.decode()
    # Each championship says its format (classic or duplicate), no stray separator.
    assert '<strong>Sense data</strong><span class="muted">Predonats · Esborrany</span>' in home
    assert '<p class="muted" id="when-where"><span class="badge">' in page
    services.championship_create(name="Partides", date=None, venue="", format="classic",
                                 acting_user=None)
    home = client.get(reverse("home")).content.decode()
    assert '<strong>Partides</strong><span class="muted">Clàssic · Esborrany</span>' in home


def test_a_hidden_board_before_its_round_is_drawn_says_so(client, web: Small) -> None:
    board = web.championship.boards.get(number=3)  # round 2: not drawn
    page = client.get(reverse("traveller", args=[web.championship.slug, 3])).content.decode()
    assert board.round_id == web.round2.pk
    assert "en falten 0" not in page
    assert "encara no s'ha sortejat" in page


def test_after_the_end_the_page_says_the_seed_can_be_published_now(client, web: Small):
    url = reverse("championship", args=[web.championship.slug])
    assert "La llavor es publicarà quan acabi el campionat." in client.get(url).content.decode()
    services.championship_finish(championship=web.championship, acting_user=None)
    page = client.get(url).content.decode()
    assert "La llavor es publicarà quan acabi" not in page
    assert "l'organitzador ja pot publicar la llavor" in page


def test_the_administration_link_is_for_staff_only(client, web: Small) -> None:
    url = reverse("championship", args=[web.championship.slug])
    admin = reverse("admin:index")
    client.force_login(web.organiser)
    assert admin not in client.get(url).content.decode()
    web.organiser.is_staff = True
    web.organiser.save()
    assert admin not in client.get(reverse("home")).content.decode()
    assert admin in client.get(url).content.decode()


@pytest.mark.parametrize("form_class", [ChampionshipForm, RulesForm])
def test_no_label_has_two_colons(form_class) -> None:
    html = str(form_class().as_div())
    assert "Mínim de l&#x27;escala:" in html and "Màxim de l&#x27;escala:" in html
    assert "escala: mínim" not in html.lower() and "::" not in html


def test_a_round_of_a_finished_championship_offers_no_close_button(client, web: Small):
    services.championship_finish(championship=web.championship, acting_user=None)
    client.force_login(web.organiser)
    page = client.get(reverse("championship", args=[web.championship.slug])).content.decode()
    assert reverse("round_close", args=[web.championship.slug, 1]) not in page
    assert Round.objects.filter(championship=web.championship, closed_at=None).count() == 0


def test_a_new_championship_starts_without_boards_and_without_a_separator(client, db):
    user = UserFactory(username="nova-org")
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    client.force_login(user)
    client.post(reverse("championship_create"), {
        "name": "Obert", "slug": "obert", "date": "", "venue": "", "variant": "obligada",
        "doubling": "duplicate", "method": "proportional", "scale_bottom": "1",
        "scale_top": "2", "rounding": "none", "infraction_score": "0",
        "carregar_scope": "void_only",
    })
    assert Championship.objects.filter(slug="obert").exists()
    page = client.get(reverse("championship", args=["obert"])).content.decode()
    assert "Encara no s'han generat els taulers." in page
    assert '<p class="muted" id="when-where"><span class="badge">' in page
