"""The stage pages at the sizes people use them, in real Chromium: the bracket page of a
16- and a 32-pair knockout is never clipped at 1280 and 1920 px wide and breaks no name
inside a word; the hall screen's bracket fits the projector, 1280x720 to 1920x1080 (its
round titles side by side, not over each other), and is the stacked cards on a phone;
a group's table fits a 390 px phone with narrow number columns and every pair number a
link that looks like one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.browser.test_referee_phone import PHONE, browser, shot  # noqa: F401
from tests.tournaments.stages.conftest import make_staged, play_round
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = [(1280, 800), (1920, 1080)]
#: The projectors the hall screen must fit (as tests/.../test_hall_fits.py).
PROJECTORS = [(1280, 720), (1366, 768), *WIDE]

#: Words of the bracket's pair names that the browser split over two lines.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const el of document.querySelectorAll('.bracket .names')) {
    const node = el.firstChild;
    if (!node || !el.offsetParent) continue;
    const text = node.textContent;
    let at = 0;
    for (const word of text.split(' ')) {
      if (word) {
        const r = document.createRange();
        r.setStart(node, at); r.setEnd(node, at + word.length);
        const tops = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top)));
        if (tops.size > 1) broken.push(word);
      }
      at += word.length + 1;
    }
  }
  return broken;
}"""

#: [page width, page height, the bracket's scroll width, its client width].
SIZES = """() => { const d = document.documentElement, b = document.querySelector('#bracket');
  return [d.scrollWidth, d.scrollHeight, b.scrollWidth, b.clientWidth]; }"""

#: Round titles that run into the next round's (right edge past the next one's left).
OVERLAPS = """() => {
  const hs = Array.from(document.querySelectorAll('.bracket-round h2'));
  const out = [];
  for (const h of hs) { if (h.scrollWidth > h.clientWidth + 1) out.push(h.textContent); }
  for (let i = 0; i + 1 < hs.length; i++) {
    const a = hs[i].getBoundingClientRect(), b = hs[i + 1].getBoundingClientRect();
    if (a.top === b.top && a.right > b.left) out.push(hs[i].textContent);
  }
  return out;
}"""


def _staged(pairs: int) -> Any:
    """A knockout of ``pairs // 2`` pairs (groups of four, two through each), its first
    round drawn and in play."""
    staged = make_staged(pairs, groups=pairs // 4, per_group=2)
    for number in (1, 2, 3):
        play_round(staged, number, seed=5)
    services.round_draw(round=staged.round(4), acting_user=staged.organiser, seed=1)
    return staged


def _check(browser: Any, base: str, slug: str, label: str) -> dict[str, object]:  # noqa: F811
    problems: dict[str, object] = {}
    for width, height in PROJECTORS:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="ca-ES")
        page = context.new_page()
        if (width, height) in WIDE:
            page.goto(f"{base}/c/{slug}/bracket/")
            page_w, _page_h, bracket_w, bracket_client = page.evaluate(SIZES)
            if page_w > width or bracket_w > bracket_client:
                problems[f"bracket-{label}-{width}"] = [page_w, bracket_w, bracket_client]
            if broken := page.evaluate(BROKEN_WORDS):
                problems[f"bracket-{label}-{width}-broken"] = broken[:5]
            shot(page, f"stage-bracket-{label}-{width}x{height}")
        page.goto(f"{base}/c/{slug}/hall/")
        page_w, page_h, bracket_w, bracket_client = page.evaluate(SIZES)
        if page_w > width or page_h > height or bracket_w > bracket_client:
            problems[f"hall-{label}-{width}x{height}"] = [page_w, page_h, bracket_w]
        if overlaps := page.evaluate(OVERLAPS):
            problems[f"hall-{label}-{width}-titles"] = overlaps
        if broken := page.evaluate(BROKEN_WORDS):
            problems[f"hall-{label}-{width}-broken"] = broken[:5]
        shot(page, f"stage-hall-{label}-{width}x{height}")
        context.close()
    context = browser.new_context(viewport=PHONE, locale="ca-ES", is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"{base}/c/{slug}/hall/")
    # A phone: the rounds one under the other, each match a card as wide as the screen
    # (not one letter a line).
    page_w, *_rest = page.evaluate(SIZES)
    narrowest = page.evaluate(
        "() => Math.min(...Array.from(document.querySelectorAll('.bracket .match'))"
        ".map(m => m.getBoundingClientRect().width))")
    if page_w > PHONE["width"] or narrowest < PHONE["width"] * 0.8:
        problems[f"hall-{label}-phone"] = [page_w, narrowest]
    shot(page, f"stage-hall-{label}-phone")
    context.close()
    return problems


def test_the_bracket_and_the_hall_fit_wide_screens_and_phones(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """Slow by design: two championships in groups then a knockout (16 and 32 pairs in
    the bracket), their bracket page at 1280x800 and 1920x1080, their hall at the usual
    projector sizes and on a phone."""
    problems: dict[str, object] = {}
    for pairs in (32, 64):
        staged = _staged(pairs)
        problems.update(_check(browser, live_server.url, staged.championship.slug,
                               str(pairs // 2)))
    assert problems == {}


def test_a_group_table_fits_a_phone_with_every_pair_a_link(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """Slow by design: a groups stage half played, its page on a 390 px phone."""
    staged = make_staged(16, groups=4, per_group=1, second_chance=1)
    for number in (1, 2, 3):
        play_round(staged, number, seed=5)
    context = browser.new_context(viewport=PHONE, locale="ca-ES", is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/c/{staged.championship.slug}/groups/")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    widths = page.evaluate(
        "() => Array.from(document.querySelectorAll('#group-1 .group-table thead th'))"
        ".map(th => Math.round(th.getBoundingClientRect().width))")
    # Number columns narrow (PJ no wider than PG), the pair's column most of the width.
    assert widths[5] <= widths[2] + 2 and widths[1] > sum(widths) * 0.5, widths
    looks = page.evaluate(
        "() => Array.from(document.querySelectorAll('.group-table td.who a strong'))"
        ".map(s => getComputedStyle(s).textDecorationLine + ' ' + getComputedStyle(s).color)")
    assert len(looks) == 16 and len(set(looks)) == 1 and "underline" in looks[0], set(looks)
    shot(page, "stage-groups-phone")
    context.close()
