"""Refusals that Django answers itself, in our words and the request's language: a
paste over the upload limit (400 saying the limit), a form without its CSRF token (403,
our page), the csv module's "field larger than field limit" in a pasted list; and random
values in the result form."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from tests.tournaments.conftest import Small
from tests.tournaments.views.helpers import entry_url
from tournaments.models import Pair, Seating

WORDS = {
    "ca": ("és massa gran", "No s'ha desat res"),
    "es": ("es demasiado grande", "No se ha guardado nada"),
    "en": ("is too large", "Nothing was saved"),
}


@pytest.fixture
def undrawn(web: Small) -> Small:
    Seating.objects.filter(round__championship=web.championship).delete()
    return web


@pytest.mark.parametrize("lang", ["ca", "es", "en"])
def test_a_paste_over_the_upload_limit_is_our_400_saying_the_limit(
        client: Client, undrawn: Small, settings: Any, lang: str) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 20_000
    client.force_login(undrawn.organiser)
    before = Pair.objects.count()
    response = client.post(
        reverse("pairs_register", args=[undrawn.championship.slug]),
        {"csv-text": "1;Anna Puig;Jordi Vila\n" * 2000, "csv-submit": "1"},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Bad Request (400)" not in page
    for words in WORDS[lang]:
        assert words in page
    assert "19,5" in page or "19.5" in page  # the limit, in KB
    assert Pair.objects.count() == before


@pytest.mark.parametrize(("lang", "title"), [("ca", "La pàgina ha caducat"),
                                             ("es", "La página ha caducado"),
                                             ("en", "The page has expired")])
def test_a_form_without_its_csrf_token_is_our_403_page(web: Small, lang: str,
                                                       title: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(web.organiser)
    response = client.post(reverse("pairs_register", args=[web.championship.slug]),
                           {"csv-text": "1;A;B", "csv-submit": "1"},
                           HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 403
    page = response.content.decode()
    assert title in page and "CSRF verification failed" not in page


def test_a_field_over_the_csv_limit_is_said_in_our_words(client: Client,
                                                         undrawn: Small) -> None:
    client.force_login(undrawn.organiser)
    response = client.post(
        reverse("pairs_register", args=[undrawn.championship.slug]),
        {"csv-text": "1;" + "a" * 140_000 + ";Joan", "csv-submit": "1"},
        HTTP_ACCEPT_LANGUAGE="ca",
    )
    assert response.status_code == 200
    error = response.context["csv_form"].errors["text"][0]
    assert "field larger" not in error
    assert "131.072 caràcters" in error


RESULT_FIELDS = ["trump", "delegated", "contro", "recontro", "sant_vicenc",
                 "ns_points_taken", "infraction", "adjusted_ns", "adjusted_ew", "note",
                 "version"]


@examples(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.dictionaries(
    st.sampled_from(RESULT_FIELDS),
    st.text(st.characters(codec="utf-8"), max_size=12)
    | st.integers(-10**30, 10**30).map(str) | st.sampled_from(["O", "NS", "on", "", "1"]),
    max_size=6))
def test_random_values_in_the_result_form_are_never_a_500(
        client: Client, web: Small, values: dict[str, str]) -> None:
    client.force_login(web.referee)
    seating = Seating.objects.filter(round__championship=web.championship).first()
    assert seating is not None
    response = client.post(entry_url(web, seating, web.boards[0]), values,
                           HTTP_ACCEPT_LANGUAGE="ca")
    assert response.status_code in (200, 302, 400), (values, response.status_code)
    if response.status_code == 200 and response.context and "form" in response.context:
        form = response.context["form"]
        # Every refusal stands next to a field of the form (or the form as a whole).
        assert set(form.errors) <= {*form.fields, "__all__"}, form.errors
