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


@pytest.mark.parametrize("language, one, many", [
    ("ca", ["9 parelles inscrites (1 retirada)", "1 àrbitre", "1 ronda de 1 tauler",
            "0 de 1 resultat"],
     ["9 parelles inscrites (2 retirades)", "2 àrbitres", "3 rondes de 2 taulers",
      "0 de 2 resultats"]),
    ("es", ["9 parejas inscritas (1 retirada)", "1 árbitro", "1 ronda de 1 tablero",
            "0 de 1 resultado"],
     ["9 parejas inscritas (2 retiradas)", "2 árbitros", "3 rondas de 2 tableros",
      "0 de 2 resultados"]),
    ("en", ["9 pairs registered (1 withdrawn)", "1 referee", "1 round of 1 board",
            "0 of 1 result"],
     ["9 pairs registered (2 withdrawn)", "2 referees", "3 rounds of 2 boards",
      "0 of 2 results"]),
])
def test_the_checklist_counts_every_registered_pair_and_words_each_count_in_the_plural(
    language: str, one: list[str], many: list[str],
) -> None:
    """After a withdrawal the pair list says "Parelles (9)": the checklist counts the
    same 9 and says how many withdrew; "1 àrbitre", not "1 àrbitres"."""
    from django.utils import translation

    from tests.factories import MembershipFactory
    from tournaments import services
    from tournaments.models import Championship, Pair

    def details(championship: Championship) -> list[str]:
        with translation.override(language):
            steps = selectors.checklist(championship).steps
        return [s.detail for s in steps if s.key in ("pairs", "referees", "rounds")] + [
            s.detail for s in steps if s.key == "results" and s.round == 1]

    def field(pairs: int, rounds: int, boards: int, referees: int, withdrawn: int,
              ) -> Championship:
        championship = build_championship(pairs=pairs, rounds=rounds,
                                          boards_per_round=boards, drawn_rounds=0)
        for _ in range(referees):
            MembershipFactory(championship=championship)
        for number in range(pairs - withdrawn + 1, pairs + 1):
            services.pair_withdraw(
                pair=Pair.objects.get(championship=championship, number=number),
                after_round=0, reason="malalt", acting_user=None)
        services.round_draw(round=championship.rounds.get(number=1), seed=3,
                            acting_user=None)
        return championship

    assert details(field(9, 1, 1, 1, 1))[:3] == one[:3]
    assert details(field(9, 3, 2, 2, 2))[:3] == many[:3]
    # Results due in round 1: its board at each table (2 pairs in play: 1 table; 4: 2).
    assert details(field(3, 1, 1, 0, 1))[3] == one[3]
    assert details(field(5, 1, 1, 0, 1))[3] == many[3]
