"""Guide cards: per table the pairs of each round, per pair its table and direction each
round (a bye says so)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.factories import build_championship
from tournaments.models import Bye, Seating
from tournaments.reports.build import build_guide_cards
from tournaments.reports.guide_cards import render_guide_cards

pytestmark = pytest.mark.django_db


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_table_cards_list_each_rounds_ns_and_ew_pair():
    c = build_championship(pairs=5, rounds=2, boards_per_round=1, drawn_rounds=2)
    doc = build_guide_cards(c, by="table")
    assert [card.title for card in doc.cards] == ["Taula 1", "Taula 2"]
    first = Seating.objects.get(round__championship=c, round__number=2, table__number=1)
    assert doc.cards[0].lines[1] == ("2", str(first.ns_pair.number), str(first.ew_pair.number))
    pages = []
    pdf = render_guide_cards(doc, on_page=lambda done, total: pages.append(done))
    assert pdf.startswith(b"%PDF") and pages == [1]
    assert "Taula 2" in text_of(pdf)


def test_pair_cards_give_table_and_direction_each_round_and_the_bye():
    c = build_championship(pairs=5, rounds=2, boards_per_round=1, drawn_rounds=2)
    doc = build_guide_cards(c, by="pair")
    assert len(doc.cards) == 5
    bye = Bye.objects.get(round__championship=c, round__number=1).pair.number
    card = next(card for card in doc.cards if card.title == f"Parella {bye}")
    assert card.lines[0] == ("1", "—", "descansa")
    seated = Seating.objects.get(round__championship=c, round__number=1, table__number=1)
    ns_card = next(card for card in doc.cards if card.title == f"Parella {seated.ns_pair.number}")
    assert ns_card.lines[0] == ("1", "1", "NS")
    assert "descansa" in text_of(render_guide_cards(doc))


def test_guide_cards_of_an_undrawn_championship_say_so():
    c = build_championship(pairs=4, drawn_rounds=0)
    doc = build_guide_cards(c, by="pair")
    assert doc.cards == ()
    assert "sortejada" in text_of(render_guide_cards(doc))
    with pytest.raises(ValueError):
        build_guide_cards(c, by="board")


@pytest.fixture
def media(tmp_path, settings):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_a_guide_cards_job_prints_each_tables_pairs_per_round_and_each_pairs_seat(
    media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
):
    from django.contrib.auth.models import AnonymousUser
    from django.core.files.storage import default_storage

    from tournaments.models import PrintJob
    from tournaments.reports import services as jobs

    c = build_championship(pairs=5, rounds=3, boards_per_round=1, drawn_rounds=2)
    with django_capture_on_commit_callbacks(execute=True):
        # The seating is public once drawn: anyone may print the guide cards.
        job, created = jobs.print_job_request(championship=c, kind="guide-cards",
                                              acting_user=AnonymousUser())
    job.refresh_from_db()
    assert created and job.status == PrintJob.Status.DONE, job.error
    pages = [page.extract_text() for page in
             PdfReader(io.BytesIO(default_storage.open(job.file.name).read())).pages]
    assert len(pages) == 2  # two tables on the table-card page, five pairs on the next
    assert "Cartells de taula" in pages[0] and "Cartells de parella" in pages[1]
    printed = _table_cards(pages[0])
    expected: dict[int, list[tuple[int, int, int]]] = {}
    for s in Seating.objects.filter(round__championship=c).order_by("round__number"):
        expected.setdefault(s.table.number, []).append(
            (s.round.number, s.ns_pair.number, s.ew_pair.number))
    assert printed == expected and len(expected) == 2  # rounds 1 and 2 only (3 not drawn)
    assert pages[1].count("descansa") == 2  # one bye in each of the two drawn rounds
    for pair in range(1, 6):
        assert f"Parella {pair}" in pages[1]


def _table_cards(text: str) -> dict[int, list[tuple[int, int, int]]]:
    """Table -> its (round, NS, EW) rows, read back from a page of table cards (pypdf
    gives every drawn string on its own line)."""
    cards: dict[int, list[tuple[int, int, int]]] = {}
    table = None
    numbers: list[int] = []
    for line in [*text.splitlines(), "Taula 0"]:
        if line.startswith("Taula ") or line.startswith("Pàgina "):
            if table is not None:
                cards[table] = [tuple(numbers[i:i + 3]) for i in range(0, len(numbers), 3)]
            table = int(line.split()[1]) if line.startswith("Taula ") else None
            numbers = []
        elif table is not None and line.strip().isdigit():
            numbers.append(int(line))
    cards.pop(0, None)
    return cards


def test_guide_cards_of_one_round_list_only_that_round_in_the_language_asked(db):  # type: ignore[no-untyped-def]
    from tournaments.reports import build
    from tournaments.reports.documents import Kind
    from tournaments.reports.render import render

    c = build_championship(pairs=4, rounds=2, boards_per_round=1, drawn_rounds=2)
    doc = build.build(c, Kind.GUIDE_CARDS, round_number=2, language="en")
    assert {line[0] for card in doc.tables.cards for line in card.lines} == {"2"}
    assert {line[0] for card in doc.pairs.cards for line in card.lines} == {"2"}
    text = text_of(render(doc))
    assert "Table 1" in text and "Pair 4" in text, text


def test_a_new_draw_is_not_answered_with_the_old_guide_cards(
    media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
):
    from tournaments.reports import services as jobs

    c = build_championship(pairs=4, rounds=2, boards_per_round=1, drawn_rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        first, _ = jobs.print_job_request(championship=c, kind="guide-cards", acting_user=None)
    with django_capture_on_commit_callbacks(execute=True):
        again, created = jobs.print_job_request(championship=c, kind="guide-cards",
                                                acting_user=None)
    assert created and again.pk != first.pk


def test_anyone_may_ask_for_guide_cards_on_the_prints_page(
    client, media, django_capture_on_commit_callbacks  # type: ignore[no-untyped-def]
):
    from django.urls import reverse

    from tournaments.models import PrintJob

    c = build_championship(pairs=4, rounds=2, boards_per_round=1, drawn_rounds=1)
    url = reverse("print_jobs", args=[c.slug])
    page = client.get(url).content.decode()
    assert 'value="guide-cards"' in page and 'value="board-sheets"' not in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"kind": "guide-cards", "round_number": "1"})
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert (job.kind, job.round_number, job.status) == ("guide-cards", 1, PrintJob.Status.DONE)


@pytest.mark.django_db(transaction=True)
def test_print_report_writes_the_guide_cards(tmp_path, settings):  # type: ignore[no-untyped-def]
    from django.core.management import call_command

    settings.MEDIA_ROOT = tmp_path / "media"
    c = build_championship(pairs=4, rounds=2, boards_per_round=1, drawn_rounds=2)
    out = tmp_path / "cartells.pdf"
    call_command("print_report", "guide-cards", c.slug, "--language", "es", "-o", str(out),
                 stdout=io.StringIO(), stderr=io.StringIO())
    text = text_of(out.read_bytes())
    assert "Mesa 1" in text and "Pareja 4" in text, text
