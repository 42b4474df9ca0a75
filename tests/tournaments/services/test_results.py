"""result_record: the rules, the roles, optimistic concurrency, the audit log, and the
database constraints that back them (one result per table and board, points 0..72,
doubles in order, never infraction and adjustment together, a board once per pair)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Board, Membership, PairBoard, Result, Seating

pytestmark = pytest.mark.django_db


def record(small, *, seating=0, board=0, version=None, user=None, **data):
    fields = {"trump": "O", "ns_points_taken": 40} | data
    return services.result_record(
        seating=small.seatings[seating], board=small.boards[board],
        expected_version=version, acting_user=user, **fields,
    ).result


def test_result_record_stores_the_result_with_version_1_and_an_audit_row(small):
    result = record(small, trump="botifarra", contro=True, ns_points_taken=41,
                    user=small.referee, note="ok")
    assert result.version == 1
    assert result.entered_by == small.referee
    assert (result.trump, result.contro, result.ns_points_taken, result.ew_points_taken) == (
        "botifarra", True, 41, 31)
    audit = AuditEntry.objects.get(action__startswith="result.")
    assert audit.action == "result.create" and audit.before is None
    assert audit.after["ns_points_taken"] == 41
    assert audit.acting_user == small.referee
    assert (audit.round_number, audit.table_number, audit.board_number) == (
        1, small.seatings[0].table.number, small.boards[0].number)
    assert PairBoard.objects.filter(result=result).count() == 2


def test_a_correction_bumps_the_version_and_audits_before_and_after(small):
    first = record(small, ns_points_taken=40, user=small.referee)
    second = services.result_correct(
        result=first, expected_version=1, acting_user=small.referee,
        trump="C", ns_points_taken=30,
    )
    assert (second.kind, second.result.version) == (services.SaveKind.UPDATED, 2)
    update = AuditEntry.objects.get(action="result.update")
    assert (update.before["ns_points_taken"], update.after["ns_points_taken"]) == (40, 30)
    assert (update.before["version"], update.after["version"]) == (1, 2)
    assert Result.objects.get().ns_points_taken == 30


def test_saving_with_a_stale_version_raises_a_conflict_and_keeps_the_other_save(small):
    result = record(small, ns_points_taken=40)
    services.result_correct(result=result, expected_version=1, acting_user=None,
                            trump="O", ns_points_taken=50)
    with pytest.raises(services.ResultConflict) as exc:
        services.result_correct(result=result, expected_version=1, acting_user=None,
                                trump="O", ns_points_taken=20)
    assert exc.value.current.ns_points_taken == 50
    assert exc.value.current_version == 2
    assert "versió 2" in str(exc.value)
    assert Result.objects.get().ns_points_taken == 50


def test_a_conflict_with_ones_own_save_says_so_and_anothers_names_another_referee(small):
    first = record(small, ns_points_taken=40, user=small.referee)
    # The same referee, a second tab still at "no result": their own save is in the way.
    with pytest.raises(services.ResultConflict) as mine:
        record(small, ns_points_taken=12, user=small.referee)
    assert mine.value.by_same_user is True
    assert "ja ho havíeu desat en una altra pestanya (versió 1)" in str(mine.value)
    assert "altre àrbitre" not in str(mine.value)
    # The organiser corrects it; the referee's stale tab now meets someone else's save.
    services.result_correct(result=first, expected_version=1, acting_user=small.organiser,
                            trump="O", ns_points_taken=50)
    with pytest.raises(services.ResultConflict) as theirs:
        record(small, ns_points_taken=12, version=1, user=small.referee)
    assert theirs.value.by_same_user is False
    assert "un altre àrbitre ja ha desat aquest resultat (versió 2)" in str(theirs.value)
    # The system (no user) is never "you".
    with pytest.raises(services.ResultConflict) as system:
        record(small, ns_points_taken=12, version=1)
    assert system.value.by_same_user is False


def test_deleting_a_version_one_saved_since_in_another_tab_says_so(small):
    first = record(small, ns_points_taken=40, user=small.organiser)
    services.result_correct(result=first, expected_version=1, acting_user=small.organiser,
                            trump="O", ns_points_taken=50)
    with pytest.raises(services.ResultConflict) as exc:
        services.result_delete(result=first, expected_version=1, acting_user=small.organiser)
    assert exc.value.by_same_user is True
    assert "altra pestanya (versió 2)" in str(exc.value)
    assert Result.objects.get().ns_points_taken == 50


def test_entering_a_new_result_where_one_exists_is_a_conflict(small):
    record(small, ns_points_taken=40)
    with pytest.raises(services.ResultConflict) as exc:
        record(small, ns_points_taken=12)
    assert exc.value.current.ns_points_taken == 40


def test_correcting_a_result_that_no_longer_exists_is_a_conflict(small):
    result = record(small)
    services.result_delete(result=result, expected_version=1, acting_user=small.organiser)
    with pytest.raises(services.ResultConflict) as exc:
        record(small, version=1)
    assert exc.value.current is None
    assert AuditEntry.objects.filter(action="result.delete").count() == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"ns_points_taken": 73}, "ns_points_taken"),
        ({"ns_points_taken": -1}, "ns_points_taken"),
        ({"ns_points_taken": None}, "ns_points_taken"),
        ({"ns_points_taken": True}, "ns_points_taken"),
        ({"ns_points_taken": "40"}, "ns_points_taken"),
        ({"trump": None}, "trump"),
        ({"trump": "X"}, "trump"),
        ({"recontro": True}, "recontro"),
        ({"contro": True, "sant_vicenc": True}, "sant_vicenc"),
        ({"trump": "botifarra", "contro": True, "recontro": True, "sant_vicenc": True},
         "sant_vicenc"),
        ({"infraction": "NS", "adjusted": ("average", "average")}, "infraction"),
        ({"infraction": "N"}, "infraction"),
        ({"adjusted": ("average", "half")}, "adjusted_ew"),
    ],
)
def test_result_record_refuses_what_the_rules_do_not_allow(small, data, field):
    with pytest.raises(services.ResultError) as exc:
        record(small, **data)
    assert exc.value.field == field
    assert not Result.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="result.").exists()


def test_sant_vicenc_is_refused_when_the_championship_bans_it(small):
    small.championship.sant_vicenc = False
    small.championship.save()
    with pytest.raises(services.ResultError) as exc:
        record(small, contro=True, recontro=True, sant_vicenc=True)
    assert exc.value.field == "sant_vicenc"


def test_sant_vicenc_on_botifarra_is_accepted_when_the_setting_allows_it(small):
    small.championship.sant_vicenc = True
    small.championship.sant_vicenc_on_botifarra = True
    small.championship.save()
    result = record(small, trump="botifarra", contro=True, recontro=True, sant_vicenc=True)
    assert result.sant_vicenc


def test_an_adjusted_result_needs_no_points_and_an_infraction_keeps_them(small):
    adjusted = record(small, trump=None, ns_points_taken=None,
                      adjusted={"NS": "average_plus", "EW": "average_minus"})
    assert (adjusted.adjusted_ns, adjusted.adjusted_ew) == ("average_plus", "average_minus")
    infraction = record(small, board=1, infraction="EO", ns_points_taken=50)
    assert infraction.infraction == "EW"


def test_a_board_of_another_round_is_refused(small):
    board_of_round_2 = Board.objects.get(round=small.round2, number=3)
    with pytest.raises(services.ResultError) as exc:
        services.result_record(seating=small.seatings[0], board=board_of_round_2, trump="O",
                               ns_points_taken=40, expected_version=None, acting_user=None)
    assert exc.value.field == "board"
    assert "ronda 1" in str(exc.value)


def test_result_record_at_finds_the_table_and_board_by_their_numbers(small):
    seating, board = small.seatings[1], small.boards[1]
    address = {"slug": small.championship.slug, "round_number": 1,
               "table_number": seating.table.number, "board_number": board.number}
    saved = services.result_record_at(**address, trump="E", ns_points_taken=50,
                                      expected_version=None, acting_user=small.referee)
    result = saved.result
    assert (saved.kind, result.seating.pk, result.board.pk) == (
        services.SaveKind.CREATED, seating.pk, board.pk)
    assert result.seating.ns_pair.number == seating.ns_pair.number  # with its pairs
    stored = Result.objects.get()
    assert (stored.seating_id, stored.board_id, stored.ns_points_taken) == (
        seating.pk, board.pk, 50)
    again = services.result_record_at(**address, trump="E", ns_points_taken=50,
                                      expected_version=None, acting_user=small.referee)
    assert (again.kind, again.result.pk) == (services.SaveKind.UNCHANGED, result.pk)


@pytest.mark.parametrize("wrong", [
    {"slug": "cap"}, {"round_number": 9}, {"table_number": 99}, {"board_number": 3},
])
def test_result_record_at_an_address_naming_nothing_is_refused(small, wrong):
    address = {"slug": small.championship.slug, "round_number": 1,
               "table_number": small.seatings[0].table.number,
               "board_number": small.boards[0].number} | wrong
    with pytest.raises(services.AddressError):
        services.result_record_at(**address, trump="O", ns_points_taken=40,
                                  expected_version=None, acting_user=small.referee)
    assert not Result.objects.exists() and not AuditEntry.objects.filter(
        action__startswith="result.").exists()


def test_a_save_whose_seating_was_replaced_meanwhile_is_a_conflict(small):
    # The form was loaded before the round was drawn again: its seating row is gone.
    stale = small.seatings[0]
    Seating.objects.filter(pk=stale.pk).delete()
    with pytest.raises(services.ResultConflict) as exc:
        record(small, seating=0, user=small.referee)
    assert "la distribució de la taula ha canviat" in str(exc.value)
    assert not Result.objects.exists()


def test_a_pair_never_plays_a_board_twice(small):
    record(small, seating=0, board=0)
    played = small.seatings[0]
    # A board not tied to one round (as after an import) met again in round 2.
    Board.objects.filter(pk=small.boards[0].pk).update(round=None)
    again = services.seating_set(round=small.round2, table_number=1, ns_pair=played.ew_pair,
                                 ew_pair=small.seatings[1].ns_pair, acting_user=None)
    with pytest.raises(services.ResultError) as exc:
        services.result_record(seating=again, board=small.boards[0], trump="O",
                               ns_points_taken=40, expected_version=None, acting_user=None)
    assert exc.value.field == "board"
    assert f"parella {played.ew_pair.number} ja ha jugat el tauler" in str(exc.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        PairBoard.objects.create(pair=played.ns_pair, board=small.boards[0],
                                 result=Result.objects.get())


def test_a_referee_of_another_championship_cannot_enter_results(small):
    from tests.factories import build_championship

    other = build_championship(pairs=4)
    stranger = UserFactory()
    services.membership_grant(championship=other, user=stranger, role="referee",
                              acting_user=None)
    with pytest.raises(services.NotAllowedError):
        record(small, user=stranger)
    assert not Result.objects.exists()


def test_a_closed_round_accepts_corrections_only_from_head_referee_or_organiser(small):
    for s in small.seatings:
        for b in small.boards:
            services.result_record(seating=s, board=b, trump="E", ns_points_taken=36,
                                   expected_version=None, acting_user=small.referee)
    services.round_close(round=small.round1, acting_user=small.organiser)
    result = Result.objects.filter(seating=small.seatings[0], board=small.boards[0]).get()
    with pytest.raises(services.NotAllowedError):
        services.result_correct(result=result, expected_version=1, acting_user=small.referee,
                                trump="E", ns_points_taken=37)
    head = UserFactory()
    services.membership_grant(championship=small.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=None)
    fixed = services.result_correct(result=result, expected_version=1, acting_user=head,
                                    trump="E", ns_points_taken=37).result
    assert fixed.version == 2


def test_round_close_lists_the_missing_results_unless_told_to_allow_them(small):
    record(small, seating=0, board=0)
    with pytest.raises(services.ChampionshipStateError) as exc:
        services.round_close(round=small.round1, acting_user=small.organiser)
    assert "Falten 3 resultats" in str(exc.value)
    with pytest.raises(services.NotAllowedError):
        services.round_close(round=small.round1, acting_user=small.referee, allow_missing=True)
    closed = services.round_close(round=small.round1, acting_user=small.organiser,
                                  allow_missing=True)
    assert closed.is_closed


def test_finish_closes_rounds_freezes_results_and_only_then_the_secret_is_published(small):
    record(small)
    with pytest.raises(services.ChampionshipStateError):
        services.deal_secret_publish(championship=small.championship,
                                     acting_user=small.organiser)
    with pytest.raises(services.NotAllowedError):
        services.championship_finish(championship=small.championship,
                                     acting_user=small.referee)
    services.championship_finish(championship=small.championship, acting_user=small.organiser)
    small.round1.refresh_from_db()
    assert small.round1.is_closed
    with pytest.raises(services.ChampionshipStateError):
        record(small, board=1, user=small.organiser)
    c = services.deal_secret_publish(championship=small.championship,
                                     acting_user=small.organiser)
    assert c.public_deal_secret == c.deal_secret != ""
    with pytest.raises(services.ChampionshipStateError):
        services.deal_secret_publish(championship=c, acting_user=small.organiser)


# -- the database itself -------------------------------------------------------------------


def bare_result(small, **fields):
    now = timezone.now()
    data = {"seating": small.seatings[0], "board": small.boards[0], "trump": "O",
            "ns_points_taken": 40, "entered_at": now, "updated_at": now} | fields
    return Result(**data)


@pytest.mark.parametrize(
    "fields",
    [
        {"ns_points_taken": 73},
        {"recontro": True},
        {"contro": True, "sant_vicenc": True},
        {"infraction": "NS", "adjusted_ns": "average", "adjusted_ew": "average"},
        {"ns_points_taken": None},
        {"trump": None},
        {"adjusted_ns": "average"},
    ],
)
def test_the_database_refuses_a_result_that_breaks_an_invariant(small, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        bare_result(small, **fields).save()


def test_the_database_keeps_one_result_per_table_and_board(small):
    bare_result(small).save()
    with pytest.raises(IntegrityError), transaction.atomic():
        bare_result(small, ns_points_taken=10).save()


def test_only_a_head_referee_or_organiser_deletes_a_result(small):
    result = record(small)
    with pytest.raises(services.NotAllowedError):
        services.result_delete(result=result, expected_version=1, acting_user=small.referee)
    with pytest.raises(services.ResultConflict):
        services.result_delete(result=result, expected_version=3, acting_user=small.organiser)
    services.result_delete(result=result, expected_version=1, acting_user=small.organiser)
    assert not Result.objects.exists()
    assert not PairBoard.objects.exists()
    audit = AuditEntry.objects.get(action="result.delete")
    assert audit.before["ns_points_taken"] == 40 and audit.after is None


def test_a_reopened_round_takes_a_referee_correction_again(small):
    result = record(small)
    services.round_close(round=small.round1, acting_user=None, allow_missing=True)
    services.round_reopen(round=small.round1, acting_user=small.organiser)
    fixed = services.result_correct(result=result, expected_version=1,
                                    acting_user=small.referee, trump="O", ns_points_taken=41)
    assert fixed.result.version == 2
