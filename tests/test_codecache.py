"""hh._codecache: the code dataclasses writes for hh's classes, kept between
runs, gives the same classes as compiling it each time."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import hh._codecache as codecache
from hh.model import Action, Seat


def _probe(module: str) -> type:
    """A frozen dataclass created in ``module`` (registered for the time of
    the creation, as dataclasses reads its globals there)."""
    sys.modules[module] = types.ModuleType(module)
    try:
        cls = types.new_class("Probe", (), {})
        cls.__module__ = module
        cls.__annotations__ = {"name": "str", "chips": "int"}
        return dataclasses.dataclass(frozen=True)(cls)
    finally:
        del sys.modules[module]


def test_the_hook_is_installed_and_hh_records_behave_as_dataclasses() -> None:
    assert vars(dataclasses)["exec"] is codecache._exec
    a, b = Seat(1, "Ana", 100), Seat(1, "Ana", 100)
    assert a == b and hash(a) == hash(b) and a != Seat(2, "Ana", 100)
    assert repr(a) == "Seat(seat=1, name='Ana', chips=100, sitting_out=False, line=0)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "Eva"  # type: ignore[misc]
    assert Action("Ana", "bets", 5) == Action("Ana", "bets", 5)


def test_a_class_from_the_cache_is_the_class_compiled_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Compiled once (and kept), then taken from the cache: equal code, and
    instances that compare, hash, print and refuse changes alike."""
    monkeypatch.setattr(codecache, "_CODE", {})
    monkeypatch.setattr(codecache, "_save", lambda: None)
    fresh = _probe("hh._probe_fresh")
    kept = dict(codecache._CODE)
    assert kept  # hh's text is kept...
    cached = _probe("hh._probe_fresh")
    assert kept == codecache._CODE  # ...and the second class compiled nothing new
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__"):
        assert getattr(fresh, name).__code__.co_code == getattr(cached, name).__code__.co_code
    x, y = fresh("Ana", 3), cached("Ana", 3)
    assert repr(x) == repr(y) == "Probe(name='Ana', chips=3)"
    assert hash(x) == hash(y) and x == fresh("Ana", 3) and y == cached("Ana", 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        y.chips = 4  # type: ignore[attr-defined]


def test_other_modules_classes_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codecache, "_CODE", {})
    probe = _probe("elsewhere")
    assert codecache._CODE == {}
    assert probe("Ana", 1) == probe("Ana", 1)


_RUN = """
import json, sys
import hh._codecache as c
import dataclasses  # the cache is read once dataclasses is imported
before = len(c._CODE)
import hh.model, hh.verdict
print(json.dumps([before, len(c._CODE)]))
"""


def _start(cache: Path) -> list[int]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    out = subprocess.run(
        [sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, check=True
    )
    counts: list[int] = json.loads(out.stdout)
    return counts


def test_the_hook_waits_for_dataclasses_to_be_imported() -> None:
    """Importing hh does not import dataclasses (~11 ms: hh validate starts
    its scan first); the caching exec is given to dataclasses as soon as it
    is imported, and the import hook is gone."""
    code = (
        "import sys, hh; print('dataclasses' in sys.modules); "
        "import dataclasses, hh._codecache as c; "
        "print(vars(dataclasses).get('exec') is c._exec, "
        "any(isinstance(f, c._WhenImported) for f in sys.meta_path))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "False"]


def test_a_second_process_reads_what_the_first_kept(tmp_path: Path) -> None:
    before, after = _start(tmp_path)
    assert before == 0 and after > 40  # ~5 functions a class
    files = list((tmp_path / "hh").glob("dataclasses-*.marshal"))
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    assert _start(tmp_path) == [after, after]  # all found: nothing compiled or written
    assert files[0].stat().st_mtime_ns == stamp


def test_a_damaged_cache_is_compiled_again(tmp_path: Path) -> None:
    _, after = _start(tmp_path)
    (file,) = (tmp_path / "hh").glob("dataclasses-*.marshal")
    file.write_bytes(b"\x00not marshal")
    assert _start(tmp_path) == [0, after]
    assert _start(tmp_path) == [after, after]  # and written whole again


def test_without_a_writable_cache_home_the_temporary_folder_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    spare = tmp_path / "tmp"
    spare.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    assert codecache.cache_folder() == str(spare / "hh-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home"))
    assert codecache.cache_folder() == str(tmp_path / "home" / "hh")
