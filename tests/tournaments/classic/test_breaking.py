"""A classic championship's game entry against what a careless or hostile client sends:
every refusal a clear error at its field, nothing half written; and saves that run at
the same moment as a finish, a close or a rules change."""

from __future__ import annotations

import pytest

from tests.tournaments.classic.conftest import Classic, make_classic
from tournaments import services
from tournaments.models import AuditEntry, Game, Seating

LEVEL = {"chooser": "NS", "trump": "O", "points": 36}


def first_table(c: Classic) -> Seating:
    services.round_draw(round=c.rounds[0], seed=3, acting_user=c.organiser)
    return (Seating.objects.filter(round=c.rounds[0]).select_related("table", "round")
            .order_by("table__number").first())


@pytest.mark.django_db
def test_a_sheet_of_forty_thousand_level_deals_is_a_clear_error_not_a_crash() -> None:
    c = make_classic(pairs=4, rounds=1, max_deals=None, time_limit_minutes=60)
    table = first_table(c)
    with pytest.raises(services.ResultError) as error:
        services.game_record(seating=table, hands=[LEVEL] * 40_000, ended_by="time",
                             expected_version=None, acting_user=c.referee)
    assert error.value.field == "hands"
    assert "40" in str(error.value)
    assert not Game.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="game.").exists()
