"""The persons' pages: the championship's linking page (organiser), the persons list and
merge form (managers of persons only), a person's public page (merged address
redirects; public name only), the alias on the public standings, export, anonymise."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import PairFactory, UserFactory
from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import record
from tournaments import services
from tournaments.models import Pair, Person, Player
from tournaments.selectors import persons as reads
from tournaments.selectors.standings import standings as standings_of

pytestmark = pytest.mark.django_db


def _pair(small: Small, number: int) -> Pair:
    return Pair.objects.select_related("player1", "player2").get(
        championship=small.championship, number=number)


def _person(name: str, licence: str = "") -> Person:
    return services.person_create(name=name, licence=licence, acting_user=None)


def test_the_linking_page_proposes_links_one_row_and_all(client, web: Small) -> None:
    url = reverse("championship_persons", args=[web.championship.slug])
    jordi = _person("jordi vilá")  # pair 1, player 1 is "Jordi Vila"
    client.force_login(web.referee)
    assert client.get(url).status_code == 403
    client.force_login(web.organiser)
    # The championship's page and the pairs page link to it while players are unlinked.
    assert url in client.get(reverse("championship", args=[web.championship.slug])
                             ).content.decode()
    assert url in client.get(reverse("pairs_register", args=[web.championship.slug])
                             ).content.decode()
    page = client.get(url).content.decode()
    player = _pair(web, 1).player1
    assert f'name="p{player.pk}" value="{jordi.pk}" checked' in page
    assert "8 jugadors sense persona" in page
    # A search adds the persons found as choices of that row.
    other = _person("Jordi Altre")
    page = client.post(url, {"search": str(player.pk), f"q{player.pk}": "altre"}
                       ).content.decode()
    assert f'value="{other.pk}"' in page
    # That row alone, with another person chosen.
    client.post(url, {"one": str(player.pk), f"p{player.pk}": str(other.pk)})
    assert Player.objects.get(pk=player.pk).person_id == other.pk
    # Every other row starts on "new person" (no proposal for them): one button.
    page = client.get(url).content.decode()
    rows = reads.unlinked_players(web.championship)
    assert all(f'name="p{r.player_id}" value="new" checked' in page for r in rows)
    data = {f"p{r.player_id}": "new" for r in rows}
    data[f"p{rows[0].player_id}"] = ""  # "not now": left as it is
    response = client.post(url, {"all": "1", **data})
    assert Player.objects.get(pk=rows[0].player_id).person_id is None
    data[f"p{rows[0].player_id}"] = "new"
    response = client.post(url, {"all": "1", **data}, follow=True)
    assert "1 jugador enllaçat." in response.content.decode()
    assert not Player.objects.filter(championship=web.championship,
                                     person__isnull=True).exists()
    assert "Tots els jugadors estan enllaçats" in response.content.decode()


def test_the_person_page_lists_championships_and_redirects_a_merged_address(
        client, web: Small) -> None:
    here, there = _person("Jordi Vila"), _person("J. Vila")
    services.player_link(player=_pair(web, 1).player1, person=here, acting_user=None)
    elsewhere = PairFactory(number=3, player1__name="J. Vila", player2__name="Anna Roca")
    services.player_link(player=elsewhere.player1, person=there, acting_user=None)
    staff = UserFactory(username="staff-persones", is_staff=True)
    client.force_login(staff)
    merge = reverse("persons_merge")
    # The first form is sent by GET ("Veure-les"): no CSRF token to land in the address.
    choose = client.get(merge).content.decode()
    form = choose[choose.index('id="merge-form"'):choose.index("</form>", choose.index(
        'id="merge-form"'))]
    assert "Veure-les" in form and "csrfmiddlewaretoken" not in form
    page = client.get(merge, {"kept": here.pk, "absorbed": there.pk}).content.decode()
    form = page[page.index('id="merge-form"'):]
    assert "csrfmiddlewaretoken" in form[:form.index("</form>")]
    assert elsewhere.championship.name in page and web.championship.name in page
    client.post(merge, {"kept": here.pk, "absorbed": there.pk, "confirm": "on"})
    there.refresh_from_db()
    assert there.merged_into_id == here.pk
    client.logout()
    response = client.get(reverse("person", args=[there.pk]))
    assert response.status_code == 302 and response.url == reverse("person", args=[here.pk])
    page = client.get(reverse("person", args=[here.pk])).content.decode()
    assert web.championship.name in page and elsewhere.championship.name in page
    assert "Anna Roca" in page  # the partner, by public name
    assert "Desfer la fusió" not in page  # the public sees no action
    client.force_login(staff)
    page = client.get(reverse("person", args=[here.pk])).content.decode()
    assert "Desfer la fusió" in page
    client.post(reverse("person_unmerge", args=[there.pk]))
    there.refresh_from_db()
    assert there.merged_into_id is None


def test_the_merge_preview_says_a_refusal_before_the_confirmation(client, web: Small) -> None:
    pair = _pair(web, 1)
    one, two = _person("Jordi Vila"), _person("Anna Puig")
    services.player_link(player=pair.player1, person=one, acting_user=None)
    services.player_link(player=pair.player2, person=two, acting_user=None)
    client.force_login(UserFactory(username="staff-preview", is_staff=True))
    page = client.get(reverse("persons_merge"),
                      {"kept": one.pk, "absorbed": two.pk}).content.decode()
    assert "No es poden fusionar: van jugar junts a la parella 1" in page
    assert Person.objects.get(pk=two.pk).merged_into_id is None


def test_only_managers_of_persons_see_the_list_and_the_merge_form(
        client, web: Small) -> None:
    a, b = _person("A"), _person("B")
    client.force_login(web.organiser)  # organises a championship, not a circuit
    assert client.get(reverse("persons")).status_code == 403
    assert client.post(reverse("persons_merge"),
                       {"kept": a.pk, "absorbed": b.pk, "confirm": "on"}).status_code == 403
    assert Person.objects.get(pk=b.pk).merged_into_id is None
    client.logout()
    assert client.get(reverse("persons")).status_code == 302  # to the login page


def test_the_alias_shows_jugador_n_on_the_public_standings(client, web: Small) -> None:
    for seating in web.seatings:
        for board in web.boards:
            record(seating, board)
    person = _person("Montserrat Soler")
    services.player_link(player=_pair(web, 2).player1, person=person, acting_user=None)
    standings = reverse("standings", args=[web.championship.slug])
    assert "Montserrat Soler" in client.get(standings).content.decode()
    client.force_login(web.organiser)
    response = client.post(reverse("person_edit", args=[person.pk]), {
        "name": "Montserrat Soler", "public_alias": "on"})
    assert response.status_code == 302
    client.logout()
    page = client.get(standings).content.decode()
    assert "Montserrat" not in page and f"Jugador {person.pk}" in page
    page = client.get(reverse("person", args=[person.pk])).content.decode()
    assert "Montserrat" not in page and f"Jugador {person.pk}" in page
    # The place and the percentage, as the standings have them.
    row = next(r for r in standings_of(web.championship, for_public=True).rows
               if r.pair.number == 2)
    assert f"<td class=\"num\">{row.rank}</td>" in page and row.percent_text in page


def test_export_downloads_json_and_anonymise_erases(client, web: Small) -> None:
    person = _person("Josep Font", licence="LIC-3")
    services.player_link(player=_pair(web, 3).player1, person=person, acting_user=None)
    client.force_login(web.organiser)
    assert client.get(reverse("person_export", args=[person.pk])).status_code == 302
    response = client.post(reverse("person_export", args=[person.pk]))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["records"][0]["licence"] == "LIC-3"
    # Delete is refused: the pair sat at a table.
    response = client.post(reverse("person_delete", args=[person.pk]), {"confirm": "on"},
                           follow=True)
    assert "anonimitzar" in response.content.decode()
    assert Person.objects.filter(pk=person.pk).exists()
    client.post(reverse("person_anonymise", args=[person.pk]), {"confirm": "on"})
    person.refresh_from_db()
    assert person.anonymised_at is not None and person.licence == ""
    assert _pair(web, 3).player1.name == f"Jugador {person.pk}"
