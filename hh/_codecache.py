"""The code :mod:`dataclasses` writes for hh's classes, compiled once and kept.

Why: ``@dataclass`` writes each class's ``__repr__``, ``__eq__``,
``__hash__`` and frozen ``__setattr__`` as source text and compiles it
with ``exec`` when the class is created. hh has ~40 dataclasses (the
records of a hand among them): ~200 functions compiled at the start of
every process, 18-30 ms of its 52-74 ms of imports (timed), paid before
``hh validate`` can judge anything and again before its workers start.
The text is the same every run, so the code compiled from it is kept in a
cache file (marshal, one per Python build) beside the parser's, and a later
process runs the code object instead of compiling the text again.

How: :func:`install` gives the :mod:`dataclasses` module an ``exec`` of its
own (a module global shadows the builtin for that module alone), which
looks the text up. It does so as soon as :mod:`dataclasses` is imported,
not before: importing it (with :mod:`inspect`, ~11 ms) is not the first
thing ``hh validate`` needs, which starts its scan for the order of tables
in a process of its own before (see :class:`hh.order.Scan`). Only the text
of hh's own classes is kept; any other class, and anything unexpected (no
cache folder, an unreadable or foreign file), is compiled exactly as
dataclasses does. The functions are the same either way: the same text,
compiled the same way, run in the same namespaces (tests/test_codecache.py
compares them).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Iterator
from types import CodeType
from typing import Any

_CODE: dict[str, bytes] = {}  # source text -> its code, marshalled (loaded when used)
_PATH: list[str] = []  # the cache file, once known ("" where none can be written)


def cache_folder() -> str | None:
    """hh's cache folder: ``$XDG_CACHE_HOME/hh`` or ``~/.cache/hh``, else one
    in the temporary folder; None when none is writable (a read-only home
    must not break anything)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for folder in _folders(base):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    return None


def _folders(base: str) -> Iterator[str]:
    yield os.path.join(base, "hh")
    import tempfile  # only when the first will not do (its import took ~3 ms)

    yield os.path.join(tempfile.gettempdir(), "hh-cache")


def _path() -> str:
    if not _PATH:
        folder = cache_folder()
        tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}"  # marshal's format and bytecode
        _PATH.append("" if folder is None else os.path.join(folder, f"dataclasses-{tag}.marshal"))
    return _PATH[0]


def install() -> None:
    """Give :mod:`dataclasses` the caching ``exec``: now if it is imported,
    else as soon as it is (:class:`_WhenImported`)."""
    if "dataclasses" in sys.modules:
        _install()
    elif not any(isinstance(finder, _WhenImported) for finder in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported())


class _WhenImported:
    """An import hook that waits for :mod:`dataclasses`: it lets the other
    finders find it, runs :func:`_install` once the module has run, and
    takes itself out of the way. Where the module cannot be followed so (a
    loader shared by modules: frozen or built in), nothing is kept: the
    classes are compiled as always."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "dataclasses":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or isinstance(loader, type) or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            _install()

        loader.exec_module = exec_module
        return spec


def _install() -> None:
    """Read the cache and give :mod:`dataclasses` the caching ``exec`` (once)."""
    import dataclasses

    if "exec" in vars(dataclasses):  # installed already, or someone else's
        return
    path = _path()
    if path:
        with contextlib.suppress(Exception):  # none yet, or not one this Python wrote
            with open(path, "rb") as f:
                loaded = marshal.load(f)
            if isinstance(loaded, dict):
                _CODE.update(
                    (k, v) for k, v in loaded.items() if isinstance(k, str) and isinstance(v, bytes)
                )
    dataclasses.exec = _exec  # type: ignore[attr-defined]


def _exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    """``exec`` as dataclasses calls it, from the cache for hh's classes."""
    name = globals.get("__name__") if isinstance(globals, dict) else None
    if not (isinstance(source, str) and isinstance(name, str) and name.startswith("hh.")):
        exec(source, globals, locals)
        return
    data = _CODE.get(source)
    code = None
    if data is not None:
        with contextlib.suppress(Exception):  # a damaged entry: compiled again
            code = marshal.loads(data)
    if not isinstance(code, CodeType):
        code = compile(source, "<string>", "exec")
        _CODE[source] = marshal.dumps(code)
        _save()
    exec(code, globals, locals)


def _save() -> None:
    """Write the cache whole, atomically (a new file, then renamed), so that
    a reader never sees half of one. Best effort: a failure costs speed."""
    path = _path()
    if not path:
        return
    import tempfile

    with contextlib.suppress(Exception):
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".dataclasses-")
        try:
            with os.fdopen(fd, "wb") as f:
                marshal.dump(_CODE, f)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
