"""The traveller on a 390 px phone: the previous/next buttons ("← Tauler 10") and every
suit of a hand (five cards too, "12 8 7 3 2") each stay on one line, and the page is no
wider than the screen."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tests.tournaments.browser.test_referee_phone import PHONE, browser, shot  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LINES = """(selector) => Array.from(document.querySelectorAll(selector)).map(el => {
  if (el.children.length) {  // a suit: one span per card
    return [el.children.length,
            new Set(Array.from(el.children).map(c => c.getBoundingClientRect().top)).size];
  }
  const r = document.createRange(); r.selectNodeContents(el);
  return [0, new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size];
})"""


def test_board_buttons_and_suits_keep_to_one_line_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=4, rounds=2, boards_per_round=12, drawn_rounds=1,
                                      played_rounds=1)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    broken, longest = [], 0
    for number in range(2, 12):
        page.goto(f"{live_server.url}/c/{championship.slug}/boards/{number}/")
        for _cards, lines in page.evaluate(LINES, ".board-nav a"):
            if lines != 1:
                broken.append((number, "button", lines))
        for cards, lines in page.evaluate(LINES, ".compass .ranks"):
            longest = max(longest, cards)
            if lines != 1:
                broken.append((number, cards, lines))
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            broken.append((number, "page width", width))
        if number == 11:
            shot(page, "traveller-11-phone")
    context.close()
    assert longest >= 5  # a five-card suit was on the screen
    assert broken == []


def test_an_eight_card_suit_in_every_hand_keeps_to_one_line_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """The longest suits a phone has to show in practice: each hand holds eight cards
    of one suit with the three two-digit ranks ("9 1 12 11 10 8 7 3"), set smaller than
    the others so that they still fit the hand's third of the screen."""
    from engine import Deal
    from engine.cards import Card
    from engine.seats import Seat
    from tournaments.models import Board

    seats = [Seat.N, Seat.E, Seat.S, Seat.W]
    suits = "OCEB"
    hands = {
        seat: Card.parse_many([f"{r}{suits[i]}" for r in (9, 1, 12, 11, 10, 8, 7, 3)]
                              + [f"{r}{suits[(i + 1) % 4]}" for r in (6, 5, 4, 2)])
        for i, seat in enumerate(seats)
    }
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1,
                                      played_rounds=1)
    Board.objects.filter(championship=championship, number=1).update(
        deal=Deal.from_hands(hands).to_json())
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    page.goto(f"{live_server.url}/c/{championship.slug}/boards/1/")
    suits_shown = page.evaluate(LINES, ".compass .ranks")
    width = page.evaluate("document.documentElement.scrollWidth")
    shot(page, "traveller-eight-card-suits-phone")
    context.close()
    held = [(cards, lines) for cards, lines in suits_shown if cards]  # voids show a dash
    assert sorted(cards for cards, _lines in held) == [4] * 4 + [8] * 4
    assert [lines for _cards, lines in held] == [1] * 8
    assert width <= PHONE["width"]
