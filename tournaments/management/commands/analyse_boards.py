"""``python manage.py analyse_boards SLUG [--round N] [--force] [--budget SECONDS]``

Computes the double-dummy tables of a championship's boards (of round N only with
``--round``) that have none yet or whose table is stale, through the same service as the
job queued when a round closes (``services.boards_analyse``): for an imported
championship, a site without a Celery worker, or rounds closed while the broker was
down. ``--force`` computes every one again; ``--budget`` starts no board after that many
seconds (run it again to go on). Prints each board's table as it is stored. About 10 s
per board with the compiled solver (``engine.dd.core_available()``); without it a whole
deal takes minutes per declaration, so the command says so first.

Nothing here shows a table to anyone: the pages and documents show it only where they
show the deal (docs/decisions.md "Double-dummy analysis").
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.dd import core_available
from tournaments import services
from tournaments.models import BoardAnalysis, Championship
from tournaments.services.analysis import TRUMP_KEYS


def table_line(analysis: BoardAnalysis) -> str:
    """``O 31 · C 22 · E 34 · B 38 · botifarra 38 (par E: NS 34)``: NS's points."""
    cells = " · ".join(f"{key} {analysis.table[key]}" for key in TRUMP_KEYS)
    par = analysis.par
    return f"{cells} (par {par['trump']}: NS {par['ns_points']})"


class Command(BaseCommand):
    help = "Compute the double-dummy tables of a championship's boards (missing or stale)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the championship's slug")
        parser.add_argument("--round", type=int, default=None, dest="round_number",
                            help="only the boards of this round")
        parser.add_argument("--force", action="store_true",
                            help="compute every table again, current or not")
        parser.add_argument("--budget", type=float, default=None,
                            help="start no board after this many seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        championship = Championship.objects.filter(slug=slug).first()
        if championship is None:
            raise CommandError(f"no championship with the slug {slug!r}")
        budget = options["budget"]
        if budget is not None and not budget >= 0:  # NaN too: no comparison is true
            raise CommandError("--budget must be 0 or more seconds")
        if not core_available():
            self.stderr.write("The compiled double-dummy solver is not built (pip install "
                              "-e .): the Python solver takes minutes per declaration.")

        def progress(number: int, analysis: BoardAnalysis | None) -> None:
            if analysis is None:
                self.stdout.write(f"  board {number}: changed while it was analysed, left")
            else:
                self.stdout.write(f"  board {number}: {table_line(analysis)}, "
                                  f"{analysis.seconds:.1f} s")

        try:
            run = services.boards_analyse(
                championship=championship, round_number=options["round_number"],
                force=options["force"], budget=budget, on_board=progress,
            )
        except ValueError as exc:
            raise CommandError(f"{slug}: {exc}") from exc
        summary = f"{len(run.computed)} boards analysed in {run.seconds:.1f} s"
        if run.current:
            summary += f", {len(run.current)} already current"
        if run.without_deal:
            summary += f", {len(run.without_deal)} without a deal"
        self.stdout.write(self.style.SUCCESS(summary))
        if run.left:
            self.stdout.write(
                f"Left for another run: boards {', '.join(map(str, run.left))}."
            )
