"""Import a 200,000-result championship file into the database and time it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_perf \\
        .venv/bin/python benchmarks/bench_import.py            # 200 pairs, 200,000 results
    .venv/bin/python benchmarks/bench_import.py --results 20000 --repeat 3
    .venv/bin/python benchmarks/bench_import.py --write-only big.json   # just the file

The file: ``--pairs`` pairs (200) at ``pairs / 2`` tables (100), every table plays every
board of a round (``--boards-per-round``, 20), the EW pairs move one table up each round
(a Mitchell movement), as many rounds as ``--results`` needs (200,000 / 100 tables / 20
boards = 100 rounds, 2,000 boards). Results are drawn from a seeded generator: every
trump, delegation, contro, recontro, a few infractions, adjusted scores and notes, all
valid (docs/file-format.md "A result"); boards carry no deal. The file stays inside the
format's limits (200,000 results, numbers up to 9999, 50 MB).

Each run is ``manage.py import_championship FILE`` in a fresh process (wall time and peak
memory of that process), and the baseline of the same run is reading and checking the
same file with no database (``scoring.interchange.read_json`` + ``load``, in this process):
the ratio says what the database writes cost on top of the checks. Afterwards the rows
are counted; the imported championships stay (``--delete`` removes them through
``championship_delete``, which takes minutes at this size: a benchmark database of its
own is quicker to drop).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from common import machine  # noqa: E402

TRUMPS = ("O", "C", "E", "B", "botifarra")
ADJUSTED = ("average", "average_plus", "average_minus")


def build_document(
    *, pairs: int = 200, results: int = 200_000, boards_per_round: int = 20, seed: int = 1
) -> dict[str, Any]:
    """An interchange document (``dict``) with ``results`` results: ``pairs`` pairs (even),
    a Mitchell movement at ``pairs // 2`` tables, ``boards_per_round`` boards a round, the
    last round cut short when ``results`` is not a multiple. Raises ``ValueError`` when it
    would need more than 9999 rounds or boards."""
    if pairs < 2 or pairs % 2:
        raise ValueError("pairs: an even number, at least 2")
    rng = random.Random(seed)
    tables = pairs // 2
    boards = -(-results // tables)
    rounds = -(-boards // boards_per_round)
    if boards > 9999 or rounds > 9999:
        raise ValueError(f"{boards} boards in {rounds} rounds: past the file's 9999")
    players = [{"id": f"p{n}", "name": f"Jugador {n}"} for n in range(1, 2 * pairs + 1)]
    pair_rows = [{"number": n, "players": [f"p{2 * n - 1}", f"p{2 * n}"]}
                 for n in range(1, pairs + 1)]
    board_rows = [{"number": b, "round": (b - 1) // boards_per_round + 1}
                  for b in range(1, boards + 1)]
    left = results
    round_rows = []
    for r in range(1, rounds + 1):
        first = (r - 1) * boards_per_round + 1
        numbers = range(first, min(first + boards_per_round, boards + 1))
        table_rows = []
        for t in range(1, tables + 1):
            ew = tables + (t - 1 + r - 1) % tables + 1
            played = []
            for b in numbers:
                if left == 0:
                    break
                played.append(_result(rng, b))
                left -= 1
            table_rows.append({"number": t, "ns": t, "ew": ew, "results": played})
        round_rows.append({
            "number": r, "closed_at": "2026-11-28T20:00:00+00:00",
            "draw_seed": rng.randrange(2**62), "tables": table_rows,
        })
    return {
        "format": "botifarra-duplicate/1",
        "championship": {
            "name": f"Campionat de prova, {pairs} parelles", "slug": "bench-import",
            "date": "2026-11-28", "venue": "Banc de proves", "status": "finished",
            "boards_per_round": boards_per_round,
        },
        "rules": {"variant": "obligada", "doubling": "duplicate", "method": "proportional",
                  "scale": {"bottom": 1, "top": 2}, "rounding": "none"},
        "players": players,
        "pairs": pair_rows,
        "boards": board_rows,
        "rounds": round_rows,
    }


def _result(rng: random.Random, board: int) -> dict[str, Any]:
    """One valid result of ``board``: mostly played, about 1 % adjusted, 1 % with an
    infraction, 2 % with a note."""
    roll = rng.random()
    if roll < 0.01:
        a = rng.choice(ADJUSTED)
        return {"board": board, "adjusted": {"NS": a, "EW": rng.choice(ADJUSTED)}}
    out: dict[str, Any] = {"board": board, "trump": rng.choice(TRUMPS),
                           "ns_points_taken": rng.randint(0, 72)}
    if rng.random() < 0.3:
        out["delegated"] = True
    if rng.random() < 0.12:
        out["contro"] = True
        if rng.random() < 0.05:
            out["recontro"] = True
    if roll > 0.99:
        out["infraction"] = rng.choice(("NS", "EW"))
    if 0.5 < roll < 0.52:
        out["note"] = "Revisat per l'àrbitre"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--results", type=int, default=200_000)
    parser.add_argument("--boards-per-round", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=1, help="imports to run (1)")
    parser.add_argument("--write-only", metavar="FILE", help="write the file and stop")
    parser.add_argument("--delete", action="store_true",
                        help="delete each imported championship afterwards")
    args = parser.parse_args()

    print(f"{machine()}; load average {os.getloadavg()[0]:.1f} (other jobs share the cores)")
    document = build_document(pairs=args.pairs, results=args.results,
                              boards_per_round=args.boards_per_round)
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    if args.write_only:
        Path(args.write_only).write_text(text, encoding="utf-8")
        print(f"{args.write_only}: {len(text.encode()) / 1e6:.1f} MB, {args.results} results")
        return

    import django

    django.setup()
    from django.db import connection

    from scoring.interchange import load, read_json
    from tournaments.models import AuditEntry, Championship, PairBoard, Result
    from tournaments.services import championship_delete

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "championship.json"
        path.write_text(text, encoding="utf-8")
        size = path.stat().st_size / 1e6
        print(f"file: {size:.1f} MB, {args.pairs} pairs, {args.results} results, "
              f"database {connection.vendor}")

        start = time.perf_counter()
        doc = load(read_json(str(path)))
        check = time.perf_counter() - start
        count = sum(1 for _ in doc.results())
        del doc
        print(f"baseline: read + check (no database), {count} results: {check:.2f} s")

        env = dict(os.environ, PYTHONUNBUFFERED="1")
        for n in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "import_championship", str(path)],
                capture_output=True, text=True, env=env, cwd=ROOT, check=False,
            )
            wall = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if done.returncode != 0:
                sys.exit(f"import failed:\n{done.stderr[-3000:]}")
            slug = done.stdout.strip()
            c = Championship.objects.get(slug=slug)
            rows = (
                Result.objects.filter(board__championship=c).count(),
                PairBoard.objects.filter(board__championship=c).count(),
                AuditEntry.objects.filter(championship=c, action="result.create").count(),
            )
            memory = f"peak {peak / 1024:.0f} MB" if peak > before else "peak not above earlier"
            print(f"import {n + 1}: {wall:.2f} s, {memory} (the command's process), "
                  f"{rows[0]} results, {rows[1]} pair-board rows, {rows[2]} audit rows; "
                  f"{wall / check:.1f}x the baseline; goal under 20 s")
            if rows[0] != count:
                sys.exit(f"lost results: {count} in the file, {rows[0]} stored")
            if args.delete:
                championship_delete(championship=c, confirm_slug=c.slug, acting_user=None)


if __name__ == "__main__":
    main()
