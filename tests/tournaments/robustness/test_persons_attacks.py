"""The persons' writes pushed where they must refuse: a merge cycle, a merge into a
record already merged, deleting a person with results, linking another championship's
player or a person to two players of one championship through the API."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Membership, PeopleAuditEntry, Person, Player
from tournaments.services import persons as person_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db: None) -> dict[str, Any]:
    manager = UserFactory(is_superuser=True)
    championship = services.championship_create(
        name="Obert de Sora", date=datetime.date(2026, 12, 12), acting_user=None)
    services.pair_register(championship=championship, number=1, player1="Anna Puig",
                           player2="Pere Vila", acting_user=None)
    other = services.championship_create(
        name="Obert de Perafita", date=datetime.date(2026, 12, 13), acting_user=None)
    services.pair_register(championship=other, number=1, player1="Laia Serra",
                           player2="Marc Font", acting_user=None)
    return {"manager": manager, "championship": championship, "other": other}


def test_a_merge_back_the_other_way_or_into_a_merged_record_is_refused(two) -> None:
    manager = two["manager"]
    a, b, c = (Person.objects.create(name=n) for n in ("Anna Puig", "Ana Puig", "A. Puig"))
    person_services.person_merge(kept=b, absorbed=a, acting_user=manager)
    with pytest.raises(person_services.PersonError) as back:
        person_services.person_merge(kept=a, absorbed=b, acting_user=manager)
    assert back.value.field == "kept" and f"{b.pk}" in str(back.value)
    with pytest.raises(person_services.PersonError) as again:
        person_services.person_merge(kept=c, absorbed=a, acting_user=manager)
    assert again.value.field == "absorbed"
    person_services.person_merge(kept=c, absorbed=b, acting_user=manager)  # a chain
    with pytest.raises(person_services.PersonError):
        person_services.person_merge(kept=a, absorbed=c, acting_user=manager)
    assert PeopleAuditEntry.objects.filter(action="person.merge").count() == 2


def test_deleting_a_person_with_players_is_refused_by_page_and_nothing_goes(two) -> None:
    championship = two["championship"]
    player = Player.objects.filter(championship=championship).first()
    person = Person.objects.create(name="Anna Puig")
    Player.objects.filter(pk=player.pk).update(person=person)
    client = Client()
    client.force_login(two["manager"])
    answer = client.post(reverse("person_delete", args=[person.pk]), {"confirm": "on"},
                         follow=True)
    assert answer.status_code == 200
    assert Person.objects.filter(pk=person.pk).exists()
    assert Player.objects.get(pk=player.pk).person_id == person.pk


def test_the_api_refuses_another_championships_player_and_one_person_twice(two) -> None:
    championship, other = two["championship"], two["other"]
    organiser = UserFactory()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    client = Client()
    client.force_login(organiser)
    url = reverse("api_player_persons", args=[championship.slug])
    theirs = Player.objects.filter(championship=other).first()
    ours = list(Player.objects.filter(championship=championship).order_by("pk"))
    person = Person.objects.create(name="Anna Puig")
    for body in (
        {"links": [{"player": theirs.pk, "person": None}]},
        {"links": [{"player": ours[0].pk, "person": person.pk},
                   {"player": ours[1].pk, "person": person.pk}]},
        {"links": [{"player": ours[0].pk, "person": 2**31}]},
        {"links": [{"player": "u", "person": None}]},
        {"links": []},
        {"links": [{"player": ours[0].pk, "person": None, "extra": 1}]},
    ):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 400, (body, answer.status_code)
    assert not Player.objects.filter(person__isnull=False).exists()
    assert Person.objects.count() == 1
