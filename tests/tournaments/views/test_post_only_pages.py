"""A GET on an organiser's POST-only address (a reload, a bookmark, an address shared)
goes to the page whose button posts it, never a bare 405, and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from tests.tournaments.conftest import Small
from tournaments import urls as tournaments_urls
from tournaments.models import AuditEntry, Championship, Membership, PrintJob

pytestmark = pytest.mark.django_db


def test_a_get_on_publish_secret_goes_to_the_championship_page(client, web: Small) -> None:
    client.force_login(web.organiser)
    url = reverse("deal_secret_publish", args=[web.championship.slug])
    response = client.get(url, follow=True)
    assert response.redirect_chain == [
        (reverse("championship", args=[web.championship.slug]), 302)]
    assert response.status_code == 200
    assert Championship.objects.get(pk=web.championship.pk).deal_secret_published_at is None
    assert not AuditEntry.objects.filter(action="championship.publish_secret").exists()
    assert client.delete(url).status_code == 405


def test_a_get_on_a_role_s_buttons_goes_to_the_people_page(client, web: Small) -> None:
    client.force_login(web.organiser)
    row = Membership.objects.get(championship=web.championship, user=web.referee)
    people = reverse("people", args=[web.championship.slug])
    for name in ("people_remove", "people_link"):
        response = client.get(reverse(name, args=[web.championship.slug, row.pk]))
        assert (response.status_code, response["Location"]) == (302, people)
    assert Membership.objects.filter(pk=row.pk).exists()


def test_a_get_on_a_print_job_s_buttons_goes_to_the_prints_page(client, web: Small) -> None:
    client.force_login(web.organiser)
    job = PrintJob.objects.create(championship=web.championship, kind="standings")
    prints = reverse("print_jobs", args=[web.championship.slug])
    for name in ("print_job_retry", "print_job_cancel"):
        response = client.get(reverse(name, args=[web.championship.slug, job.pk]))
        assert (response.status_code, response["Location"]) == (302, prints)
    assert PrintJob.objects.get(pk=job.pk).status == job.status


def _championship_urls() -> list[URLPattern]:
    from tournaments.reports import urls as report_urls
    return [p for p in (*tournaments_urls.urlpatterns, *report_urls.urlpatterns)
            if isinstance(p, URLPattern) and str(p.pattern).startswith("c/<slug:slug>/")]


def test_no_organiser_address_answers_a_get_with_a_bare_405(client, web: Small) -> None:
    client.force_login(web.organiser)
    membership = Membership.objects.filter(championship=web.championship).first()
    assert membership is not None
    values = {"slug": web.championship.slug, "number": 1, "round": 1, "table": 1,
              "board": 1, "membership": membership.pk, "job_id": 1,
              "uidb64": "x", "token": "y"}
    checked = []
    for pattern in _championship_urls():
        names = list(pattern.pattern.regex.groupindex)
        url = reverse(pattern.name, kwargs={n: values[n] for n in names})
        if pattern.name in ("people_qr", "sign_in"):
            continue  # a new link each time / a one-time sign-in: not buttons
        response = client.get(url)
        assert response.status_code != 405, url
        checked.append(pattern.name)
    assert {"deal_secret_publish", "pair_remove", "people_remove"} <= set(checked)
