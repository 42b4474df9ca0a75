"""In real Chromium (Debian's, driven by Playwright) on a phone-sized screen: a referee
logs in, enters a result with the buttons, sees the hand score, and the public standings
change. Screenshots of the key pages go to test-artifacts/ (git-ignored) to look at."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.factories import UserFactory, build_championship
from tests.services import chromium_path, require
from tests.tournaments.views.helpers import record
from tournaments.models import Board, Membership, Result, Seating

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--no-first-run",
]


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    require(chromium_path() is not None, "needs Debian's chromium (apt-get install chromium)")
    # Playwright's sync API runs an event loop; only for this test, so that the variable
    # never reaches a later test's subprocess (check --deploy refuses it).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium") or chromium_path(), args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            # Under Playwright's sync API a test's queries run in another context, with
            # connections of their own that would otherwise outlive the test database
            # (its teardown then warns that another session is using it).
            connections.close_all()
            browser.close()


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def log_in(page: object, base: str, username: str, next_path: str = "") -> None:
    """Log ``username`` in (the factories' password) on ``page``, then to ``next_path``."""
    query = f"?next={next_path}" if next_path else ""
    page.goto(f"{base}/accounts/login/{query}")  # type: ignore[attr-defined]
    page.fill("#id_username", username)  # type: ignore[attr-defined]
    page.fill("#id_password", "contrasenya-prova")  # type: ignore[attr-defined]
    page.click("button[type=submit]")  # type: ignore[attr-defined]



def _shows(page: Any, selector: str, text: str, seconds: float = 5) -> None:
    """Waits until ``selector``'s text holds ``text`` (fails after ``seconds``)."""
    page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector)?.innerText || '')"
        ".includes(text)", arg=[selector, text], timeout=seconds * 1000)

def test_referee_enters_a_result_on_a_phone_and_standings_change(
    transactional_db, live_server, browser
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-mobil")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    base = live_server.url
    slug = championship.slug

    public = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ca-ES")  # type: ignore[attr-defined]
    anon = public.new_page()
    anon.goto(f"{base}/c/{slug}/standings/")
    assert "Resultats: 0 de 12" in anon.inner_text("#progress")
    assert anon.locator("#standings").count() == 0

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ca-ES")  # type: ignore[attr-defined]
    page = phone.new_page()
    page.goto(f"{base}/accounts/login/?next=/c/{slug}/referee/")
    shot(page, "login-phone")
    page.fill("#id_username", "arbitre-mobil")
    page.fill("#id_password", "contrasenya-prova")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/c/{slug}/referee/")
    shot(page, "referee-tables-phone")
    page.click("#tables a >> nth=0")
    page.wait_for_url("**/tables/1/")
    shot(page, "referee-table-phone")
    page.click("#boards a >> nth=0")
    page.wait_for_url("**/boards/1/")

    # JS enhancement: recontro waits for contro; EW points follow NS points.
    assert page.is_disabled("#id_recontro")
    page.click("label[for=id_trump_1]")  # copes
    page.click("label[for=id_contro]")
    assert page.is_enabled("#id_recontro")
    assert page.is_disabled("#id_sant_vicenc")
    page.fill("#id_ns_points_taken", "44")
    assert page.inner_text("[data-ew-points]") == "28"
    shot(page, "result-form-phone")
    page.click("form.result-form button[type=submit]")
    # One tap per step: board 2 of the same table opens, its points field focused.
    page.wait_for_url("**/tables/1/boards/2/")
    assert page.evaluate("document.activeElement.id") == "id_ns_points_taken"
    # Dealer N: NS chose copes and took 44 (+8); EW called contro: (28 - 36) x 2 = -16.
    saved = page.inner_text(".messages")
    assert "Tauler 1 desat" in saved and "NS +8" in saved and "EO -16" in saved
    shot(page, "result-saved-phone")

    try:
        stored = Result.objects.get(board__championship=championship, board__number=1,
                                    seating__table__number=1)
    finally:
        # Under Playwright's sync API this query runs in another context, with a
        # connection of its own that would otherwise outlive the test database.
        connections.close_all()
    assert (stored.trump, stored.ns_points_taken, stored.contro) == ("C", 44, True)

    anon.reload()
    # A reload that meets the page's own poll rebuilding the fragment is served the copy
    # before the save (docs/decisions.md 44); the poll shows the new one within seconds.
    _shows(anon, "#progress", "Resultats: 1 de 12")
    # Board 1 stays hidden (and out of the public totals) until every table played it.
    assert anon.locator("#standings").count() == 0
    try:
        for seating in Seating.objects.filter(
            round__championship=championship, round__number=1, table__number__gt=1
        ):
            record(seating, Board.objects.get(championship=championship, number=1), 30)
    finally:
        connections.close_all()
    anon.reload()
    _shows(anon, "#progress", "Resultats: 4 de 12")
    assert anon.locator("#standings tbody tr").count() == 8
    shot(anon, "standings-phone")
    phone.close()
    public.close()


#: For each field of the form, scrolled into view every way, the save button's box and
#: the field's, as [top, bottom, left, right] pairs that intersect (none expected).
_COVERED = """() => {
  const button = document.querySelector("form.result-form button.save");
  const fields = document.querySelectorAll(
    "form.result-form fieldset.choices, form.result-form .field, form.result-form details");
  const hits = [];
  for (const field of fields) {
    for (const block of ["start", "center", "end", "nearest"]) {
      field.scrollIntoView({block: block, behavior: "instant"});
      const a = field.getBoundingClientRect(), b = button.getBoundingClientRect();
      if (a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right) {
        hits.push([field.id || field.className, block, a.top, a.bottom, b.top, b.bottom]);
      }
    }
  }
  return [fields.length, hits];
}"""


def test_the_save_button_never_covers_a_field_on_a_phone(
    transactional_db, live_server, browser
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    # The organiser's form is the longest: the director's adjusted score too.
    organiser = UserFactory(username="organitzador-boto")
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    form = f"/c/{championship.slug}/referee/rounds/1/tables/1/boards/1/"
    log_in(page, live_server.url, "organitzador-boto", form)
    page.wait_for_url(f"**{form}")
    page.click("details.adjust summary")  # open: its fields count too
    count, hits = page.evaluate(_COVERED)
    assert count >= 7  # trump, doubles, points x2, infraction, adjusted, note
    assert hits == []
    assert "note" in page.evaluate(
        "Array.from(document.querySelectorAll('form.result-form .field input'))"
        ".map(e => e.name).join(' ')")
    shot(page, "result-form-button-phone")
    context.close()


def test_an_infraction_makes_the_points_optional_on_a_phone(
    transactional_db, live_server, browser
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1)
    referee = UserFactory(username="arbitre-infraccio")
    referee.save()
    Membership.objects.create(championship=championship, user=referee, role="referee")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    page = context.new_page()
    form = f"/c/{championship.slug}/referee/rounds/1/tables/1/boards/1/"
    log_in(page, live_server.url, "arbitre-infraccio", form)
    page.wait_for_url(f"**{form}")
    assert page.inner_text("#points-label") == "Punts NS"
    assert page.is_hidden("#points-infraction-help")
    page.click("label[for=id_infraction_2]")  # EO
    assert page.inner_text("#points-label") == "Punts NS (opcionals: no compten)"
    assert page.is_visible("#points-infraction-help")
    assert "no compten" in page.inner_text("#points-infraction-help")
    page.click("label[for=id_infraction_0]")  # none again
    assert page.inner_text("#points-label") == "Punts NS"
    assert page.is_hidden("#points-infraction-help")
    page.click("label[for=id_infraction_2]")
    page.click("label[for=id_trump_0]")
    shot(page, "result-form-infraction-phone")
    page.click("form.result-form button[type=submit]")
    page.wait_for_url("**/tables/1/boards/2/")
    try:
        stored = Result.objects.get(board__championship=championship, board__number=1,
                                    seating__table__number=1)
    finally:
        connections.close_all()
    assert (stored.infraction, stored.ns_points_taken, stored.trump) == ("EW", None, "O")
    context.close()
