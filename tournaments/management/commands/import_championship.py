"""``python manage.py import_championship FILE.json``: prints the new championship's slug.

A file whose championship name another championship already has is imported as
``Name (2)`` (the next free number), and the command says so on standard error (standard
output stays the slug alone, for scripts).

A bad file is refused as a whole: every problem with its JSON path, a non-zero exit, no
traceback, nothing written (docs/file-format.md). That includes a file too large, nested
too deep, with a repeated key, or with a value the database could not hold
(``scoring.interchange`` limits, then the model fields' own).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring import InterchangeError
from scoring.interchange import DocumentReadError
from scoring.interchange import read_json as read_document
from tournaments.services.interchange import championship_import


class Command(BaseCommand):
    help = "Import a championship interchange file (docs/file-format.md); prints its slug."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the .json file ('-' for standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_json(options["file"])
        try:
            imported = championship_import(data=data, acting_user=None)
        except InterchangeError as exc:
            raise CommandError(
                f"{options['file']}: refused, nothing imported:\n  " + "\n  ".join(exc.problems)
            ) from None
        if imported.renamed_from is not None:
            self.stderr.write(
                f"A championship named {imported.renamed_from!r} already exists: "
                f"imported as {imported.championship.name!r}."
            )
        self.stdout.write(imported.championship.slug)


def read_json(path: str) -> Any:
    """The parsed JSON of ``path`` (``-``: stdin); a clean CommandError otherwise (cannot
    read it, not UTF-8, not JSON with line and column, too large, nested too deep, a
    repeated key by JSON path: ``scoring.interchange.read_json``)."""
    try:
        return read_document(path)
    except DocumentReadError as exc:
        raise CommandError(f"{path}: " + "\n  ".join(exc.problems)) from None
