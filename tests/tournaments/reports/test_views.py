"""The print-job pages: ask, watch progress, download; who may print what."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from engine.deal import Deal
from engine.seats import Seat
from tests.factories import UserFactory, build_championship
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments import services
from tournaments.models import Board, Membership, PrintJob


@pytest.fixture
def setup(db: None, tmp_path: Path, settings):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1)
    organiser = UserFactory(username="org-views")
    referee = UserFactory(username="ref-views")
    for user in (organiser, referee):
        user.save()  # the factory sets the password without saving; login checks its hash
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    services.membership_grant(championship=championship, user=referee,
                              role=Membership.Role.REFEREE, acting_user=None)
    return championship, organiser, referee


def _client(user: object = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)  # type: ignore[arg-type]
    return client


def test_organiser_asks_for_board_sheets_and_downloads_the_deals_of_the_database(
    setup, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
) -> None:
    championship, organiser, _referee = setup
    client = _client(organiser)
    url = reverse("print_jobs", args=[championship.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert "Fulls de mans" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "board-sheets", "round_number": 1, "copies": 2,
                                     "per_page": 1})
    assert response.status_code == 302
    job = PrintJob.objects.get(championship=championship)
    assert job.status == PrintJob.Status.DONE and job.requested_by == organiser

    listing = client.get(url).content.decode()
    download = reverse("print_job_download", args=[championship.slug, job.pk])
    assert download in listing and 'value="100"' in listing

    status = client.get(reverse("print_job_status", args=[championship.slug, job.pk])).json()
    assert status["status"] == "done" and status["progress"] == 100
    assert status["download"] == download

    pdf = b"".join(client.get(download).streaming_content)  # type: ignore[attr-defined]
    texts = page_texts(pdf)
    boards = list(Board.objects.filter(round__championship=championship, round__number=1)
                  .order_by("number"))
    assert len(texts) == 4
    for index, text in enumerate(texts):
        deal = Deal.from_json(boards[index // 2].deal)
        north_oros = " ".join(str(c.rank) for c in deal[Seat.N] if c.suit.value == "O")
        if north_oros:  # a long suit wraps onto a second line: the lines joined
            assert north_oros in " ".join(text.split())


def test_a_referee_cannot_print_or_download_board_sheets(setup) -> None:  # type: ignore[no-untyped-def]
    championship, organiser, referee = setup
    url = reverse("print_jobs", args=[championship.slug])
    response = _client(referee).post(url, {"kind": "board-sheets", "round_number": 1,
                                           "copies": 1, "per_page": 1})
    assert response.status_code == 200  # the form refuses a kind it does not offer
    assert not PrintJob.objects.exists()
    from tournaments.reports import services as jobs

    job, _ = jobs.print_job_request(championship=championship, kind="board-sheets",
                                    round_number=1, acting_user=organiser)
    for client in (_client(referee), _client()):
        status = client.get(reverse("print_job_status", args=[championship.slug, job.pk]))
        assert status.status_code == 403
        download = client.get(reverse("print_job_download", args=[championship.slug, job.pk]))
        assert download.status_code == 403
    assert "board-sheets" not in _client(referee).get(url).content.decode()


def test_anyone_may_print_the_standings(setup, django_capture_on_commit_callbacks) -> None:  # type: ignore[no-untyped-def]
    championship, _organiser, _referee = setup
    client = _client()
    url = reverse("print_jobs", args=[championship.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "standings", "round_number": 0, "copies": 1,
                                     "per_page": 1})
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE and job.requested_by is None
    pdf = b"".join(
        client.get(reverse("print_job_download", args=[championship.slug, job.pk]))
        .streaming_content  # type: ignore[attr-defined]
    )
    assert "Classificació Posició Parella" in " ".join(page_texts(pdf)[0].split())


def test_a_bad_request_shows_the_message_next_to_the_field(setup) -> None:  # type: ignore[no-untyped-def]
    championship, organiser, _referee = setup
    response = _client(organiser).post(
        reverse("print_jobs", args=[championship.slug]),
        {"kind": "entry-forms", "round_number": 7, "copies": 1, "per_page": 1},
    )
    assert response.status_code == 200
    assert "no té cap ronda 7" in response.content.decode()
    assert not PrintJob.objects.exists()


def test_the_championship_page_links_to_the_print_jobs(setup) -> None:  # type: ignore[no-untyped-def]
    championship, _organiser, _referee = setup
    page = _client().get(reverse("championship", args=[championship.slug])).content.decode()
    assert reverse("print_jobs", args=[championship.slug]) in page


@pytest.mark.parametrize("kind", ["board-sheets", "entry-forms"])
def test_asking_for_a_document_one_may_not_print_says_who_may(setup, kind) -> None:  # type: ignore[no-untyped-def]
    championship, _organiser, referee = setup
    url = reverse("print_jobs", args=[championship.slug])
    for client in (_client(), _client(referee)):
        response = client.post(url, {"kind": kind, "round_number": 1})
        assert response.status_code == 200
        errors = response.context["form"].errors["kind"]
        assert errors == ["Els fulls de mans i les actes de taula mostren les cartes: només "
                          "els poden imprimir l'organització i l'àrbitre principal del "
                          "campionat."]
        assert "available choices" not in response.content.decode()
    assert not PrintJob.objects.exists()
    # A kind that does not exist is still the generic refusal.
    response = _client().post(url, {"kind": "nonsense", "round_number": 1})
    assert list(response.context["form"].errors["kind"]) != list(errors)


def test_anonymous_clients_see_only_public_jobs_in_the_api_and_cannot_ask_for_deals(setup):  # type: ignore[no-untyped-def]
    championship, organiser, _referee = setup
    from tournaments.reports import services as jobs

    jobs.print_job_request(championship=championship, kind="board-sheets", round_number=1,
                           acting_user=organiser)
    jobs.print_job_request(championship=championship, kind="standings", round_number=0,
                           acting_user=organiser)
    url = f"/api/v1/c/{championship.slug}/prints/"
    listed = _client().get(url).json()
    assert [job["kind"] for job in listed] == ["standings"]
    assert all("requested_by" not in job for job in listed)
    assert {job["kind"] for job in _client(organiser).get(url).json()} == {
        "standings", "board-sheets"}
    for kind in ("board-sheets", "entry-forms"):
        response = _client().post(url, {"kind": kind, "round_number": 1},
                                  content_type="application/json")
        assert response.status_code == 403, (kind, response.content)
    assert PrintJob.objects.count() == 2


def test_printing_a_round_is_one_click_from_its_seating_page(  # type: ignore[no-untyped-def]
    setup, django_capture_on_commit_callbacks,
) -> None:
    championship, organiser, referee = setup
    seating_url = reverse("round_seating", args=[championship.slug, 1])
    page = _client(organiser).get(seating_url).content.decode()
    assert 'id="print-round"' in page and "Imprimir la ronda 1" in page
    # The pack shows the deals: not for a plain referee, nor the public.
    assert 'id="print-round"' not in _client(referee).get(seating_url).content.decode()
    assert 'id="print-round"' not in _client().get(seating_url).content.decode()
    form = page[page.index('id="print-round"'):]
    form = form[:form.index("</form>")]
    data = dict(re.findall(r'name="(kind|round_number)" value="([^"]+)"', form))
    assert data == {"kind": "round-pack", "round_number": "1"}
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(organiser).post(reverse("print_jobs", args=[championship.slug]),
                                           data)
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert (job.kind, job.round_number, job.copies, job.status) == (
        "round-pack", 1, 2, PrintJob.Status.DONE)  # 4 pairs: two tables, two copies
    texts = page_texts(job.file.open("rb").read())
    assert len(texts) == 2 * 2 + 2 + 2  # 2 boards x 2 copies, 2 forms, 2 table cards


def test_the_prints_page_says_why_a_document_cannot_be_made_yet(db: None, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                settings) -> None:
    settings.MEDIA_ROOT = tmp_path
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=0,
                                      generate=False)
    organiser = UserFactory(username="org-early")
    organiser.save()
    services.membership_grant(championship=championship, user=organiser,
                              role=Membership.Role.ORGANISER, acting_user=None)
    url = reverse("print_jobs", args=[championship.slug])
    response = _client(organiser).get(url)
    reasons = {kind.value: reason for kind, reason, _form in response.context["documents"]}
    page = response.content.decode()
    for kind in ("guide-cards", "table-cards", "entry-forms", "round-pack"):
        assert reasons[kind] == ("Encara no hi ha cap ronda sortejada: es pot imprimir "
                                 "després del sorteig."), kind
        assert f'data-not-ready="{kind}"' in page
    assert reasons["board-sheets"] == "Encara no s'han generat els taulers: genereu-los primer."
    assert reasons["standings"] is None and reasons["travellers"] is None
    # The form is not offered, and a request made all the same is refused with the reason.
    block = page[page.index('id="print-guide-cards"'):]
    assert "<form" not in block[:block.index("</div>")]
    response = _client(organiser).post(url, {"kind": "guide-cards", "round_number": 0})
    assert response.status_code == 200 and not PrintJob.objects.exists()
    assert ("Cartells de taula i de parella: Encara no hi ha cap ronda sortejada"
            in response.content.decode())
    # Standings ask only "after round", no copies.
    (standings,) = [f for kind, _r, f in response.context["documents"]
                    if kind.value == "standings"]
    assert set(standings.fields) == {"kind", "round_number"}
    assert str(standings["round_number"].label) == "Després de la ronda"


def test_the_api_prints_the_round_pack_one_copy_per_table_and_refuses_it_early(  # type: ignore[no-untyped-def]
    setup, django_capture_on_commit_callbacks,
) -> None:
    championship, organiser, _referee = setup
    url = f"/api/v1/c/{championship.slug}/prints/"
    # Round 2 is not drawn: refused with the reason, nothing queued.
    response = _client(organiser).post(url, {"kind": "round-pack", "round_number": 2},
                                       content_type="application/json")
    assert response.status_code == 400, response.content
    assert "sortejada" in response.content.decode() and not PrintJob.objects.exists()
    response = _client().post(url, {"kind": "round-pack", "round_number": 1},
                              content_type="application/json")
    assert response.status_code == 403  # it shows the deals
    with django_capture_on_commit_callbacks(execute=True):
        response = _client(organiser).post(url, {"kind": "round-pack", "round_number": 1},
                                           content_type="application/json")
    assert response.status_code in (201, 202), response.content
    job = PrintJob.objects.get()
    assert (job.kind, job.copies, job.status) == ("round-pack", 2, PrintJob.Status.DONE)
