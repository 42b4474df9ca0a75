"""Every write of a service leaves one AuditEntry row in its own transaction: action,
who, before and after (never a deal nor the deal secret); a refused write leaves none.
And the checks that moved into the services: closing a round with results missing,
adjusted scores."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from django.db import transaction

from tests.factories import UserFactory
from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.models import AuditEntry, Board, Championship, Membership, Pair, Round
from tournaments.services.common import audit
from tournaments.services.interchange import championship_export

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


def last(action: str) -> AuditEntry:
    """The newest row of ``action``."""
    return AuditEntry.objects.filter(action=action).order_by("-at", "-id").first()


def _creator(name: str):
    from django.contrib.auth.models import Permission

    user = UserFactory(username=name)
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


def _head(small: Small):
    head = UserFactory(username="principal")
    services.membership_grant(championship=small.championship, user=head,
                              role=Membership.Role.HEAD_REFEREE, acting_user=None)
    return head


def _fill_round1(small: Small, *, skip: int = 0) -> None:
    """Every result of round 1 but the last ``skip`` (table, board) slots."""
    slots = [(s, b) for s in small.seatings for b in small.boards]
    for seating, board in slots[: len(slots) - skip]:
        services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                               expected_version=None, acting_user=None)


# --------------------------------------------------------------------------- championship


def test_creating_a_championship_is_audited_with_its_settings() -> None:
    user = _creator("creadora")
    c = services.championship_create(name="Open de Vic", date=DAY, venue="Vic",
                                     acting_user=user, method="matchpoints")
    row = last("championship.create")
    assert (row.championship, row.acting_user, row.target) == (c, user, "Open de Vic")
    assert row.before is None
    assert row.after["slug"] == c.slug and row.after["method"] == "matchpoints"
    assert row.after["date"] == "2026-12-05" and Decimal(str(row.after["scale_top"])) == 2


def test_editing_the_rules_audits_only_what_changed(small: Small) -> None:
    c = services.championship_update_rules(
        championship=small.championship, acting_user=small.organiser,
        method="matchpoints", sant_vicenc=small.championship.sant_vicenc,
    )
    row = last("championship.rules")
    assert row.acting_user == small.organiser and row.target == "method"
    assert (row.before, row.after) == ({"method": "proportional"}, {"method": "matchpoints"})
    assert c.method == "matchpoints"
    # The same values again write nothing.
    services.championship_update_rules(championship=small.championship,
                                       acting_user=small.organiser, method="matchpoints")
    assert AuditEntry.objects.filter(action="championship.rules").count() == 1


def test_granting_a_role_is_audited_once(small: Small) -> None:
    user = UserFactory(username="nova")
    for _ in range(2):
        services.membership_grant(championship=small.championship, user=user,
                                  role=Membership.Role.REFEREE, acting_user=small.organiser)
    rows = AuditEntry.objects.filter(action="role.grant", acting_user=small.organiser)
    assert rows.count() == 1
    assert rows.get().after == {"user": "nova", "role": "referee"}
    assert rows.get().target == "nova: Àrbitre"


def test_finishing_and_publishing_the_secret_are_audited_without_the_secret(
    small: Small,
) -> None:
    services.championship_finish(championship=small.championship, acting_user=small.organiser)
    finish = last("championship.finish")
    assert finish.acting_user == small.organiser
    assert finish.before == {"status": "running"}
    assert finish.after == {"status": "finished", "rounds_closed": [1, 2]}
    c = services.deal_secret_publish(championship=small.championship,
                                     acting_user=small.organiser)
    publish = last("championship.publish_secret")
    assert publish.after["deal_commitment"] == c.deal_commitment
    assert c.deal_secret not in json.dumps([publish.before, publish.after, publish.target])


def test_an_import_is_audited_with_its_counts(small: Small) -> None:
    data = championship_export(small.championship)
    user = _creator("importadora")
    imported = services.championship_import(data=data, acting_user=user).championship
    row = AuditEntry.objects.get(championship=imported, action="championship.import")
    assert row.acting_user == user
    assert (row.after["pairs"], row.after["rounds"], row.after["boards"]) == (4, 2, 4)
    assert row.after["results"] == 0


# --------------------------------------------------------------------------- pairs


def test_registering_a_pair_is_audited(small: Small) -> None:
    services.pair_register(championship=small.championship, number=9, player1="Anna",
                           player2="Berta", acting_user=small.organiser)
    row = last("pair.register")
    assert (row.acting_user, row.target, row.before) == (small.organiser, "parella 9", None)
    assert row.after == {"number": 9, "player1": "Anna", "player2": "Berta",
                         "joined_round": 2}


def test_a_pairs_list_is_one_audit_row_listing_every_pair(small: Small) -> None:
    services.pairs_import_csv(championship=small.championship, text="7;A;B\n8;C;D",
                              acting_user=small.organiser)
    row = last("pair.import")
    assert row.acting_user == small.organiser and row.target == "2 parelles"
    assert [p["number"] for p in row.after["pairs"]] == [7, 8]
    assert row.after["pairs"][1]["player2"] == "D"


def test_removing_a_pair_is_audited_with_what_it_was(small: Small) -> None:
    pair = services.pair_register(championship=small.championship, number=9,
                                  player1="Anna", player2="Berta", acting_user=None)
    services.pair_remove(pair=pair, acting_user=small.organiser)
    row = last("pair.remove")
    assert (row.acting_user, row.after) == (small.organiser, None)
    assert row.before["player1"] == "Anna" and row.before["number"] == 9


# --------------------------------------------------------------------------- rounds, boards


def test_setting_up_rounds_is_audited_with_the_old_and_new_shape() -> None:
    user = _creator("org")
    c = services.championship_create(name="Prova", date=DAY, acting_user=user)
    services.rounds_setup(championship=c, rounds=3, boards_per_round=4, acting_user=user)
    first = last("round.setup")
    assert first.before is None
    assert (first.after["rounds"], first.after["boards_per_round"]) == (3, 4)
    services.rounds_setup(championship=c, rounds=2, boards_per_round=6, acting_user=user)
    again = last("round.setup")
    assert (again.before["rounds"], again.after["rounds"]) == (3, 2)


def test_a_draw_is_audited_with_its_tables_and_seed(small: Small) -> None:
    seatings = services.round_draw(round=small.round2, seed=11, acting_user=small.organiser)
    row = last("round.draw")
    assert (row.acting_user, row.round_number, row.target) == (small.organiser, 2, "ronda 2")
    assert row.before is None
    assert row.after["seed"] == 11
    assert row.after["tables"] == [
        [s.table.number, s.ns_pair.number, s.ew_pair.number] for s in seatings
    ]
    # A redraw keeps what it replaced.
    services.round_draw(round=small.round2, seed=12, acting_user=small.organiser)
    assert last("round.draw").before["tables"] == row.after["tables"]


def test_seating_by_hand_is_audited(small: Small) -> None:
    p1, p2 = Pair.objects.filter(championship=small.championship).order_by("number")[:2]
    services.seating_set(round=small.round2, table_number=5, ns_pair=p1, ew_pair=p2,
                         acting_user=small.organiser)
    row = last("round.seat")
    assert (row.round_number, row.table_number) == (2, 5)
    assert row.after == {"ns_pair": p1.number, "ew_pair": p2.number}


def test_generating_boards_audits_the_commitment_never_a_deal_nor_the_secret(
    small: Small,
) -> None:
    old = small.championship.deal_commitment
    services.boards_generate(championship=small.championship, acting_user=small.organiser)
    c = Championship.objects.get(pk=small.championship.pk)
    row = last("boards.generate")
    assert row.before == {"deal_commitment": old}
    assert row.after == {"deal_commitment": c.deal_commitment, "boards": 4}
    text = json.dumps([row.before, row.after, row.target, row.reason])
    assert c.deal_secret not in text
    deal = Board.objects.filter(championship=c).first().deal
    assert json.dumps(deal) not in text and '"N"' not in text


def test_closing_and_reopening_a_round_are_audited(small: Small) -> None:
    _fill_round1(small)
    services.round_close(round=small.round1, acting_user=small.organiser)
    close = last("round.close")
    assert (close.acting_user, close.round_number, close.after["missing"]) == (
        small.organiser, 1, [])
    assert close.before == {"closed_at": None}
    services.round_reopen(round=small.round1, acting_user=small.organiser)
    reopen = last("round.reopen")
    assert reopen.after == {"closed_at": None} and reopen.before["closed_at"]
    # Reopening an open round writes nothing.
    services.round_reopen(round=small.round1, acting_user=small.organiser)
    assert AuditEntry.objects.filter(action="round.reopen").count() == 1


# --------------------------------------------------------------------------- round_close


def test_round_close_refuses_missing_results_without_allow_missing(small: Small) -> None:
    _fill_round1(small, skip=1)
    with pytest.raises(services.ChampionshipStateError, match="Falta 1 resultat a la ronda"):
        services.round_close(round=small.round1, acting_user=small.organiser)
    assert not Round.objects.get(pk=small.round1.pk).is_closed
    assert not AuditEntry.objects.filter(action="round.close").exists()


def test_the_head_referee_cannot_close_with_results_missing_even_asking(small: Small) -> None:
    _fill_round1(small, skip=2)
    head = _head(small)
    with pytest.raises(services.NotAllowedError, match="tancar una ronda amb resultats"):
        services.round_close(round=small.round1, acting_user=head, allow_missing=True)
    assert not Round.objects.get(pk=small.round1.pk).is_closed
    # With every result in, the head referee closes it.
    _fill_round1_rest(small)
    services.round_close(round=small.round1, acting_user=head)
    assert Round.objects.get(pk=small.round1.pk).is_closed


def _fill_round1_rest(small: Small) -> None:
    from tournaments.models import Result

    for seating in small.seatings:
        for board in small.boards:
            if not Result.objects.filter(seating=seating, board=board).exists():
                services.result_record(seating=seating, board=board, trump="C",
                                       ns_points_taken=30, expected_version=None,
                                       acting_user=None)


def test_the_organiser_closes_with_results_missing_and_the_row_lists_them(
    small: Small,
) -> None:
    _fill_round1(small, skip=2)
    services.round_close(round=small.round1, acting_user=small.organiser, allow_missing=True)
    row = last("round.close")
    last_table = small.seatings[-1].table.number
    assert row.after["missing"] == [f"{last_table}/{b.number}" for b in small.boards]


def test_a_referee_cannot_close_a_round(small: Small) -> None:
    _fill_round1(small)
    with pytest.raises(services.NotAllowedError, match="tancar rondes"):
        services.round_close(round=small.round1, acting_user=small.referee)


# --------------------------------------------------------------------------- adjusted scores


def test_a_referee_cannot_put_an_adjusted_score(small: Small) -> None:
    with pytest.raises(services.NotAllowedError, match="puntuació ajustada"):
        services.result_record(
            seating=small.seatings[0], board=small.boards[0], trump=None,
            ns_points_taken=None, adjusted={"NS": "average_plus", "EW": "average_minus"},
            expected_version=None, acting_user=small.referee,
        )
    assert not AuditEntry.objects.filter(action__startswith="result.").exists()


def test_a_referee_cannot_replace_an_adjusted_score_but_the_head_referee_can(
    small: Small,
) -> None:
    head = _head(small)
    adjusted = services.result_record(
        seating=small.seatings[0], board=small.boards[0], trump=None, ns_points_taken=None,
        adjusted={"NS": "average_plus", "EW": "average_minus"}, expected_version=None,
        acting_user=head,
    ).result
    with pytest.raises(services.NotAllowedError):
        services.result_record(
            seating=small.seatings[0], board=small.boards[0], trump="O", ns_points_taken=40,
            expected_version=adjusted.version, acting_user=small.referee,
        )
    played = services.result_record(
        seating=small.seatings[0], board=small.boards[0], trump="O", ns_points_taken=40,
        expected_version=adjusted.version, acting_user=head,
    ).result
    assert not played.is_adjusted
    row = last("result.update")
    assert row.acting_user == head
    assert row.before["adjusted"] == {"NS": "average_plus", "EW": "average_minus"}
    assert row.after["adjusted"] is None


def test_deleting_a_result_keeps_the_reason_in_the_row(small: Small) -> None:
    head = _head(small)
    result = services.result_record(
        seating=small.seatings[0], board=small.boards[0], trump="O", ns_points_taken=40,
        expected_version=None, acting_user=small.referee,
    ).result
    services.result_delete(result=result, expected_version=1, acting_user=head,
                           reason="  taula equivocada ")
    row = last("result.delete")
    assert (row.acting_user, row.reason, row.after) == (head, "taula equivocada", None)
    assert row.before["ns_points_taken"] == 40
    assert (row.round_number, row.table_number, row.board_number) == (
        1, small.seatings[0].table.number, small.boards[0].number)


# --------------------------------------------------------------------------- the helper


@pytest.mark.django_db(transaction=True)
def test_the_audit_helper_refuses_to_run_outside_a_transaction() -> None:
    c = services.championship_create(name="Fora", date=DAY, acting_user=None)
    with pytest.raises(RuntimeError):
        audit(c, AuditEntry.Action.ROUND_CLOSE, None)
    with transaction.atomic():
        row = audit(c, AuditEntry.Action.ROUND_CLOSE, None,
                    reason="x" * 600, target="t" * 300)
    assert (len(row.reason), len(row.target), row.acting_user) == (500, 200, None)


def test_a_refused_write_leaves_no_audit_row(small: Small) -> None:
    before = AuditEntry.objects.count()
    with pytest.raises(services.NotAllowedError):
        services.round_draw(round=small.round2, seed=1, acting_user=small.referee)
    with pytest.raises(services.RegistrationError):
        services.pair_register(championship=small.championship, number=1, player1="A",
                               player2="B", acting_user=small.organiser)
    assert AuditEntry.objects.count() == before
