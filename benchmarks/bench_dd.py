"""The double-dummy solver on whole deals: the compiled core, one process, one core.

Goals: median under 100 ms per deal and declaration, p99 under 2 s, and the five
declarations of a board (dd_table) under 0.5 s median.

Run from the repository root:
  .venv/bin/python benchmarks/bench_dd.py [--deals N] [--backend c|python]

Deals come from generate_deal with a fixed secret (boards 1..N, each with its own dealer
and first leader). Prints the machine, the median, 90th and 99th percentile and the
worst time per deal and declaration, per declaration kind, and the median and worst
dd_table; also the nodes searched. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine  # after the path tweak above
from engine import _ddcore  # after the path tweak above
from engine.dd import DECLARATIONS, double_dummy, resolve_backend
from engine.generate import generate_deal
from engine.seats import dealer


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with ``fraction`` of them at or below."""
    ordered = sorted(values)
    rank = max(1, -(-int(fraction * 1000) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--backend", choices=["c", "python"], default="c")
    args = parser.parse_args()
    backend = resolve_backend(args.backend)
    print(machine())
    print(f"backend {backend}, {args.deals} deals x {len(DECLARATIONS)} declarations")
    secret = bytes(range(32))
    per_solve: list[float] = []
    by_kind: dict[str, list[float]] = {"suit": [], "botifarra": []}
    tables: list[float] = []
    nodes: list[int] = []
    for board in range(1, args.deals + 1):
        deal = generate_deal(secret, board)
        leader = dealer(board).right
        hands = deal.hands()
        table_time = 0.0
        for trump in DECLARATIONS:
            start = time.perf_counter()
            double_dummy(hands, trump, leader, backend=backend)
            elapsed = time.perf_counter() - start
            table_time += elapsed
            per_solve.append(elapsed)
            by_kind["botifarra" if trump is None else "suit"].append(elapsed)
            if backend == "c":
                nodes.append(_ddcore.nodes())
        tables.append(table_time)
        if board % 10 == 0:
            print(f"  {board} deals, median so far {statistics.median(per_solve) * 1e3:.0f} ms",
                  flush=True)

    def line(name: str, values: list[float]) -> str:
        return (f"{name}: median {statistics.median(values) * 1e3:.0f} ms, "
                f"p90 {percentile(values, 0.90) * 1e3:.0f} ms, "
                f"p99 {percentile(values, 0.99) * 1e3:.0f} ms, "
                f"worst {max(values) * 1e3:.0f} ms ({len(values)} solves)")

    print(line("per deal and declaration", per_solve))
    for kind, values in by_kind.items():
        print(line(f"  {kind}", values))
    print(f"dd_table (5 declarations): median {statistics.median(tables) * 1e3:.0f} ms, "
          f"worst {max(tables) * 1e3:.0f} ms")
    if nodes:
        print(f"nodes per solve: median {statistics.median(nodes) / 1e6:.2f} M, "
              f"p99 {percentile([float(n) for n in nodes], 0.99) / 1e6:.1f} M")


if __name__ == "__main__":
    main()
