"""``python manage.py verify_deals FILE``: check a published championship file's boards
against its deal secret and commitment (docs/decisions.md 6 and 12).

Prints one line per board (``board 3: ok`` / ``board 3: MISMATCH ...``), then a summary;
exits non-zero when the secret does not match the commitment, a board's deal is not the
one the secret generates, or the file lacks what the check needs.

The file's shape is checked first by ``scoring.interchange.load`` with the secret left
out (with it, the loader would refuse the very mismatches this command reports one by
one): a file that breaks the spec anywhere is refused with each problem by JSON path
(``boards: must be a list, not the number 5``), a non-zero exit and no traceback.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import EngineError
from engine.generate import generate_deal, secret_from_hex, verify_commitment
from scoring import InterchangeError
from scoring.interchange import load
from tournaments.management.commands.import_championship import read_json


class Command(BaseCommand):
    help = "Check a published championship file's boards against its secret and commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        data = read_json(path)
        championship = data.get("championship") if isinstance(data, dict) else None
        if not isinstance(championship, dict):
            raise CommandError(f"{path}: no 'championship' object")
        secret_hex = championship.get("deal_secret")
        commitment = championship.get("deal_commitment")
        if not secret_hex:
            raise CommandError(
                f"{path}: championship.deal_secret is absent: the organiser has not "
                "published it yet, so the boards cannot be checked"
            )
        if not commitment:
            raise CommandError(f"{path}: championship.deal_commitment is absent")
        if not isinstance(secret_hex, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", secret_hex):
            raise CommandError(f"{path}: championship.deal_secret: must be 64 hex digits")
        try:
            secret = secret_from_hex(secret_hex)
        except EngineError as exc:
            raise CommandError(f"{path}: championship.deal_secret: {exc}") from None
        without_secret = {k: v for k, v in championship.items() if k != "deal_secret"}
        try:
            doc = load({**data, "championship": without_secret})
        except InterchangeError as exc:
            raise CommandError(
                f"{path}: not a valid championship file, nothing checked:\n  "
                + "\n  ".join(exc.problems)
            ) from None
        failures = 0
        if verify_commitment(secret, commitment):
            self.stdout.write("commitment: ok (SHA-256 of the secret matches)")
        else:
            failures += 1
            self.stdout.write("commitment: MISMATCH (the secret is not the one committed to)")
        checked = 0
        for board in doc.boards:
            number, deal = board.number, board.deal
            if deal is None:
                self.stdout.write(f"board {number}: no deal in the file, not checked")
                continue
            checked += 1
            expected = generate_deal(secret, number)
            if deal == expected:
                self.stdout.write(f"board {number}: ok")
            else:
                failures += 1
                self.stdout.write(
                    f"board {number}: MISMATCH\n  file:   {deal.to_compact(number)}\n"
                    f"  secret: {expected.to_compact(number)}"
                )
        if failures:
            raise CommandError(f"{path}: {failures} problem(s); {checked} board(s) checked")
        self.stdout.write(f"all {checked} board(s) match the published secret")
