"""Scale: a championship of 200 pairs (400 players, 200 sign-ups, 400 persons of the
same names) and a circuit of 30 championships. Each organiser page reads a fixed number
of queries whatever the number of pairs (no query per row: the same count at 20 pairs as
at 200) and answers in well under a second."""

from __future__ import annotations

import datetime
import os
import time
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from benchmarks.bench_circuits import build as build_circuit
from tests.factories import UserFactory
from tournaments.models import (
    Championship,
    Circuit,
    CircuitEvent,
    Membership,
    Pair,
    Person,
    Player,
    Registration,
)
from tournaments.models.people import name_key

#: Pairs per championship of the circuit (``SCALE_CIRCUIT_PAIRS=200``: the figures of
#: a real season, about 20 s more).
CIRCUIT_PAIRS = int(os.environ.get("SCALE_CIRCUIT_PAIRS", "20"))


def big_championship(slug: str, pairs: int) -> Championship:
    """``pairs`` pairs made from as many sign-ups, half of them checked in, and a person
    of each player's name (the linking page proposes one for every row)."""
    championship = Championship.objects.create(
        name=f"Obert {slug}", slug=slug, date=datetime.date(2026, 12, 12),
        signup_open=True, signup_cap=pairs + 10, check_in=True)
    names = [f"Jugador{slug} Cognom{k}" for k in range(2 * pairs)]
    Person.objects.bulk_create([Person(name=n, name_key=name_key(n)) for n in names])
    players = Player.objects.bulk_create([
        Player(championship=championship, code=str(k + 1), name=n)
        for k, n in enumerate(names)])
    now = timezone.now()
    made = Pair.objects.bulk_create([
        Pair(championship=championship, number=n + 1, player1=players[2 * n],
             player2=players[2 * n + 1], checked_in_at=now if n % 2 else None)
        for n in range(pairs)])
    Registration.objects.bulk_create([
        Registration(championship=championship, player1_name=names[2 * n],
                     player2_name=names[2 * n + 1], email=f"p{n}@example.org",
                     phone="+34 600 000 000", language="ca", status="registered",
                     position=n + 1, pair=made[n], cancel_token=f"{slug}-{n:040d}")
        for n in range(pairs)])
    return championship


@pytest.fixture(scope="module")
def sizes(django_db_setup: None, django_db_blocker: Any) -> Any:
    with django_db_blocker.unblock():
        organiser = UserFactory(username="scale-organiser")
        built = {}
        for pairs in (20, 200):
            championship = big_championship(f"escala-{pairs}", pairs)
            Membership.objects.create(championship=championship, user=organiser,
                                      role=Membership.Role.ORGANISER)
            built[pairs] = championship
        yield organiser, built
        from django.core.management import call_command
        call_command("flush", interactive=False, verbosity=0)


PAGES = {
    "check-in": lambda slug: reverse("check_in", args=[slug]),
    "check-in find": lambda slug: reverse("check_in", args=[slug]) + "?find=cognom1",
    "sign-up list": lambda slug: reverse("signup_list", args=[slug]),
    "sign-up CSV": lambda slug: reverse("signup_list", args=[slug]) + "?format=csv",
    "sign-up API": lambda slug: reverse("api_signup", args=[slug]),
    "persons linking": lambda slug: reverse("championship_persons", args=[slug]),
    "persons linking API": lambda slug: reverse("api_player_persons", args=[slug]),
}


@pytest.mark.django_db
@pytest.mark.parametrize("page", list(PAGES))
def test_an_organiser_page_of_200_pairs_reads_as_many_queries_as_one_of_20(
    sizes: Any, page: str, capsys: Any,
) -> None:
    organiser, built = sizes
    client = Client()
    client.force_login(organiser)
    counts, seconds = {}, {}
    for pairs, championship in built.items():
        url = PAGES[page](championship.slug)
        client.get(url)  # warm: templates, translations
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            answer = client.get(url)
            seconds[pairs] = time.perf_counter() - started
        assert answer.status_code == 200, (page, answer.status_code)
        counts[pairs] = len(queries)
    with capsys.disabled():
        print(f"\n{page}: {counts[200]} queries, {seconds[200] * 1000:.0f} ms at 200 pairs "
              f"({counts[20]} queries, {seconds[20] * 1000:.0f} ms at 20)")
    assert counts[200] == counts[20], (page, counts)
    assert seconds[200] < 5, (page, seconds)  # generous: other jobs share the CPU


@pytest.mark.django_db
def test_a_circuit_of_30_championships_reads_as_many_queries_as_one_of_3(
    capsys: Any,
) -> None:
    client = Client()
    counts, seconds = {}, {}
    build_circuit(30, CIRCUIT_PAIRS)
    circuit = Circuit.objects.get(slug="bench-circuit")
    for events in (30, 3):
        if events == 3:  # the same circuit with its first 3 championships only
            CircuitEvent.objects.filter(circuit=circuit).exclude(
                championship__slug__in=[f"bench-circuit-{k}" for k in (1, 2, 3)]).delete()
            Circuit.objects.filter(pk=circuit.pk).update(version=F("version") + 1)
        for url in (reverse("circuit", args=[circuit.slug]),
                    reverse("api_circuit", args=[circuit.slug])):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                answer = client.get(url)
                seconds[events, url] = time.perf_counter() - started
            assert answer.status_code == 200
            counts[events, url[:5]] = len(queries)
            started = time.perf_counter()
            assert client.get(url).status_code == 200  # the ranking from the cache
            seconds[events, url + " again"] = time.perf_counter() - started
    with capsys.disabled():
        print(f"\ncircuit pages (30 championships of {CIRCUIT_PAIRS} pairs): {counts} queries, "
              f"{ {k: round(v * 1000) for k, v in seconds.items()} } ms")
    assert counts[30, "/circ"] == counts[3, "/circ"]
    assert counts[30, "/api/"] == counts[3, "/api/"]
