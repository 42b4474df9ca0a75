"""``python manage.py import_championship FILE.json``: prints the new championship's slug.

A bad file is refused as a whole: every problem with its JSON path, a non-zero exit, no
traceback, nothing written (championship-json.md).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import InterchangeError
from tournaments.interchange import championship_import


class Command(BaseCommand):
    help = "Import a championship interchange file (championship-json.md); prints its slug."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .json file ('-' for standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_json(options["file"])
        try:
            championship = championship_import(data)
        except InterchangeError as exc:
            raise CommandError(
                f"{options['file']}: refused, nothing imported:\n  " + "\n  ".join(exc.problems)
            ) from None
        self.stdout.write(championship.slug)


def read_json(path: str) -> Any:
    """The parsed JSON of ``path`` (``-``: stdin); a clean CommandError otherwise."""
    import sys

    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise CommandError(f"{path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
