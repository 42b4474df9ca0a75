"""API v1: a round shows its movement and byes; a pair its joined_round and
withdrawn_after_round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import build_championship
from tournaments import services
from tournaments.models import Bye, Pair, Seating

pytestmark = pytest.mark.django_db


def test_rounds_api_shows_each_rounds_byes_and_movement(client, django_assert_max_num_queries):  # type: ignore[no-untyped-def]
    c = build_championship(pairs=5, rounds=3, boards_per_round=1, drawn_rounds=2)
    with django_assert_max_num_queries(5):  # whatever the number of rounds
        data = client.get(reverse("api_rounds", args=[c.slug])).json()
    byes = {b.round.number: b.pair.number for b in Bye.objects.filter(round__championship=c)}
    assert [r["byes"] for r in data] == [[byes[1]], [byes[2]], []]
    assert [r["movement"] for r in data] == [c.movement, c.movement, ""]
    for r in data[:2]:
        seated = {p for s in r["seatings"] for p in (s["ns"], s["ew"])}
        assert seated | set(r["byes"]) == {1, 2, 3, 4, 5}
        assert not seated & set(r["byes"])
    one = client.get(reverse("api_round", args=[c.slug, 2])).json()
    assert one["byes"] == [byes[2]] and one["movement"] == c.movement
    assert one["seatings"] == data[1]["seatings"]


def test_pairs_api_shows_when_a_pair_joined_and_withdrew(client) -> None:  # type: ignore[no-untyped-def]
    c = build_championship(pairs=4, rounds=3, boards_per_round=1, drawn_rounds=1)
    first = Seating.objects.get(round__number=1, table__number=1)
    services.pair_withdraw(pair=first.ns_pair, after_round=1, reason="malaltia",
                           acting_user=None)
    services.pair_register(championship=c, number=9, player1="Anna Puig",
                                  player2="Pau Roca", acting_user=None)
    data = {p["number"]: p for p in client.get(reverse("api_pairs", args=[c.slug])).json()}
    assert data[first.ns_pair.number]["withdrawn_after_round"] == 1
    assert data[first.ns_pair.number]["joined_round"] == 1
    late = Pair.objects.get(championship=c, number=9)
    assert data[9]["joined_round"] == late.joined_round == 2
    assert data[9]["withdrawn_after_round"] is None
    assert data[first.ew_pair.number]["withdrawn_after_round"] is None


def test_the_schema_describes_byes_movement_and_the_pairs_rounds(client, db) -> None:  # type: ignore[no-untyped-def]
    text = client.get(reverse("schema")).content.decode()
    for name in ("byes", "movement", "joined_round", "withdrawn_after_round"):
        assert name in text, name


def test_a_put_result_on_a_seating_with_a_pair_twice_is_refused_409_naming_it(api) -> None:  # type: ignore[no-untyped-def]
    from tests.tournaments.api.conftest import body
    from tournaments.models import Result

    first, second = api.small.seatings
    Seating.objects.filter(pk=second.pk).update(ew_pair=first.ew_pair)  # edited by hand
    response = api.token_client(api.small.referee).put(api.url(), body(40), format="json")
    assert response.status_code == 409, response.content
    assert f"La parella {first.ew_pair.number} seu dues vegades" in response.content.decode()
    assert not Result.objects.exists()
