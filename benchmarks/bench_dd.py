"""The double-dummy solver on whole deals: the compiled core, one process, one core.

Goals: median under 100 ms per deal and declaration, p99 under 2 s, and the five
declarations of a board (dd_table) under 0.5 s median.

Run from the repository root:
  .venv/bin/python benchmarks/bench_dd.py [--deals N] [--backend c|python]
  .venv/bin/python benchmarks/bench_dd.py --deals N --against OTHER_BUILD.so

``--against`` compares the installed core with another build of it (a copy of
engine/_ddcore*.so made from an earlier commit): every solve runs on both, one right
after the other in alternating order, so a machine whose speed drifts slows both alike;
prints both builds' figures, the ratio of their total CPU time and the median ratio per
solve, and stops if their values differ.

Deals come from generate_deal with a fixed secret (boards 1..N, each with its own dealer
and first leader). Prints the machine, the median, 90th and 99th percentile and the
worst time per deal and declaration, per declaration kind, and the median and worst
dd_table; also the nodes searched. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine  # after the path tweak above
from engine import _ddcore, dd  # after the path tweak above
from engine.dd import DECLARATIONS, double_dummy, resolve_backend
from engine.generate import generate_deal
from engine.seats import dealer


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with ``fraction`` of them at or below."""
    ordered = sorted(values)
    rank = max(1, -(-int(fraction * 1000) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


def load_build(path: str) -> object:
    """Another build of the compiled core, loaded beside the installed one."""
    spec = importlib.util.spec_from_file_location("other._ddcore", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--against: {path} is not a loadable extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def summary(name: str, times: list[float]) -> str:
    return (f"{name}: median {statistics.median(times) * 1e3:.0f} ms, "
            f"p90 {percentile(times, 0.90) * 1e3:.0f} ms, "
            f"p99 {percentile(times, 0.99) * 1e3:.0f} ms, "
            f"worst {max(times) * 1e3:.0f} ms ({len(times)} solves)")


def compare(deals: int, other_path: str) -> None:
    """Interleaved A/B of the installed core (A) and ``other_path`` (B), CPU time."""
    builds = {"installed": _ddcore, "other": load_build(other_path)}
    times: dict[str, list[float]] = {name: [] for name in builds}
    tables: dict[str, list[float]] = {name: [] for name in builds}
    secret = bytes(range(32))
    for board in range(1, deals + 1):
        deal = generate_deal(secret, board)
        leader = dealer(board).right
        hands = deal.hands()
        table = dict.fromkeys(builds, 0.0)
        for index, trump in enumerate(DECLARATIONS):
            order = list(builds) if (board + index) % 2 else list(reversed(builds))
            values = {}
            for name in order:
                dd._ddcore = builds[name]  # type: ignore[assignment]
                start = time.process_time()
                values[name] = double_dummy(hands, trump, leader, backend="c")
                elapsed = time.process_time() - start
                times[name].append(elapsed)
                table[name] += elapsed
            if len(set(values.values())) != 1:
                raise SystemExit(f"board {board}, trump {trump}: the builds differ {values}")
        for name in builds:
            tables[name].append(table[name])
        if board % 10 == 0:
            print(f"  {board} deals", flush=True)
    dd._ddcore = builds["installed"]  # type: ignore[assignment]
    for name in builds:
        print(summary(f"{name} build, per deal and declaration", times[name]))
        print(f"  dd_table median {statistics.median(tables[name]) * 1e3:.0f} ms, "
              f"total {sum(times[name]):.1f} s of CPU")
    ratios = [b / a for a, b in zip(times["installed"], times["other"], strict=True)]
    print(f"other / installed: total CPU {sum(times['other']) / sum(times['installed']):.3f}, "
          f"median per solve {statistics.median(ratios):.3f}; the values are identical")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--backend", choices=["c", "python"], default="c")
    parser.add_argument("--against", metavar="BUILD.so",
                        help="compare with another build of the core, interleaved")
    args = parser.parse_args()
    backend = resolve_backend(args.backend)
    print(machine())
    if args.against:
        if backend != "c":
            raise SystemExit("--against compares builds of the compiled core: it is not built")
        print(f"installed core against {args.against}, {args.deals} deals x "
              f"{len(DECLARATIONS)} declarations, CPU time, interleaved")
        compare(args.deals, args.against)
        return
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

    print(summary("per deal and declaration", per_solve))
    for kind, values in by_kind.items():
        print(summary(f"  {kind}", values))
    print(f"dd_table (5 declarations): median {statistics.median(tables) * 1e3:.0f} ms, "
          f"worst {max(tables) * 1e3:.0f} ms")
    if nodes:
        print(f"nodes per solve: median {statistics.median(nodes) / 1e6:.2f} M, "
              f"p99 {percentile([float(n) for n in nodes], 0.99) / 1e6:.1f} M")


if __name__ == "__main__":
    main()
