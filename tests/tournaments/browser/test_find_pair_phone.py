"""Find my pair on a 390 x 844 phone (real Chromium): typing part of a name, accents
left out, marks the pair's row; without JavaScript the same search, sent as a form, lists
the pair with a link to its card. The short names show in the rows."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tests.tournaments.browser.test_referee_phone import PHONE, browser, shot  # noqa: F401
from tournaments.models import Pair

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_find_my_pair_on_a_phone_with_and_without_javascript(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=8, rounds=4, boards_per_round=2,
                                       drawn_rounds=1, played_rounds=1)
    pair = Pair.objects.get(championship=championship, number=5)
    for player, name in ((pair.player1, "Josep Maria Vilaseca"),
                         (pair.player2, "Montse Puigdomènech")):
        player.name = name
        player.save()
    url = f"{live_server.url}/c/{championship.slug}/standings/"

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    page.goto(url)
    row = page.locator('#standings tr[data-pair="5"]')
    assert "J. M. Vilaseca – M. Puigdomènech" in row.inner_text()
    page.fill("#find-pair-input", "puigdomenech")
    assert page.locator("#standings tr.me").get_attribute("data-pair") == "5"
    page.fill("#find-pair-input", "VILASECA")
    assert page.locator("#standings tr.me").get_attribute("data-pair") == "5"
    # Words in another order, each in either player's name, as the server matches.
    page.fill("#find-pair-input", "Puigdomenech  josep")
    assert page.locator("#standings tr.me").get_attribute("data-pair") == "5"
    page.fill("#find-pair-input", "vilaseca zzz")
    assert page.locator("#standings tr.me").count() == 0
    shot(page, "find-pair-phone")
    context.close()

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES", java_script_enabled=False)
    page = context.new_page()
    page.goto(url)
    page.fill("#find-pair-input", "puigdomenech josep")
    page.press("#find-pair-input", "Enter")
    page.wait_for_selector("#found")
    shot(page, "find-pair-phone-no-javascript")
    assert "find=puigdomenech+josep" in page.url
    links = page.locator("#found a")
    assert links.count() == 1
    assert "Josep Maria Vilaseca – Montse Puigdomènech" in links.first.inner_text()
    links.first.click()
    assert page.url.endswith(f"/c/{championship.slug}/pairs/5/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
