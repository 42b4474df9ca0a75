"""A classic championship for the tests: 5 pairs (one bye a round), 3 Swiss rounds,
round 1 drawn; an organiser and a referee."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Championship, Membership, Round


@dataclass
class Classic:
    championship: Championship
    organiser: object
    referee: object
    rounds: list[Round]


def make_classic(pairs: int = 5, rounds: int = 3, **rules: object) -> Classic:
    organiser = UserFactory(username="organitzador-classic", is_superuser=True)
    championship = services.championship_create(
        name="Campionat clàssic", date=datetime.date(2026, 12, 5), format="classic",
        acting_user=organiser, **rules,
    )
    referee = UserFactory(username="arbitre-classic")
    services.membership_grant(championship=championship, user=referee,
                              role=Membership.Role.REFEREE, acting_user=organiser)
    for n in range(1, pairs + 1):
        services.pair_register(championship=championship, number=n,
                               player1=f"Jugador {n}A", player2=f"Jugador {n}B",
                               acting_user=organiser)
    created = services.rounds_setup(championship=championship, rounds=rounds,
                                    boards_per_round=0, acting_user=organiser)
    championship.refresh_from_db()
    return Classic(championship, organiser, referee, list(created))


@pytest.fixture
def classic_championship(db: None) -> Classic:
    return make_classic()
