"""The Sant Vicenç choice on /championships/new/ and on the rules page says what it does
under each doubling: x8 (x16 on a botifarra) with classic doubling; recorded, no score
changed, with duplicate doubling."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from engine import Suit
from engine.score import classic_multiplier
from tests.factories import UserFactory
from tests.tournaments.conftest import Small

pytestmark = pytest.mark.django_db


def _help(html: str, field: str) -> str:
    start = html.index(f'id="id_{field}_helptext"')
    return html[start:html.index("</div>", start)]


def test_the_new_championship_page_says_what_sant_vicenc_does(client) -> None:
    client.force_login(UserFactory(username="admin", is_superuser=True))
    html = client.get(reverse("championship_create")).content.decode()
    text = _help(html, "sant_vicenc")
    suit = classic_multiplier(trump=Suit.O, contro=True, recontro=True, sant_vicenc=True)
    botifarra = classic_multiplier(trump=None, contro=True, recontro=True, sant_vicenc=True)
    assert (suit, botifarra) == (8, 16)
    assert f"×{suit} (×{botifarra} en botifarra)" in text
    assert "doblatge duplicat queda anotat al resultat però no canvia cap puntuació" in text
    assert f"×{botifarra}" in _help(html, "sant_vicenc_on_botifarra")


def test_the_rules_page_says_it_too_in_the_readers_language(client, web: Small) -> None:
    client.force_login(web.organiser)
    with translation.override("ca"):
        html = client.get(reverse("rules_edit", args=[web.championship.slug]),
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
    text = _help(html, "sant_vicenc")
    assert "×8" in text and "×16" in text
    assert "changes no score" in text
