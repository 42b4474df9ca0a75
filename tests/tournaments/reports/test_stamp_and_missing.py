"""Every PDF says when it was made and from which results version; a results document
that leaves boards out says which and why."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.factories import build_championship
from tests.tournaments.reports.pdfcheck import page_texts
from tournaments import services
from tournaments.models import Board, Championship, Result, Seating
from tournaments.reports import build
from tournaments.reports.documents import Kind
from tournaments.reports.render import render


@pytest.fixture
def played(db: None) -> Championship:
    """8 pairs (4 tables), 3 rounds of 2 boards; rounds 1-2 played, round 3 drawn only."""
    return build_championship(pairs=8, rounds=3, boards_per_round=2, drawn_rounds=3,
                              played_rounds=2)


def _text(data: bytes) -> str:
    return " ".join(" ".join(page_texts(data)).split())


def test_standings_pdf_prints_the_results_version_and_the_time_it_was_made(played) -> None:  # type: ignore[no-untyped-def]
    played.refresh_from_db()
    version = played.results_version
    assert version > 0
    before = timezone.localtime()
    document = build.build(played, Kind.STANDINGS, language="ca")
    text = _text(render(document))
    assert f"versió dels resultats {version}" in text
    made = re.search(r"Fet el (\d\d)/(\d\d)/(\d{4}) (\d\d):(\d\d)", text)
    assert made is not None, text[-400:]
    day, month, year, hour, minute = (int(g) for g in made.groups())
    printed = before.replace(year=year, month=month, day=day, hour=hour, minute=minute,
                             second=0, microsecond=0)
    assert abs((printed - before.replace(second=0, microsecond=0)).total_seconds()) <= 60


def test_the_stamp_follows_the_document_language(played) -> None:  # type: ignore[no-untyped-def]
    played.refresh_from_db()
    text = _text(render(build.build(played, Kind.STANDINGS, language="en")))
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", text)
    assert str(played.results_version) in text


@pytest.mark.parametrize("kind", [k for k in Kind if k.serves(classic=False)])
def test_every_kind_of_document_carries_the_stamp(played, kind: Kind) -> None:  # type: ignore[no-untyped-def]
    played.refresh_from_db()
    document = build.build(played, kind, round_number=1, language="ca")
    texts = page_texts(render(document))
    for page in texts:
        assert f"versió dels resultats {played.results_version}" in " ".join(page.split())


def test_a_mid_round_travellers_pdf_names_the_hidden_boards_and_why(played) -> None:  # type: ignore[no-untyped-def]
    # Round 2 (boards 3 and 4): one table has not played either board yet.
    Result.objects.filter(board__championship=played, board__number__in=(3, 4),
                          seating__table__number=1).delete()
    played.refresh_from_db()
    document = build.build(played, Kind.TRAVELLERS, language="ca")
    assert [t.board for t in document.travellers] == [1, 2]
    text = _text(render(document))
    # Round 3 is drawn and nobody has played it: its boards are named too.
    assert "Falten els taulers 3-6 (encara no s'han jugat a totes les taules)" in text
    # Only round 1's travellers: nothing of that round is left out.
    round_one = _text(render(build.build(played, Kind.TRAVELLERS, round_number=1)))
    assert "Falt" not in round_one
    standings = _text(render(build.build(played, Kind.STANDINGS, round_number=2)))
    assert "Falten els taulers 3, 4 (" in standings
    cards = _text(render(build.build(played, Kind.SCORE_CARDS)))
    assert "Falten els taulers 3-6" in cards


def test_one_hidden_board_is_named_in_the_singular(played) -> None:  # type: ignore[no-untyped-def]
    Result.objects.filter(board__championship=played, board__number=4,
                          seating__table__number=2).delete()
    text = _text(render(build.build(played, Kind.TRAVELLERS, round_number=2)))
    assert "Falta el tauler 4 (encara no s'ha jugat a totes les taules)" in text


def test_a_complete_travellers_pdf_says_nothing_is_missing(played) -> None:  # type: ignore[no-untyped-def]
    """Rounds 1-2 complete: their travellers leave nothing out; the whole championship's
    name round 3's boards (drawn, not played), whether or not a table has played one."""
    for number in (1, 2):
        document = build.build(played, Kind.TRAVELLERS, round_number=number, language="ca")
        assert document.header.missing == ""
        assert "Falt" not in _text(render(document))
    before = build.build(played, Kind.TRAVELLERS, language="ca").header.missing
    assert before == "Falten els taulers 5, 6 (encara no s'han jugat a totes les taules)"
    seating = Seating.objects.filter(round__championship=played, round__number=3).first()
    board = Board.objects.get(championship=played, number=5)
    services.result_record(seating=seating, board=board, trump="O", ns_points_taken=40,
                           expected_version=None, acting_user=None)
    played.refresh_from_db()
    assert build.build(played, Kind.TRAVELLERS, language="ca").header.missing == before


def test_board_list_joins_runs() -> None:
    assert build.board_list([14, 13]) == "13, 14"
    assert build.board_list([13, 14, 15, 16, 20, 13]) == "13-16, 20"
    assert build.board_list([]) == ""


@pytest.fixture
def media(tmp_path, settings):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def test_a_print_job_prints_the_results_version_it_stores(played, media) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.storage import default_storage

    from tournaments.reports import services as jobs
    from tournaments.services.common import bump_results_version

    stale = played.results_version
    bump_results_version(played.pk)  # the object in hand is now out of date
    job, _created = jobs.print_job_request(championship=played, kind="standings",
                                           acting_user=None)
    job = jobs.print_job_run(job_id=job.pk)
    assert job is not None and job.status == job.Status.DONE
    assert job.results_state == jobs.results_state(played) != str(stale)
    text = _text(default_storage.open(job.file.name).read())
    assert f"versió dels resultats {job.results_state}" in text
