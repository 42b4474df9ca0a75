"""In real Chromium at 390x844: the organiser's championship page shows the next step
of the checklist on screen, and neither it nor the people page overflows sideways; the
people page adds a referee and takes the role away without /admin/ (audited).
Screenshots go to test-artifacts/ to look at."""

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
from tournaments.models import AuditEntry, Membership

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: How far the page is wider than the screen (0: no sideways scroll).
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


def _audited(slug: str, action: str, username: str) -> bool:
    try:
        return AuditEntry.objects.filter(
            championship__slug=slug, action=action, target__startswith=username).exists()
    finally:
        connections.close_all()  # Playwright's loop: do not leave a connection behind


def test_the_next_step_shows_and_nothing_overflows_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=5, rounds=3, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-llista")
    organiser.save()
    UserFactory(username="arbitre-del-barri", email="barri@example.org").save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    connections.close_all()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    log_in(page, live_server.url, "org-llista")
    page.wait_for_url(f"**/c/{slug}/")
    next_step = page.locator("#next-step")
    assert next_step.is_visible()
    assert "Resultats de la ronda 1" in next_step.inner_text()
    box = next_step.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.locator("#step-results-1").get_attribute("data-state") == "next"
    assert page.evaluate(OVERFLOW) <= 0
    shot(page, "checklist-organiser-phone")

    page.click("#people-link")
    page.wait_for_url("**/organise/people/")
    page.fill("#id_add-who", "barri@example.org")
    page.click("#add-person button[type=submit]")
    page.wait_for_selector(".msg-success")
    assert page.locator("#people li[data-user='arbitre-del-barri']").count() == 1
    assert page.evaluate(OVERFLOW) <= 0
    shot(page, "people-phone")
    assert _audited(slug, "role.grant", "arbitre-del-barri")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#people li[data-user='arbitre-del-barri'] form button")
    page.wait_for_selector(".msg-success")
    assert page.locator("#people li[data-user='arbitre-del-barri']").count() == 0
    assert _audited(slug, "role.revoke", "arbitre-del-barri")
    assert "/admin/" not in page.url

    page.goto(f"{live_server.url}/c/{slug}/rounds/1/seating/")
    assert page.locator("#round-actions").is_visible()
    assert page.evaluate(OVERFLOW) <= 0
    shot(page, "seating-organiser-phone")
    connections.close_all()
    context.close()


def test_the_organiser_opening_a_referees_link_on_a_phone_is_warned_first(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """The organiser makes a referee's account on the phone and opens its link there:
    the sign-in page says, above the button and within the screen, that entering signs
    the organiser out and spends the link."""
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-enllac")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    connections.close_all()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    log_in(page, live_server.url, "org-enllac")
    page.wait_for_url(f"**/c/{slug}/")
    page.goto(f"{live_server.url}/c/{slug}/organise/people/")
    page.fill("#id_new-username", "arbitre-de-la-sala")
    page.click("#new-referee button[type=submit]")
    link = page.locator("#sign-in-url").inner_text().strip()
    page.goto(link)
    warning = page.locator("#sign-in-switch")
    assert warning.is_visible() and "org-enllac" in warning.inner_text()
    box = warning.bounding_box()
    button = page.locator("#sign-in button[type=submit]").bounding_box()
    assert box is not None and button is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] < button["y"] <= PHONE["height"]  # read before the button, on screen
    assert page.evaluate(OVERFLOW) <= 0
    shot(page, "sign-in-switch-phone")
    connections.close_all()
    context.close()
