"""Two knockout games that feed one match, entered at the same moment by two referees:
the match is seated once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.tournaments.stages.conftest import make_staged, play_round
from tournaments import services
from tournaments.models import Seating


@pytest.mark.django_db(transaction=True)
def test_two_feeding_games_at_once_seat_the_next_match_once() -> None:
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3):
        play_round(staged, r, seed=4)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    tables = list(Seating.objects.filter(round=staged.round(4)).order_by("table__number"))
    assert len(tables) == 2
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def enter(seating: Seating) -> None:
        try:
            barrier.wait()
            services.game_record(seating=seating, ns_points=101, ew_points=60, deals=9,
                                 ended_by="target", expected_version=None,
                                 acting_user=staged.referee)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(s,)) for s in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    final = list(Seating.objects.filter(round=staged.round(5)))
    assert len(final) == 1
    assert {final[0].ns_pair_id, final[0].ew_pair_id} == {tables[0].ns_pair_id,
                                                          tables[1].ns_pair_id}
