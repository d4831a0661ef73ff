"""What every benchmark module gives the runner: rows of one table.

A benchmark module has ``run(quick: bool = False) -> list[Row]``. Each row is
one measured figure; a speed names the row it is compared with (its
``baseline``, the key of another row of the same run, possibly of another
module), and the runner prints the ratio. Baselines are measured in the same
run on the same machine, because this machine is shared and noisy: only the
ratios are worth comparing between runs.

Peak memory is the peak resident set size of the whole process tree (the
benchmark process and any worker processes it started: pools, a Dask
LocalCluster) while the figure was measured, sampled every 20 ms by a thread.
It includes the interpreter and the benchmark's own inputs, so it is an upper
bound of what the measured code needs.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import psutil

_SAMPLE_SECONDS = 0.02


@dataclass(frozen=True, slots=True)
class Row:
    """One figure. ``key`` is stable and unique in a run (``eval.calatone``);
    ``baseline`` is the key of the row this one is divided by (None: no
    ratio, e.g. a build time or the baseline itself)."""

    key: str
    what: str
    figure: float
    unit: str
    baseline: str | None = None
    peak_mb: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        return cls(**data)


def _tree_rss(root: psutil.Process) -> int:
    total = 0
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


class PeakMemory:
    """``with PeakMemory() as peak: ...``; then ``peak.mb`` is the peak RSS
    of this process and its descendants during the block, in MiB."""

    def __init__(self) -> None:
        self._root = psutil.Process()
        self._peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while True:
            self._peak = max(self._peak, _tree_rss(self._root))
            if self._stop.wait(_SAMPLE_SECONDS):
                return

    def __enter__(self) -> PeakMemory:
        self._peak = _tree_rss(self._root)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._peak = max(self._peak, _tree_rss(self._root))

    @property
    def mb(self) -> float:
        return self._peak / (1024 * 1024)


def rate(call: Callable[[], object], count: int, repeats: int = 3) -> tuple[float, float]:
    """(median of ``count / seconds`` over ``repeats`` calls, peak MiB)."""
    rates = []
    with PeakMemory() as peak:
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), peak.mb


def seconds(call: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
    """(median seconds of ``repeats`` calls, peak MiB)."""
    times = []
    with PeakMemory() as peak:
        for _ in range(repeats):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
    return statistics.median(times), peak.mb
