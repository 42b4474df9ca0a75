"""``manage.py print_report``: queues the job, waits for it, writes the file; exit 1 on failure."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from engine.deal import Deal
from engine.seats import Seat
from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import page_texts, text_outside_page
from tournaments.models import Board, PrintJob, Seating

pytestmark = pytest.mark.django_db(transaction=True)  # the job is sent on commit


@pytest.fixture(autouse=True)
def media(tmp_path: Path, settings) -> Path:  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path


def test_print_report_writes_the_board_sheets_of_a_round(tmp_path: Path) -> None:
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=1)
    out = tmp_path / "fulls.pdf"
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command("print_report", "board-sheets", championship.slug, "--round", "2",
                 "--copies", "3", "-o", str(out), stdout=stdout, stderr=stderr)
    texts = page_texts(out.read_bytes())
    assert len(texts) == 2 * 3
    board = Board.objects.get(championship=championship, number=3)
    deal = Deal.from_json(board.deal)
    south = " ".join(str(c.rank) for c in deal[Seat.S] if c.suit.value == "B")
    # A long suit wraps onto a second line of its hand: compare with the lines joined.
    words = " ".join(texts[0].split())
    assert "Tauler 3" in texts[0] and (not south or south in words)
    assert "100%" in stderr.getvalue()
    assert str(out) in stdout.getvalue()
    assert PrintJob.objects.get().status == PrintJob.Status.DONE


def test_print_report_refuses_board_sheets_before_the_boards_are_generated(
    tmp_path: Path,
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, generate=False)
    with pytest.raises(CommandError) as refused:
        call_command("print_report", "board-sheets", championship.slug, "--round", "1",
                     "-o", str(tmp_path / "x.pdf"), stdout=io.StringIO(), stderr=io.StringIO())
    # One line with the reason; nothing queued, nothing written.
    assert str(refused.value) == ("Fulls de mans: Els taulers de la ronda 1 encara no s'han "
                                  "generat: genereu-los primer.")
    assert not (tmp_path / "x.pdf").exists()
    assert not PrintJob.objects.exists()


@pytest.mark.parametrize("kind", ["guide-cards", "table-cards", "round-pack", "entry-forms"])
def test_print_report_refuses_what_shows_the_seating_before_any_draw(
    tmp_path: Path, kind: str,
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, drawn_rounds=0)
    args = ["--round", "1"] if kind != "guide-cards" else []
    with pytest.raises(CommandError, match="sortejada") as refused:
        call_command("print_report", kind, championship.slug, *args,
                     "-o", str(tmp_path / "x.pdf"), stdout=io.StringIO(), stderr=io.StringIO())
    assert "\n" not in str(refused.value)
    assert not PrintJob.objects.exists() and not (tmp_path / "x.pdf").exists()


def _count(texts: list[str], needle: str) -> int:
    return sum(" ".join(text.split()).count(needle) for text in texts)


@pytest.mark.parametrize("pairs", [4, 7])
def test_print_report_round_pack_holds_everything_the_round_needs(
    tmp_path: Path, pairs: int,
) -> None:
    championship = build_championship(pairs=pairs, rounds=2, boards_per_round=3,
                                      drawn_rounds=1)
    tables = Seating.objects.filter(round__championship=championship,
                                    round__number=1).count()
    boards = Board.objects.filter(championship=championship, round__number=1).count()
    assert tables == pairs // 2 and boards == 3
    out = tmp_path / "ronda-1.pdf"
    call_command("print_report", "round-pack", championship.slug, "--round", "1",
                 "-o", str(out), stdout=io.StringIO(), stderr=io.StringIO())
    texts = page_texts(out.read_bytes())
    # Board sheets: one copy of each board per table ("Còpia 2 de 3"), then one entry
    # form and one table card per table.
    sheets = [t for t in texts if "Reparteix:" in " ".join(t.split())]
    assert len(sheets) == boards * tables
    for board in Board.objects.filter(championship=championship, round__number=1):
        assert _count(sheets, f"Tauler {board.number}") == tables
    if tables > 1:
        assert _count(sheets, f"Còpia {tables} de {tables}") == boards
    assert _count(texts, "Acta de taula · Ronda 1 · Taula") == tables
    cards = [t for t in texts if "Rètols" not in t and "Taulers 1-3" in " ".join(t.split())]
    assert len(cards) == tables
    assert len(texts) == boards * tables + 2 * tables
    seating = Seating.objects.filter(round__championship=championship, round__number=1
                                     ).select_related("table", "ns_pair", "ew_pair").first()
    assert seating is not None
    card = cards[seating.table.number - 1]
    assert f"Taula {seating.table.number}" in card
    assert f"Parella {seating.ns_pair.number}" in card and seating.ns_pair.player1.name in card
    job = PrintJob.objects.get()
    assert job.kind == "round-pack" and job.copies == tables
    assert text_outside_page(out.read_bytes()) == []


def test_print_report_refuses_an_unknown_championship(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no championship"):
        call_command("print_report", "standings", "no-such", "-o", str(tmp_path / "x.pdf"))


def test_print_report_prints_in_the_language_asked(tmp_path: Path) -> None:
    championship = build_championship(pairs=4, rounds=2, boards_per_round=2, drawn_rounds=2,
                                      played_rounds=1)
    out = tmp_path / "standings.pdf"
    call_command("print_report", "standings", championship.slug, "--language", "en",
                 "--timeout", "60", "-o", str(out), stdout=io.StringIO(), stderr=io.StringIO())
    text = " ".join(page_texts(out.read_bytes()))
    assert "Standings" in text and "Rank" in text and "Classificació" not in text
    assert PrintJob.objects.get().language == "en"
    # Without --language: the site's (Catalan), another job.
    call_command("print_report", "standings", championship.slug, "--timeout", "60",
                 "-o", str(out), stdout=io.StringIO(), stderr=io.StringIO())
    text = " ".join(page_texts(out.read_bytes()))
    assert "Classificació" in text and "Posició" in text and "Standings" not in text
    assert sorted(PrintJob.objects.values_list("language", flat=True)) == ["ca", "en"]


def test_print_report_refuses_a_language_the_site_does_not_have(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="invalid choice: 'fr'"):
        call_command("print_report", "standings", "any", "--language", "fr",
                     "-o", str(tmp_path / "x.pdf"))
