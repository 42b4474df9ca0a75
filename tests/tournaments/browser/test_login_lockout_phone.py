"""In Chromium on a phone-sized screen (the issue's "What must show"): the referee's
phone signed in before and signed out; strangers in the hall type 20 wrong passwords for
the referee; the phone signs in again with the right password, while a browser that
never signed in as the referee sees the lockout page from the fifth failure."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_referee_phone import PHONE, browser, shot  # noqa: F401
from tournaments.devices import COOKIE_NAME
from tournaments.models import Membership


def _try(page: Any, base: str, password: str, slug: str) -> int:
    response = page.goto(f"{base}/accounts/login/?next=/c/{slug}/referee/")
    assert response.status == 200
    page.fill("#id_username", "arbitre-mobil")
    page.fill("#id_password", password)
    with page.expect_navigation() as navigation:
        page.click("main button[type=submit]")
    # A sign-in answers 302 (the browser follows it): the status of the first answer.
    request = navigation.value.request
    while request.redirected_from is not None:
        request = request.redirected_from
    return int(request.response().status)


def test_strangers_failing_twenty_times_do_not_lock_the_referees_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """Slow: two browser contexts and 22 sign-in forms in Chromium."""
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    referee = UserFactory(username="arbitre-mobil")
    Membership.objects.create(championship=championship, user=referee, role="referee")
    base, slug = live_server.url, championship.slug

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                locale="ca-ES")
    page = phone.new_page()
    assert _try(page, base, "contrasenya-prova", slug) == 302
    page.wait_for_url(f"**/c/{slug}/referee/")
    assert any(c["name"] == COOKIE_NAME and c["httpOnly"] for c in phone.cookies())
    page.click("header form button[type=submit]")  # "Surt": signed out
    page.wait_for_load_state()
    assert page.locator("header .who").count() == 0

    hall = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               locale="ca-ES")
    stranger = hall.new_page()
    statuses = [_try(stranger, base, f"prova-{n}", slug) for n in range(20)]
    limit = settings.AXES_FAILURE_LIMIT
    assert 429 not in statuses[:limit - 1] and set(statuses[limit - 1:]) == {429}
    shot(stranger, "login-locked-stranger-phone")
    assert "Massa intents d'entrada fallits" in stranger.inner_text("#locked-out")
    # The stranger's browser is refused the right password too; the phone is not.
    assert _try(stranger, base, "contrasenya-prova", slug) == 429
    assert _try(page, base, "contrasenya-prova", slug) == 302
    page.wait_for_url(f"**/c/{slug}/referee/")
    shot(page, "login-after-strangers-phone")
