"""Saving the same thing twice is not a conflict: the service and the referee form treat
values identical to the stored result as a success that writes nothing (same version, no
audit row), whatever version the client sent; a different value over a newer version is
still a conflict."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import entry_url, form_data, record
from tournaments import services
from tournaments.models import AuditEntry, Board, Result, Seating
from tournaments.services import SaveKind

pytestmark = pytest.mark.django_db


def _save(seating: Seating, board: Board, ns_points: int,
          **data: Any) -> services.ResultSaved:
    """A result entered by the system, with what the save did."""
    return services.result_record(seating=seating, board=board, trump="O",
                                  ns_points_taken=ns_points, acting_user=None,
                                  **{"expected_version": None, **data})


def test_the_same_values_again_with_no_version_are_unchanged_not_a_conflict(small: Small):
    seating, board = small.seatings[0], small.boards[0]
    first = _save(seating, board, 40)
    assert first.kind is SaveKind.CREATED
    again = _save(seating, board, 40)  # a retry that never saw the first answer
    assert (again.result.pk, again.result.version, again.kind) == (
        first.result.pk, 1, SaveKind.UNCHANGED)
    assert AuditEntry.objects.filter(board_number=board.number).count() == 1


def test_the_same_values_over_a_stale_version_are_unchanged(small: Small) -> None:
    seating, board = small.seatings[0], small.boards[0]
    record(seating, board, 40)
    record(seating, board, 45, expected_version=1)  # version 2
    again = _save(seating, board, 45, expected_version=1)  # stale, but the same values
    assert (again.result.version, again.kind, again.result.ns_points_taken) == (
        2, SaveKind.UNCHANGED, 45)
    assert AuditEntry.objects.filter(action__startswith="result.").count() == 2


def test_a_different_value_over_a_newer_version_is_still_a_conflict(small: Small) -> None:
    seating, board = small.seatings[0], small.boards[0]
    record(seating, board, 40)
    record(seating, board, 45, expected_version=1)
    with pytest.raises(services.ResultConflict) as caught:
        record(seating, board, 30, expected_version=1)
    assert caught.value.current_version == 2
    assert Result.objects.get(seating=seating, board=board).ns_points_taken == 45


def test_a_changed_note_is_a_change_not_a_no_op(small: Small) -> None:
    seating, board = small.seatings[0], small.boards[0]
    record(seating, board, 40)
    changed = _save(seating, board, 40, expected_version=1, note="revisat")
    assert (changed.result.version, changed.kind) == (2, SaveKind.UPDATED)


def test_the_same_values_still_need_a_referee_role(small: Small) -> None:
    from tests.factories import UserFactory

    seating, board = small.seatings[0], small.boards[0]
    record(seating, board, 40)
    with pytest.raises(services.NotAllowedError):
        services.result_record(
            seating=seating, board=board, trump="O", ns_points_taken=40,
            expected_version=None, acting_user=UserFactory(),
        )


def test_the_form_submitted_twice_says_already_saved_and_keeps_the_version(client, small):
    small.referee.save()
    client.force_login(small.referee)
    seating, board = small.seatings[0], small.boards[0]
    url = entry_url(small, seating, board)
    first = client.post(url, form_data(ns_points_taken="40"))
    assert first.status_code == 302
    again = client.post(url, form_data(ns_points_taken="40"), follow=True)  # no version
    page = again.content.decode()
    assert "Tauler 1: aquest resultat ja estava desat." in page
    assert 'id="conflict"' not in page
    stored = Result.objects.get(seating=seating, board=board)
    assert stored.version == 1
    assert AuditEntry.objects.filter(result=stored, action__startswith="result.").count() == 1
