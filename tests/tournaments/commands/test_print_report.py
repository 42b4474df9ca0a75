"""``manage.py print_report``: a bad output path is refused before any job is queued, and an
in-process run keeps Celery's log chatter out of the command's output."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.factories import build_championship
from tournaments.management.commands.print_report import CELERY_CHATTER
from tournaments.models import PrintJob

pytestmark = pytest.mark.django_db(transaction=True)  # the job is sent on commit


@pytest.fixture(autouse=True)
def media(tmp_path: Path, settings) -> Path:  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("/nonexistent/dir/o.pdf", "/nonexistent/dir/o.pdf: the folder /nonexistent/dir does "
                                   "not exist; nothing printed"),
        ("{tmp}", "{tmp}: is a folder; give a file name, e.g. {tmp}/report.pdf; nothing printed"),
    ],
    ids=["missing-folder", "a-folder"],
)
def test_a_bad_output_path_is_refused_before_the_job_is_queued(
    tmp_path: Path, output: str, expected: str
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2)
    with pytest.raises(CommandError) as exc:
        call_command("print_report", "standings", championship.slug,
                     "-o", output.format(tmp=tmp_path), stdout=io.StringIO(),
                     stderr=io.StringIO())
    assert str(exc.value) == expected.format(tmp=tmp_path)
    assert PrintJob.objects.count() == 0


def test_an_in_process_run_keeps_celery_chatter_out_of_the_output(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    championship = build_championship(pairs=4, rounds=1, boards_per_round=2, played_rounds=1)
    caplog.set_level(logging.INFO)
    out = tmp_path / "s.pdf"
    stderr = io.StringIO()
    call_command("print_report", "standings", championship.slug, "-o", str(out),
                 stdout=io.StringIO(), stderr=stderr)
    assert out.read_bytes().startswith(b"%PDF")
    chatter = [r.getMessage() for r in caplog.records if r.name.startswith(CELERY_CHATTER)]
    assert chatter == []
    assert stderr.getvalue().splitlines()[0] == f"job {PrintJob.objects.get().pk} queued"
    # the loggers are given back their levels afterwards
    assert all(logging.getLogger(name).level == logging.NOTSET for name in CELERY_CHATTER)
