"""Help that speaks the user's words: a parameter's value named as a user
reads it (``N``, ``TEXT``, ``PATH``), never as a Python type (``<bool>``,
``<list[str]>``), and flags with no value word at all.

typer labels a parameter in ``--help`` with its annotation's Python name
unless the parameter has a ``metavar``. :class:`App` is a ``typer.Typer``
whose commands (and groups) give every option without one the metavar
:func:`word` names (an argument, its type column), through typer's public
command classes: the ``hh`` app
(hh.cli) and the command groups of the plugins are :class:`App`\\ s, and
``tests/test_report_cli.py`` checks every command's help."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
import typer.core

F = TypeVar("F", bound=Callable[..., Any])

# what a value is called in help, by its type
_WORDS: dict[object, str] = {int: "N", float: "X", str: "TEXT", Path: "PATH", bool: ""}


def annotation_word(annotation: object) -> str | None:
    """The help word for an annotation ("" for a flag), None if unknown."""
    origin = typing.get_origin(annotation)
    if origin in (list, tuple):
        args = typing.get_args(annotation)
        return annotation_word(args[0]) if args else None
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(annotation) if a is not type(None)]
        return annotation_word(kinds[0]) if len(kinds) == 1 else None
    return _WORDS.get(annotation)


def word(param: Any) -> str | None:
    """The help word of a typer parameter ("" for a flag), None to leave
    typer's own (a choice lists its values)."""
    if getattr(param, "is_flag", False):
        return ""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(descriptor, "is_choice", False):
        return None
    return annotation_word(getattr(descriptor, "annotation", None))


def _saying(found: str) -> Callable[[Any], str]:
    return lambda ctx: found


def _plain(params: list[Any]) -> list[Any]:
    """An option's value word is its metavar; an argument keeps its name as
    the label, and its type column (typer's ``display_type_rich``, which
    ignores an argument's metavar) says the word instead."""
    for param in params:
        found = word(param)
        if found is None:
            continue
        if isinstance(param, typer.core.TyperArgument):
            param.display_type_rich = _saying(found)  # type: ignore[method-assign,assignment]
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
