"""In real Chromium: the table's own page works with the network cut. Two results
entered offline wait on the phone (IndexedDB), the page reloads offline from its
service worker, and when the network returns both land, once each (one, unusual, only
once the phone's user answers "yes, it is right"); a third entered offline for a board a
referee stored meanwhile is shown refused, with the reason and the stored values. A
classic table's game is entered, refused by its field, corrected and confirmed.
Run by test_referee_offline.py's test (slow: a browser and a live server)."""

from __future__ import annotations

import time
from typing import Any

from django.db import connections

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_csp import LISTEN
from tests.tournaments.browser.test_referee_phone import PHONE, shot
from tournaments import services
from tournaments.models import Board, Membership, Seating, TableEntry


def _db(query: Any) -> Any:
    """``query()`` run here, its connection closed (Playwright's sync API runs the test in
    another context, whose connections would outlive the test database)."""
    try:
        return query()
    finally:
        connections.close_all()


def _enter(page: Any, board: int, pair: int, trump_index: int, points: int) -> None:
    page.click(f'button.enter[data-board="{board}"]')
    page.check(f'#entry-form input[name=entered_by][value="{pair}"]')
    page.click(f"label[for=id_trump_{trump_index}]")
    page.fill("#id_ns_points_taken", str(points))
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector("#entry-form", state="hidden")


def _waiting(page: Any) -> str:
    return str(page.get_attribute("#outbox-status", "data-waiting"))


def _until(check: Any, seconds: float) -> float:
    """Polls ``check()`` until it holds; the seconds it took (fails after ``seconds``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, f"not within {seconds} s"
        time.sleep(0.1)
    return time.monotonic() - start


def table_page_offline(browser: Any, base: str) -> Any:
    """The table's page offline (this module's text), on ``browser`` against the live
    server at ``base``; run by ``test_referee_offline.py``'s test, which shares its
    browser and live server with the referee's pages (a browser and a server fewer).
    Returns the classic championship it built (round 1 drawn, table 1's game in)."""
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-taula")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    seating = Seating.objects.select_related("ns_pair", "ew_pair").get(
        round__championship=championship, round__number=1, table__number=1)
    secret = services.table_secret(championship=championship, table_number=1).secret
    ns = seating.ns_pair.number
    boards = list(Board.objects.filter(round=seating.round).order_by("number"))
    from tests.tournaments.tables.test_classic_and_links import drawn_classic

    classic, classic_seating = drawn_classic(pairs=4, rounds=1)
    connections.close_all()

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    context.add_init_script(LISTEN)  # the page's CSP violations, if any
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    url = f"{base}/t/{secret}/"
    page.goto(url)
    # The worker controls the page and keeps it (with its static files).
    page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                           timeout=10000)
    _until(lambda: page.evaluate(
        "async () => Boolean(await caches.match(location.href))"), 10)
    assert "Tot enviat" in page.inner_text("#outbox-status")
    # Online, the form shows the hand score as the pair types (the referee's rule).
    page.click(f'button.enter[data-board="{boards[0].number}"]')
    page.click("label[for=id_trump_1]")
    page.fill("#id_ns_points_taken", "44")
    assert page.inner_text("[data-ew-points]") == "28"
    page.wait_for_selector("#live-score:not([hidden])", timeout=5000)
    assert page.inner_text("#live-score").startswith("NS ")
    # An unusual result is asked once in the form, as on the referee's form.
    page.check(f'#entry-form input[name=entered_by][value="{ns}"]')
    page.fill("#id_ns_points_taken", "72")
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector("#entry-unusual:not([hidden])", timeout=5000)
    assert "72 punts" in page.inner_text("#entry-unusual")
    assert page.is_visible("#entry-confirm-unusual")
    page.click("#entry-cancel")

    context.set_offline(True)
    _enter(page, boards[0].number, ns, 0, 40)
    _enter(page, boards[1].number, ns, 1, 72)  # unusual: asked when it arrives
    assert _waiting(page) == "2"
    assert "2 resultats esperant per enviar" in page.inner_text("#outbox-status")
    page.reload()  # offline: from the service worker's cache
    page.wait_for_function(  # the queue read back from IndexedDB
        "() => document.querySelector('#outbox-status')?.dataset.waiting === '2'",
        timeout=5000)
    assert "2 resultats esperant per enviar" in page.inner_text("#outbox-status")
    assert page.locator("li.table-item").count() == len(boards)
    shot(page, "table-page-offline")

    def entries() -> list[tuple[int, str]]:
        return _db(lambda: list(TableEntry.objects.filter(round=seating.round)
                                .values_list("board__number", "status")))

    assert entries() == []
    context.set_offline(False)
    # The unusual one comes back with the question, kept on the page: one tap sends it.
    page.wait_for_selector("#refused-list li.unusual button.confirm-unusual", timeout=5000)
    page.wait_for_load_state("load")
    asked = page.inner_text("#refused-list li.unusual")
    assert f"Tauler {boards[1].number}" in asked and "72 punts" in asked, asked
    assert [b for b, _status in entries()] == [boards[0].number]
    page.click("#refused-list li.unusual button.confirm-unusual")
    landed = _until(lambda: len(entries()) >= 2, 5)
    page.wait_for_function(
        "() => document.querySelector('#outbox-status')?.dataset.waiting === '0'",
        timeout=5000)
    stored = entries()
    assert sorted(stored) == [(boards[0].number, "provisional"),
                              (boards[1].number, "provisional")], stored
    print(f"two offline entries landed in {landed:.2f} s")

    # A third, offline, on a board a referee stores meanwhile: refused when it arrives.
    page.wait_for_load_state("load")
    context.set_offline(True)
    _enter(page, boards[2].number, ns, 2, 50)
    assert _waiting(page) == "1"
    _db(lambda: services.result_record(
        seating=seating, board=boards[2], trump="B", ns_points_taken=22,
        expected_version=None, acting_user=referee))
    context.set_offline(False)
    started = time.monotonic()
    page.wait_for_selector("#refused-list li.refused", timeout=5000)
    # The page reloads with the table's state afresh, the refusal kept on the phone.
    page.wait_for_selector(
        f'li.table-item[data-board="{boards[2].number}"][data-state="by_referee"]',
        timeout=5000)
    page.wait_for_load_state("load")
    print(f"conflict shown in {time.monotonic() - started:.2f} s")
    refused = page.inner_text("#refused-list")
    shot(page, "table-page-conflict")
    assert f"Tauler {boards[2].number}" in refused and "No acceptat" in refused
    assert "Valors desats: Bastos · Punts NS 22" in refused, refused
    assert _waiting(page) == "0"
    assert len(entries()) == 2  # the refused one stored nothing

    # The opponents confirm board 1 on the same phone: their pair number and a tap.
    page.click(f'form.confirm-form[data-board="{boards[0].number}"] button.confirm')
    _until(lambda: (boards[0].number, "confirmed") in entries(), 5)
    page.wait_for_selector(
        f'li.table-item[data-board="{boards[0].number}"][data-state="confirmed"]',
        timeout=5000)
    # The opponents dispute board 2 with a note: it goes to the referees.
    dispute = f'form.confirm-form[data-board="{boards[1].number}"]'
    page.click(f"{dispute} details.dispute summary")
    page.fill(f"{dispute} input[name=note]", "Eren copes, no oros")
    page.click(f"{dispute} button.dispute")
    _until(lambda: (boards[1].number, "disputed") in entries(), 5)
    page.wait_for_selector(
        f'li.table-item[data-board="{boards[1].number}"][data-state="disputed"]',
        timeout=5000)
    violations = page.evaluate("() => window.__csp")
    _classic_game(page, base, classic, classic_seating)
    context.close()
    assert errors == [] and violations == []
    return classic


def _classic_game(page: Any, base: str, classic: Any, seating: Any) -> None:
    """A classic table's page on the same phone: "Lletra gran" kept, the game entered,
    refused by its field (nobody reached the target), corrected, then confirmed."""
    from tournaments.models import Game

    ns, ew = seating.ns_pair.number, seating.ew_pair.number
    secret = _db(lambda: services.table_secret(championship=classic.championship,
                                               table_number=seating.table.number).secret)
    page.goto(f"{base}/t/{secret}/")
    # "Lletra gran" stays on after a reload (kept in localStorage).
    page.check("#large-text")
    page.reload()
    assert page.is_checked("#large-text")
    assert page.evaluate("() => document.body.classList.contains('large-text')")
    page.click('button.enter[data-board=""]')
    page.check(f'#entry-form input[name=entered_by][value="{ew}"]')
    page.fill("#id_ns_points", "90")  # nobody reached 101: refused by the server
    page.fill("#id_ew_points", "64")
    page.fill("#id_deals", "9")
    page.check("#entry-form input[name=ended_by][value=target]")
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector('#entry-form [data-errors="ns_points"] li', timeout=5000)
    assert page.is_visible("#entry-form") and page.is_hidden("#entry-errors")
    assert "101" in page.inner_text('#entry-form [data-errors="ns_points"]')
    shot(page, "table-page-classic-error")
    page.fill("#id_ns_points", "101")
    page.click("#entry-form button[type=submit]")
    page.wait_for_selector('li.table-item[data-state="provisional"]', timeout=5000)
    page.click("form.confirm-form button.confirm")
    page.wait_for_selector('li.table-item[data-state="confirmed"]', timeout=5000)
    game = _db(lambda: Game.objects.get(seating=seating))
    entries = _db(lambda: list(TableEntry.objects.filter(round=seating.round)
                               .values_list("entered_by_pair", "confirmed_by_pair")))
    assert (game.ns_points, game.ew_points, game.deals) == (101, 64, 9)
    assert entries == [(ew, ns)]
