"""The hall screen is a projector: nobody can scroll it. In real Chromium at the usual
projector sizes, with 24 pairs (12 tables on the latest complete board), the page is
never taller or wider than the screen; the tables page through their rows instead."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tests.tournaments.browser.test_referee_phone import browser, shot  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(1280, 720), (1366, 768), (1280, 800), (1920, 1080)]


def test_the_hall_screen_fits_the_projector_without_scrolling(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=24, rounds=2, boards_per_round=2, drawn_rounds=1,
                                      played_rounds=1)
    for pair in championship.pairs.select_related("player1", "player2"):  # long surnames
        for player in (pair.player1, pair.player2):
            player.name = "Montserrat Puigdollers-Vilanova Castellví"
            player.save()
    url = f"{live_server.url}/c/{championship.slug}/hall/"
    misfits = {}
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height},  # type: ignore[attr-defined]
                                      locale="ca-ES")
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state()
        assert page.locator("#hall-latest tbody tr").count() == 12  # every table is there
        size = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        if size[0] > width or size[1] > height:
            misfits[f"{width}x{height}"] = size
        # The two tables side by side never overlap (a long name does not push the
        # standings' numbers under the board).
        right, left = page.evaluate(
            "[document.querySelector('#standings').getBoundingClientRect().right,"
            " document.querySelector('#hall-latest').getBoundingClientRect().left]")
        assert right <= left, (width, height, right, left)
        # The pair pairs ("12–9") never break over two lines.
        lines = page.evaluate(
            "Array.from(document.querySelectorAll('#hall-latest td.pairs'))"
            ".filter(td => td.offsetParent).map(td => {"
            " const r = document.createRange(); r.selectNodeContents(td);"
            " return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; })")
        assert lines and set(lines) == {1}, (width, height, lines)
        shot(page, f"hall-{width}x{height}")
        context.close()
    assert misfits == {}
