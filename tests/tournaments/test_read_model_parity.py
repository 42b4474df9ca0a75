"""The standings page, the API and the printed standings read the same numbers, and so
do a traveller and a pair card on their page, in the API and on paper: one read model
each (``selectors.standings``, ``selectors.traveller``, ``selectors.score_card``) that
every one of them renders.

Random small championships (byes, a withdrawal, adjusted scores, infractions, a last
round not fully played so some boards are hidden, every scoring method, scale, rounding,
doubling and missed-board rule), then the demo championship. What each output shows is
read back from it as a person reads it: the HTML's table cells, the API's JSON, the
PDF's text (tests/tournaments/readers.py). The page and the PDF print the same text;
the API's exact numbers equal the page's text once rounded to the decimals it shows.
"""

from __future__ import annotations

import datetime
from io import StringIO
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.readers import (
    Read,
    card_api,
    card_page,
    card_pdf,
    number,
    rounded_as,
    standings_api,
    standings_page,
    standings_pdf,
    traveller_api,
    traveller_page,
    traveller_pdf,
)
from tournaments import selectors, services
from tournaments.models import Board, Championship, Pair, Result

pytestmark = pytest.mark.django_db

#: (bottom, top, rounding) of the scales played: the default 1-2, butinet's 0-100
#: rounded down, and 0-10.
SCALES = [(1, 2, "none"), (0, 100, "floor"), (0, 10, "none"), (0, 10, "floor")]
NAMES = ["Jordi Vila", "Anna Puig", "Montserrat Riera Soler", "Pere Font", "Núria Casals",
         "Joan Pujol", "Marta Serra", "Josep Roca"]


# --------------------------------------------------------------------------- comparing


def assert_standings_agree(page: Read, api: Read, pdf: Read) -> None:
    """Rank, pair, mark, total, average, percentage and progress: the page's and the
    PDF's texts equal; the API's numbers round to the page's text (``None``, no score:
    ``—`` on page and paper). All three lead with the number the rows rank by, and the
    rows in play with a score read in that number's order."""
    assert page.progress == api.progress == pdf.progress
    if page.lines:  # no rows, no columns to order
        assert page.ranked_by == api.ranked_by == pdf.ranked_by
    assert [(r.rank, r.pair, r.mark) for r in page.lines] == [
        (r.rank, r.pair, r.mark) for r in api.lines]
    assert [(r.rank, r.pair, r.mark) for r in page.lines] == [
        (r.rank, r.pair, r.mark) for r in pdf.lines]
    for shown, sent, printed in zip(page.lines, api.lines, pdf.lines, strict=True):
        assert (printed.total, printed.average, printed.percentage) == (
            shown.total, shown.average, shown.percentage), shown.pair
        if sent.total is None:  # no score in the scope
            assert (sent.average, sent.percentage) == (None, None), shown.pair
            assert (shown.total, shown.average, shown.percentage) == ("—",) * 3, shown.pair
            continue
        assert rounded_as(sent.total, shown.total) == number(shown.total), shown.pair
        assert rounded_as(sent.average, shown.average) == number(shown.average), shown.pair
        assert rounded_as(sent.percentage, shown.percentage) == number(shown.percentage)
    # A place for exactly the rows in play with a score; "—" (null) for the others, on
    # page, API and paper alike (compared above), after every row with a place.
    placed = [sent.mark != "withdrawn" and sent.total is not None for sent in api.lines]
    assert [r.rank is not None for r in page.lines] == placed, page.lines
    assert placed == sorted(placed, reverse=True), placed
    ranks = [r.rank for r in page.lines if r.rank is not None]
    # Competition ranks: ties share a rank, the next one skips (1, 2, 2, 4).
    assert all(r == i + 1 or r == ranks[i - 1] for i, r in enumerate(ranks)), ranks
    # The rows read the way they rank: in play with a score first, by the ranking value.
    key = [sent.average if api.ranked_by == "average" else sent.total
           for sent in api.lines if sent.mark != "withdrawn" and sent.total is not None]
    assert key == sorted(key, reverse=True), key
    scored = [sent.total is not None for sent in api.lines if sent.mark != "withdrawn"]
    assert scored == sorted(scored, reverse=True), scored


def assert_travellers_agree(client: Client, championship: Championship, board: int,
                            round_number: int) -> None:
    page = traveller_page(client, championship, board)
    api = traveller_api(client, championship, board)
    pdf = traveller_pdf(championship, board, round_number)
    assert page, board
    key = [(r.table, r.ns, r.ew, r.ns_points) for r in page]
    assert key == [(r.table, r.ns, r.ew, r.ns_points) for r in api]
    assert key == [(r.table, r.ns, r.ew, r.ns_points) for r in pdf]
    for shown, sent, printed in zip(page, api, pdf, strict=True):
        assert printed.comparative == shown.comparative, shown.table
        assert printed.scores == shown.scores, shown.table
        assert tuple(number(t) for t in shown.comparative) == tuple(
            rounded_as(v, t) for v, t in zip(sent.comparative, shown.comparative, strict=True))
        if shown.scores is None:
            assert sent.scores is None
        else:
            assert tuple(int(number(t)) for t in shown.scores) == sent.scores


def assert_cards_agree(client: Client, championship: Championship, pair: int) -> None:
    page = card_page(client, championship, pair)
    api = card_api(client, championship, pair)
    pdf = card_pdf(championship, pair)
    assert page.rank == api.rank
    assert page.total == pdf.total
    # The card's total and place read as the pair's line of the standings does.
    line = next((r for r in standings_page(client, championship).lines if r.pair == pair),
                None)
    if line is not None and line.total != "—":
        assert (page.total, page.rank) == (line.total, line.rank), pair
    assert rounded_as(api.total, page.total) == number(page.total)
    assert [(r.board, r.opponent) for r in page.lines] == [
        (r.board, r.opponent) for r in api.lines]
    assert [(r.board, r.opponent, r.score, r.comparative) for r in page.lines] == [
        (r.board, r.opponent, r.score, r.comparative) for r in pdf.lines]
    for shown, sent in zip(page.lines, api.lines, strict=True):
        assert (None if shown.score is None else int(number(shown.score))) == sent.score
        assert rounded_as(sent.comparative, shown.comparative) == number(shown.comparative)


# --------------------------------------------------------------------------- random


@st.composite
def shapes(draw: st.DrawFn) -> dict[str, Any]:
    bottom, top, rounding = draw(st.sampled_from(SCALES))
    rounds = draw(st.integers(1, 3))
    return {
        "pairs": draw(st.integers(4, 7)),
        "rounds": rounds,
        "boards_per_round": draw(st.integers(1, 2)),
        "rules": {
            "method": draw(st.sampled_from(["proportional", "matchpoints"])),
            "scale_bottom": bottom, "scale_top": top, "rounding": rounding,
            "doubling": draw(st.sampled_from(["duplicate", "classic"])),
            "missed_boards": draw(st.sampled_from(["per_board", "average"])),
            "infraction_score": draw(st.sampled_from([0, bottom])),
        },
        # A pair withdraws after round 1 (when there is a round after it).
        "withdraw": rounds > 1 and draw(st.booleans()),
        "seed": draw(st.integers(1, 10_000)),
    }


def _result(data: st.DataObject) -> dict[str, Any]:
    """One table's result: mostly played, sometimes adjusted or with an infraction."""
    kind = data.draw(st.sampled_from(["played"] * 6 + ["adjusted", "infraction"]))
    if kind == "adjusted":
        return {"trump": None, "ns_points_taken": None,
                "adjusted": data.draw(st.sampled_from([
                    ("average", "average"), ("average_plus", "average_minus"),
                    ("average_minus", "average_plus")]))}
    values: dict[str, Any] = {
        "trump": data.draw(st.sampled_from(["O", "C", "E", "B", "botifarra"])),
        "ns_points_taken": data.draw(st.integers(0, 72)),
        "contro": data.draw(st.booleans()),
    }
    if kind == "infraction":
        values["infraction"] = data.draw(st.sampled_from(["NS", "EW"]))
    return values


def build(shape: dict[str, Any], data: st.DataObject | None) -> Championship:
    """The championship of ``shape`` through the services, as an organiser and the
    referees would make it: every round drawn; every round but the last played at every
    table, the last at some tables only (its boards still hidden). Without ``data``
    every table plays every board, each result the same contract (``PLAYED``)."""
    rounds, pairs = int(shape["rounds"]), int(shape["pairs"])
    championship = services.championship_create(
        name=f"Paritat {shape['seed']}", date=datetime.date(2026, 11, 29), venue="Vic",
        acting_user=None, **shape["rules"], **shape.get("championship", {}),
    )
    services.pairs_import_csv(
        championship=championship, acting_user=None,
        text="\n".join(f"{n};{NAMES[n % 8]};{NAMES[(n + 3) % 8]}" for n in range(1, pairs + 1)),
    )
    created = services.rounds_setup(championship=championship, rounds=rounds,
                                    boards_per_round=int(shape["boards_per_round"]),
                                    acting_user=None)
    services.boards_generate(championship=championship, acting_user=None)
    for rnd in created:
        seatings = services.round_draw(round=rnd, seed=int(shape["seed"]) + rnd.number,
                                       acting_user=None, accept_rematches=True)
        last = rnd.number == rounds
        for board in Board.objects.filter(round=rnd).order_by("number"):
            for seating in seatings:
                if data is None:
                    # The same contract at each table, NS taking more at the lower
                    # tables: totals that differ from pair to pair.
                    values = {"trump": "O", "ns_points_taken": 60 - 5 * seating.table.number}
                elif last and not data.draw(st.booleans(), label="played in the last round"):
                    continue
                else:
                    values = _result(data)
                services.result_record(seating=seating, board=board, expected_version=None,
                                       acting_user=None, **values)
        if rnd.number == 1 and shape["withdraw"]:
            services.pair_withdraw(pair=Pair.objects.get(championship=championship, number=1),
                                   after_round=1, reason="malalt", acting_user=None)
    championship.refresh_from_db()
    return championship


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(shape=shapes(), data=st.data())
def test_standings_traveller_and_pair_card_agree_on_page_api_and_pdf(
    shape: dict[str, Any], data: st.DataObject
) -> None:
    """Slow by design (about 15 s): each of 12 random championships is built, then read
    as a page, through the API and as PDF text."""
    cache.clear()
    championship = build(shape, data)
    client = Client()
    assert_standings_agree(standings_page(client, championship),
                           standings_api(client, championship),
                           standings_pdf(championship))
    if championship.rounds.count() > 1:
        assert_standings_agree(standings_page(client, championship, through=1),
                               standings_api(client, championship, through=1),
                               standings_pdf(championship, through_round=1))
    seen = selectors.visibility(championship)
    complete = sorted(n for n in seen.public if seen.board_rounds[n] is not None)
    if complete:  # a complete board (every table due has played it)
        board = complete[0]
        assert_travellers_agree(client, championship, board, seen.board_rounds[board] or 0)
    for pair in (1, int(shape["pairs"])):
        assert_cards_agree(client, championship, pair)


# --------------------------------------------------------------------------- a bye


@pytest.mark.parametrize("missed_boards", ["per_board", "average"])
def test_nine_pairs_after_round_one_show_nine_rows_with_the_bye_marked(
    missed_boards: str,
) -> None:
    """A 9-pair Swiss after round 1: four tables played, one pair sat out. The
    standings after round 1 (and the overall ones) have 9 rows on the page, in the API
    and on paper, the pair with the bye marked "descans"; under ``per_board`` it has no
    score yet, is listed last with no place ("—"), under ``average`` it has A (the
    middle of the scale) for each board of the round, so it ranks among the pairs that
    played."""
    cache.clear()
    championship = build({
        "pairs": 9, "rounds": 2, "boards_per_round": 2, "seed": 7,
        "rules": {"missed_boards": missed_boards}, "withdraw": False,
        "championship": {"movement": "swiss"},
    }, None)
    rested = {n: championship.rounds.get(number=n).byes.get().pair.number for n in (1, 2)}
    assert rested[1] != rested[2]
    client = Client()
    # After round 1, then overall (after round 2: the bye marked is round 2's).
    for query, through, last in (({"through": 1}, 1, 1), ({}, 0, 2)):
        page = standings_page(client, championship, **query)
        api = standings_api(client, championship, **query)
        pdf = standings_pdf(championship, through_round=through)
        assert_standings_agree(page, api, pdf)
        for read in (page, api, pdf):
            assert len(read.lines) == 9
            assert sorted(r.pair for r in read.lines) == list(range(1, 10))
            assert [r.pair for r in read.lines if r.mark == "bye"] == [rested[last]]
        assert api.ranked_by == ("average" if missed_boards == "per_board" else "total")
    after_one = standings_api(client, championship, through=1)
    bye = next(r for r in after_one.lines if r.pair == rested[1])
    if missed_boards == "per_board":
        assert (bye.total, bye.average, bye.percentage) == (None, None, None)
        # Listed last, with no place ("—"): it is not ninth of nine.
        assert bye.rank is None and after_one.lines[-1].pair == rested[1]
        assert [r.rank for r in after_one.lines[:-1]] == sorted(
            r.rank for r in after_one.lines[:-1] if r.rank is not None)
        assert after_one.lines[0].rank == 1
    else:  # A = 1.5 on 1 to 2 for each of the round's 2 boards
        assert (bye.total, bye.average, bye.percentage) == (3, 1.5, 50.0)


# --------------------------------------------------------------------------- the demo


@pytest.fixture
def demo(db: None) -> Championship:
    """``manage.py demo``: 24 pairs, 4 rounds of 6 boards, round 4 half played (boards
    21-24 hidden), an adjusted score and two infractions; no double-dummy tables."""
    call_command("demo", "--analysis-budget", "0", stdout=StringIO())
    return Championship.objects.get(slug="demo")


def test_the_demo_shows_the_same_standings_and_traveller_on_page_api_and_pdf(
    demo: Championship,
) -> None:
    """Slow by design (about 10 s): the demo is built as ``manage.py demo`` builds it, and
    its 24 pairs' score cards are printed to find pair 1's."""
    client = Client()
    page = standings_page(client, demo)
    api = standings_api(client, demo)
    pdf = standings_pdf(demo)
    assert len(page.lines) == 24
    assert_standings_agree(page, api, pdf)
    # Board 1 is complete (round 1: every table played it).
    assert 1 in selectors.public_board_numbers(demo)
    assert_travellers_agree(client, demo, 1, 1)
    # The boards with the adjusted score and the infractions (all complete).
    incidents = Result.objects.filter(board__championship=demo).filter(
        Q(adjusted_ns__isnull=False) | Q(infraction__isnull=False))
    boards = set(incidents.values_list("board__number", "board__round__number"))
    assert len(boards) == 3
    for board, round_number in sorted(boards):
        assert_travellers_agree(client, demo, board, round_number)
    assert_cards_agree(client, demo, 1)


def test_a_bye_and_a_withdrawn_pair_have_no_place_and_no_point_on_the_chart() -> None:
    """9 pairs, 3 rounds (per_board): one pair sits out round 1, pair 1 withdraws after
    it. After round 1 the pair that sat out is listed with "—", not ninth; overall the
    withdrawn pair is "—" (not ninth with the best average); the pairs in play are
    placed 1..8; page, API and paper agree. Pair cards plot only the rounds where the
    pair had a place, and the withdrawn pair's card has no place."""
    cache.clear()
    championship = build({
        "pairs": 9, "rounds": 3, "boards_per_round": 2, "seed": 7,
        "rules": {"missed_boards": "per_board"}, "withdraw": True,
        "championship": {"movement": "swiss"},
    }, None)
    rested = championship.rounds.get(number=1).byes.get().pair.number
    assert rested != 1
    client = Client()
    for query, through in (({"through": 1}, 1), ({}, 0)):
        page = standings_page(client, championship, **query)
        api = standings_api(client, championship, **query)
        pdf = standings_pdf(championship, through_round=through)
        assert_standings_agree(page, api, pdf)
        unplaced = {r.pair for r in page.lines if r.rank is None}
        assert unplaced == ({rested} if through else {1}), page.lines
        assert sorted(r.rank for r in page.lines if r.rank is not None)[-1] <= 8
        assert page.lines[0].rank == 1
    for pair in (1, rested):
        assert_cards_agree(client, championship, pair)
    withdrawn = selectors.score_card(championship, 1)
    sat_out = selectors.score_card(championship, rested)
    assert withdrawn is not None and sat_out is not None
    assert withdrawn.rank is None and [n for n, _r in withdrawn.ranks] == [1]
    assert [n for n, _r in sat_out.ranks] == [2, 3]
    assert all(r <= 8 for _n, r in sat_out.ranks)
    assert sat_out.pairs_ranked == 8
    assert card_api(client, championship, 1).rank is None
    html = client.get(reverse("pair_card", args=[championship.slug, 1])).content.decode()
    assert "Posició: —" in html
