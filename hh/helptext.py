"""Help that speaks the user's words: a parameter's value named as a user
reads it (``N``, ``TEXT``, ``PATH``), never as a Python type (``<bool>``,
``<list[str]>``), and flags with no value word at all.

typer 0.29 (requirements.lock) labels every parameter in ``--help`` with
its annotation's Python name. :func:`install` replaces that one method,
``typer.core._TyperParameter.display_type``, for the whole process: the
``hh`` app (hh.cli) and every ``hh.commands`` plugin import this module. A
typer without that method is left alone (its help is then typer's own);
``tests/test_report_cli.py`` checks every command's help."""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

# what a value is called in help, by its type
_WORDS: dict[object, str] = {int: "N", float: "X", str: "TEXT", Path: "PATH", bool: ""}


def word(annotation: object) -> str | None:
    """The help word for an annotation ("" for a flag), None if unknown."""
    origin = typing.get_origin(annotation)
    if origin in (list, tuple):
        args = typing.get_args(annotation)
        return word(args[0]) if args else None
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        return word(kinds[0]) if len(kinds) == 1 else None
    return _WORDS.get(annotation)


def install() -> None:
    """Make typer's help name values by :func:`word` (once per process)."""
    try:
        from typer.core import _TyperParameter
    except ImportError:
        return
    original = getattr(_TyperParameter, "display_type", None)
    if original is None or getattr(original, "_hh_plain", False):
        return

    def display_type(self: Any, ctx: Any) -> str:
        if getattr(self, "is_flag", False):
            return ""
        descriptor = getattr(self, "type_descriptor", None)
        if descriptor is not None and not getattr(descriptor, "is_choice", False):
            found = word(getattr(descriptor, "annotation", None))
            if found is not None:
                return found
        return str(original(self, ctx))

    display_type._hh_plain = True  # type: ignore[attr-defined]
    _TyperParameter.display_type = display_type  # type: ignore[method-assign]


install()
