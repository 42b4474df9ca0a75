"""``python manage.py export_championship SLUG [-o FILE]``: the interchange file with every
score and the standings (docs/file-format.md); standard output when ``-o`` is absent.

A championship whose file would not import back (past the file's limits) is refused with
each problem by JSON path, and nothing is written."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import InterchangeError
from scoring.interchange import dumps
from tournaments.models import Championship
from tournaments.services.interchange import championship_export


class Command(BaseCommand):
    help = "Export a championship as an interchange file (docs/file-format.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            championship = Championship.objects.get(slug=options["slug"])
        except Championship.DoesNotExist:
            raise CommandError(f"no championship with slug {options['slug']!r}") from None
        try:
            text = dumps(championship_export(championship))
        except InterchangeError as exc:
            raise CommandError(
                f"{options['slug']}: its file would not import back, nothing exported:\n  "
                + "\n  ".join(exc.problems)
            ) from None
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CommandError(f"{options['output']}: cannot write ({exc.strerror})") \
                    from None
        else:
            self.stdout.write(text, ending="")
