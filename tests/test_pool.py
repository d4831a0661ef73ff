"""hh.pool: results in order, a bounded window, a dead worker is a message,
closing stops the workers, and no worker outlives a killed parent (issue 23,
item 6), with fork (hh validate) and spawn (hh import)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hh.model import Game
from hh.pool import Pool, WorkerDied
from hh.simulate import Simulator
from hh.write import write_hand

METHODS = ["fork", "spawn"]


def _slow_square(n: int) -> int:
    time.sleep(0.001 * (n * 7919 % 13))  # finish out of order
    return n * n


def _pid(n: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def _sleep(n: int) -> int:
    time.sleep(60)
    return n


def _die(n: int) -> int:
    if n == 5:
        os._exit(9)  # as if killed: no result, no exception
    return n


def _raise(n: int) -> int:
    if n == 3:
        raise ValueError(f"bad item {n}")
    return n


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _gone(pids: list[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("start", METHODS)
def test_results_come_in_order_within_the_window(start: str) -> None:
    pulled: list[int] = []
    window = 2 * 2

    def items() -> Iterator[int]:
        for n in range(60):
            pulled.append(n)
            yield n

    with Pool(2, start=start) as pool:
        out = []
        for k, result in enumerate(pool.map(_slow_square, items())):
            out.append(result)
            # never more than the window sent ahead of what was given out
            assert len(pulled) - (k + 1) <= window
    assert out == [n * n for n in range(60)]


def test_an_error_in_a_worker_is_raised_in_the_parent() -> None:
    with Pool(2) as pool, pytest.raises(ValueError, match="bad item 3"):
        list(pool.map(_raise, range(10)))


@pytest.mark.parametrize("start", METHODS)
def test_a_worker_that_dies_is_worker_died_naming_what_it_read(start: str) -> None:
    with Pool(2, start=start) as pool:
        results = pool.map(_die, range(20), describe=lambda n: f"reading item {n}")
        with pytest.raises(WorkerDied, match=r"ended abruptly while reading item \d+"):
            list(results)


def test_closing_early_stops_busy_workers() -> None:
    pool = Pool(2)
    pids = sorted(set(pool.map(_pid, range(8))))
    assert len(pids) >= 1
    results = pool.map(_sleep, range(4))  # both workers busy for a minute
    time.sleep(0.3)
    began = time.monotonic()
    results.close()
    assert time.monotonic() - began < 5
    assert _gone(pids)


@pytest.mark.parametrize("start", METHODS)
def test_a_close_without_waiting_is_completed_by_the_next_close(start: str) -> None:
    pool = Pool(2, start=start)
    pids = sorted(set(pool.map(_pid, range(8))))
    list(pool.map(_sleep, []))
    pool.close(wait=False)  # the workers end while the caller goes on
    with pytest.raises(RuntimeError, match="closed"):
        list(pool.map(_pid, range(1)))
    pool.close()  # waits for them: none is left once it returns
    assert not any(_alive(p) for p in pids)


_ORPHAN = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {tests!r})
    from test_pool import _pid, _sleep
    from hh.pool import Pool

    pool = Pool(2, start={start!r})
    pids = sorted(set(pool.map(_pid, range(8))))
    print(*pids, flush=True)
    results = pool.map(_sleep, range(4))
    time.sleep(60)
    """
)


@pytest.mark.parametrize("start", METHODS)
def test_workers_end_when_their_parent_is_killed(start: str) -> None:
    script = _ORPHAN.format(tests=str(Path(__file__).parent), start=start)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pids = [int(x) for x in parent.stdout.readline().split()]
        assert pids and all(_alive(p) for p in pids)
        time.sleep(0.3)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _gone(pids), [p for p in pids if _alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(x) for x in path.read_text().split()]
    except OSError:
        return []


def test_no_worker_of_a_killed_validate_survives(tmp_path: Path) -> None:
    """kill -9 of ``hh validate --workers 2`` on a big input whose reader
    does not read: its workers, waiting on the bounded window, end too."""
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 4, tables=3).hands(3000)]
    path = tmp_path / "big.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    parent = subprocess.Popen(
        [sys.executable, "-m", "hh", "validate", "--workers", "2", str(path)],
        stdout=subprocess.PIPE,  # never read: the run blocks on its output
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            workers = _children(parent.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the pool did not start"
        time.sleep(0.5)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        assert _gone(workers), [p for p in workers if _alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if parent.stdout is not None:
            parent.stdout.close()
