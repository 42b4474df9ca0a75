"""Championships with stages for the tests: a classic one in groups then a knockout
(Girona's shape, smaller), with helpers to play a round's games."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Championship, Membership, Round, Seating, Stage


@dataclass
class Staged:
    championship: Championship
    organiser: Any
    referee: Any
    stages: list[Stage]

    def round(self, number: int) -> Round:
        return Round.objects.get(championship=self.championship, number=number)


def make_staged(
    pairs: int = 16, *, groups: int = 4, per_group: int = 1, second_chance: int = 0,
    knockout: bool = True, third_place: bool = False, split: str = "seeding",
    **rules: object,
) -> Staged:
    organiser = UserFactory(username="organitzador-fases", is_superuser=True)
    championship = services.championship_create(
        name="Campionat per fases", date=datetime.date(2026, 10, 30), format="classic",
        acting_user=organiser, **rules,
    )
    referee = UserFactory(username="arbitre-fases")
    services.membership_grant(championship=championship, user=referee,
                              role=Membership.Role.REFEREE, acting_user=organiser)
    for n in range(1, pairs + 1):
        services.pair_register(championship=championship, number=n,
                               player1=f"Jugador {n}A", player2=f"Jugador {n}B",
                               acting_user=organiser)
    spec: list[dict[str, Any]] = [{
        "kind": "groups", "groups": groups, "per_group": per_group,
        "second_chance": second_chance, "split": split,
    }]
    if knockout:
        spec.append({"kind": "knockout", "third_place": third_place})
    created = services.stages_setup(championship=championship, stages=spec,
                                    acting_user=organiser)
    championship.refresh_from_db()
    return Staged(championship, organiser, referee, created)


def play_round(staged: Staged, number: int, *, seed: int = 0,
               score: Any = None) -> list[Seating]:
    """Draw round ``number`` when it has no table, then enter every unplayed game:
    ``score(ns, ew)`` gives (ns_points, ew_points), by default a random 101 to 40-100
    win from ``seed`` (never level)."""
    rnd = staged.round(number)
    if not Seating.objects.filter(round=rnd).exists():
        services.round_draw(round=rnd, acting_user=staged.organiser, seed=seed + number)
    rng = random.Random(seed * 1000 + number)
    seatings = list(Seating.objects.filter(round=rnd).select_related(
        "ns_pair", "ew_pair", "table").order_by("table__number"))
    for s in seatings:
        if hasattr(s, "game"):
            continue
        if score is not None:
            ns, ew = score(s.ns_pair.number, s.ew_pair.number)
        else:
            loser = rng.randint(40, 100)
            ns, ew = (101, loser) if rng.random() < 0.5 else (loser, 101)
        services.game_record(seating=s, ns_points=ns, ew_points=ew, deals=10,
                             ended_by="target", expected_version=None,
                             acting_user=staged.referee)
    return seatings
