"""A printed document is in one language, the requester's: labels, rules line and file name.

Expected words come from the catalogue itself (``gettext`` under the language), so the
tests check that every label went through it; the Catalan words a document must not hold
are the labels the catalogue translates into another word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import page_texts, words
from tournaments.models import Championship, PrintJob
from tournaments.reports import services
from tournaments.reports.build import document_language
from tournaments.reports.documents import Kind, download_name

#: Every label a standings PDF prints (Catalan msgids).
STANDINGS_LABELS = ("Classificació", "Posició", "Parella", "Jugadors", "Taulers", "Mitjana")


@pytest.fixture
def played(db: None, tmp_path: Path, settings) -> Championship:  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    return build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                              played_rounds=1)


def _in(language: str, msgid: str) -> str:
    with translation.override(language):
        return gettext(msgid)


def _rules_line(championship: Championship, language: str) -> list[str]:
    with translation.override(language):
        return [str(championship.get_variant_display()),
                str(championship.get_doubling_display()),
                str(championship.get_rounding_display())]


def _ask_and_download(championship: Championship, language: str,
                      capture) -> tuple[PrintJob, str, str]:  # type: ignore[no-untyped-def]
    """Ask for the overall standings from a browser whose interface is ``language``;
    return the job, the PDF's text and the downloaded file's name."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    url = reverse("print_jobs", args=[championship.slug])
    with capture(execute=True):
        response = client.post(url, {"kind": "standings", "round_number": 0})
    assert response.status_code == 302
    job = PrintJob.objects.filter(championship=championship).latest("id")
    assert job.status == PrintJob.Status.DONE, job.error
    download = client.get(reverse("print_job_download", args=[championship.slug, job.pk]))
    pdf = b"".join(download.streaming_content)  # type: ignore[attr-defined]
    disposition = download["Content-Disposition"]
    name = disposition.split("filename=")[1].strip('"')
    return job, " ".join(words(" ".join(page_texts(pdf)))), name


@pytest.mark.parametrize(("language", "file_word"), [("en", "standings"),
                                                     ("es", "clasificacion")])
def test_a_standings_pdf_asked_for_in_a_language_is_all_in_that_language(
    played: Championship, language: str, file_word: str,
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    job, text, name = _ask_and_download(played, language, django_capture_on_commit_callbacks)
    assert job.language == language
    title = {"en": "Standings", "es": "Clasificación"}[language]
    rank = {"en": "Rank", "es": "Posición"}[language]
    pair = {"en": "Pair", "es": "Pareja"}[language]
    assert f"{title} {rank} {pair}" in text
    for msgid in STANDINGS_LABELS:
        assert _in(language, msgid) in text, msgid
    for part in _rules_line(played, language):
        assert part in text, part
    # No Catalan label, and not the Catalan rules line: every word the catalogue
    # translates into another word must be absent.
    catalan = [m for m in STANDINGS_LABELS if _in(language, m) != m]
    catalan += [ca for ca, other in zip(_rules_line(played, "ca"),
                                        _rules_line(played, language), strict=True)
                if ca != other]
    assert len(catalan) >= 5
    for word in catalan:
        assert word not in text.split(" ") and f"{word} " not in text, word
    assert name == f"{file_word}-{played.slug}.pdf"


def test_a_catalan_request_prints_catalan_and_names_the_file_in_catalan(
    played: Championship, django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    job, text, name = _ask_and_download(played, "ca", django_capture_on_commit_callbacks)
    assert job.language == "ca"
    assert "Classificació Posició Parella Jugadors" in text and "Standings" not in text
    assert name == f"classificacio-{played.slug}.pdf"


def test_the_same_request_in_another_language_is_another_job(
    played: Championship, django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    english, _text, _name = _ask_and_download(played, "en", django_capture_on_commit_callbacks)
    again, _created = services.print_job_request(championship=played, kind="standings",
                                                 language="en")
    assert again.pk == english.pk  # reused: same request, same language
    with django_capture_on_commit_callbacks(execute=True):
        catalan, created = services.print_job_request(championship=played, kind="standings",
                                                      language="ca")
    assert created and catalan.pk != english.pk and catalan.language == "ca"


@pytest.mark.parametrize(("asked", "expected"), [
    ("en", "en"), ("en-GB", "en"), ("ES", "es"), ("es-ar", "es"), ("fr", "ca"), ("", "ca"),
    (None, "ca"),
])
def test_a_document_language_is_one_of_the_sites(asked: str | None, expected: str) -> None:
    assert document_language(asked) == expected


@pytest.mark.parametrize(("kind", "round_number", "language", "expected"), [
    (Kind.STANDINGS, 0, "ca", "classificacio-open.pdf"),
    (Kind.STANDINGS, 0, "es", "clasificacion-open.pdf"),
    (Kind.STANDINGS, 0, "en", "standings-open.pdf"),
    (Kind.BOARD_SHEETS, 2, "ca", "fulls-de-mans-open-ronda-2.pdf"),
    (Kind.BOARD_SHEETS, 2, "en", "board-sheets-open-round-2.pdf"),
])
def test_the_file_name_is_in_the_document_language(
    kind: Kind, round_number: int, language: str, expected: str
) -> None:
    with translation.override("es"):  # the caller's language does not matter
        assert download_name(kind, "open", round_number, language) == expected


def test_the_api_prints_in_the_request_language_and_names_the_file_in_it(
    played: Championship, django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    from rest_framework.test import APIClient

    client = APIClient(HTTP_ACCEPT_LANGUAGE="es")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/c/{played.slug}/prints/", {"kind": "standings"},
                               format="json")
    assert response.status_code == 201, response.content
    job = PrintJob.objects.get(championship=played)
    assert job.language == "es" and job.status == PrintJob.Status.DONE
    download = client.get(reverse("api_print_download", args=[played.slug, job.pk]))
    assert download.status_code == 200
    assert f'filename="clasificacion-{played.slug}.pdf"' in download["Content-Disposition"]
    text = " ".join(words(" ".join(
        page_texts(b"".join(download.streaming_content)))))  # type: ignore[attr-defined]
    assert "Clasificación Posición Pareja" in text and "Classificació" not in text
