"""The standings on a 390 px phone (real Chromium): a long pair name is shown whole (on a
second line), never cut; the hall screen's link does not sit alone on a line."""

from __future__ import annotations

import pytest

from tests.factories import build_championship
from tests.tournaments.browser.test_referee_phone import PHONE, browser, shot  # noqa: F401
from tournaments.models import Pair

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = ["Montserrat Casademont-Vilaseca", "Bartomeu Castellví"]


def test_long_names_are_whole_and_the_hall_link_shares_a_line_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=8, rounds=4, boards_per_round=2,
                                       drawn_rounds=1, played_rounds=1)
    pair = Pair.objects.get(championship=championship, number=1)
    for player, name in ((pair.player1, LONG[0]), (pair.player2, LONG[1])):
        player.name = name
        player.save()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    page.goto(f"{live_server.url}/c/{championship.slug}/standings/")
    shot(page, "standings-long-names-phone")
    cells = page.evaluate("""() => [...document.querySelectorAll('#standings td.who')].map(
        td => ({text: td.innerText, scroll: td.scrollWidth, client: td.clientWidth,
                lines: Math.round(td.querySelector('a').getBoundingClientRect().height
                                  / parseFloat(getComputedStyle(td).lineHeight))}))""")
    assert len(cells) == 8
    assert all(cell["scroll"] <= cell["client"] for cell in cells), cells  # nothing cut
    text = " ".join(cell["text"] for cell in cells)
    assert "Vilaseca" in text and "Castellví" in text
    assert any(cell["lines"] >= 2 for cell in cells if "Vilaseca" in cell["text"]), cells
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    links = page.evaluate("""() => [...document.querySelectorAll('.scope-links a')].map(
        a => ({text: a.textContent, top: Math.round(a.getBoundingClientRect().top),
               height: a.getBoundingClientRect().height}))""")
    hall = links[-1]
    assert hall["text"] == "Pantalla de la sala"
    assert any(link["top"] == hall["top"] for link in links[:-1]), links
    assert max(link["height"] for link in links) < 40, links  # no link breaks inside
    context.close()


def test_nine_pairs_after_round_one_show_nine_rows_with_the_bye_marked_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """The pair with the bye is a row of its own, marked "descans", with no score; the
    rows lead with the average they rank by; nothing scrolls sideways at 390 px. Slow by
    design (about 14 s): a live server and a real Chromium."""
    championship = build_championship(pairs=9, rounds=3, boards_per_round=2,
                                       drawn_rounds=1, played_rounds=1)
    rested = championship.rounds.get(number=1).byes.get().pair.number
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    page.goto(f"{live_server.url}/c/{championship.slug}/standings/?through=1")
    shot(page, "standings-bye-phone")
    rows = page.evaluate("""() => [...document.querySelectorAll('#standings tbody tr')].map(
        tr => ({pair: +tr.dataset.pair, who: tr.cells[1].innerText,
                numbers: [...tr.cells].slice(2).map(td => td.innerText),
                scroll: tr.cells[1].scrollWidth, client: tr.cells[1].clientWidth}))""")
    assert len(rows) == 9
    bye = rows[-1]
    assert bye["pair"] == rested and "descans" in bye["who"], rows
    assert bye["numbers"] == ["—", "—", "—"]
    assert all(row["scroll"] <= row["client"] for row in rows), rows
    heads = page.evaluate("""() => [...document.querySelectorAll('#standings thead th')]
        .map(th => th.innerText)""")
    assert heads[2:4] == ["Mitj.", "Punts"], heads
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
