"""The hot path's fixed SQL reads (tournaments.models.joined) give the instances a
queryset gives: every field's value equal, of the same type (aware datetimes, booleans,
JSON), on SQLite as on PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Model
from rest_framework.authtoken.models import Token

from tests.tournaments.conftest import Small
from tournaments import services
from tournaments.api.authentication import DeviceTokenAuthentication
from tournaments.models import Result, Seating
from tournaments.models.joined import result_locked, seating_joined

pytestmark = pytest.mark.django_db


def _same(read: Model, orm: Model) -> None:
    assert type(read) is type(orm) and read.pk == orm.pk
    for field in type(orm)._meta.concrete_fields:
        got, want = getattr(read, field.attname), getattr(orm, field.attname)
        assert (field.name, got, type(got)) == (field.name, want, type(want))
        if hasattr(want, "tzinfo"):
            assert got.tzinfo is not None, field.name


def test_the_locked_result_is_the_orms(small: Small) -> None:
    services.result_record(
        seating=small.seatings[0], board=small.boards[0], trump="O", ns_points_taken=40,
        delegated=True, note="nota", expected_version=None, acting_user=small.referee,
    )
    orm = Result.objects.get(seating=small.seatings[0], board=small.boards[0])
    read = result_locked(small.seatings[0].pk, small.boards[0].pk)
    assert read is not None
    _same(read, orm)
    assert result_locked(small.seatings[0].pk, small.boards[-1].pk + 1000) is None


def test_the_joined_seating_is_the_orms(small: Small) -> None:
    services.result_record(
        seating=small.seatings[0], board=small.boards[0], trump="O", ns_points_taken=40,
        expected_version=None, acting_user=small.referee,
    )
    seating = small.seatings[0]
    orm = Seating.objects.select_related(
        "round__championship", "table", "ns_pair", "ew_pair").get(pk=seating.pk)
    read = seating_joined(f"{Seating._meta.db_table}.id = %s", [seating.pk], pairs=True)
    assert read is not None
    _same(read, orm)
    _same(read.round, orm.round)
    _same(read.round.championship, orm.round.championship)
    _same(read.table, orm.table)
    _same(read.ns_pair, orm.ns_pair)


def test_the_token_and_its_user_are_the_orms(small: Small) -> None:
    from tournaments.services import access

    key = access.token_for(user=small.referee)
    get_user_model().objects.filter(pk=small.referee.pk).update(
        last_login="2026-05-01T10:00:00+02:00")
    user, token = DeviceTokenAuthentication().authenticate_credentials(key)
    _same(token, Token.objects.get(key=key))
    _same(user, get_user_model().objects.get(pk=small.referee.pk))
