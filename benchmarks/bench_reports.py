"""Printable documents (goals): board sheets for 40 boards x 25 copies (1,000 pages)
in under 20 s by one worker, and the standings of 200 pairs in under 1 s.

Run from the repository root:  .venv/bin/python benchmarks/bench_reports.py [--repeat R]

Renders plain documents (the part a worker spends its time on; building them is a few
queries) and, for the board sheets, also stores the file the way a job does (temporary
name, fsync, rename). The standings hold the overall table and the table after each of
4 rounds (5 x 200 rows). Prints the machine (nproc, CPU model, Python), the best and the
median of R runs. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine  # after the path tweak above

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from engine.cards import DECK  # after the path tweak above
from engine.deal import Deal
from engine.seats import Seat, dealer, first_leader
from tournaments.reports.documents import (
    BoardSheet,
    BoardSheets,
    Header,
    StandingRow,
    Standings,
    StandingsTable,
)
from tournaments.reports.render import render

HEADER = Header(championship="Campionat de Catalunya de Botifarra per parelles 2026",
                date="2026-11-29", venue="Vilafranca del Penedès",
                rules_summary="obligada · duplicat · proporcional 1-2")




def board_sheets(boards: int, copies: int) -> BoardSheets:
    rng = random.Random(5)
    sheets = []
    for n in range(1, boards + 1):
        cards = list(DECK)
        rng.shuffle(cards)
        deal = Deal.from_hands({s: cards[i * 12 : (i + 1) * 12] for i, s in enumerate(Seat)})
        sheets.append(BoardSheet(board=n, round=1, deal=deal, dealer=dealer(n),
                                 first_leader=first_leader(n)))
    return BoardSheets(header=HEADER, round=1, boards=tuple(sheets), copies=copies)


def standings(pairs: int, rounds: int) -> Standings:
    rng = random.Random(9)
    names = ["Anna Puig", "Jordi Vila", "Núria Ferrer", "Pere Solé", "Montserrat Güell",
             "Francesc Col·lell", "Maria dels Àngels Puigcercós i Vallverdú"]

    def table(through: int | None) -> StandingsTable:
        totals = sorted((rng.uniform(20, 40) for _ in range(pairs)), reverse=True)
        rows = tuple(
            StandingRow(rank=i + 1, pair=i + 1,
                        players=f"{names[i % 7]} – {names[(i + 3) % 7]}", total=t,
                        boards=24, average=t / 24, percentage=(t / 24 - 1) * 100)
            for i, t in enumerate(totals)
        )
        return StandingsTable(title="", through_round=through, rows=rows)

    tables = (table(None), *(table(r) for r in range(1, rounds + 1)))
    return Standings(header=HEADER, tables=tables, progress="2400/2400")


def timed(label: str, repeat: int, run: Callable[[], object]) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    print(f"{label}: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
          f"({repeat} runs)")


def main() -> None:
    import django

    django.setup()
    from tournaments.reports.services import store_atomically  # needs settings

    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", action="store_true",
                        help="also build the 200-pair standings from a database championship "
                             "(a scratch championship is created in DATABASE_URL, then deleted)")
    args = parser.parse_args()
    print(machine())

    sheets = board_sheets(40, 25)
    with tempfile.TemporaryDirectory() as media:
        from django.conf import settings

        settings.MEDIA_ROOT = media

        def sheets_job() -> None:
            data = render(sheets, lambda done, total: None)
            store_atomically("reports/bench.pdf", data)

        timed("board sheets 40 boards x 25 copies (1,000 pages), render + store",
              args.repeat, sheets_job)
    four = BoardSheets(header=HEADER, round=1, boards=sheets.boards, copies=25, per_page=4)
    timed("board sheets 40 x 25, four per page (250 pages), render", args.repeat,
          lambda: render(four))
    table = standings(200, 4)
    timed("standings 200 pairs (overall + after each of 4 rounds), render", args.repeat,
          lambda: render(table))
    overall = Standings(header=HEADER, tables=table.tables[:1], progress=table.progress)
    timed("standings 200 pairs (overall only), render", args.repeat, lambda: render(overall))
    if args.db:
        bench_database(args.repeat)


def bench_database(repeat: int) -> None:
    """200 pairs, 4 rounds of 6 boards all played (2,400 results), through the services."""
    from django.core.management import call_command

    from tests.factories import build_championship
    from tournaments.reports import build

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    championship = build_championship(pairs=200, rounds=4, boards_per_round=6,
                                      drawn_rounds=4, played_rounds=4)
    print(f"(set-up: 200 pairs, 2,400 results in {time.perf_counter() - start:.1f} s)")
    try:
        timed("standings 200 pairs from the database (build: scoring + 5 tables), build only",
              repeat, lambda: build.standings(championship))
        timed("standings 200 pairs from the database, build + render", repeat,
              lambda: render(build.standings(championship)))
        bench_reuse(championship, repeat)
    finally:
        championship.delete()


def bench_reuse(championship: object, repeat: int) -> None:
    """A repeated public request while no result changed: it reuses the done job (the
    results-state digest, three aggregate queries, and one lookup), drawing nothing."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.reports import services

    with tempfile.TemporaryDirectory() as media:
        settings.MEDIA_ROOT = media
        job, _ = services.print_job_request(championship=championship, kind="standings")
        services.print_job_run(job_id=job.pk)  # nothing to do when it already ran eagerly

        def again() -> None:
            reused, created = services.print_job_request(championship=championship,
                                                         kind="standings")
            assert reused.pk == job.pk and not created

        connection.queries_log.clear()  # the set-up filled the log to its cap
        with CaptureQueriesContext(connection) as queries:
            again()
        timed(f"repeated standings request, 2,400 results: reuse of the done job "
              f"({len(queries.captured_queries)} queries, no PDF)", repeat * 5, again)


if __name__ == "__main__":
    main()
