"""In real Chromium on a phone-sized screen: the organiser lands on the championship page
after login, finishing the championship asks for a confirmation (the "Ho confirmo" box,
or with JavaScript a dialog), and a plain referee sees a closed round read-only.
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
from tournaments import services
from tournaments.models import Championship, Membership

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _login(context: object, base: str, username: str) -> object:
    page = context.new_page()  # type: ignore[attr-defined]
    log_in(page, base, username)
    return page


def _status(slug: str) -> str:
    try:
        return Championship.objects.get(slug=slug).status
    finally:
        connections.close_all()  # Playwright's loop: do not leave a connection behind


def test_finishing_asks_for_confirmation_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-mobil")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = _login(context, live_server.url, "org-mobil")
    page.wait_for_url(f"**/c/{slug}/")  # the organiser's championship, not the home page
    shot(page, "championship-organiser-phone")
    page.click("text=Acabar el campionat…")
    page.wait_for_url("**/organise/finish/")
    shot(page, "confirm-finish-phone")

    dialogs: list[str] = []

    def dismiss(dialog: object) -> None:
        dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.once("dialog", dismiss)
    page.click("#confirm-form button[type=submit]")
    page.wait_for_timeout(300)
    assert dialogs and "No es pot desfer" in dialogs[0]
    assert _status(slug) != "finished"

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#confirm-form button[type=submit]")
    page.wait_for_url(f"**/c/{slug}/")
    assert "Campionat acabat." in page.inner_text(".messages")
    assert _status(slug) == "finished"
    shot(page, "championship-finished-phone")
    context.close()


def test_without_javascript_the_box_must_be_ticked(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-sense-js")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES", java_script_enabled=False)
    page = _login(context, live_server.url, "org-sense-js")
    page.goto(f"{live_server.url}/c/{slug}/organise/finish/")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector(".msg-error")
    assert "Ho confirmo" in page.inner_text(".messages")
    assert _status(slug) != "finished"
    shot(page, "confirm-refused-phone")
    page.check("#id_confirm")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_url(f"**/c/{slug}/")
    assert _status(slug) == "finished"
    context.close()


def test_a_plain_referee_sees_a_closed_round_read_only_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(
        pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1, played_rounds=1
    )
    round1 = championship.rounds.get(number=1)
    services.round_close(round=round1, acting_user=None)
    referee = UserFactory(username="arbitre-tancada")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = _login(context, live_server.url, "arbitre-tancada")
    page.wait_for_url(f"**/c/{slug}/referee/")
    shot(page, "referee-tables-closed-phone")
    page.goto(f"{live_server.url}/c/{slug}/referee/rounds/1/tables/1/")
    assert "Ronda tancada" in page.inner_text("#round-closed")
    shot(page, "referee-table-closed-phone")
    page.goto(f"{live_server.url}/c/{slug}/referee/rounds/1/tables/1/boards/1/")
    assert "Ronda tancada" in page.inner_text("#round-closed")
    assert page.locator("form.result-form button[type=submit]").count() == 0
    assert page.is_disabled("#id_ns_points_taken")
    shot(page, "result-form-closed-phone")
    page.goto(f"{live_server.url}/c/{slug}/boards/3/")
    shot(page, "traveller-undrawn-phone")
    page.goto(f"{live_server.url}/")
    shot(page, "home-phone")
    connections.close_all()
    context.close()


def test_the_organiser_removes_a_pair_before_the_draw_on_a_phone(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=6, rounds=1, boards_per_round=2, drawn_rounds=0)
    organiser = UserFactory(username="org-parelles")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = _login(context, live_server.url, "org-parelles")
    page.wait_for_url(f"**/c/{slug}/")
    page.goto(f"{live_server.url}/c/{slug}/organise/pairs/")
    shot(page, "pairs-register-phone")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#pairs li >> nth=5 >> button")
    page.wait_for_selector(".msg-success")
    assert "Parella 6 treta." in page.inner_text(".messages")
    assert page.locator("#pairs li").count() == 5
    connections.close_all()
    context.close()


@pytest.mark.parametrize(("language", "box", "closed"), [
    ("es", "Lo confirmo", "Ronda cerrada"), ("en", "I confirm", "Round closed"),
])
def test_the_confirmation_and_the_closed_round_read_in_spanish_and_english(
    transactional_db, live_server, browser, language, box, closed  # noqa: F811
) -> None:
    championship = build_championship(
        pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1, played_rounds=1
    )
    services.round_close(round=championship.rounds.get(number=1), acting_user=None)
    organiser = UserFactory(username=f"org-{language}")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale=language)
    context.add_cookies([{"name": "django_language", "value": language,
                          "url": live_server.url}])
    page = _login(context, live_server.url, f"org-{language}")
    page.wait_for_url(f"**/c/{slug}/")
    page.goto(f"{live_server.url}/c/{slug}/organise/finish/")
    assert box in page.inner_text("#confirm-form")
    shot(page, f"confirm-finish-phone-{language}")
    page.goto(f"{live_server.url}/c/{slug}/referee/rounds/1/tables/1/boards/1/")
    assert closed in page.inner_text("#round-closed")
    shot(page, f"result-form-closed-phone-{language}")
    connections.close_all()
    context.close()
