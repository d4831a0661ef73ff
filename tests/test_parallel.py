"""``hh validate --workers N``: the same bytes as one core, whatever N (issue 9)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hh.order
import hh.parallel
import hh.sources
from hh.cli import app
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

pytestmark = pytest.mark.compiled

runner = CliRunner()


def _run_files(tmp: Path) -> list[str]:
    """Files that exercise every path: a session over three files, one table
    going back in time, a hand that fails to parse, a gzip file, a broken
    link, and standard input."""
    texts = [write_hand(h) for h in Simulator(Game.CALATONE, 8, tables=3).hands(90)]
    texts[20] = texts[20].replace("*** SUMMARY ***", "*** SUMMARY")
    (tmp / "a.txt").write_text("\n\n".join(texts[:40]) + "\n", "utf-8")
    # b.txt: hands 40-69, with 50-59 after 60-69 (out of time order)
    b = texts[40:50] + texts[60:70] + texts[50:60]
    (tmp / "b.txt").write_text("\n\n".join(b) + "\n", "utf-8")
    with gzip.open(tmp / "c.txt.gz", "wt", encoding="utf-8") as f:
        f.write("\n\n".join(texts[70:80]) + "\n")
    (tmp / "d.txt").symlink_to(tmp / "gone.txt")
    return ["\n\n".join(texts[80:]) + "\n"]


@pytest.mark.parametrize("as_json", [True, False])
def test_workers_give_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    (stdin,) = _run_files(tmp_path)
    # small parts, so that a few dozen hands make many tasks for the pool
    monkeypatch.setattr(hh.parallel, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(hh.sources, "MIN_CHUNK_BYTES", 2048)
    monkeypatch.setattr(hh.order, "AHEAD_MIN_BYTES", 0)  # the scan in a process of its own
    args = ["validate", *(["--json"] if as_json else []), str(tmp_path), "-"]
    outputs = {}
    for workers in ("1", "2", "3"):
        result = runner.invoke(app, [*args, "--workers", workers], input=stdin)
        assert result.exit_code == 1, result.output  # the broken hand and link
        outputs[workers] = result.output
    assert outputs["1"] == outputs["2"] == outputs["3"]
    # the work really was cut: b.txt alone is several tasks
    assert len(hh.sources.plan([str(tmp_path / "b.txt")], 2)) > 3


def test_a_small_run_starts_no_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object) -> None:
        raise AssertionError("a pool for a few hands")

    monkeypatch.setattr(hh.parallel, "_Forked", no_pool)
    monkeypatch.setattr(hh.parallel, "_Pooled", no_pool)
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 1).hands(20)]
    (tmp_path / "a.txt").write_text("\n\n".join(texts[:10]), "utf-8")
    (tmp_path / "b.txt").write_text("\n\n".join(texts[10:]), "utf-8")
    result = runner.invoke(app, ["validate", "--workers", "4", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "20 hands: 20 valid, 0 invalid" in result.output


def test_the_installed_command_with_a_pool(tmp_path: Path) -> None:
    # above the pool threshold, as a user runs it: forked workers, same bytes
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 2, tables=2).hands(750)]
    path = tmp_path / "s.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    assert path.stat().st_size > hh.parallel.POOL_MIN_BYTES
    runs = [
        subprocess.run(
            [sys.executable, "-m", "hh", "validate", "--json", "--workers", w, str(path)],
            capture_output=True,
            text=True,
            cwd=tmp_path,  # the installed hh, not the sources beside the tests
        )
        for w in ("1", "2")
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    assert runs[0].stdout == runs[1].stdout
    assert len(runs[0].stdout.splitlines()) == 750


def _die(chunk: object) -> list[object]:
    os._exit(9)  # as if killed: no result, no exception


def test_a_worker_that_dies_ends_the_run_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hh.parallel, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(hh.sources, "MIN_CHUNK_BYTES", 2048)
    monkeypatch.setattr(hh.parallel, "_work", _die)
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 1).hands(30)]
    (tmp_path / "a.txt").write_text("\n\n".join(texts), "utf-8")
    result = runner.invoke(app, ["validate", "--workers", "2", str(tmp_path)])
    assert result.exit_code == 2
    assert "hh: a worker process ended abruptly" in result.output


def _chunks(tmp: Path, hands: int = 60) -> list[hh.sources.Chunk | hh.sources.Unreadable]:
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 3, tables=2).hands(hands)]
    path = tmp / "s.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    return list(hh.sources.chunks(str(path), 2048))


def test_the_forked_pool_keeps_its_backlog_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Results come in input order; a slow reader holds the workers to
    BACKLOG_BYTES of input ahead of the output (or a few chunks, whatever
    their size); closing early reaps every worker."""
    work = _chunks(tmp_path)
    assert len(work) > 10
    serial = list(hh.parallel.judged(work, True, 1))
    sizes = [c.end - c.start for c in work if isinstance(c, hh.sources.Chunk) and c.end]
    monkeypatch.setattr(hh.parallel, "BACKLOG_BYTES", 6 * max(sizes))
    pool = hh.parallel._Forked(work, True, 2)
    pids = [w.pid for w in pool._workers]
    got = []
    for item in pool:
        ahead = pool._next - pool._out
        assert ahead <= hh.parallel.AHEAD * 2 or pool._ahead <= hh.parallel.BACKLOG_BYTES
        assert ahead <= 6 * max(sizes) // min(sizes) + 1  # bounded, however slow the reader
        got.append(item)
        if len(got) == len(serial) // 2:
            break
    assert got == serial[: len(got)]
    pool.close()
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert list(hh.parallel._Forked(work, True, 3)) == serial


def test_the_main_process_judges_beside_its_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N workers are the main process and N - 1 forked ones; it judges chunks
    itself and takes the workers' results while it does (every POLL_HANDS
    hands), whatever the order the chunks end in; a worker with nothing
    left to judge is let go before the output ends."""
    work = _chunks(tmp_path, 120)
    serial = list(hh.parallel.judged(work, True, 1))
    judged_here: list[int] = []
    original = hh.parallel.judge_chunk

    def spy(chunk: hh.sources.Chunk, as_json: bool) -> Iterator[hh.parallel.Judged]:
        if os.getpid() == parent:
            judged_here.append(chunk.start)
        return original(chunk, as_json)

    parent = os.getpid()
    released: list[int] = []
    release = hh.parallel._Forked._release

    def spy_release(pool: hh.parallel._Forked, worker: hh.parallel._Worker) -> None:
        released.append(worker.pid)
        release(pool, worker)

    monkeypatch.setattr(hh.parallel, "judge_chunk", spy)
    monkeypatch.setattr(hh.parallel._Forked, "_release", spy_release)
    monkeypatch.setattr(hh.parallel, "POLL_HANDS", 1)
    path = work[0].path if isinstance(work[0], hh.sources.Chunk) else ""
    for n in (2, 3):
        judged_here.clear()
        # as plan() gives them: line numbers counted as the chunks go out
        pool = hh.parallel._Forked(hh.sources.chunks(path, 2048, count=False), True, n)
        assert len(pool._workers) == n - 1
        pids = [w.pid for w in pool._workers]
        released.clear()
        assert list(pool) == serial
        assert 0 < len(judged_here) < len(work)
        # each worker was let go once nothing was left for it, before the end
        assert sorted(released) == sorted(pids)


def test_a_worker_writes_its_results_without_waiting(tmp_path: Path) -> None:
    """A worker's result pipe holds a chunk's results (PIPE_BYTES), so that a
    worker does not wait while the main process judges a chunk of its own."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("pipe sizes cannot be read here")
    pool = hh.parallel._Forked(_chunks(tmp_path), True, 2)
    try:
        (worker,) = pool._workers
        assert fcntl.fcntl(worker.results, fcntl.F_GETPIPE_SZ) >= min(
            hh.parallel.PIPE_BYTES, int(Path("/proc/sys/fs/pipe-max-size").read_text())
        )
    finally:
        pool.close()


class _Site(str):
    """A str that marshal refuses (not the exact built-in type)."""


@pytest.mark.parametrize("as_json", [True, False])
def test_results_cross_the_pipe_unchanged(tmp_path: Path, as_json: bool) -> None:
    """A chunk's results, marshalled by the worker (_pack) and rebuilt here
    (_unpack): equal, field for field, and of the same named-tuple types,
    for valid hands, broken ones and odd text (no table, odd characters)."""
    texts = [write_hand(h) for h in Simulator(Game.ACES, 6, tables=2).hands(12)]
    texts[3] = texts[3].replace("*** SUMMARY ***", "*** SUMMARY")
    texts[5] = texts[5].replace("Table '", "Tabla '", 1)
    texts[7] = texts[7].replace("hh-sim", "s\u00edt\u00e9\u2028\"<x>")
    path = tmp_path / "r.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    judged = list(hh.parallel.judge_chunk(hh.sources.Chunk(str(path)), as_json))
    back = hh.parallel._unpack(hh.parallel._pack(judged))
    assert back == judged
    assert [(type(s), type(r)) for s, r in back] == [(type(s), type(r)) for s, r in judged]
    assert {type(s).__name__ for s, _ in back} == {"Summary"}
    assert any(not s.judged for s, _ in back)  # the broken hand came across too
    # what marshal does not know (a str subclass) still comes across, pickled
    odd = [(judged[0][0]._replace(site=_Site("x")), judged[0][1])]
    packed = hh.parallel._pack(odd)
    assert packed[:1] == b"p" and hh.parallel._pack(judged)[:1] == b"m"
    assert hh.parallel._unpack(packed) == odd


def _fail(chunk: object) -> list[object]:
    raise ValueError("a bug in a worker")


def test_an_error_in_a_worker_is_raised_in_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hh.parallel, "_work", _fail)
    pool = hh.parallel._Forked(_chunks(tmp_path), True, 2)
    with pytest.raises(ValueError, match="a bug in a worker"):
        list(pool)
    assert pool._workers == []


def test_without_fork_the_standard_pool_gives_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = _chunks(tmp_path)
    serial = list(hh.parallel.judged(work, True, 1))
    monkeypatch.setattr(hh.parallel, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(hh.parallel, "FORK", False)
    pooled = hh.parallel.judged(work, True, 2)
    assert isinstance(pooled, hh.parallel._Pooled)
    assert list(pooled) == serial
