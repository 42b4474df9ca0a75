"""selectors.checklist: a constant number of queries, whatever the championship's size."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tournaments import selectors

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("pairs, rounds", [(4, 2), (12, 5)])
def test_the_checklist_reads_in_seven_queries(django_assert_num_queries, pairs: int,
                                              rounds: int) -> None:
    championship = build_championship(pairs=pairs, rounds=rounds, drawn_rounds=2,
                                      played_rounds=1)
    with django_assert_num_queries(7):
        checklist = selectors.checklist(championship)
    assert [s.round for s in checklist.steps if s.key == "draw"] == list(range(1, rounds + 1))
    assert checklist.next is not None and checklist.next.anchor == "step-close-1"


@pytest.mark.parametrize("kind, printed", [("round-pack", True), ("board-sheets", True),
                                           ("standings", False)])
def test_printing_the_round_pack_counts_as_printing_the_board_sheets(
    kind: str, printed: bool,
) -> None:
    from tournaments.models import PrintJob
    from tournaments.selectors import StepState

    championship = build_championship(pairs=4, rounds=2, drawn_rounds=1)
    assert selectors.checklist(championship).step("print").state != StepState.DONE
    PrintJob.objects.create(championship=championship, kind=kind, round_number=1)
    state = selectors.checklist(championship).step("print").state
    assert (state == StepState.DONE) is printed
