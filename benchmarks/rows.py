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
bound of what the measured code needs. A command run as a subprocess (the
CLI rows) is measured alone: :func:`command_peak` samples its process tree,
not the benchmark's.
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


def _tree(root: psutil.Process, size: Callable[[psutil.Process], int]) -> int:
    """``size`` summed over a process tree (a process gone meanwhile counts 0)."""
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for p in procs:
        try:
            total += size(p)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def _tree_rss(root: psutil.Process) -> int:
    return _tree(root, lambda p: p.memory_info().rss)


def _tree_pss(root: psutil.Process) -> int:
    """The proportional set size of a process tree: each shared page (a
    library's code, mapped by every worker) counted once in all, where a
    sum of resident sizes counts it once per process."""
    return _tree(root, lambda p: p.memory_full_info().pss)


@dataclass
class CommandPeak:
    """What :func:`command_peak` measured, in MiB."""

    rss: float  # the peak of the sum of the tree's resident sizes
    pss: float  # the peak of the sum of their proportional sizes
    parent: float  # the peak resident size of the command's own process
    worker: float  # the peak resident size of its largest child
    timeline: list[float]  # the command's own resident size, once a second
    returncode: int


def command_peak(argv: list[str], cwd: str = "/") -> CommandPeak:
    """Run ``argv`` (output discarded) and sample the memory of its own
    process tree (the command and the workers it starts, not this process)
    every 20 ms until it ends."""
    import subprocess

    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=cwd)  # fmt: skip
    root = psutil.Process(process.pid)
    rss = pss = parent = worker = 0
    timeline: list[float] = []
    k = 0
    while process.poll() is None:
        rss = max(rss, _tree_rss(root))
        pss = max(pss, _tree_pss(root))
        try:
            own = root.memory_info().rss
            children = root.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        parent = max(parent, own)
        if k % 50 == 0:
            timeline.append(own / 2**20)
        k += 1
        for child in children:
            try:
                worker = max(worker, child.memory_info().rss)
            except psutil.NoSuchProcess:
                continue
        time.sleep(_SAMPLE_SECONDS)
    mib = 2**20
    return CommandPeak(rss / mib, pss / mib, parent / mib, worker / mib, timeline,
                       process.wait())  # fmt: skip


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


def script(run: Callable[[bool, Any], list[Row]]) -> None:
    """A benchmark module run as a script by the compiled build's interpreter
    (benchmarks/__main__.py's ``COMPILED_ONLY``): ``run(quick, keep)`` with
    ``--quick`` and ``--keep DIR`` (a large database built once there and
    reused) from the command line; the rows said on standard error, then as
    JSON on the last line of standard output, for the runner."""
    import json
    import sys
    from pathlib import Path

    keep = Path(sys.argv[sys.argv.index("--keep") + 1]) if "--keep" in sys.argv else None
    got = run("--quick" in sys.argv, keep)
    for row in got:
        print(f"{row.what}: {row.figure:,.3f} {row.unit}", file=sys.stderr)
    print("@@rows@@" + json.dumps([r.to_json() for r in got]))
