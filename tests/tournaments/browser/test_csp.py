"""The Content-Security-Policy in real Chromium: every public, referee and
organiser page, and the admin's (a role's add form included), is served with the
policy (scripts and styles from the site only, no inline script) and loads, htmx and
the live polling included, without the browser reporting one violation; the prints
page's script still fills in a finished job's link."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.factories import UserFactory, build_championship
from tests.tournaments.browser.test_referee_phone import PHONE, browser, log_in  # noqa: F401
from tournaments.models import Membership

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Every violation the page reports, kept on ``window`` from before its first script.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile
                    + ":" + e.lineNumber);
});
"""


def _violations(page: Any, context: Any, path: str, seen: dict[str, list[str]]) -> None:
    response = page.goto(context + path)
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (path, policy)
    time.sleep(0.3)  # the live pages' first poll, htmx's start
    if found := page.evaluate("window.__csp"):
        seen[path] = found


def test_no_page_reports_a_content_security_policy_violation(
    transactional_db, live_server, browser  # noqa: F811
) -> None:
    championship = build_championship(pairs=8, rounds=2, boards_per_round=3, drawn_rounds=1,
                                      played_rounds=1)
    organiser = UserFactory(username="org-csp", is_staff=True, is_superuser=True)
    organiser.save()
    Membership.objects.create(championship=championship, user=organiser, role="organiser")
    slug = championship.slug
    public = ["/", f"/c/{slug}/", f"/c/{slug}/standings/", f"/c/{slug}/boards/1/",
              f"/c/{slug}/boards/4/", f"/c/{slug}/pairs/1/", f"/c/{slug}/hall/",
              "/accounts/login/"]
    staff = [f"/c/{slug}/referee/", f"/c/{slug}/referee/rounds/1/tables/1/",
             f"/c/{slug}/referee/rounds/1/tables/1/boards/1/", f"/c/{slug}/prints/",
             f"/c/{slug}/rounds/1/seating/", f"/c/{slug}/organise/pairs/",
             "/accounts/lockouts/", "/admin/", "/admin/tournaments/membership/add/",
             "/admin/tournaments/result/"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,  # type: ignore[attr-defined]
                                  locale="ca-ES")
    context.add_init_script(LISTEN)
    page = context.new_page()
    seen: dict[str, list[str]] = {}
    for path in public:
        _violations(page, live_server.url, path, seen)
    log_in(page, live_server.url, "org-csp")
    for path in staff:
        _violations(page, live_server.url, path, seen)
    # The prints page's script (a static file now) still shows a finished job's link.
    page.goto(f"{live_server.url}/c/{slug}/rounds/1/seating/")
    page.click("#print-round button")
    page.wait_for_url(f"**/c/{slug}/prints/")
    page.wait_for_selector(".job-download a", timeout=30_000)
    assert page.inner_text(".job-download a") == "Descarregar"
    if found := page.evaluate("window.__csp"):
        seen["prints after a job"] = found
    context.close()
    assert seen == {}
