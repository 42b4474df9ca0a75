"""Bots playing whole hands, and the play-record validator (goal: a hand by
SensibleBot well under 10 ms, since a demo championship plays ~500 hands), and how
varied and how good SensibleBot is.

Run from the repository root:
  .venv/bin/python benchmarks/bench_play.py [--hands N] [--repeat R]
  .venv/bin/python benchmarks/bench_play.py --variety [--boards B] [--tables T]

Prints the machine (nproc, CPU model, Python) and, for each operation, the best and the
median of R runs over N hands. ``--variety`` plays B boards (generate_deal from a fixed
secret) at T tables each with the demo's seeds (round x 10000 + table x 100 + board) and
prints the distinct (trump, doubles, NS points) results per board (goal: median >= 4),
the botifarra, delegation and contro rates, and SensibleBot against RandomBot: each deal
played twice, sensible NS vs random EW and the reverse, the sensible side's mean points
of 72. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import machine, timed  # after the path tweak above
from engine.bots import PlayedHand, play_board  # after the path tweak above
from engine.cards import DECK
from engine.deal import Deal
from engine.generate import generate_deal
from engine.record import validate_play_record
from engine.seats import Seat


def shuffled_deal(seed: int) -> Deal:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return Deal.from_hands({seat: cards[i * 12:(i + 1) * 12] for i, seat in enumerate(Seat)})


def validate_all(deals: list[Deal], hands: list[PlayedHand]) -> None:
    for board, (deal, hand) in enumerate(zip(deals, hands, strict=True), start=1):
        check = validate_play_record(
            deal, board, trump=hand.trump, delegated=hand.delegated, contro=hand.contro,
            recontro=hand.recontro, sant_vicenc=hand.sant_vicenc, cards=hand.cards,
        )
        assert check.is_valid


def variety(boards: int, tables: int) -> None:
    """Print how different the tables of one board are, and the bots' rates."""
    secret = bytes(range(32))
    distinct: list[int] = []
    counts = {"botifarra": 0, "delegated": 0, "contro": 0, "recontro": 0}
    start = time.perf_counter()
    for board in range(1, boards + 1):
        deal = generate_deal(secret, board)
        rnd = (board - 1) // 24 + 1
        results = [
            play_board(deal, board, seed=rnd * 10_000 + table * 100 + board)
            for table in range(1, tables + 1)
        ]
        distinct.append(len({
            (hand.trump, hand.contro, hand.recontro, hand.sant_vicenc, hand.ns_points)
            for hand in results
        }))
        for hand in results:
            counts["botifarra"] += hand.trump is None
            counts["delegated"] += hand.delegated
            counts["contro"] += hand.contro
            counts["recontro"] += hand.recontro
    elapsed = time.perf_counter() - start
    hands = boards * tables
    histogram = {k: distinct.count(k) for k in sorted(set(distinct))}
    print(f"{boards} boards x {tables} tables, SensibleBot ({elapsed * 1e3 / hands:.2f} ms/hand)")
    print(f"distinct (trump, doubles, NS points) per board: median {statistics.median(distinct)},"
          f" mean {statistics.mean(distinct):.2f}, min {min(distinct)}, max {max(distinct)}")
    print(f"histogram {histogram}")
    print(", ".join(f"{name} {count / hands:.1%}" for name, count in counts.items()))
    margins = []
    for board in range(1, boards + 1):
        deal = shuffled_deal(100_000 + board)
        as_ns = play_board(deal, board, seed=board, bot="sensible", ew_bot="random")
        as_ew = play_board(deal, board, seed=board, bot="random", ew_bot="sensible")
        margins.append(as_ns.ns_points - as_ew.ns_points)
    mean = 36 + statistics.mean(margins) / 2
    better = sum(margin > 0 for margin in margins) / boards
    print(f"SensibleBot vs RandomBot, {boards} deals played both ways: the sensible side takes"
          f" {mean:.1f} of 72 on average, more than the random side on {better:.0%} of deals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variety", action="store_true")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--tables", type=int, default=12)
    args = parser.parse_args()
    n, repeat = args.hands, args.repeat
    if args.variety:
        print(f"machine: {machine()}")
        variety(args.boards, args.tables)
        return

    deals = [shuffled_deal(seed) for seed in range(n)]
    boards = list(enumerate(deals, start=1))
    played = [play_board(deal, board, seed=board) for board, deal in boards]

    cases: list[tuple[str, Callable[[], object]]] = [
        ("play_board sensible", lambda: [play_board(d, b, seed=b) for b, d in boards]),
        ("play_board random",
         lambda: [play_board(d, b, seed=b, bot="random") for b, d in boards]),
        ("validate_play_record", lambda: validate_all(deals, played)),
    ]

    print(f"machine: {machine()}")
    print(f"{n} hands per run, best and median of {repeat} runs")
    print(f"| {'operation':<22} | {'best ms':>9} | {'median ms':>9} | {'ms/hand':>8} |")
    for name, action in cases:
        best, median = timed(action, repeat)
        print(f"| {name:<22} | {best * 1e3:9.1f} | {median * 1e3:9.1f} | {best * 1e3 / n:8.2f} |")


if __name__ == "__main__":
    main()
