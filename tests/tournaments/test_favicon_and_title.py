"""Every page names the site's icon (a real file, also at /favicon.ico for pages that name
none), and the tab's title says what the page's header says, in the page's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_the_pages_icon_is_a_static_file_and_favicon_ico_leads_to_it(client: Any) -> None:
    page = client.get(reverse("login")).content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon and icon.group(1).endswith(".svg"), page[:600]
    assert finders.find(icon.group(1).split("/static/", 1)[1])
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == icon.group(1)
    redoc = client.get(reverse("api-redoc")).content.decode()
    assert f'<link rel="icon" href="{icon.group(1)}"' in redoc


@pytest.mark.parametrize(("language", "name"), [
    ("ca", "Botifarra Duplicat"), ("es", "Botifarra Duplicado"),
    ("en", "Botifarra Duplicate"),
])
def test_the_title_names_the_site_as_the_header_does(
    client: Any, language: str, name: str
) -> None:
    with translation.override(None):  # the request's language stays with the request
        page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    header = re.search(r'class="brand"[^>]*>(.*?)</a>', page)
    assert header and re.sub(r"<[^>]+>", "", header.group(1)) == name
    title = re.search(r"<title>(.*?)</title>", page)
    assert title and title.group(1).endswith(f" · {name}"), title
