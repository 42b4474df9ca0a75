"""Real events: odd fields (byes), withdrawals, late pairs, Swiss and round robin draws,
rematches, the seating check, protected rows and deleting a championship."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db.models import ProtectedError, Q

from tests.factories import build_championship
from tournaments import selectors, services
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
    Table,
)

pytestmark = pytest.mark.django_db


def play(rnd: Round, *, seed: int | None = None, **draw: object) -> list[Seating]:
    """Draw ``rnd`` and give every table a simple result on each board."""
    seatings = services.round_draw(round=rnd, seed=seed or 100 + rnd.number,
                                   acting_user=None, **draw)
    for board in Board.objects.filter(round=rnd).order_by("number"):
        for i, seating in enumerate(seatings):
            services.result_record(
                seating=seating, board=board, trump="O",
                ns_points_taken=(board.number * 13 + i * 7) % 73,
                expected_version=None, acting_user=None,
            )
    return seatings


def rounds_of(c: Championship) -> list[Round]:
    return list(Round.objects.filter(championship=c).order_by("number"))


def seated_numbers(rnd: Round) -> set[int]:
    return {
        n for pair in Seating.objects.filter(round=rnd).values_list(
            "ns_pair__number", "ew_pair__number") for n in pair
    }


def byes_of(rnd: Round) -> list[int]:
    return list(Bye.objects.filter(round=rnd).values_list("pair__number", flat=True))


# ------------------------------------------------------------------------------- byes


def test_an_odd_field_gives_one_bye_a_round_and_no_pair_two_byes():
    c = build_championship(pairs=7, rounds=5, boards_per_round=1, drawn_rounds=0)
    all_byes: list[int] = []
    for rnd in rounds_of(c):
        play(rnd)
        byes = byes_of(rnd)
        assert len(byes) == 1 and byes[0] not in seated_numbers(rnd)
        assert len(seated_numbers(rnd)) == 6
        all_byes += byes
    assert len(set(all_byes)) == 5


def test_a_bye_ranks_by_average_per_board_played_by_default():
    c = build_championship(pairs=5, rounds=2, boards_per_round=2, drawn_rounds=0)
    for rnd in rounds_of(c):
        play(rnd)
    view = selectors.standings(c)
    averages = [row.average for row in view.rows]
    assert averages == sorted(averages, reverse=True)
    assert sorted(row.boards for row in view.rows) == [2, 2, 4, 4, 4]
    assert all(row.missed == 0 for row in view.rows)


def test_the_average_rule_scores_each_missed_board_as_average():
    c = build_championship(pairs=5, rounds=2, boards_per_round=2, drawn_rounds=0,
                           missed_boards="average")
    for rnd in rounds_of(c):
        play(rnd)
    rows = selectors.standings(c).rows
    by_pair = {row.number: row for row in rows}
    sat_out = byes_of(rounds_of(c)[0])[0]
    row = by_pair[sat_out]
    assert (row.boards, row.missed) == (2, 2)
    played = sum(
        (s.ns_comparative if r.ns_pair == sat_out else s.ew_comparative)
        for r, s in ((r, selectors.scored_championship(c, public_only=False).score_of(r))
                     for r in selectors.load_results(c))
        if sat_out in (r.ns_pair, r.ew_pair)
    )
    assert row.total == played + 2 * Fraction(3, 2)  # A = (1 + 2) / 2 on the default scale
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)


# -------------------------------------------------------------------------- withdrawal


def test_a_withdrawn_pair_keeps_its_results_and_is_not_seated_afterwards():
    c = build_championship(pairs=6, rounds=4, boards_per_round=2, drawn_rounds=0)
    r1, r2, r3, r4 = rounds_of(c)
    play(r1)
    play(r2)
    pair = Pair.objects.get(championship=c, number=5)
    opponents_before = {
        r.pk: (r.ns_points_taken, r.version)
        for r in Result.objects.filter(Q(seating__ns_pair=pair) | Q(seating__ew_pair=pair))
    }
    ranks_before = {row.number: row.total for row in selectors.standings(c).rows}
    services.pair_withdraw(pair=pair, after_round=2, reason="Malaltia", acting_user=None)
    after = {
        r.pk: (r.ns_points_taken, r.version)
        for r in Result.objects.filter(Q(seating__ns_pair=pair) | Q(seating__ew_pair=pair))
    }
    assert after == opponents_before and len(after) == 4
    play(r3)
    assert 5 not in seated_numbers(r3) and byes_of(r3) and 5 not in byes_of(r3)
    assert len(byes_of(r3)) == 1
    rows = selectors.standings(c).rows
    assert rows[-1].number == 5 and rows[-1].withdrawn
    # Its opponents' totals from rounds 1-2 are untouched by the withdrawal.
    through2 = {row.number: row.total for row in selectors.standings(c, through_round=2).rows}
    assert through2 == ranks_before
    pair.refresh_from_db()
    assert (pair.withdrawn_after_round, pair.withdrawal_reason) == (2, "Malaltia")
    assert r4.pk  # round 4 still to be drawn


def test_withdrawing_undoes_a_later_draw_without_results_and_is_audited(small):
    services.round_draw(round=small.round2, seed=5, acting_user=None)
    pair = small.seatings[0].ns_pair
    undone = services.pair_withdraw(pair=pair, after_round=1, reason="Se'n va",
                                    acting_user=small.organiser)
    assert undone == [2]
    assert not Seating.objects.filter(round=small.round2).exists()
    log = AuditEntry.objects.get(action="pair.withdraw")
    assert (log.reason, log.acting_user, log.target) == (
        "Se'n va", small.organiser, f"parella {pair.number}"
    )
    assert log.after == {"withdrawn_after_round": 1, "draws_undone": [2]}
    services.round_draw(round=small.round2, seed=5, acting_user=None)
    assert pair.number not in seated_numbers(small.round2)
    assert len(byes_of(small.round2)) == 1


def test_withdrawal_needs_a_reason_the_organiser_and_a_round_without_later_results(small):
    pair = small.seatings[0].ns_pair
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_withdraw(pair=pair, after_round=1, reason="  ", acting_user=None)
    assert exc.value.field == "reason"
    with pytest.raises(services.RegistrationError) as exc:
        services.pair_withdraw(pair=pair, after_round=7, reason="x", acting_user=None)
    assert exc.value.field == "after_round"
    with pytest.raises(services.NotAllowedError):
        services.pair_withdraw(pair=pair, after_round=1, reason="x", acting_user=small.referee)
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    with pytest.raises(services.ChampionshipStateError) as exc:
        services.pair_withdraw(pair=pair, after_round=0, reason="x", acting_user=None)
    assert "La ronda 1 ja té resultats" in str(exc.value)
    pair.refresh_from_db()
    assert not pair.is_withdrawn


# ---------------------------------------------------------------------------- late pair


def test_a_late_pair_joins_the_next_round_and_its_missed_round_follows_the_rule(small):
    late = services.pair_register(championship=small.championship, number=5, player1="A",
                                  player2="B", acting_user=None)
    assert late.joined_round == 2
    for seating in small.seatings:
        for board in small.boards:
            services.result_record(seating=seating, board=board, trump="O",
                                   ns_points_taken=30 + seating.table.number,
                                   expected_version=None, acting_user=None)
    play(small.round2)
    assert 5 in seated_numbers(small.round2) | set(byes_of(small.round2))
    absences = selectors.absences(small.championship)
    assert 1 in absences.sat_out[5]


# -------------------------------------------------------------------- swiss, round robin


def test_swiss_of_23_pairs_over_5_rounds_one_bye_a_round_no_rematch():
    c = build_championship(pairs=23, rounds=5, boards_per_round=1, drawn_rounds=0,
                           movement="swiss")
    for rnd in rounds_of(c):
        play(rnd)
        rnd.refresh_from_db()
        assert rnd.movement == "swiss" and len(byes_of(rnd)) == 1
    meetings = [frozenset(p) for p in Seating.objects.filter(round__championship=c)
                .values_list("ns_pair__number", "ew_pair__number")]
    assert len(meetings) == len(set(meetings)) == 55
    byes = list(Bye.objects.filter(round__championship=c).values_list("pair__number", flat=True))
    assert len(byes) == len(set(byes)) == 5


def test_round_robin_of_8_pairs_meets_all_28_once_and_refuses_an_eighth_round():
    c = build_championship(pairs=8, rounds=8, boards_per_round=1, drawn_rounds=0,
                           movement="round-robin")
    *seven, eighth = rounds_of(c)
    for rnd in seven:
        services.round_draw(round=rnd, seed=1, acting_user=None)
    meetings = [frozenset(p) for p in Seating.objects.filter(round__championship=c)
                .values_list("ns_pair__number", "ew_pair__number")]
    assert len(meetings) == len(set(meetings)) == 28
    with pytest.raises(services.DrawError) as exc:
        services.round_draw(round=eighth, seed=1, acting_user=None)
    assert "té 7 rondes" in str(exc.value)


def test_the_same_seed_and_standings_redraw_the_same_swiss_round():
    c = build_championship(pairs=10, rounds=3, boards_per_round=1, drawn_rounds=0,
                           movement="swiss")
    r1, r2, _r3 = rounds_of(c)
    play(r1)
    first = [(s.table.number, s.ns_pair.number, s.ew_pair.number)
             for s in services.round_draw(round=r2, seed=9, acting_user=None)]
    again = [(s.table.number, s.ns_pair.number, s.ew_pair.number)
             for s in services.round_draw(round=r2, seed=9, acting_user=None)]
    assert first == again


def test_unavoidable_rematches_are_listed_and_drawn_only_once_accepted():
    c = build_championship(pairs=4, rounds=4, boards_per_round=1, drawn_rounds=0,
                           movement="round-robin")
    r1, r2, r3, r4 = rounds_of(c)
    for rnd in (r1, r2, r3):
        services.round_draw(round=rnd, seed=1, acting_user=None)
    with pytest.raises(services.RematchError) as exc:
        services.round_draw(round=r4, seed=1, acting_user=None, movement_name="random")
    assert len(exc.value.rematches) == 2
    assert not Seating.objects.filter(round=r4).exists()
    seatings = services.round_draw(round=r4, seed=1, acting_user=None, movement_name="random",
                                   accept_rematches=True)
    assert len(seatings) == 2


def test_round_check_lists_problems_of_a_seating_edited_by_hand(small):
    seating = small.seatings[1]
    # As the admin would save it: the EW pair of table 2 replaced by table 1's NS pair.
    Seating.objects.filter(pk=seating.pk).update(ew_pair=small.seatings[0].ns_pair)
    check = services.round_check(small.round1)
    assert not check.ok
    assert any(str(small.seatings[0].ns_pair.number) in p for p in check.problems)
    assert check.byes == [seating.ew_pair.number]
    clean = services.round_check(small.round2)
    assert clean.ok and clean.tables == 0


# --------------------------------------------------------------------------- protection


def test_deleting_a_pair_or_anything_results_hang_on_raises_protected_error(small):
    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    pair = small.seatings[0].ns_pair
    for row in (pair, Player.objects.get(pk=pair.player1_id), small.seatings[0],
                small.boards[0], small.round1, Table.objects.get(pk=small.seatings[0].table_id)):
        with pytest.raises(ProtectedError):
            row.delete()
    assert Result.objects.filter(seating__round=small.round1).count() == 1


def test_the_admin_refuses_to_delete_a_pair_with_results(small, client):
    from tests.factories import UserFactory

    services.result_record(seating=small.seatings[0], board=small.boards[0], trump="O",
                           ns_points_taken=40, expected_version=None, acting_user=None)
    admin = UserFactory(username="superadmin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    pair = small.seatings[0].ns_pair
    url = f"/admin/tournaments/pair/{pair.pk}/delete/"
    # Pairs are read-only in the admin (services.pair_remove is the way a pair goes).
    assert client.get(url).status_code == 403
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Pair.objects.filter(pk=pair.pk).exists()
    assert Result.objects.filter(seating__round=small.round1).count() == 1


def test_championship_delete_needs_the_slug_and_deletes_everything(small):
    play(small.round2)
    c = small.championship
    with pytest.raises(services.ChampionshipStateError) as exc:
        services.championship_delete(championship=c, confirm_slug="no", acting_user=None)
    assert exc.value.field == "confirm_slug"
    with pytest.raises(services.NotAllowedError):
        services.championship_delete(championship=c, confirm_slug=c.slug,
                                     acting_user=small.referee)
    summary = services.championship_delete(championship=c, confirm_slug=c.slug,
                                           acting_user=small.organiser)
    assert (summary.pairs, summary.rounds, summary.results) == (4, 2, 4)
    assert not Championship.objects.filter(pk=c.pk).exists()
    assert not Pair.objects.exists() and not Result.objects.exists()
