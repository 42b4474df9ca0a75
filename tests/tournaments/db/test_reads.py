"""The hot paths' fixed SQL reads (tournaments.db) give the instances a queryset gives:
every field's value equal, of the same type (aware datetimes, booleans, JSON), on SQLite
as on PostgreSQL; a save's context says what the ORM's queries would say of its board,
its round and the user's roles."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Model
from rest_framework.authtoken.models import Token

from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.api.authentication import DeviceTokenAuthentication
from tournaments.db.results import (
    SaveContext,
    result_locked,
    save_context,
    save_context_at,
    seating_at,
)
from tournaments.db.tokens import token_with_user
from tournaments.models import Board, PairBoard, Result, Seating
from tournaments.permissions import roles_of

pytestmark = pytest.mark.django_db


def _same(read: Model, orm: Model) -> None:
    assert type(read) is type(orm) and read.pk == orm.pk
    for field in type(orm)._meta.concrete_fields:
        got, want = getattr(read, field.attname), getattr(orm, field.attname)
        assert (field.name, got, type(got)) == (field.name, want, type(want))
        if hasattr(want, "tzinfo"):
            assert got.tzinfo is not None, field.name


def _same_seating(read: Seating) -> None:
    """``read`` and everything set on it, field by field against ``select_related``."""
    orm = Seating.objects.select_related(
        "round__championship", "table", "ns_pair", "ew_pair").get(pk=read.pk)
    _same(read, orm)
    _same(read.round, orm.round)
    _same(read.round.championship, orm.round.championship)
    _same(read.table, orm.table)
    _same(read.ns_pair, orm.ns_pair)
    _same(read.ew_pair, orm.ew_pair)


def _record(small: Small, seating: int = 0, board: int = 0) -> None:
    services.result_record(
        seating=small.seatings[seating], board=small.boards[board], trump="O",
        ns_points_taken=40, delegated=True, note="nota", expected_version=None,
        acting_user=small.referee,
    )


def test_the_locked_result_is_the_orms(small: Small) -> None:
    _record(small)
    orm = Result.objects.get(seating=small.seatings[0], board=small.boards[0])
    read = result_locked(small.seatings[0].pk, small.boards[0].pk)
    assert read is not None
    _same(read, orm)
    assert result_locked(small.seatings[0].pk, small.boards[-1].pk + 1000) is None


def test_the_save_context_by_id_is_the_orms(small: Small) -> None:
    _record(small)
    seating, board = small.seatings[0], small.boards[0]
    with transaction.atomic():
        context = save_context(seating.pk, board, user_id=small.referee.pk)
    assert isinstance(context, SaveContext)
    _same_seating(context.seating)
    assert context.board is board
    assert (context.round, context.championship) == (seating.round, small.championship)
    assert (context.board_fits, context.round_started, context.played_by) == (True, True, None)
    with transaction.atomic():
        assert save_context(seating.pk + 1000, board, user_id=None) is None


def test_the_save_context_by_address_is_the_orms(small: Small) -> None:
    seating, board = small.seatings[1], small.boards[1]
    address = (small.championship.slug, 1, seating.table.number, board.number)
    with transaction.atomic():
        context = save_context_at(*address, user_id=small.referee.pk)
    assert context is not None
    _same_seating(context.seating)
    assert context.seating.pk == seating.pk
    assert (context.board.pk, context.board.number, context.board.round_id,
            context.board.championship_id) == (board.pk, board.number, board.round_id,
                                                board.championship_id)
    assert (context.board_fits, context.round_started, context.played_by) == (
        True, False, None)
    for wrong in [("cap", 1, 1, 1), (address[0], 9, 1, 1), (address[0], 1, 99, 1),
                  (address[0], 1, 1, 3)]:  # board 3 is round 2's
        with transaction.atomic():
            assert save_context_at(*wrong, user_id=None) is None


def test_seating_at_is_the_orms_without_a_lock(small: Small) -> None:
    seating, board = small.seatings[0], small.boards[1]
    found = seating_at(small.championship.slug, 1, seating.table.number, board.number)
    assert found is not None
    _same_seating(found[0])
    assert (found[1].pk, found[1].round, found[1].championship) == (
        board.pk, found[0].round, small.championship)
    assert seating_at(small.championship.slug, 1, seating.table.number, 3) is None


def test_the_checks_say_what_the_orm_says(small: Small) -> None:
    seating, other, board = small.seatings[0], small.seatings[1], small.boards[0]
    round2_board = Board.objects.get(round=small.round2, number=3)
    with transaction.atomic():
        context = save_context(seating.pk, round2_board, user_id=None)
    assert context is not None and not context.board_fits
    # The table's EW pair played the board at the other table (a row written by hand).
    PairBoard.objects.create(pair_id=seating.ew_pair_id, board=board,
                             result=Result.objects.create(
                                 seating=other, board=board, trump="O", ns_points_taken=1))
    with transaction.atomic():
        context = save_context(seating.pk, board, user_id=None)
    assert context is not None
    assert (context.board_fits, context.round_started) == (True, True)
    assert context.played_by == seating.ew_pair.number


def test_the_roles_read_with_the_context_are_roles_of(small: Small) -> None:
    seating, board = small.seatings[0], small.boards[0]
    outsider = get_user_model().objects.create(username="ningu")
    for user in (small.referee, small.organiser, outsider):
        with transaction.atomic():
            context = save_context(seating.pk, board, user_id=user.pk)
        assert context is not None
        if connection.vendor == "postgresql":
            fresh = get_user_model().objects.get(pk=user.pk)  # nothing remembered
            assert context.roles == roles_of(fresh, small.championship)
        else:  # read by roles_of's own statement
            assert context.roles is None
    with transaction.atomic():
        context = save_context(seating.pk, board, user_id=None)
    assert context is not None and context.roles is None


def test_the_token_and_its_user_are_the_orms(small: Small) -> None:
    from tournaments.services import access

    key = access.token_for(user=small.referee)
    get_user_model().objects.filter(pk=small.referee.pk).update(
        last_login="2026-05-01T10:00:00+02:00")
    user, token = DeviceTokenAuthentication().authenticate_credentials(key)
    _same(token, Token.objects.get(key=key))
    _same(user, get_user_model().objects.get(pk=small.referee.pk))
    assert token.user is user
    assert token_with_user(key + "x") is None
