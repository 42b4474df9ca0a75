"""``python manage.py print_report KIND SLUG [--round N] [--copies N] [--per-page 1|4]
[--language ca|es|en] -o FILE.pdf``

``print_report round-pack SLUG --round 1 -o r1.pdf``: everything round 1 needs, one
PDF (board sheets one per table, entry forms, table cards; for a classic championship
the pairings, table cards and score sheets). A document that cannot be made yet (no
round drawn, boards not generated) or that the championship's format never prints
(board sheets of a classic championship, score sheets of a duplicate one) is refused
in one line with the reason.

Queues the same print job the organiser's page queues (``reports.services``), shows its
progress, waits for it and writes the PDF to FILE. Without a broker the job runs
in-process; with ``CELERY_BROKER_URL`` a worker runs it and this command polls the row.
Exit status 1 with the job's error when it fails (or on a refused request). The output
path is checked before the job is queued (an existing folder, writable, not a folder
itself), so a typo costs nothing. The document is in one language, ``--language``
(default: the site's, ``LANGUAGE_CODE``). In-process (eager) runs keep Celery's own log lines
("No hostname was supplied", "Task ... succeeded") out of the command's output.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournaments.models import Championship, PrintJob
from tournaments.reports import services
from tournaments.reports.documents import Kind

#: Loggers that narrate an in-process task run: a worker's business, noise in a command.
CELERY_CHATTER = ("celery.app.trace", "kombu.connection", "celery.backends")


def output_problem(output: Path) -> str | None:
    """Why the PDF could not be written to ``output``, or ``None`` when it can."""
    if output.is_dir():
        return f"is a folder; give a file name, e.g. {output / 'report.pdf'}"
    folder = output.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK) or (output.exists() and not os.access(output, os.W_OK)):
        return "cannot write there (permission denied)"
    return None


@contextlib.contextmanager
def quiet_eager_celery() -> Iterator[None]:
    """Silence CELERY_CHATTER below errors while tasks run in-process (no broker)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        yield
        return
    loggers = [logging.getLogger(name) for name in CELERY_CHATTER]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


class Command(BaseCommand):
    help = ("Print a report (board sheets, entry forms, table cards, the round pack, "
            "standings, travellers, score cards, guide cards; a classic championship's "
            "pairings and score sheets).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=[k.value for k in Kind])
        parser.add_argument("slug", help="the championship's slug")
        parser.add_argument("--round", type=int, default=0, dest="round_number",
                            help="board sheets, entry forms, table cards, round pack, "
                                 "pairings, score sheets: the round (required); standings "
                                 "and score cards: after that round; travellers: its "
                                 "boards; guide cards: its seating")
        parser.add_argument("--copies", type=int, default=None,
                            help="board sheets, round pack: copies of each board "
                                 "(default: one per table of the round)")
        parser.add_argument("--per-page", type=int, default=1, choices=[1, 4],
                            help="board sheets: boards per page")
        parser.add_argument("--language", choices=[code for code, _name in settings.LANGUAGES],
                            default=settings.LANGUAGE_CODE,
                            help="the document's language (default: the site's, "
                                 f"{settings.LANGUAGE_CODE})")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")
        parser.add_argument("--timeout", type=float, default=600.0,
                            help="seconds to wait for the job (default 600)")

    def handle(self, *args: Any, **options: Any) -> None:
        output = Path(options["output"])
        problem = output_problem(output)
        if problem is not None:
            raise CommandError(f"{output}: {problem}; nothing printed")
        # Its refusals (no round drawn, boards not generated...) in the document's language.
        with quiet_eager_celery(), translation.override(options["language"]):
            self._print(output, options)

    def _print(self, output: Path, options: dict[str, Any]) -> None:
        try:
            championship = Championship.objects.get(slug=options["slug"])
        except Championship.DoesNotExist:
            raise CommandError(f"no championship with slug {options['slug']!r}") from None
        try:
            job, created = services.print_job_request(
                championship=championship,
                kind=options["kind"],
                round_number=options["round_number"],
                copies=options["copies"],
                per_page=options["per_page"],
                acting_user=None,
                language=options["language"],
            )
        except services.PrintJobError as exc:
            raise CommandError(str(exc)) from None
        self.stderr.write(
            f"job {job.pk} {'queued' if created else 'already queued, reused'}"
        )
        deadline = time.monotonic() + options["timeout"]
        shown = -1
        while True:
            job.refresh_from_db()
            if job.progress != shown:
                shown = job.progress
                self.stderr.write(f"\r{job.get_status_display()} {job.progress:3d}%", ending="")
            if job.status == PrintJob.Status.DONE:
                break
            if job.status == PrintJob.Status.FAILED:
                self.stderr.write("")
                raise CommandError(f"job {job.pk} failed: {job.error}")
            if time.monotonic() > deadline:
                self.stderr.write("")
                raise CommandError(
                    f"job {job.pk} still {job.status} after {options['timeout']:.0f} s "
                    "(is a worker running? celery -A config worker)"
                )
            time.sleep(0.2)
        self.stderr.write("")
        try:
            with job.file.open("rb") as source:
                output.write_bytes(source.read())
        except OSError as exc:  # the folder changed while the job ran
            raise CommandError(
                f"{output}: cannot write ({exc.strerror}); the PDF is kept as job {job.pk}"
            ) from None
        self.stdout.write(f"{output} ({output.stat().st_size} bytes)")
