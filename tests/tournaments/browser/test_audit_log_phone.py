"""In real Chromium at 390x844: the audit log reads on a phone, one card per entry, no
element wider than the screen and every date on one line."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_referee_phone import (  # noqa: F401
    PHONE,
    browser,
    log_in,
    shot,
)
from tournaments import services
from tournaments.models import Board, Membership, Seating

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Elements whose right edge passes the viewport's, and dates on more than one line.
_OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = Array.from(document.querySelectorAll("body *"))
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + "." + e.className);
  const dates = Array.from(document.querySelectorAll("#log .log-when"));
  const wrapped = dates.filter(e => {
    const line = parseFloat(getComputedStyle(e).lineHeight) || 20;
    return e.getClientRects().length !== 1 || e.getBoundingClientRect().height > line * 1.5;
  }).map(e => e.textContent);
  return {scroll: document.documentElement.scrollWidth - width, wide: wide,
          dates: dates.length, wrapped: wrapped};
}"""


def test_the_audit_log_fits_a_phone_with_dates_on_one_line(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    organiser = UserFactory(username="organitzadora-registre")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    referee = UserFactory(username="arbitre-amb-un-nom-d-usuari-molt-llarg-sense-espais")
    referee.save()
    services.membership_grant(championship=championship, user=referee,
                              role=Membership.Role.HEAD_REFEREE, acting_user=organiser)
    seating = Seating.objects.filter(round__championship=championship).order_by(
        "table__number")[0]
    board = Board.objects.get(championship=championship, number=1)
    first = services.result_record(
        seating=seating, board=board, trump="O", ns_points_taken=40, expected_version=None,
        acting_user=referee, note="x" * 120,  # one long word: must wrap, not widen the page
    ).result
    services.result_record(
        seating=seating, board=board, trump="C", ns_points_taken=52, contro=True,
        expected_version=first.version, acting_user=organiser, note="corregit",
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    log = f"/c/{championship.slug}/log/"
    log_in(page, live_server.url, "organitzadora-registre", log)
    page.wait_for_url(f"**{log}")
    found = page.evaluate(_OVERFLOW)
    shot(page, "audit-log-phone")
    assert found["dates"] >= 4  # the draw's rows, the role and two results at least
    assert found["scroll"] <= 0, found
    assert found["wide"] == [], found
    assert found["wrapped"] == [], found
    # The change is below the entry it belongs to, and the role is named, not coded.
    text = page.inner_text("#log")
    assert "Àrbitre principal" in text and "head_referee" not in text
    first_card = page.locator("#log > li").first
    what = first_card.locator(".log-what").bounding_box()
    changes = first_card.locator(".log-changes").bounding_box()
    assert what is not None and changes is not None and changes["y"] >= what["y"] + what["height"]
    context.close()
