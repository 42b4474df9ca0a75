"""``python manage.py export_championship SLUG [-o FILE]``: the interchange file with every
score and the standings (championship-json.md); standard output when ``-o`` is absent."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Championship
from tournaments.services.interchange import championship_export


class Command(BaseCommand):
    help = "Export a championship as an interchange file (championship-json.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            championship = Championship.objects.get(slug=options["slug"])
        except Championship.DoesNotExist:
            raise CommandError(f"no championship with slug {options['slug']!r}") from None
        text = json.dumps(championship_export(championship), ensure_ascii=False, indent=2)
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as fh:
                    fh.write(text + "\n")
            except OSError as exc:
                raise CommandError(f"{options['output']}: cannot write ({exc.strerror})") \
                    from None
        else:
            self.stdout.write(text)
