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


@pytest.mark.django_db(transaction=True)
def test_a_final_entered_while_a_semifinal_is_corrected_ends_in_a_clear_answer() -> None:
    """The final's game and a correction that would replace one of its pairs, at once:
    one of them wins, the other gets a service error (never a database deadlock)."""
    staged = make_staged(8, groups=2, per_group=2)
    for r in (1, 2, 3, 4):
        play_round(staged, r, seed=4)
    semi = Seating.objects.filter(round=staged.round(4)).order_by("table__number").first()
    final = Seating.objects.get(round=staged.round(5))
    assert semi is not None
    from tournaments.models import Game

    game = Game.objects.get(seating=semi)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(call) -> None:  # type: ignore[no-untyped-def]
        try:
            barrier.wait()
            call()
            outcomes.append("saved")
        except (services.ResultError, services.GameConflict) as exc:
            outcomes.append(f"refused: {exc}")
        except BaseException as exc:
            outcomes.append(f"crashed: {exc!r}")
        finally:
            connection.close()

    def enter_final() -> None:
        services.game_record(seating=final, ns_points=101, ew_points=70, deals=9,
                             ended_by="target", expected_version=None,
                             acting_user=staged.referee)

    def correct_semi() -> None:
        services.game_record(seating=semi, ns_points=game.ew_points,
                             ew_points=game.ns_points, deals=game.deals,
                             ended_by=game.ended_by, expected_version=game.version,
                             acting_user=staged.organiser)

    threads = [threading.Thread(target=run, args=(c,)) for c in (enter_final, correct_semi)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not [o for o in outcomes if o.startswith("crashed")], outcomes
    assert outcomes.count("saved") >= 1
