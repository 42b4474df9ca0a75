"""``python -m scoring FILE.json``: score a championship interchange file, no database.

Reads the document (``-`` for stdin), checks it (championship-json.md), scores it, and
writes the same document with everything "Export adds" to stdout. A bad file (unreadable,
not JSON, or breaking the spec) is refused with each problem on stderr, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scoring.championship import score_championship
from scoring.errors import InterchangeError, ResultError
from scoring.interchange import dump, load

EXIT_BAD_FILE = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score a championship interchange file (botifarra-duplicate/1) and "
        "print it with every hand score, comparative points and the standings.",
    )
    parser.add_argument("file", help="the championship JSON file, or - for stdin")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: cannot read: {exc}", file=sys.stderr)
        return EXIT_BAD_FILE
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"{args.file}: not JSON: {exc}", file=sys.stderr)
        return EXIT_BAD_FILE
    try:
        doc = load(data)
        scores = score_championship(doc.rules, doc.results())
    except InterchangeError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_FILE
    except ResultError as exc:  # load() checks what scoring needs; kept as a safety net
        print(str(exc), file=sys.stderr)
        return EXIT_BAD_FILE
    json.dump(dump(doc, scores), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
