"""``hh validate --workers N``: the same bytes as one core, whatever N (issue 9);
the pool itself is tested in tests/test_pool.py."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hh.parallel
import hh.read.cut
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
    monkeypatch.setattr(hh.read.cut, "MIN_CHUNK_BYTES", 2048)
    args = ["validate", *(["--json"] if as_json else []), str(tmp_path), "-"]
    outputs = {}
    for workers in ("1", "2", "3", "0"):  # 0: the cores, as when left out
        result = runner.invoke(app, [*args, "--workers", workers], input=stdin)
        assert result.exit_code == 1, result.output  # the broken hand and link
        outputs[workers] = result.output
    assert outputs["1"] == outputs["2"] == outputs["3"] == outputs["0"]
    # the work really was cut: b.txt alone is several tasks
    assert len(list(hh.read.cut.Plan([str(tmp_path / "b.txt")], 2))) > 3


def test_a_small_run_starts_no_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object) -> None:
        raise AssertionError("a pool for a few hands")

    monkeypatch.setattr(hh.parallel, "Pool", no_pool)
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
    monkeypatch.setattr(hh.read.cut, "MIN_CHUNK_BYTES", 2048)
    monkeypatch.setattr(hh.parallel, "_work", _die)
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 1).hands(30)]
    (tmp_path / "a.txt").write_text("\n\n".join(texts), "utf-8")
    result = runner.invoke(app, ["validate", "--workers", "2", str(tmp_path)])
    assert result.exit_code == 2
    assert "hh: a worker process ended abruptly while reading " in result.output
    assert "Traceback" not in result.output
