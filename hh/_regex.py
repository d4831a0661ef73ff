"""Regexes rebuilt from their compiled programs, kept in the parser's cache.

Why: the parser's line regexes are long (Lark's terminals, joined), and
:mod:`re` compiles with a compiler written in Python: 13-16 ms at the start
of every process that parses, each parallel worker included, for the
same 21 patterns every time. The program :func:`re.compile` ends with (the
arguments of ``_sre.compile``) is plain data, so the parser's cache file
keeps it beside each pattern, and a later run rebuilds the regex from it in
microseconds. The cache file is per Python version (its name hashes
``sys.version``), the program records ``_sre.MAGIC`` (the engine's version),
and anything unexpected falls back to :func:`re.compile`: the result is the
same regex either way (tests/test_parse_hardening.py compares them).
"""

from __future__ import annotations

import re
from importlib import import_module
from typing import Any


def program(pattern: str) -> list[Any] | None:
    """What ``_sre.compile`` takes to build ``pattern`` (no flags), as JSON
    data; None where this Python's :mod:`re` is built otherwise."""
    try:  # internals with no type stubs, hence import_module
        _sre = import_module("_sre")
        _compiler, _parser = import_module("re._compiler"), import_module("re._parser")
        parsed = _parser.parse(pattern, 0)
        code = _compiler._code(parsed, 0)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        groups = parsed.state.groups - 1
        return [_sre.MAGIC, parsed.state.flags, list(code), groups, groupindex, indexgroup]
    except Exception:  # another Python's internals: compile as usual
        return None


def rebuild(pattern: str, data: Any) -> re.Pattern[str]:
    """``re.compile(pattern)``, from its program when ``data`` is one this
    Python made."""
    try:
        _sre = import_module("_sre")
        magic, flags, code, groups, groupindex, indexgroup = data
        if magic == _sre.MAGIC:
            compiled: re.Pattern[str] = _sre.compile(
                pattern, flags, code, groups, groupindex, tuple(indexgroup)
            )
            return compiled
    except Exception:  # no program, or not one this Python reads
        pass
    return re.compile(pattern)
