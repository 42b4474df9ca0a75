"""Draw speed: 200 pairs (and 201, one bye a round) over 10 rounds for every method; a
Swiss round's maximum-weight matching on 200 pairs well under a second.

Run from the repository root:  .venv/bin/python benchmarks/bench_movement.py [--repeat R]

Each run draws rounds 1..10 in a row with ``scoring.movement.draw`` (the history of the
rounds before each), Swiss ranked by a seeded random standings each round (the worst
case for the matching: neighbours change every round). Prints the machine and, per
method and field, the best and median of R runs of the 10 rounds and the slowest single
round; checks that no draw holds a rematch and no pair sat out twice. Record the figures
in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine  # after the path tweak above
from scoring import movement  # after the path tweak above

ROUNDS = 10


def run(method: str, pairs: int, seed: int) -> tuple[float, float]:
    """(seconds for the 10 rounds, slowest round) for one run."""
    field = list(range(1, pairs + 1))
    rng = random.Random(seed)
    draws: list[movement.Draw] = []
    slowest = 0.0
    start = time.perf_counter()
    for r in range(1, ROUNDS + 1):
        ranks = {p: rng.randrange(1, pairs + 1) for p in field}
        t0 = time.perf_counter()
        d = movement.draw(method, field, round=r, seed=seed + r,
                          history=movement.History.of(draws), ranks=ranks)
        slowest = max(slowest, time.perf_counter() - t0)
        assert not d.rematches, (method, pairs, r)
        draws.append(d)
    total = time.perf_counter() - start
    byes = Counter(p for d in draws for p in d.byes)
    assert not byes or max(byes.values()) == 1, (method, pairs)
    return total, slowest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(machine())
    for method in ("random", "swiss", "round-robin"):
        for pairs in (200, 201):
            runs = [run(method, pairs, seed) for seed in range(args.repeat)]
            totals = sorted(t for t, _s in runs)
            print(
                f"{method:12} {pairs} pairs x {ROUNDS} rounds: best {totals[0] * 1000:.0f} ms, "
                f"median {totals[len(totals) // 2] * 1000:.0f} ms; slowest round "
                f"{max(s for _t, s in runs) * 1000:.0f} ms"
            )


if __name__ == "__main__":
    main()
