"""The hot path's fixed SQL write (tournaments.db.results): a new result, its two
pair-board rows, its audit row and the results version bump in one statement store
column for column what the ORM's four statements store, and leave the same saved
instances; a pair that already played the board is refused with nothing written."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.forms.models import model_to_dict

from tests.tournaments.conftest import Small
from tournaments.db.results import in_one_statement, with_the_orm
from tournaments.models import AuditEntry, Championship, PairBoard, Result
from tournaments.services.common import audit_entry

pytestmark = pytest.mark.django_db

AT = datetime.datetime(2026, 5, 17, 10, 30, 15, 123456, tzinfo=datetime.UTC)
VALUES: list[dict[str, Any]] = [
    {"trump": "O", "ns_points_taken": 40, "delegated": True, "contro": True,
     "recontro": True, "note": "Nota amb accents: Sant Vicenç, l·l"},
    {"trump": "botifarra", "ns_points_taken": 0, "delegated": True, "infraction": "EW"},
    {"trump": None, "ns_points_taken": None, "adjusted_ns": "avg+", "adjusted_ew": "avg-"},
]


class _Rollback(Exception):
    pass


def _stored(small: Small, write: Any, values: dict[str, Any]) -> dict[str, Any]:
    """What ``write`` stores for ``values``, read back, then rolled back."""
    seating, board = small.seatings[0], small.boards[0]
    out: dict[str, Any] = {}
    try:
        with transaction.atomic():
            version = Championship.objects.get(pk=small.championship.pk).results_version
            result = Result(seating=seating, board=board, entered_by=small.referee,
                            entered_at=AT, updated_at=AT, version=1, **values)
            entry = audit_entry(small.championship.pk, AuditEntry.Action.RESULT_CREATE,
                                small.referee, target="ronda 1, taula 1, tauler 1",
                                round_number=1, table_number=1, board_number=1,
                                before=None, after=result.snapshot(), at=AT)
            write(result, ns_pair_id=seating.ns_pair_id, ew_pair_id=seating.ew_pair_id,
                  entry=entry)
            stored_result = Result.objects.get(pk=result.pk)
            stored_entry = AuditEntry.objects.get(pk=entry.pk)
            assert stored_entry.result_id == result.pk and entry.result is result
            assert not result._state.adding and not entry._state.adding
            out = {
                "result": {k: v for k, v in model_to_dict(stored_result).items() if k != "id"},
                "result types": [type(getattr(stored_result, f.attname))
                                 for f in Result._meta.concrete_fields],
                "pairs": sorted(PairBoard.objects.filter(result=result)
                                .values_list("pair_id", "board_id")),
                "audit": {k: v for k, v in model_to_dict(stored_entry).items()
                          if k not in ("id", "result")},
                "bumped": Championship.objects.get(pk=small.championship.pk).results_version
                - version,
            }
            raise _Rollback
    except _Rollback:
        pass
    return out


@pytest.mark.parametrize("values", VALUES)
def test_one_statement_stores_what_the_orm_stores(
    small: Small, values: dict[str, Any], on_postgres: None
) -> None:
    orm = _stored(small, with_the_orm, values)
    assert orm["pairs"] == sorted([(small.seatings[0].ns_pair_id, small.boards[0].pk),
                                   (small.seatings[0].ew_pair_id, small.boards[0].pk)])
    assert orm["bumped"] == 1 and orm["audit"]["after"]["trump"] == values["trump"]
    assert _stored(small, in_one_statement, values) == orm


def test_a_pair_that_played_the_board_is_refused_and_nothing_is_written(
    small: Small, on_postgres: None
) -> None:
    seating, board = small.seatings[0], small.boards[0]
    other = small.seatings[1]
    PairBoard.objects.create(pair_id=seating.ew_pair_id, board=board,
                             result=Result.objects.create(
                                 seating=other, board=board, trump="O", ns_points_taken=1))
    counts = (Result.objects.count(), PairBoard.objects.count(), AuditEntry.objects.count())
    result = Result(seating=seating, board=board, trump="C", ns_points_taken=30)
    entry = audit_entry(small.championship.pk, AuditEntry.Action.RESULT_CREATE, None)
    with pytest.raises(IntegrityError), transaction.atomic():
        in_one_statement(result, ns_pair_id=seating.ns_pair_id,
                         ew_pair_id=seating.ew_pair_id, entry=entry)
    assert (Result.objects.count(), PairBoard.objects.count(),
            AuditEntry.objects.count()) == counts
