"""round_draw (seeded, every pair once, avoids repeat meetings), boards_generate (secret,
commitment, deals from engine.generate_deal) and the database invariants behind them."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction

from engine.deal import Deal
from engine.generate import deal_commitment, generate_deal
from tests.factories import build_championship
from tournaments import services
from tournaments.models import Board, Bye, Championship, RoundPair, Seating

pytestmark = pytest.mark.django_db


def seat_map(round_):
    return [
        (s.table.number, s.ns_pair.number, s.ew_pair.number)
        for s in Seating.objects.filter(round=round_).select_related("table", "ns_pair",
                                                                     "ew_pair")
        .order_by("table__number")
    ]


def test_round_draw_seats_24_pairs_at_12_tables_each_pair_once():
    c = build_championship(pairs=24, rounds=4, boards_per_round=6, drawn_rounds=1)
    round1 = c.rounds.get(number=1)
    seats = seat_map(round1)
    assert [t for t, _ns, _ew in seats] == list(range(1, 13))
    assert sorted(p for _t, ns, ew in seats for p in (ns, ew)) == list(range(1, 25))
    assert c.status == Championship.Status.RUNNING
    assert round1.draw_seed == 8  # build_championship's seed 7 + round 1


def test_round_draw_with_the_same_seed_gives_the_same_tables():
    a = build_championship(pairs=8, drawn_rounds=0)
    b = build_championship(pairs=8, drawn_rounds=0)
    for c in (a, b):
        services.round_draw(round=c.rounds.get(number=1), seed=42, acting_user=None)
    assert seat_map(a.rounds.get(number=1)) == seat_map(b.rounds.get(number=1))
    services.round_draw(round=b.rounds.get(number=1), seed=43, acting_user=None)
    assert seat_map(a.rounds.get(number=1)) != seat_map(b.rounds.get(number=1))


def test_round_draw_avoids_pairs_meeting_again_when_it_can():
    c = build_championship(pairs=8, rounds=3, drawn_rounds=3)
    met = [frozenset((ns, ew)) for r in c.rounds.all() for _t, ns, ew in seat_map(r)]
    assert len(met) == len(set(met)) == 12


def test_round_draw_of_an_odd_field_gives_one_pair_a_bye():
    c = build_championship(pairs=4, drawn_rounds=0)
    services.pair_register(championship=c, number=5, player1="A", player2="B",
                           acting_user=None)
    seatings = services.round_draw(round=c.rounds.get(number=1), seed=1, acting_user=None)
    seated = {p for s in seatings for p in (s.ns_pair.number, s.ew_pair.number)}
    byes = list(Bye.objects.filter(round__championship=c).values_list("pair__number", flat=True))
    assert len(seatings) == 2 and len(byes) == 1
    assert seated | set(byes) == {1, 2, 3, 4, 5} and not seated & set(byes)


def test_round_draw_is_refused_once_the_round_has_results(small):
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    with pytest.raises(services.DrawError):
        services.round_draw(round=small.round1, seed=5, acting_user=None)


def test_a_pair_cannot_sit_at_two_tables_of_a_round(small):
    pair = small.seatings[0].ns_pair
    other = small.seatings[1].ew_pair
    with pytest.raises(services.DrawError):
        services.seating_set(round=small.round1, table_number=7, ns_pair=pair,
                             ew_pair=other, acting_user=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundPair.objects.create(round=small.round1, pair=pair, seating=small.seatings[1])


def test_boards_generate_deals_every_board_from_the_secret_and_stores_the_commitment():
    c = build_championship(pairs=4, rounds=2, boards_per_round=3, generate=False)
    assert c.deal_commitment == ""
    services.boards_generate(championship=c, acting_user=None)
    c.refresh_from_db()
    secret = bytes.fromhex(c.deal_secret)
    assert len(secret) == 32
    assert c.deal_commitment == deal_commitment(secret)
    for board in Board.objects.filter(championship=c):
        assert Deal.from_json(board.deal) == generate_deal(secret, board.number)
    assert c.public_deal_secret == ""  # never shown before publication


def test_boards_generate_is_refused_once_a_result_exists(small):
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    before = small.championship.deal_commitment
    with pytest.raises(services.BoardsError):
        services.boards_generate(championship=small.championship, acting_user=None)
    small.championship.refresh_from_db()
    assert small.championship.deal_commitment == before


def test_boards_generate_regenerates_before_play_with_a_new_secret(small):
    before = small.championship.deal_commitment
    services.boards_generate(championship=small.championship, acting_user=small.organiser)
    small.championship.refresh_from_db()
    assert small.championship.deal_commitment != before


def test_boards_generate_needs_the_organiser(small):
    with pytest.raises(services.NotAllowedError):
        services.boards_generate(championship=small.championship, acting_user=small.referee)


def test_boards_generate_needs_boards_set_up_first():
    c = services.championship_create(name="X", date=datetime.date(2026, 1, 1))
    with pytest.raises(services.BoardsError):
        services.boards_generate(championship=c, acting_user=None)
