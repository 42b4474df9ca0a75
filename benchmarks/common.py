"""What every benchmark prints and how it times: the machine, best and median wall time."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path


def machine() -> str:
    """``nproc N, CPU model, Python x.y.z``: the line recorded with each figure."""
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
