"""``python -m scoring FILE.json``: score a championship interchange file, no database.

Reads the document (``-`` for stdin), checks it (championship-json.md), scores it, and
writes the same document with everything "Export adds" to stdout. A bad file (unreadable,
not JSON, too large or too deeply nested, a repeated key, or breaking the spec) is refused
with each problem on stderr, exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scoring.championship import score_championship
from scoring.errors import InterchangeError, ResultError
from scoring.interchange import DocumentReadError, dump, load, read_json

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
        data = read_json(args.file)
    except DocumentReadError as exc:
        for problem in exc.problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
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
