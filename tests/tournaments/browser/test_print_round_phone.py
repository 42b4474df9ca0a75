"""In real Chromium on a phone-sized screen: the organiser prints a round in one click
from its seating page, and the prints page's forms fit the screen. Screenshots go to
test-artifacts/ to look at."""

from __future__ import annotations

import pytest
from django.db import connections

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_referee_phone import (  # noqa: F401
    PHONE,
    browser,
    log_in,
    shot,
)
from tournaments.models import Membership, PrintJob

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _jobs() -> list[tuple[str, int, int, str]]:
    try:
        return list(PrintJob.objects.values_list("kind", "round_number", "copies", "status"))
    finally:
        connections.close_all()  # Playwright's loop: do not leave a connection behind


def test_the_organiser_prints_a_round_in_one_click_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=6, rounds=2, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-imprimeix")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    log_in(page, live_server.url, "org-imprimeix")
    page.goto(f"{live_server.url}/c/{slug}/rounds/1/seating/")
    button = page.locator("#print-round button")
    assert button.inner_text() == "Imprimir la ronda 1"
    box = button.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, "round-seating-print-phone")
    button.click()
    page.wait_for_url(f"**/c/{slug}/prints/")
    page.wait_for_selector(".job-download a", timeout=30_000)
    assert _jobs() == [("round-pack", 1, 3, "done")]  # six pairs: three tables, three copies
    # Each document's form fits the phone's width: nothing to scroll sideways.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    assert page.locator("#print-standings label").inner_text() == "Després de la ronda"
    assert page.locator("#print-standings input[name=copies]").count() == 0
    shot(page, "prints-page-phone")
    context.close()
