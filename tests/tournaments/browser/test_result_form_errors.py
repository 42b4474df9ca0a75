"""In real Chromium: after a refused save, each error is said once on the referee form
(the live hand score does not repeat the error the server put next to its field)."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_referee_phone import (  # noqa: F401
    PHONE,
    browser,
    log_in,
    shot,
)
from tournaments.models import Membership

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_missing_trump_is_said_once_after_a_refused_save(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-errors")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    form = f"/c/{championship.slug}/referee/rounds/1/tables/1/boards/1/"
    log_in(page, live_server.url, "arbitre-errors", form)
    page.wait_for_url(f"**{form}")
    page.wait_for_load_state("networkidle")  # the live hand score has answered
    # A blank form says nothing is missing before anything is typed.
    assert "Cal el trumfo" not in page.inner_text("main")
    assert page.is_hidden("#live-score")
    page.fill("#id_ns_points_taken", "80")
    page.click("form.result-form button[type=submit]")
    # The outbox first asks the server whether it answers (a HEAD), then posts: wait
    # for the refused save's page, not only for the network to be idle.
    page.wait_for_selector("text=Cal el trumfo (o botifarra).", timeout=10_000)
    page.wait_for_load_state("networkidle")  # the live hand score has answered
    text = page.inner_text("main")
    shot(page, "result-form-missing-trump-phone")
    context.close()
    assert text.count("Cal el trumfo (o botifarra).") == 1, text
