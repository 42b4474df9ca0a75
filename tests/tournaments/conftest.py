"""A small championship for the tournaments tests: 4 pairs, 2 rounds of 2 boards, boards
dealt, round 1 drawn (2 tables) and no result yet; an organiser and a referee."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.factories import UserFactory, build_championship
from tournaments import services
from tournaments.models import Board, Championship, Membership, Round, Seating


@dataclass
class Small:
    championship: Championship
    organiser: object
    referee: object
    round1: Round
    round2: Round
    seatings: list[Seating]  # round 1, by table number
    boards: list[Board]  # round 1's boards, by number


@pytest.fixture
def small(db: None) -> Small:
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="organitzador-prova")
    referee = UserFactory(username="arbitre-prova")
    services.membership_grant(
        championship=championship, user=organiser, role=Membership.Role.ORGANISER,
        acting_user=None,
    )
    services.membership_grant(
        championship=championship, user=referee, role=Membership.Role.REFEREE,
        acting_user=None,
    )
    round1, round2 = Round.objects.filter(championship=championship).order_by("number")
    return Small(
        championship=championship,
        organiser=organiser,
        referee=referee,
        round1=round1,
        round2=round2,
        seatings=list(Seating.objects.filter(round=round1).order_by("table__number")),
        boards=list(Board.objects.filter(round=round1).order_by("number")),
    )
