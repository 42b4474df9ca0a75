"""Players' short names on the standings page and in the API, "find my pair" by any part
of a name (case and accents ignored, without JavaScript), a pasted tab list with a
header, and short names through the interchange file."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.errors import InterchangeError
from tests.factories import build_championship
from tournaments import services
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def named():
    """Four pairs, round 1 played; pair 1 is Josep Maria Vilaseca and Montse
    Puigdomènech."""
    c = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                           played_rounds=1)
    pair = Pair.objects.get(championship=c, number=1)
    Player.objects.filter(pk=pair.player1_id).update(name="Josep Maria Vilaseca")
    Player.objects.filter(pk=pair.player2_id).update(name="Montse Puigdomènech")
    return c


def test_the_standings_api_and_page_show_the_short_form(client, named):
    data = client.get(reverse("api_standings", args=[named.slug])).json()
    row = next(r for r in data["standings"] if r["pair"] == 1)
    assert row["short"] == "J. M. Vilaseca – M. Puigdomènech"
    assert row["names"] == "Josep Maria Vilaseca – Montse Puigdomènech"
    html = client.get(reverse("standings", args=[named.slug])).content.decode()
    assert "J. M. Vilaseca – M. Puigdomènech" in html
    pairs = client.get(reverse("api_pairs", args=[named.slug])).json()
    assert pairs[0]["short"] == "J. M. Vilaseca – M. Puigdomènech"


def test_a_short_name_set_by_the_organiser_replaces_the_default(client, named):
    pair = Pair.objects.get(championship=named, number=1)
    Player.objects.filter(pk=pair.player1_id).update(short_name="Pep Vilaseca")
    data = client.get(reverse("api_standings", args=[named.slug])).json()
    assert next(r for r in data["standings"] if r["pair"] == 1)["short"] == (
        "Pep Vilaseca – M. Puigdomènech")
    card = client.get(reverse("api_score_card", args=[named.slug, 1])).json()
    assert card["short"] == "Pep Vilaseca – M. Puigdomènech"


@pytest.mark.parametrize("query", ["vilaseca", "montse", "puigdomenech", "PUIGDOMÈNECH",
                                   "josep  maria", "Vilaseca ", "1"])
def test_find_my_pair_finds_by_any_part_of_a_name_without_javascript(client, named, query):
    response = client.get(reverse("standings", args=[named.slug]), {"find": query})
    assert response.status_code == 200
    found = [p.number for p in response.context["found"]]
    # Another pair may hold a "Montserrat" too: every pair found holds the text.
    assert found[0] == 1
    word = query.strip().lower().replace("è", "e")
    for number in found[1:]:
        pair = Pair.objects.select_related("player1", "player2").get(
            championship=named, number=number)
        assert word in pair.names.lower()
    html = response.content.decode()
    card = reverse("pair_card", args=[named.slug, 1])
    assert '<section id="found"' in html and f'href="{card}"' in html


def test_find_my_pair_says_when_nothing_matches_and_keeps_the_round(client, named):
    response = client.get(reverse("standings", args=[named.slug]),
                          {"find": "zzz", "round": "1"})
    assert response.context["found"] == ()
    html = response.content.decode()
    assert "Cap parella té aquest número o nom." in html
    assert '<input type="hidden" name="round" value="1">' in html
    plain = client.get(reverse("standings", args=[named.slug])).content.decode()
    assert 'id="found"' not in plain


def test_a_tab_paste_with_a_header_registers_every_pair_and_lists_the_skipped(client, small):
    from tournaments.models import Seating
    Seating.objects.filter(round__championship=small.championship).delete()
    small.organiser.save()
    client.force_login(small.organiser)
    url = reverse("pairs_register", args=[small.championship.slug])
    response = client.post(url, {
        "csv-text": "Núm.\tJugador 1\tJugador 2\n10\tAnna Puig\tJordi Vila\n\n"
                    "11\tMarta Soler\tJoan Font\n",
        "csv-submit": "1",
    }, follow=True)
    assert response.status_code == 200
    assert set(Pair.objects.filter(championship=small.championship, number__gte=10)
               .values_list("number", flat=True)) == {10, 11}
    shown = [str(m) for m in response.context["messages"]]
    assert "Línia 1 (capçalera) ignorada." in shown
    assert "Línia 3 (en blanc) ignorada." in shown


def test_the_pair_form_takes_the_short_names(client, small):
    from tournaments.models import Seating
    Seating.objects.filter(round__championship=small.championship).delete()
    small.organiser.save()
    client.force_login(small.organiser)
    url = reverse("pairs_register", args=[small.championship.slug])
    response = client.post(url, {
        "pair-number": "9", "pair-player1": "Josep Maria Vilaseca", "pair-short1": "Pep",
        "pair-player2": "Anna Puig", "pair-short2": "", "pair-submit": "1"})
    assert response.status_code == 302
    pair = Pair.objects.select_related("player1", "player2").get(
        championship=small.championship, number=9)
    assert (pair.player1.short_name, pair.player2.short_name) == ("Pep", "")
    page = client.get(url).content.decode()
    assert "Pep – A. Puig" in page


def test_short_names_travel_in_the_interchange_file(named):
    pair = Pair.objects.get(championship=named, number=1)
    Player.objects.filter(pk=pair.player1_id).update(short_name="Pep Vilaseca")
    exported = services.championship_export(named)
    by_name = {p["name"]: p for p in exported["players"]}
    assert by_name["Josep Maria Vilaseca"]["short_name"] == "Pep Vilaseca"
    assert "short_name" not in by_name["Montse Puigdomènech"]
    copy = services.championship_import(data=exported, acting_user=None).championship
    assert set(Player.objects.filter(championship=copy).exclude(short_name="")
               .values_list("name", "short_name")) == {("Josep Maria Vilaseca", "Pep Vilaseca")}
    exported["players"][0]["short_name"] = "x" * 61
    with pytest.raises(InterchangeError) as exc:
        services.championship_import(data=exported, acting_user=None)
    assert "players[0].short_name" in str(exc.value)


def test_the_organiser_changes_a_registered_pairs_short_names_after_the_draw(client, small):
    small.organiser.save()
    client.force_login(small.organiser)
    pair = Pair.objects.get(championship=small.championship, number=2)
    url = reverse("pair_short_names", args=[small.championship.slug, 2])
    page = client.get(url)
    assert page.status_code == 200
    assert f'href="{url}"' in client.get(
        reverse("pairs_register", args=[small.championship.slug])).content.decode()
    response = client.post(url, {"short1": "  Pep  ", "short2": ""}, follow=True)
    assert response.status_code == 200
    pair.player1.refresh_from_db()
    assert pair.player1.short_name == "Pep"
    from tournaments.models import AuditEntry
    entry = AuditEntry.objects.filter(championship=small.championship,
                                      action="pair.short_names").get()
    assert entry.after == {"short1": "Pep", "short2": ""}
    data = client.get(reverse("api_standings", args=[small.championship.slug])).json()
    assert any(r["short"].startswith("Pep – ") for r in data["standings"] if r["pair"] == 2) \
        or not data["standings"]
    assert reverse("pair_short_names", args=[small.championship.slug, 2]) in url


def test_a_short_name_too_long_is_refused_next_to_its_field(client, small):
    small.organiser.save()
    client.force_login(small.organiser)
    url = reverse("pair_short_names", args=[small.championship.slug, 1])
    response = client.post(url, {"short1": "", "short2": "x" * 61})
    assert response.status_code == 200
    assert response.context["form"].errors["short2"]
    assert not Player.objects.filter(championship=small.championship).exclude(
        short_name="").exists()


def test_only_the_organiser_changes_short_names(client, small):
    small.referee.save()
    client.force_login(small.referee)
    url = reverse("pair_short_names", args=[small.championship.slug, 1])
    assert client.post(url, {"short1": "X", "short2": ""}).status_code == 403
    with pytest.raises(services.NotAllowedError):
        services.pair_short_names_set(pair=Pair.objects.get(championship=small.championship,
                                                            number=1),
                                      short1="X", short2="", acting_user=small.referee)
    assert not Player.objects.filter(championship=small.championship).exclude(
        short_name="").exists()


def test_a_players_name_with_html_is_text_on_the_short_names_page(client, small):
    """The player's full name shows under each field as text: a name pasted with markup
    ("<img onerror=...>") must not run in the organiser's browser."""
    small.organiser.save()
    client.force_login(small.organiser)
    pair = Pair.objects.get(championship=small.championship, number=1)
    Player.objects.filter(pk=pair.player1_id).update(name="Anna <img src=x onerror=alert(1)>")
    page = client.get(reverse("pair_short_names", args=[small.championship.slug, 1]))
    html = page.content.decode()
    assert "<img src=x" not in html
    assert "Anna &lt;img src=x onerror=alert(1)&gt;" in html
