"""Byes, withdrawals, late entries and the movement survive export and import, and an
imported championship redraws its next round as the original does."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tests.tournaments.services.test_movements import play, rounds_of
from tournaments import selectors, services
from tournaments.models import Pair, Round, Seating

pytestmark = pytest.mark.django_db


def seat_map(rnd: Round) -> list[tuple[int, int, int]]:
    return list(
        Seating.objects.filter(round=rnd).order_by("table__number")
        .values_list("table__number", "ns_pair__number", "ew_pair__number")
    )


def test_export_import_keeps_byes_withdrawals_late_pairs_and_redraws_identically():
    c = build_championship(pairs=7, rounds=4, boards_per_round=1, drawn_rounds=0,
                           movement="swiss", missed_boards="average")
    r1, r2, r3, r4 = rounds_of(c)
    play(r1)
    services.pair_register(championship=c, number=8, player1="Tard", player2="Tardana",
                           acting_user=None)
    play(r2)
    services.pair_withdraw(pair=Pair.objects.get(championship=c, number=3), after_round=2,
                           reason="Malaltia", acting_user=None)
    play(r3)
    exported = services.championship_export(c)
    assert exported["championship"]["movement"] == "swiss"
    assert exported["rules"]["missed_boards"] == "average"
    assert [r.get("byes", []) for r in exported["rounds"]][:3] != [[], [], []]
    pairs = {p["number"]: p for p in exported["pairs"]}
    assert pairs[8]["joined_round"] == 2 and pairs[3]["withdrawn_after_round"] == 2
    assert pairs[3]["withdrawal_reason"] == "Malaltia"

    copy = services.championship_import(data=exported, acting_user=None).championship
    again = services.championship_export(copy)
    for doc in (exported, again):
        doc["championship"].pop("slug")
    assert again["championship"].pop("name") == exported["championship"].pop("name") + " (2)"
    assert again == exported
    assert [(r.rank, r.number, r.total, r.withdrawn) for r in selectors.standings(copy).rows] \
        == [(r.rank, r.number, r.total, r.withdrawn) for r in selectors.standings(c).rows]

    services.round_draw(round=r4, seed=77, acting_user=None)
    services.round_draw(round=Round.objects.get(championship=copy, number=4), seed=77,
                        acting_user=None)
    assert seat_map(r4) == seat_map(Round.objects.get(championship=copy, number=4))
    assert 3 not in {p for t in seat_map(r4) for p in t[1:]}
