"""Which build runs. Where a C compiler exists, ``make test-fast`` sets
HH_EXPECT_COMPILED=1 and the compiled build must then run compiled code:
a build that fell back to pure Python (mypyc refused a module, the C
compiler failed: setup.py keeps the .py modules then) fails here."""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hh
import pipelines

pytestmark = pytest.mark.compiled

EXPECT_COMPILED = os.environ.get("HH_EXPECT_COMPILED") == "1"
# every module setup.py compiles: hh's and the store's column builder
COMPILED = (*hh.COMPILED, *pipelines.COMPILED)


def _is_extension(name: str) -> bool:
    path = importlib.import_module(name).__file__ or ""
    return not path.endswith(".py")


def _version(folder: Path) -> str:
    """What ``hh --version`` prints, run outside the checkout (whose hh/
    folder would shadow the installed package)."""
    run = subprocess.run(
        [sys.executable, "-m", "hh", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder,
    )
    return run.stdout.strip()


@pytest.mark.skipif(not EXPECT_COMPILED, reason="no compiled build expected")
def test_every_listed_module_runs_compiled(tmp_path: Path) -> None:
    assert [name for name in COMPILED if not _is_extension(name)] == []
    assert _version(tmp_path) == f"hh {hh.__version__} (compiled with mypyc)"


@pytest.mark.skipif(EXPECT_COMPILED, reason="a compiled build expected")
def test_a_pure_build_is_pure_throughout(tmp_path: Path) -> None:
    if _is_extension("hh.model"):
        pytest.skip("a compiled build, not asked to be checked (HH_EXPECT_COMPILED)")
    assert [name for name in COMPILED if _is_extension(name)] == []
    assert _version(tmp_path) == f"hh {hh.__version__} (pure Python)"


def test_every_listed_module_exists() -> None:
    """setup.py compiles the files of COMPILED: each must be a module of hh
    or pipelines."""
    assert [name for name in COMPILED if importlib.util.find_spec(name) is None] == []
