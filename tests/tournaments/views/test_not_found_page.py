"""A page that does not exist answers 404 with the site's own page, in the reader's
language (DEBUG off, as in production), not Django's bare English "Not Found"."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "words"), [
    ("ca", "No s'ha trobat la pàgina"),
    ("es", "No se ha encontrado la página"),
    ("en", "Page not found"),
])
def test_an_unknown_address_gets_our_404_page_in_the_readers_language(
    client, settings, language: str, words: str,
) -> None:
    settings.DEBUG = False
    response = client.get("/c/no-such-championship/boards/99/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    body = response.content.decode()
    assert words in body and 'lang="' + language in body
