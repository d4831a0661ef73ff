"""The core install referees without the extras: ``hh validate``, ``parse``
and ``simulate`` never import them, and a plugin command whose extra is
missing says which to install, in one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

EXTRAS = ("duckdb", "pyarrow", "polars", "plotly", "dask", "distributed", "watchfiles")

# Runs hh's main() with some modules made impossible to import, as when the
# extra that installs them is missing; prints which extras were imported.
_RUN = textwrap.dedent(
    """
    import importlib.abc, sys
    blocked = set({blocked!r})

    class Missing(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in blocked:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, Missing())
    sys.argv = ["hh", *{args!r}]
    from hh.cli import main
    try:
        main()
    finally:
        loaded = sorted({{m.partition(".")[0] for m in sys.modules}} & set({extras!r}))
        print("LOADED", *loaded, file=sys.stderr)
    """
)


def _run(args: list[str], blocked: tuple[str, ...], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = _RUN.format(blocked=list(blocked), args=args, extras=list(EXTRAS))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def _loaded(stderr: str) -> list[str]:
    line = [x for x in stderr.splitlines() if x.startswith("LOADED")][-1]
    return line.split()[1:]


def test_the_referee_s_commands_import_no_extra(tmp_path: Path) -> None:
    texts = [write_hand(h) for h in Simulator(Game.CALATONE, 3).hands(5)]
    path = tmp_path / "a.txt"
    path.write_text("\n\n".join(texts) + "\n", "utf-8")
    for args in (
        ["validate", str(path)],
        ["validate", "--json", "--workers", "2", str(path)],
        ["parse", str(path)],
        ["simulate", "--game", "aces", "--hands", "3"],
    ):
        done = _run(args, (), tmp_path)
        assert done.returncode == 0, done.stderr
        assert _loaded(done.stderr) == [], args


@pytest.mark.parametrize(
    ("args", "blocked", "extra"),
    [
        (["import", "x.txt", "--db", "x.duckdb"], ("duckdb", "pyarrow"), "import"),
        (["report", "players", "--db", "x.duckdb"], ("polars",), "report"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(
    tmp_path: Path, args: list[str], blocked: tuple[str, ...], extra: str
) -> None:
    (tmp_path / "x.txt").write_text("", "utf-8")
    done = _run(args, blocked, tmp_path)
    assert done.returncode == 2, done.stderr
    lines = [x for x in done.stderr.splitlines() if not x.startswith("LOADED")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"hh: hh {args[0]} needs ")
    assert lines[0].endswith(f"which is not installed: pip install 'hh[{extra}]'")
