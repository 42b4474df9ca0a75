"""Bots playing whole hands, and the play-record validator (issue 2 goal: a hand by
SensibleBot well under 10 ms, since a demo championship plays ~500 hands).

Run from the repository root:  .venv/bin/python benchmarks/bench_play.py [--hands N] [--repeat R]

Prints the machine (nproc, CPU model, Python) and, for each operation, the best and the
median of R runs over N hands. Record the figures in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.bots import PlayedHand, play_board  # after the path tweak above
from engine.cards import DECK
from engine.deal import Deal
from engine.record import validate_play_record
from engine.seats import Seat


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {model}, Python {platform.python_version()}"


def timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(best, median) wall time in seconds of ``action`` over ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return min(runs), statistics.median(runs)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, repeat = args.hands, args.repeat

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
