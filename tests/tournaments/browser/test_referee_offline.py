"""In real Chromium: the table's page (test_table_page_offline.py) and the referee's
pages work with the network cut, in one test (one browser and live server). A logged-in
referee opens a board's form online (the worker keeps it), goes offline, saves a result
(kept on the phone, in IndexedDB), reloads the form offline (from the worker), and when
the network returns the result lands once, within 5 s; sending it again with the same
values changes nothing. A classic table's game saved while the browser is online but
the server does not answer is kept too and lands when the server answers. Logging out
deletes the referee's copies on the phone. Slow: a browser and a live server (about 10
to 20 s)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_csp import LISTEN
from tests.tournaments.browser.test_referee_phone import (  # noqa: F401
    PHONE,
    browser,
    shot,
)
from tests.tournaments.browser.test_table_page_offline import _db, _until, table_page_offline
from tournaments.models import Board, Game, Membership, Result, Seating

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _waiting(page: Any, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelector('#outbox-status')?.dataset.waiting === '{count}'",
        timeout=5000)


def test_the_tables_and_the_referees_pages_work_offline(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    """slow: a browser, a live server, two service workers (about 20 s, 12 s more for
    the first browser test of a run)."""
    assert live_server.url.startswith(("http://localhost:", "http://127.0.0.1:"))  # secure
    classic = table_page_offline(browser, live_server.url)
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-fora")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    seating = Seating.objects.get(round__championship=championship, round__number=1,
                                  table__number=1)
    board = Board.objects.filter(round=seating.round).order_by("number").first()
    assert board is not None
    slug, number = championship.slug, board.number
    classic_seating = Seating.objects.get(round=classic.rounds[0], table__number=2)
    Membership.objects.create(championship=classic.championship, user=referee,
                              role="referee")
    game_path = (f"/c/{classic.championship.slug}/referee/rounds/1/tables/"
                 f"{classic_seating.table.number}/game/")
    # Signed in by its session's cookie (the login page is another test's).
    signed_in = Client()
    signed_in.force_login(referee)
    session = signed_in.cookies[settings.SESSION_COOKIE_NAME].value
    connections.close_all()

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                          "url": live_server.url}])
    context.add_init_script(LISTEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    form_path = f"/c/{slug}/referee/rounds/1/tables/1/boards/{number}/"
    page.goto(live_server.url + form_path)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                           timeout=10000)
    _until(lambda: page.evaluate(
        "async () => Boolean(await caches.match(location.href))"), 10)
    _waiting(page, 0)
    assert "Tot enviat" in page.inner_text("#outbox-status")

    def results() -> list[tuple[str | None, int | None, int]]:
        return _db(lambda: list(Result.objects.filter(seating_id=seating.pk, board_id=board.pk)
                                .values_list("trump", "ns_points_taken", "version")))

    context.set_offline(True)
    page.click("label[for=id_trump_0]")
    page.fill("#id_ns_points_taken", "41")
    page.click("button.save")
    _waiting(page, 1)
    assert "Un resultat esperant per enviar" in page.inner_text("#outbox-status")
    page.reload()  # offline: the form from the service worker's cache
    _waiting(page, 1)
    assert page.locator("form.result-form").count() == 1
    shot(page, "referee-form-offline")
    assert results() == []

    context.set_offline(False)
    took = _until(lambda: len(results()) >= 1, 5)
    _waiting(page, 0)
    stored = results()
    assert len(stored) == 1 and stored[0][1] == 41 and stored[0][2] == 1, stored
    print(f"landed {took:.2f} s after the network returned")

    # The same values sent again (a retry whose answer was lost) change nothing.
    api = f"/api/v1/c/{slug}/rounds/1/tables/1/boards/{number}/result/"
    status = page.evaluate("""async ([api, trump]) => {
        const csrf = document.querySelector('[name=csrfmiddlewaretoken]').value;
        const r = await fetch(api, {method: "PUT", credentials: "same-origin",
          headers: {"Content-Type": "application/json", "X-CSRFToken": csrf,
                    "Idempotency-Key": "again"},
          body: JSON.stringify({trump: trump, ns_points_taken: 41})});
        return r.status; }""", [api, stored[0][0]])
    assert status == 200
    assert results() == stored

    # A classic game saved online while the server does not answer (the hall's Wi-Fi
    # up, the server unreachable): kept, then sent when the server answers again.
    def games() -> list[tuple[int, int]]:
        return _db(lambda: list(Game.objects.filter(seating_id=classic_seating.pk)
                                .values_list("ns_points", "ew_points")))

    page.goto(live_server.url + game_path)
    page.route("**/api/v1/**", lambda route: route.abort("connectionrefused"))
    page.fill("#id_ns_points", "101")
    page.fill("#id_ew_points", "64")
    page.fill("#id_deals", "9")
    page.check("input[name=ended_by][value=target]")
    page.click("button.save")
    _waiting(page, 1)
    assert "El servidor no respon" in page.inner_text("#outbox-status")
    assert page.url.endswith(game_path) and games() == []
    page.unroute("**/api/v1/**")
    took = _until(lambda: games() == [(101, 64)], 5)
    print(f"game landed {took:.2f} s after the server answered")

    # Logging out deletes the referee's workers, caches and outbox on the phone.
    page.wait_for_load_state("load")
    page.click("header .account button[type=submit]")
    page.wait_for_selector("body[data-offline-cleared]", timeout=5000)
    left = page.evaluate("""async () => ({
        caches: (await caches.keys()).filter((n) => n.startsWith("botifarra-referee-")),
        workers: (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope),
        databases: (await indexedDB.databases()).map((d) => d.name)})""")
    assert left["caches"] == [] and left["workers"] == [], left
    assert "botifarra-referee" not in left["databases"], left
    assert "Heu sortit" in page.inner_text("h1")
    assert errors == []
    context.close()
