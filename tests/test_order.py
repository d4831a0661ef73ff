"""The table-order scan started ahead in a process of its own (hh.order.Scan):
the same answer as the scan in place, whatever happens to that process."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from hh.model import Game
from hh.order import AHEAD_MIN_BYTES, Scan, TableOrder, table_order
from hh.simulate import Simulator
from hh.write import write_hand


def _file(tmp: Path, pad: int = AHEAD_MIN_BYTES) -> str:
    """Eight hands over two tables, the second going back in time, then
    ``pad`` bytes of blank lines (no hands: only the size counts)."""
    texts = [write_hand(h) for h in Simulator(Game.CHIRIBITO, 4, tables=2).hands(8)]
    order = [0, 1, 2, 5, 4, 3, 6, 7]
    path = tmp / "x.txt"
    path.write_text("\n\n".join(texts[k] for k in order) + "\n" * (pad + 1), "utf-8")
    return str(path)


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_a_scan_ahead_gives_what_the_scan_in_place_gives(tmp_path: Path) -> None:
    path = _file(tmp_path)
    expected = table_order([path])
    assert expected.hands == 8
    assert list(expected.disordered.values()) == [4]  # the second table, all its hands
    scan = Scan([path], ahead=True)
    pid = scan.pid
    assert pid > 0
    assert scan.result() == expected
    assert isinstance(scan.result(), TableOrder)
    assert scan.pid == 0 and _gone(pid)  # read and reaped: no zombie left


def test_a_scan_whose_process_dies_is_done_in_place(tmp_path: Path) -> None:
    path = _file(tmp_path)
    scan = Scan([path], ahead=True)
    pid = scan.pid
    os.kill(pid, signal.SIGKILL)
    assert scan.result() == table_order([path])
    assert _gone(pid)


def test_closing_early_stops_the_scan(tmp_path: Path) -> None:
    path = _file(tmp_path)
    with Scan([path], ahead=True) as scan:
        pid = scan.pid
    assert _gone(pid)
    assert scan.result() == table_order([path])  # still answers, in place


@pytest.mark.parametrize(("pad", "ahead"), [(0, True), (AHEAD_MIN_BYTES, False)])
def test_small_input_or_one_worker_scans_in_place(tmp_path: Path, pad: int, ahead: bool) -> None:
    path = _file(tmp_path, pad)
    scan = Scan([path, str(tmp_path / "missing.txt")], ahead=ahead)
    assert scan.pid == 0
    assert scan.result() == table_order([path])


def test_the_scan_and_planning_import_neither_parser_nor_rules() -> None:
    """What ``hh validate`` imports before starting the scan stays light, so
    that the scan runs while the parser and the rules are imported."""
    import subprocess
    import sys

    code = (
        "import sys, hh.console, hh.inputs, hh.order, hh.sources; "
        "print(sorted(m for m in ('hh.parse', 'hh.crosshand', 'hh.engine', 'hh.games', 'lark')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
    # and what it imports before the scan starts does not even need dataclasses
    code = "import sys, hh.console, hh.inputs, hh.order; print('dataclasses' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"


def test_no_process_to_be_had_scans_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine out of processes (or descriptors) still gets its scan."""

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    path = _file(tmp_path)
    monkeypatch.setattr(os, "fork", refuse)
    scan = Scan([path], ahead=True)
    assert scan.pid == 0
    assert scan.result() == table_order([path])
