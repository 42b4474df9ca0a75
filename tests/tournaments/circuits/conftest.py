"""A season for the circuits' tests: a finished duplicate championship (4 pairs, 2
rounds of 2 boards, every result in) and a classic one still played (4 pairs, round 1
in), the same four pairs of persons in both, in one circuit of both."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.factories import UserFactory, build_championship
from tournaments import services
from tournaments.models import (
    Championship,
    Circuit,
    Pair,
    PeopleAuditEntry,
    Person,
    Round,
)


@dataclass
class Season:
    duplicate: Championship
    classic: Championship
    circuit: Circuit
    organiser: Any
    #: pair number -> its two persons (the same in both championships)
    persons: dict[int, tuple[Person, Person]]


def link_persons(championship: Championship, persons: dict[int, tuple[Person, Person]]
                 ) -> None:
    """Each pair's players linked to the pair's persons (as the persons' linking would)."""
    for pair in Pair.objects.filter(championship=championship).select_related(
            "player1", "player2"):
        one, two = persons[pair.number]
        type(pair.player1).objects.filter(pk=pair.player1.pk).update(person=one)
        type(pair.player2).objects.filter(pk=pair.player2.pk).update(person=two)


def play_classic(organiser: Any, *, rounds_played: int = 1) -> Championship:
    championship = services.championship_create(
        name="Clàssic de la temporada", date=datetime.date(2026, 12, 12), format="classic",
        acting_user=None)
    for n in range(1, 5):
        services.pair_register(championship=championship, number=n,
                               player1=f"Jugador {n}A", player2=f"Jugador {n}B",
                               acting_user=None)
    created = services.rounds_setup(championship=championship, rounds=2,
                                    boards_per_round=0, acting_user=None)
    for rnd in created[:rounds_played]:
        for seating in services.round_draw(round=rnd, seed=3, acting_user=None):
            services.game_record(seating=seating, ns_points=101, ew_points=40, deals=8,
                                 ended_by="target", expected_version=None,
                                 acting_user=None)
    championship.refresh_from_db()
    return championship


def build_season() -> Season:
    organiser = UserFactory(username="organitzador-circuit", is_superuser=True)
    duplicate = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                                   played_rounds=2)
    services.championship_finish(championship=duplicate, acting_user=None)
    duplicate.refresh_from_db()
    classic = play_classic(organiser)
    persons = {n: (Person.objects.create(name=f"Persona {n}A"),
                   Person.objects.create(name=f"Persona {n}B")) for n in range(1, 5)}
    link_persons(duplicate, persons)
    link_persons(classic, persons)
    circuit = services.circuit_create(
        name="Circuit de prova", season="2026", points="place_table",
        points_table=[10, 6, 4, 2], best_of=None, min_events=1,
        tiebreaks=["more_events", "best_result"], acting_user=organiser)
    for championship in (classic, duplicate):  # added out of date order
        services.circuit_event_add(circuit=circuit, championship=championship,
                                   acting_user=organiser)
    circuit.refresh_from_db()
    return Season(duplicate, classic, circuit, organiser, persons)


def drop_season(season: Season) -> None:
    season.circuit.delete()
    for championship in (season.duplicate, season.classic):
        services.championship_delete(championship=championship,
                                     confirm_slug=championship.slug, acting_user=None)
    PeopleAuditEntry.objects.all().delete()
    Person.objects.filter(merged_into__isnull=False).delete()
    Person.objects.all().delete()
    season.organiser.delete()


@pytest.fixture(scope="module")
def season(django_db_setup, django_db_blocker) -> Iterator[Season]:  # type: ignore[no-untyped-def]
    """The season, built once for a module whose tests only read it."""
    with django_db_blocker.unblock():
        built = build_season()
        yield built
        drop_season(built)


__all__ = ["Round", "Season"]
