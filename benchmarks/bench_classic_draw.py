"""A classic championship's Swiss draw: round 5 of 200 pairs (and 201: one bye) after 4
played rounds, ranked by games won; goal: a round drawn in under 0.3 s.

Run from the repository root:

    .venv/bin/python benchmarks/bench_classic_draw.py [--repeat R]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botifarra_perf \\
        .venv/bin/python benchmarks/bench_classic_draw.py --db     # + services.round_draw

Pure (no database): rounds 1-4 are drawn with ``scoring.movement.draw_swiss`` and given
seeded games (finals valid under the default classic rules: a pair at 101-130 and the
other below 101, or both below on deals or time, 2 % level), then round 5 is timed: the
ranks from ``scoring.classic.classic_standings`` over the 4 rounds, then
``draw_swiss`` with the history of the 4 rounds. Prints the best and median of R runs
and each part.

``--db`` also builds a classic championship of 200 pairs on the database of
``DATABASE_URL`` through the services (``championship_create(format="classic")``,
``round_draw`` and ``game_record`` for every table of rounds 1-4, each round closed) and
times ``services.round_draw`` of round 5, everything it does (the locks, the field, the
standings read from the games, the matching, the seatings and the audit row), each run
rolled back, after one untimed draw. The championship is deleted afterwards. Wall
times and this process's CPU (``time.process_time``: less dependent on other jobs; the
database's own CPU is not in it). Record the figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine, timed  # after the path tweak above
from scoring import classic, movement  # after the path tweak above

PLAYED = 4
RULES = classic.ClassicRules()


def final(rng: random.Random) -> classic.Game:
    """A game's final under the default rules, drawn from ``rng``."""
    roll = rng.random()
    if roll < 0.02:
        level = rng.randrange(20, 100)
        return classic.Game(level, level, 12, classic.EndedBy.DEALS)
    if roll < 0.3:
        winner, loser = rng.randrange(101, 131), rng.randrange(0, 101)
        ended, deals = classic.EndedBy.TARGET, rng.randrange(5, 13)
    else:
        winner, loser = rng.randrange(30, 101), rng.randrange(0, 100)
        loser = min(loser, winner - 1)
        ended, deals = rng.choice(((classic.EndedBy.DEALS, 12),
                                   (classic.EndedBy.TIME, rng.randrange(8, 12))))
    return (classic.Game(winner, loser, deals, ended) if rng.random() < 0.5
            else classic.Game(loser, winner, deals, ended))


def ranks_of(games: list[classic.PlayedGame], byes: list[tuple[int, int]]) -> dict[int, int]:
    rows = classic.classic_standings(games, RULES, byes=byes)
    return {s.pair: s.rank for s in rows if s.has_score}


def pure_field(pairs: int, seed: int) -> tuple[list[int], list[movement.Draw],
                                              list[classic.PlayedGame], list[tuple[int, int]]]:
    """Rounds 1..4 drawn Swiss and played: the field, the draws, the games, the byes."""
    rng = random.Random(seed)
    field = list(range(1, pairs + 1))
    draws: list[movement.Draw] = []
    games: list[classic.PlayedGame] = []
    byes: list[tuple[int, int]] = []
    for r in range(1, PLAYED + 1):
        d = movement.draw_swiss(field, round=r, seed=seed + r, ranks=ranks_of(games, byes),
                                history=movement.History.of(draws))
        assert not d.rematches
        draws.append(d)
        games += [classic.PlayedGame(r, t.ns, t.ew, final(rng)) for t in d.tables]
        byes += [(r, p) for p in d.byes]
    return field, draws, games, byes


def run_pure(pairs: int, repeat: int) -> None:
    field, draws, games, byes = pure_field(pairs, seed=pairs)
    history = movement.History.of(draws)
    parts: dict[str, list[float]] = {"ranks": [], "draw_swiss": []}

    def round_5() -> movement.Draw:
        t0 = time.perf_counter()
        ranks = ranks_of(games, byes)
        t1 = time.perf_counter()
        d = movement.draw_swiss(field, round=PLAYED + 1, seed=5, ranks=ranks, history=history)
        parts["ranks"].append(t1 - t0)
        parts["draw_swiss"].append(time.perf_counter() - t1)
        return d

    drawn = round_5()
    assert not drawn.rematches and len(drawn.byes) == pairs % 2
    cpu = time.process_time()
    best, median = timed(round_5, repeat)
    cpu = (time.process_time() - cpu) / repeat
    print(f"pure, {pairs} pairs, round 5 after 4 ({len(games)} games): best "
          f"{best * 1000:.0f} ms, median {median * 1000:.0f} ms, CPU {cpu * 1000:.0f} ms "
          f"a round (ranks median "
          f"{statistics.median(parts['ranks']) * 1000:.1f} ms, draw_swiss median "
          f"{statistics.median(parts['draw_swiss']) * 1000:.0f} ms)")


def run_db(pairs: int, repeat: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection, transaction

    from tournaments import services
    from tournaments.models import Round, Seating

    class Rollback(Exception):
        pass

    rng = random.Random(pairs)
    started = time.perf_counter()
    championship = services.championship_create(
        name=f"Bench classic draw {pairs}", date=datetime.date(2026, 12, 6),
        format="classic", acting_user=None,
    )
    text = "\n".join(f"{n};Jugador {n}A;Jugador {n}B" for n in range(1, pairs + 1))
    services.pairs_import_csv(championship=championship, text=text, acting_user=None)
    rounds = services.rounds_setup(championship=championship, rounds=PLAYED + 1,
                                   boards_per_round=0, acting_user=None)
    for rnd in rounds[:PLAYED]:
        services.round_draw(round=rnd, seed=rnd.number, acting_user=None)
        for seating in Seating.objects.filter(round=rnd):
            g = final(rng)
            services.game_record(seating=seating, ns_points=g.ns_points,
                                 ew_points=g.ew_points, deals=g.deals,
                                 ended_by=g.ended_by.value, expected_version=None,
                                 acting_user=None)
        services.round_close(round=rnd, acting_user=None, analyse=False)
    print(f"db ({connection.vendor}), {pairs} pairs: 4 rounds drawn and "
          f"{pairs // 2 * PLAYED} games entered in {time.perf_counter() - started:.1f} s")
    last = Round.objects.get(championship=championship, number=PLAYED + 1)
    tables: list[int] = []

    def draw_and_roll_back() -> None:
        try:
            with transaction.atomic():
                tables.append(len(services.round_draw(round=last, seed=5, acting_user=None)))
                raise Rollback
        except Rollback:
            pass

    draw_and_roll_back()  # the first draw of a process (imports, prepared statements)
    timings: list[float] = []
    cpu = time.process_time()
    for _ in range(repeat):
        t0 = time.perf_counter()
        draw_and_roll_back()
        timings.append(time.perf_counter() - t0)
    cpu = (time.process_time() - cpu) / repeat
    assert set(tables) == {pairs // 2}
    print(f"db services.round_draw, {pairs} pairs, round 5 after 4: best "
          f"{min(timings) * 1000:.0f} ms, median {statistics.median(timings) * 1000:.0f} ms, "
          f"CPU of this process {cpu * 1000:.0f} ms a draw")
    services.championship_delete(championship=championship, confirm_slug=championship.slug,
                                 acting_user=None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--db", action="store_true",
                        help="also services.round_draw on DATABASE_URL's database")
    args = parser.parse_args()
    print(machine())
    runs: list[Callable[[int, int], None]] = [run_pure] + ([run_db] if args.db else [])
    for run in runs:
        for pairs in (200, 201):
            run(pairs, args.repeat)


if __name__ == "__main__":
    main()
