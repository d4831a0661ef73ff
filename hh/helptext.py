"""Help that speaks the user's words: a parameter's value named as a user
reads it (``N``, ``TEXT``, ``PATH``), never as a Python type (``<str>``,
``<int range>``), and flags with no value word at all.

typer labels a parameter in ``--help`` with its type's name unless the
parameter has a ``metavar``. :class:`App` is a ``typer.Typer`` whose
commands (and groups) give every option without one the metavar
:func:`word` names (an argument, its type column), through typer's public
command classes: the ``hh`` app (hh.cli) and the command groups of the
plugins are :class:`App`\\ s, and ``tests/test_report_cli.py`` checks
every command's help."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import typer
import typer.core

F = TypeVar("F", bound=Callable[..., Any])

# what a value is called in help, by the name of its parameter type
_WORDS: dict[str, str] = {
    "str": "TEXT", "int": "N", "int range": "N", "float": "X", "float range": "X",
    "path": "PATH", "file": "PATH", "directory": "PATH", "boolean": "",
}  # fmt: skip


def word(param: Any) -> str | None:
    """The help word of a typer parameter ("" for a flag), None to leave
    typer's own (a choice lists its values)."""
    if getattr(param, "is_flag", False):
        return ""
    return _WORDS.get(getattr(param.type, "name", ""))


class _Said:
    """A parameter type that says ``word`` as its metavar, and is otherwise
    the type it wraps (its conversion, its name)."""

    def __init__(self, kind: Any, found: str) -> None:
        self._kind = kind
        self._found = found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kind, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._kind(*args, **kwargs)

    def get_metavar(self, param: Any, ctx: Any) -> str:
        return self._found


def _plain(params: list[Any]) -> list[Any]:
    """An option's value word is its metavar; an argument keeps its name as
    the label, and its type (whose metavar typer's help shows in the type
    column) says the word instead."""
    for param in params:
        found = word(param)
        if found is None:
            continue
        if isinstance(param, typer.core.TyperArgument):
            if not isinstance(param.type, _Said):
                cast(Any, param).type = _Said(param.type, found)
        elif param.metavar is None:
            param.metavar = found
    return params


class PlainCommand(typer.core.TyperCommand):
    """A command whose help names values by :func:`word`."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain(super().get_params(ctx))


class PlainGroup(typer.core.TyperGroup):
    """A group (its own options, as ``--version``) named the same way."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain(super().get_params(ctx))


class App(typer.Typer):
    """``typer.Typer`` with :class:`PlainGroup` and :class:`PlainCommand` as
    the default classes of the app and of each command."""

    def __init__(self, **settings: Any) -> None:
        settings.setdefault("cls", PlainGroup)
        super().__init__(**settings)

    def command(self, *args: Any, **settings: Any) -> Callable[[F], F]:
        settings.setdefault("cls", PlainCommand)
        decorate: Callable[[F], F] = super().command(*args, **settings)
        return decorate
