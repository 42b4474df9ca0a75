"""``python manage.py circuit_import SLUG FILE...``: past seasons into a circuit.

Each interchange file (docs/file-format.md) becomes a finished championship of the
circuit, its players matched to persons (``services.seasons``): the review is printed
(every uncertain match with its candidates, every new person); ``--dry-run`` stops
there, writing nothing. Without it the proposals are taken (``--choose KEY=ID``, or
``KEY=new``, repeatable, picks another person for a row) and everything is written in
one transaction, run as the system. A bad file: every problem with the file and its
field, a non-zero exit, nothing written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import TournamentError
from tournaments.models import Circuit
from tournaments.services.seasons import (
    NEW_PERSON,
    FileIn,
    SeasonImportError,
    SeasonReview,
    season_import,
    season_review,
)


class Command(BaseCommand):
    help = "Import past championships (interchange files) into a circuit, players matched."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("circuit", help="the circuit's identifier (slug)")
        parser.add_argument("files", nargs="+", help="the .json interchange files")
        parser.add_argument("--dry-run", action="store_true",
                            help="print the review only; write nothing")
        parser.add_argument("--choose", action="append", default=[], metavar="KEY=ID",
                            help="the person of a row of the review (an id, or 'new')")

    def handle(self, *args: Any, **options: Any) -> None:
        circuit = Circuit.objects.filter(slug=options["circuit"]).first()
        if circuit is None:
            raise CommandError(f"no circuit {options['circuit']!r}")
        files = []
        for path in options["files"]:
            try:
                files.append(FileIn(Path(path).name, Path(path).read_bytes()))
            except OSError as exc:
                raise CommandError(f"{path}: {exc.strerror}") from None
        choices: dict[str, int] = {}
        for text in options["choose"]:
            key, _eq, value = text.partition("=")
            if not value or not (value.isdigit() or value == "new"):
                raise CommandError(f"--choose {text!r}: write KEY=ID or KEY=new")
            choices[key] = NEW_PERSON if value == "new" else int(value)
        try:
            review = season_review(circuit=circuit, files=files, acting_user=None)
            self._print(review)
            if options["dry_run"]:
                self.stdout.write("--dry-run: nothing written.")
                return
            made = season_import(circuit=circuit, files=files, choices=choices,
                                 acting_user=None)
        except SeasonImportError as exc:
            raise CommandError("refused, nothing imported:\n  " + "\n  ".join(exc.problems)) \
                from None
        except TournamentError as exc:
            raise CommandError(f"refused, nothing imported: {exc.message}") from None
        for championship in made:
            self.stdout.write(championship.slug)

    def _print(self, review: SeasonReview) -> None:
        for file, doc in review.files:
            self.stdout.write(f"{file}: {doc.name} ({doc.date}), {len(doc.pairs)} pairs")
        self.stdout.write(f"Linked: {len(review.linked)}; uncertain: "
                          f"{len(review.uncertain)}; new persons: {len(review.new)}")
        for row in review.uncertain:
            options = ", ".join(f"{p.pk} {p.name}" for p in row.candidates)
            proposal = "new" if row.proposal == NEW_PERSON else row.proposal
            self.stdout.write(f"  uncertain {row.key} {row.name} ({row.file}): {options}; "
                              f"proposed {proposal}")
        for row in review.new:
            also = f" (new in {row.first_file} too)" if row.first_file else ""
            self.stdout.write(f"  new {row.key} {row.name} ({row.file}){also}")
