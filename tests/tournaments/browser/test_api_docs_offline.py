"""The API's documentation pages, in real Chromium, send no request outside the server:
a hall or a club's laptop may have no internet, and a request to a third party tells it
who reads the docs (ReDoc's bundle shows its maker's logo from their CDN unless the page
forbids outside images)."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from django.urls import reverse

from tests.tournaments.browser.test_referee_phone import browser  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("name", ["api-redoc", "api-docs"])
def test_the_api_docs_send_nothing_outside(
    live_server, browser, name: str  # noqa: F811
) -> None:
    context = browser.new_context(locale="ca-ES")  # type: ignore[attr-defined]
    page = context.new_page()
    asked: list[str] = []
    blocked: list[str] = []  # refused by the page's own policy: never sent
    page.on("request", lambda request: asked.append(request.url))
    page.on("requestfailed", lambda request: blocked.append(request.url)
            if (request.failure or "") in ("csp", "net::ERR_BLOCKED_BY_CSP") else None)
    page.goto(live_server.url + reverse(name))
    page.wait_for_load_state("networkidle")
    # The page really rendered the API (the schema was fetched and drawn).
    assert page.get_by_text("Botifarra Duplicate API").first.is_visible()
    server = urlparse(live_server.url).netloc
    outside = [url for url in asked
               if urlparse(url).scheme in ("http", "https") and urlparse(url).netloc != server
               and url not in blocked]
    assert outside == []
    context.close()
