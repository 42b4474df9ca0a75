"""Races on the new writes, each thread on its own PostgreSQL connection: two
sign-ups for the last place, two cancels of one registration, a double tap of the
check-in, a merge against a merge the other way, a merge against the linking of a
player to the record being merged. The rules hold whatever the order."""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tests.factories import UserFactory
from tests.threads import at_once
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Championship,
    Pair,
    PeopleAuditEntry,
    Person,
    Player,
    Registration,
)
from tournaments.services import persons as person_services
from tournaments.services import signup

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SITE = "http://testserver"




def open_championship(cap: int) -> Championship:
    championship = services.championship_create(
        name="Obert de Centelles", date=datetime.date(2026, 12, 12), acting_user=None)
    signup.signup_settings_set(championship=championship, signup_open=True,
                               signup_cap=cap, check_in=True, site_url=SITE,
                               acting_user=None)
    championship.refresh_from_db()
    return championship


def submit(championship: Championship, k: int) -> Callable[[], Any]:
    return lambda: signup.signup_submit(
        championship=championship, player1=f"Marta Soler {k}", player2=f"Joan Riera {k}",
        email=f"p{k}@example.org", site_url=SITE)


def test_four_sign_ups_for_the_last_place_at_once_one_holds_it(on_postgres) -> None:
    championship = open_championship(cap=2)
    submit(championship, 0)()
    outcomes = at_once([submit(championship, k) for k in range(1, 5)])
    assert all(isinstance(o, signup.SignedUp) for o in outcomes), outcomes
    statuses = sorted(o.registration.status for o in outcomes)
    assert statuses == ["registered", "waiting", "waiting", "waiting"]
    assert Registration.objects.filter(championship=championship,
                                       status="registered").count() == 2
    positions = list(Registration.objects.filter(championship=championship)
                     .order_by("position").values_list("position", flat=True))
    assert positions == [1, 2, 3, 4, 5]
    places = sorted(o.place for o in outcomes if o.place is not None)
    assert places == [1, 2, 3]


def test_two_cancels_of_one_place_at_once_move_one_waiting_pair_up(on_postgres) -> None:
    championship = open_championship(cap=1)
    held = submit(championship, 0)().registration
    submit(championship, 1)()
    submit(championship, 2)()
    outcomes = at_once([
        lambda: signup.signup_cancel(registration=held, site_url=SITE, by_link=True),
        lambda: signup.signup_cancel(registration=held, site_url=SITE, acting_user=None),
    ])
    assert sorted(len(o) for o in outcomes) == [0, 1], outcomes
    assert list(Registration.objects.filter(championship=championship)
                .order_by("position").values_list("status", flat=True)) == [
        "cancelled", "registered", "waiting"]
    assert AuditEntry.objects.filter(action="signup.cancel").count() == 1
    assert AuditEntry.objects.filter(action="signup.promote").count() == 1


def test_a_double_tap_of_the_check_in_at_once_ticks_the_pair_once(on_postgres) -> None:
    championship = open_championship(cap=4)
    submit(championship, 0)()
    pair = signup.pairs_from_signup(championship=championship, acting_user=None)[0]
    outcomes = at_once([
        lambda: signup.pair_check_in(pair=pair, present=True, acting_user=None)
        for _ in range(3)])
    assert sorted(o.changed for o in outcomes) == [False, False, True], outcomes
    assert AuditEntry.objects.filter(action="pair.check_in").count() == 1
    assert Pair.objects.get(pk=pair.pk).checked_in_at is not None


def test_a_merge_and_the_merge_the_other_way_at_once_make_no_cycle(on_postgres) -> None:
    manager = UserFactory(is_superuser=True)
    one, two = Person.objects.create(name="Anna Puig"), Person.objects.create(name="Ana Puig")
    outcomes = at_once([
        lambda: person_services.person_merge(kept=one, absorbed=two, acting_user=manager),
        lambda: person_services.person_merge(kept=two, absorbed=one, acting_user=manager),
    ])
    refused = [o for o in outcomes if isinstance(o, person_services.PersonError)]
    assert len(refused) == 1 and outcomes.count(None) == 1, outcomes
    merged = list(Person.objects.filter(merged_into__isnull=False))
    assert len(merged) == 1
    assert PeopleAuditEntry.objects.filter(action="person.merge").count() == 1


def test_a_merge_and_an_unmerge_at_once_leave_one_of_them(on_postgres) -> None:
    manager = UserFactory(is_superuser=True)
    one, two, three = (Person.objects.create(name=n)
                       for n in ("Anna Puig", "Ana Puig", "Anna Puig Vila"))
    person_services.person_merge(kept=one, absorbed=two, acting_user=manager)
    outcomes = at_once([
        lambda: person_services.person_unmerge(person=two, acting_user=manager),
        lambda: person_services.person_merge(kept=three, absorbed=two, acting_user=manager),
    ])
    two.refresh_from_db()
    if outcomes[0] is None and outcomes[1] is None:  # the unmerge first, then the merge
        assert two.merged_into_id == three.pk
    else:  # the merge came first and was refused: two was still merged into one
        assert isinstance(outcomes[1], person_services.PersonError), outcomes
        assert two.merged_into_id is None


def test_linking_a_player_while_its_person_is_merged_keeps_one_person_one_player(
    on_postgres, monkeypatch,
) -> None:
    """The merge is held open after its checks; the link waits for it and is then
    refused: the two records are one person who would be two players of one
    championship."""
    manager = UserFactory(is_superuser=True)
    championship = services.championship_create(
        name="Obert de Seva", date=datetime.date(2026, 12, 12), acting_user=None)
    services.pair_register(championship=championship, number=1, player1="Anna Puig",
                           player2="Pere Vila", acting_user=None)
    first, second = Player.objects.filter(championship=championship).order_by("pk")
    kept, absorbed = Person.objects.create(name="Anna Puig"), Person.objects.create(
        name="Pere Vila")
    Player.objects.filter(pk=first.pk).update(person=kept)
    merged, go = threading.Event(), threading.Event()
    real = person_services._after_merge_change

    def held_open(*args: Any) -> None:
        real(*args)
        merged.set()
        go.wait(timeout=10)

    monkeypatch.setattr(person_services, "_after_merge_change", held_open)
    outcomes: list[Any] = [None, None]

    def merge() -> None:
        try:
            person_services.person_merge(kept=kept, absorbed=absorbed, acting_user=manager)
        except Exception as exc:  # asserted on below
            outcomes[0] = exc
        finally:
            connection.close()

    def link() -> None:
        try:
            person_services.player_link(player=second, person=absorbed, acting_user=None)
        except Exception as exc:  # asserted on below
            outcomes[1] = exc
        finally:
            connection.close()

    merging = threading.Thread(target=merge)
    merging.start()
    assert merged.wait(timeout=10)
    linking = threading.Thread(target=link)
    linking.start()
    time.sleep(0.5)
    go.set()
    merging.join(timeout=20)
    linking.join(timeout=20)
    assert outcomes[0] is None, outcomes
    assert isinstance(outcomes[1], person_services.PersonError), outcomes
    assert Player.objects.get(pk=second.pk).person_id is None
