"""A duplicate championship with a qualifying stage then an A and a B final, played
through the services: the finals' pairs, their draw, their standings (each board
compared within its final, the carry-over) and the public standings page."""

from __future__ import annotations

import datetime
from collections import defaultdict
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from tournaments import selectors, services
from tournaments.models import Board, Bye, Championship, Round, Seating, Stage
from tournaments.selectors.finals import finals_view
from tournaments.selectors.results import scored_championship
from tournaments.services.common import bump_results_version

pytestmark = pytest.mark.django_db

TRUMPS = ["O", "C", "E", "B", "botifarra"]


def make_finals(pairs: int = 12, *, carry_over: str = "percent", percent: int = 50,
                sizes: tuple[int, int] = (4, 4)) -> Championship:
    """``pairs`` pairs; a qualifying stage of 2 rounds, then finals A and B of ``sizes``
    over 2 rounds; 2 boards a round."""
    championship = services.championship_create(
        name="Campionat amb finals", date=datetime.date(2026, 12, 5), acting_user=None)
    services.pairs_import_csv(
        championship=championship,
        text="\n".join(f"{n};Jugador {n}A;Jugador {n}B" for n in range(1, pairs + 1)),
        acting_user=None)
    services.stages_setup(championship=championship, stages=[
        {"kind": "swiss", "rounds": 2},
        {"kind": "finals", "finals": [["A", sizes[0]], ["B", sizes[1]]],
         "carry_over": carry_over, "carry_over_percent": percent, "rounds": 2},
    ], boards_per_round=2, acting_user=None)
    services.boards_generate(championship=championship, acting_user=None)
    championship.refresh_from_db()
    return championship


def play(championship: Championship, number: int) -> list[Seating]:
    """Draw round ``number`` and enter every table's result: NS takes points that depend
    on the table and the board, so a board's results differ from table to table."""
    rnd = Round.objects.get(championship=championship, number=number)
    seatings = services.round_draw(round=rnd, seed=11 + number, acting_user=None,
                                   accept_rematches=True)
    for board in Board.objects.filter(round=rnd).order_by("number"):
        for s in seatings:
            k = board.number * 7 + s.table.number * 5 + s.ns_pair.number
            services.result_record(
                seating=s, board=board, trump=TRUMPS[k % 5],
                ns_points_taken=(k * 13 + s.ns_pair.number * 3) % 73,
                expected_version=None, acting_user=None)
    services.round_close(round=rnd, acting_user=None, analyse=False)
    return seatings


def finals_of(championship: Championship) -> dict[str, list[int]]:
    stage = Stage.objects.get(championship=championship, kind="finals")
    return {str(g["name"]): [int(p) for p in g["pairs"]] for g in stage.group_list()}


def test_finals_take_the_qualifying_standings_and_seat_each_final_apart() -> None:
    championship = make_finals()
    play(championship, 1)
    play(championship, 2)
    assert finals_view(championship) is None  # not started yet
    standings = selectors.standings(championship, through_round=2)
    order = [r.number for r in standings.rows]
    seatings = play(championship, 3)
    finals = finals_of(championship)
    assert finals == {"A": order[:4], "B": order[4:8]}
    final_of = {p: name for name, pairs in finals.items() for p in pairs}
    for s in seatings:
        assert final_of[s.ns_pair.number] == final_of[s.ew_pair.number]
    # Final A at the first tables; the pairs of no final neither play nor sit out.
    assert [final_of[s.ns_pair.number] for s in sorted(seatings, key=lambda s: s.table.number)
            ] == ["A", "A", "B", "B"]
    seated = {p for s in seatings for p in (s.ns_pair.number, s.ew_pair.number)}
    assert seated == set(order[:8])
    assert not Bye.objects.filter(round__championship=championship).exists()
    view = finals_view(championship)
    assert view is not None
    assert sorted(p.number for p in view.outside) == sorted(order[8:])
    assert view.qualifying_rounds == (1, 2) and view.finals_rounds == (3, 4)


def test_later_finals_rounds_are_swiss_within_each_final() -> None:
    championship = make_finals()
    for n in (1, 2, 3):
        play(championship, n)
    view = finals_view(championship)
    assert view is not None
    seatings = sorted(play(championship, 4), key=lambda s: s.table.number)
    assert Round.objects.get(championship=championship, number=4).movement == "swiss"
    finals = finals_of(championship)
    # Table 1 seats final A's leader, table 3 final B's (the Swiss draw's first table).
    leader_a = view.finals[0].rows[0].pair.number
    leader_b = view.finals[1].rows[0].pair.number
    assert leader_a in (seatings[0].ns_pair.number, seatings[0].ew_pair.number)
    assert leader_b in (seatings[2].ns_pair.number, seatings[2].ew_pair.number)
    round3 = {frozenset((s.ns_pair.number, s.ew_pair.number)) for s in
              Seating.objects.filter(round__championship=championship, round__number=3)}
    for s in seatings:
        assert frozenset((s.ns_pair.number, s.ew_pair.number)) not in round3
        assert {s.ns_pair.number, s.ew_pair.number} <= set(finals["A"]) or \
            {s.ns_pair.number, s.ew_pair.number} <= set(finals["B"])


def _within_final_totals(championship: Championship, finals: dict[str, list[int]]
                         ) -> dict[int, Fraction]:
    """Each pair's comparative total over rounds 3-4, every board scored with only the
    results of its own final (scoring.score_board, board by board)."""
    scored = scored_championship(championship, public_only=False)
    final_of = {p: name for name, pairs in finals.items() for p in pairs}
    boards: dict[tuple[str, int], list[scoring.Result]] = defaultdict(list)
    for r in scored.results:
        if r.round >= 3:
            boards[(final_of[r.ns_pair], r.board)].append(r.to_scoring())
    totals: dict[int, Fraction] = defaultdict(Fraction)
    rules = championship.scoring_rules()
    for results in boards.values():
        by_key = {r.key: r for r in results}
        for key, score in scoring.score_board(rules, results).items():
            totals[by_key[key].ns_pair] += score.ns_comparative
            totals[by_key[key].ew_pair] += score.ew_comparative
    return totals


@pytest.mark.parametrize(("carry_over", "percent", "share"), [
    ("none", 0, Fraction(0)), ("all", 0, Fraction(1)), ("percent", 50, Fraction(1, 2)),
])
def test_finals_standings_compare_within_each_final_and_add_the_carry_over(
    carry_over: str, percent: int, share: Fraction,
) -> None:
    championship = make_finals(carry_over=carry_over, percent=percent)
    for n in (1, 2, 3, 4):
        play(championship, n)
    view = finals_view(championship)
    assert view is not None
    assert [f.name for f in view.finals] == ["A", "B"]
    finals = finals_of(championship)
    within = _within_final_totals(championship, finals)
    qualifying = {r.number: r.total for r in
                  selectors.standings(championship, through_round=2).rows}
    overall = scored_championship(championship, public_only=False).score
    mixed = {s.pair: s.total for s in overall.standings(round_only=3)}
    mixed4 = {s.pair: s.total for s in overall.standings(round_only=4)}
    differs = False
    for final in view.finals:
        assert sorted(r.pair.number for r in final.rows) == sorted(finals[final.name])
        for row in final.rows:
            p = row.pair.number
            assert row.finals == within[p]
            assert row.qualifying == qualifying[p]
            assert row.carried == share * qualifying[p]
            assert row.total == row.carried + row.finals
            assert row.boards == 4
            differs |= row.finals != mixed[p] + mixed4[p]
        totals = [r.total for r in final.rows]
        assert totals == sorted(totals, reverse=True)
        assert final.rows[0].rank == 1
    # Compared across both finals the numbers would not be these.
    assert differs


def test_finals_setup_and_start_errors_name_the_field() -> None:
    with pytest.raises(services.DrawError) as info:
        make_finals(pairs=6)  # finals of 4 + 4 from 6 pairs
    assert info.value.field == "stages.2.finals"


def test_public_standings_show_each_final_then_the_qualifying_stage(client: Client) -> None:
    championship = make_finals(carry_over="all")
    for n in (1, 2, 3):
        play(championship, n)
    championship.status = Championship.Status.FINISHED  # every board public
    championship.save(update_fields=["status"])
    bump_results_version(championship.pk)
    response = client.get(reverse("standings", args=[championship.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    view = finals_view(championship, for_public=True)
    assert view is not None
    a, b = html.index('id="final-A"'), html.index('id="final-B"')
    qualifying = html.index('id="qualifying-heading"')
    assert a < b < qualifying < html.index('id="standings"')
    leader = view.finals[0].rows[0]
    section_a = html[a:b]
    assert f'data-pair="{leader.pair.number}"' in section_a
    assert leader.total_text in section_a
    for row in view.finals[1].rows:
        assert f'data-pair="{row.pair.number}"' not in section_a
    assert 'id="outside-finals"' in html
    # A round's scope is the plain standings, without the finals.
    scoped = client.get(reverse("standings", args=[championship.slug]), {"through": 2})
    assert 'id="final-A"' not in scoped.content.decode()



def test_the_standings_page_says_what_the_finals_carry(client: Client) -> None:
    championship = make_finals(carry_over="percent", percent=40)
    for n in (1, 2):
        play(championship, n)
    url = reverse("standings", args=[championship.slug])
    assert 'id="carry-over"' not in client.get(url).content.decode()  # not started
    services.round_draw(round=Round.objects.get(championship=championship, number=3),
                        seed=3, acting_user=None)
    html = client.get(url).content.decode()
    assert "el 40 % del resultat" in html
    # Before any finals result each final ranks by what its pairs carried.
    view = finals_view(championship, for_public=True)
    assert view is not None
    carried = [row.carried for row in view.finals[0].rows]
    assert carried == sorted(carried, reverse=True) and carried[0] > 0
