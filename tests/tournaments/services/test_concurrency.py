"""Two referees save the same result at the same moment (PostgreSQL row locks).

Each thread has its own database connection; both loaded version v; one save wins, the
other gets ResultConflict, and the winner's result is what is stored (nothing lost
silently). Skips on SQLite (fails when CI=true) via the ``on_postgres`` fixture.
"""

from __future__ import annotations

import datetime

import pytest

from tests.factories import build_championship
from tests.threads import at_once as save_at_once
from tournaments import services
from tournaments.models import (
    AuditEntry,
    Board,
    Bye,
    Championship,
    Pair,
    Player,
    Result,
    Round,
    Seating,
)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_referees_correcting_the_same_version_one_wins_the_other_gets_a_conflict(
    on_postgres,
):
    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    seating = Seating.objects.filter(round__championship=c).first()
    board = Board.objects.get(championship=c, number=1)
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                           expected_version=None, acting_user=None)

    def save(points):
        return lambda: services.result_record(
            seating=seating, board=board, trump="O", ns_points_taken=points,
            expected_version=1, acting_user=None,
        )

    outcomes = save_at_once([save(50), save(20)])
    saved = [o.result for o in outcomes if isinstance(o, services.ResultSaved)]
    conflicts = [o for o in outcomes if isinstance(o, services.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    stored = Result.objects.get(seating=seating, board=board)
    assert stored.version == 2
    assert stored.ns_points_taken == saved[0].ns_points_taken
    assert conflicts[0].current.ns_points_taken == saved[0].ns_points_taken
    assert AuditEntry.objects.filter(action="result.update").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_referees_entering_a_new_result_at_once_one_wins_the_other_gets_a_conflict(
    on_postgres,
):
    c = build_championship(pairs=4, rounds=1, boards_per_round=1)
    seating = Seating.objects.filter(round__championship=c).first()
    board = Board.objects.get(championship=c, number=1)

    def save(points):
        return lambda: services.result_record(
            seating=seating, board=board, trump="C", ns_points_taken=points,
            expected_version=None, acting_user=None,
        )

    outcomes = save_at_once([save(45), save(27)])
    saved = [o.result for o in outcomes if isinstance(o, services.ResultSaved)]
    conflicts = [o for o in outcomes if isinstance(o, services.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    assert Result.objects.get().ns_points_taken == saved[0].ns_points_taken
    assert AuditEntry.objects.filter(action__startswith="result.").count() == 1


# --------------------------------------------------------------------------- registrations

DAY = datetime.date(2026, 11, 29)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_pairs_registered_at_once_with_different_numbers_all_succeed(on_postgres):
    c = services.championship_create(name="Obert", date=DAY)

    def register(n):
        return lambda: services.pair_register(
            championship=c, number=n, player1=f"Jugador {n}a", player2=f"Jugador {n}b",
            acting_user=None,
        )

    outcomes = save_at_once([register(n) for n in range(1, 9)])
    assert all(isinstance(o, Pair) for o in outcomes), outcomes
    assert sorted(Pair.objects.filter(championship=c).values_list("number", flat=True)) == (
        list(range(1, 9)))
    codes = list(Player.objects.filter(championship=c).values_list("code", flat=True))
    assert len(codes) == len(set(codes)) == 16


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_pair_number_registered_at_once_is_refused_but_once(on_postgres):
    c = services.championship_create(name="Obert", date=DAY)
    outcomes = save_at_once([
        lambda: services.pair_register(championship=c, number=5, player1="A", player2="B",
                                       acting_user=None)
        for _ in range(4)
    ])
    refused = [o for o in outcomes if isinstance(o, services.RegistrationError)]
    assert sum(isinstance(o, Pair) for o in outcomes) == 1 and len(refused) == 3, outcomes
    assert {e.field for e in refused} == {"number"}
    assert Pair.objects.filter(championship=c).count() == 1
    assert Player.objects.filter(championship=c).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_csv_imports_at_once_all_succeed_or_name_the_clash(on_postgres):
    c = services.championship_create(name="Obert", date=DAY)

    def import_(text):
        return lambda: services.pairs_import_csv(championship=c, text=text, acting_user=None)

    outcomes = save_at_once([import_(f"{n};A{n};B{n}\n{n + 10};C{n};D{n}") for n in range(1, 5)]
                            + [import_("21;X;Y"), import_("21;X;Y")])
    refused = [o for o in outcomes if isinstance(o, services.PairsCsvError)]
    assert sum(isinstance(o, list) for o in outcomes) == 5, outcomes
    assert [e.problems for e in refused] == [["línia 1: ja hi ha una parella número 21"]]
    assert Pair.objects.filter(championship=c).count() == 9
    assert Player.objects.filter(championship=c).values("code").distinct().count() == 18


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_championships_created_at_once_get_free_slugs_or_a_slug_error(on_postgres):
    by_name = save_at_once(
        [lambda: services.championship_create(name="Open de Vic", date=DAY)] * 6
    )
    assert all(isinstance(o, Championship) for o in by_name), by_name
    assert sorted(o.slug for o in by_name) == sorted(
        ["open-de-vic"] + [f"open-de-vic-{n}" for n in range(2, 7)])
    explicit = save_at_once(
        [lambda: services.championship_create(name="Nadal", slug="nadal", date=DAY)] * 4
    )
    refused = [o for o in explicit if isinstance(o, services.RegistrationError)]
    assert sum(isinstance(o, Championship) for o in explicit) == 1 and len(refused) == 3
    assert {e.field for e in refused} == {"slug"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_pair_registered_during_a_draw_is_never_left_out_of_it(on_postgres):
    c = build_championship(pairs=4, rounds=2, boards_per_round=1, drawn_rounds=0)
    first = Round.objects.get(championship=c, number=1)
    outcomes = save_at_once([
        lambda: services.round_draw(round=first, seed=1, acting_user=None),
        lambda: services.pair_register(championship=c, number=5, player1="A", player2="B",
                                       acting_user=None),
    ])
    drawn, registered = outcomes
    assert isinstance(drawn, list) and isinstance(registered, Pair), outcomes
    registered.refresh_from_db()
    seated = Seating.objects.filter(round=first).count()
    if registered.joined_round == 2:  # the draw went first: the pair is late, joins round 2
        assert seated == 2
    else:  # the registration went first: 5 pairs, one sits out
        assert registered.joined_round == 1 and seated == 2
        assert Bye.objects.filter(round=first).count() == 1
