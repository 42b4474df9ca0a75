"""Scoring speed: a full rescore of 200 pairs, 100 tables, 40 boards (4,000
results) under 0.1 s on one core for every method, and one result's incremental rescore
under 5 ms, exact arithmetic included.

Run from the repository root:  .venv/bin/python benchmarks/bench_scoring.py [--repeat R]

The championship: 10 rounds of 4 boards; table t seats pair t NS and pair 100 + (t + r) mod
100 + 1 EW in round r (a Mitchell-like movement), so each board is played at all 100 tables
and each pair plays all 40 boards once. Results are random (seeded): points 0..72, any
trump, contro in about a third, with about 1% infractions and 1% adjustments.
Prints the machine (nproc, CPU model, Python) and, per rules, the best and median of R full
rescores (score_championship, then the standings) and the median and worst of 400
incremental rescores (IncrementalScorer.set_result of one changed result, then standings).
Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine  # after the path tweak above
from engine.seats import Side  # after the path tweak above
from scoring import (
    Adjustment,
    Doubling,
    IncrementalScorer,
    Method,
    Result,
    Rounding,
    ScoringRules,
    Trump,
    score_championship,
)

TABLES, ROUNDS, BOARDS_PER_ROUND = 100, 10, 4

RULES = {
    "proportional 1-2, none": ScoringRules(),
    "proportional 0-100, floor (butinet)": ScoringRules.butinet(),
    "matchpoints 1-2, none": ScoringRules(method=Method.MATCHPOINTS),
    "matchpoints 0-100, floor": ScoringRules(
        method=Method.MATCHPOINTS, bottom=Fraction(0), top=Fraction(100), rounding=Rounding.FLOOR
    ),
    "proportional 1-2, classic doubling": ScoringRules(doubling=Doubling.CLASSIC),
}




def random_result(rng: random.Random, round_: int, table: int, board: int) -> Result:
    ns, ew = table, TABLES + (table + round_) % TABLES + 1
    roll = rng.random()
    contro = rng.random() < 0.33
    recontro = contro and rng.random() < 0.2
    return Result(
        round=round_,
        table=table,
        board=board,
        ns_pair=ns,
        ew_pair=ew,
        trump=rng.choice(list(Trump)),
        ns_points_taken=rng.randint(0, 72),
        contro=contro,
        recontro=recontro,
        sant_vicenc=recontro and rng.random() < 0.2,
        infraction=rng.choice([Side.NS, Side.EW]) if roll < 0.01 else None,
        adjusted=(Adjustment.AVERAGE_PLUS, Adjustment.AVERAGE_MINUS)
        if 0.01 <= roll < 0.02
        else None,
    )


def championship(seed: int = 2026) -> list[Result]:
    rng = random.Random(seed)
    return [
        random_result(rng, round_, table, (round_ - 1) * BOARDS_PER_ROUND + k)
        for round_ in range(1, ROUNDS + 1)
        for table in range(1, TABLES + 1)
        for k in range(1, BOARDS_PER_ROUND + 1)
    ]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--changes", type=int, default=400)
    args = parser.parse_args()
    results = championship()
    pairs = {r.ns_pair for r in results} | {r.ew_pair for r in results}
    boards = {r.board for r in results}
    print(machine())
    print(f"{len(pairs)} pairs, {TABLES} tables, {len(boards)} boards, {len(results)} results")
    for name, rules in RULES.items():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            scores = score_championship(rules, results)
            scores.standings()
            times.append(time.perf_counter() - start)
        full = f"best {ms(min(times))}, median {ms(statistics.median(times))}"

        scorer = IncrementalScorer(rules, results)
        rng = random.Random(7)
        changes = []
        for _ in range(args.changes):
            old = rng.choice(results)
            new = dataclasses.replace(old, ns_points_taken=rng.randint(0, 72))
            start = time.perf_counter()
            scorer.set_result(new)
            scorer.standings()
            changes.append(time.perf_counter() - start)
        # The incremental state must still equal a full rescore.
        assert scorer.results == score_championship(rules, scorer.inputs.values()).results
        incremental = f"median {ms(statistics.median(changes))}, worst {ms(max(changes))}"
        print(f"{name:38} full: {full:36} incremental: {incremental}")
        if rules.method is Method.MATCHPOINTS:
            # A 101st table on the board with the most regular results raises E (Neuberg):
            # every board is rescored.
            counts = Counter(r.board for r in results if r.is_regular)
            fullest = max(counts, key=counts.__getitem__)
            extra = dataclasses.replace(
                next(r for r in results if r.board == fullest),
                table=TABLES + 1,
                ns_pair=2 * TABLES + 1,
                ew_pair=2 * TABLES + 2,
                infraction=None,
                adjusted=None,
            )
            e_times = []
            for _ in range(max(1, args.repeat // 2)):
                start = time.perf_counter()
                scorer.set_result(extra)
                scorer.standings()
                e_times.append(time.perf_counter() - start)
                scorer.remove_result(extra.key)
            print(f"{'':38} a result that changes E: median {ms(statistics.median(e_times))}")


if __name__ == "__main__":
    main()
