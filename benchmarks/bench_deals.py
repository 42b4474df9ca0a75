"""Deal generation and deal numbers: 1,000 deals (goal: well under a second).

Run from the repository root:  .venv/bin/python benchmarks/bench_deals.py [--deals N] [--repeat R]

Prints the machine (nproc, CPU model, Python) and, for each operation, the best and the
median of R runs over N deals. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine, timed  # after the path tweak above
from engine.generate import (  # after the path tweak above
    DEAL_COUNT,
    deal_commitment,
    generate_deal,
    generate_deal_number,
    rank_deal,
    unrank_deal,
)

SECRET = bytes(range(32))






def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    n, repeat = args.deals, args.repeat

    boards = range(1, n + 1)
    deals = [generate_deal(SECRET, board) for board in boards]
    numbers = [rank_deal(deal) for deal in deals]
    step = DEAL_COUNT // n

    cases: list[tuple[str, Callable[[], object]]] = [
        ("generate_deal", lambda: [generate_deal(SECRET, b) for b in boards]),
        ("generate_deal_number", lambda: [generate_deal_number(SECRET, b) for b in boards]),
        ("rank_deal", lambda: [rank_deal(d) for d in deals]),
        ("unrank_deal", lambda: [unrank_deal(k * step) for k in range(n)]),
        ("generate + rank", lambda: [rank_deal(generate_deal(SECRET, b)) for b in boards]),
        ("deal_commitment", lambda: [deal_commitment(SECRET) for _ in boards]),
    ]
    assert numbers == [generate_deal_number(SECRET, b) for b in boards]

    print(f"machine: {machine()}")
    print(f"{n} items per run, best and median of {repeat} runs")
    print(f"| {'operation':<22} | {'best ms':>9} | {'median ms':>9} | {'us/item':>8} |")
    print(f"|{'-' * 24}|{'-' * 11}|{'-' * 11}|{'-' * 10}|")
    for name, action in cases:
        best, median = timed(action, repeat)
        print(
            f"| {name:<22} | {best * 1e3:>9.1f} | {median * 1e3:>9.1f} | {best / n * 1e6:>8.1f} |"
        )


if __name__ == "__main__":
    main()
