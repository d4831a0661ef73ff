"""The fast path: a well-formed hand read without Lark's parser, with the
line regexes Lark compiles from the grammar (:func:`hh.parse.lark.line_patterns`)
and the grammar's rules read as one regex over a letter per line kind
(:func:`hh.parse.grammar.structure_regex`). Any fault returns None, and
Lark's path then says what the error is (:mod:`hh.parse.hands`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from hh.model import Hand
from hh.parse.grammar import grammar_text, structure_regex
from hh.parse.lines import BUILDERS, LINE_KINDS, LineFault, LineMemo, LineState, assemble, classify


class _Tables:
    """What the fast path needs of the grammar: each line kind's compiled
    regex (the terminal Lark compiles from the grammar), and the rules as a
    regex over one letter per line kind."""

    __slots__ = ("letters", "match", "structure")

    def __init__(self, patterns: dict[str, str], structure: str) -> None:
        self.match: dict[str, Callable[[str], re.Match[str] | None]] = {
            kind: re.compile(pattern).fullmatch for kind, pattern in patterns.items()
        }
        self.letters = {kind: chr(65 + i) for i, kind in enumerate(LINE_KINDS)}
        self.structure = re.compile(structure).fullmatch


@cache
def tables() -> _Tables:
    """The line regexes as Lark reads them from the grammar (Lark keeps its
    analysis of the grammar in its own cache), and the rules' regex."""
    from hh.parse.lark import line_patterns

    return _Tables(line_patterns(), structure_regex(grammar_text(), LINE_KINDS))


def parse_fast(lines: list[str], first: int) -> Hand | None:
    """The hand, read without Lark; None when any line or the order of the
    lines is wrong (then Lark says which error comes first)."""
    found = tables()
    match, letters, builders = found.match, found.letters, BUILDERS
    state = LineState()
    kinds: list[str] = []
    objs: list[Any] = []
    n = first
    memo: LineMemo | None = None  # the game's, once the header has named it
    seen: dict[str, tuple[str, Callable[..., Any], tuple[Any, ...]]] = {}  # its lines
    for text in lines:
        hit = seen.get(text)
        if hit is not None:
            known, cls, args = hit
            objs.append(cls(*args, n))
            kinds.append(known)
            n += 1
            continue
        kind = classify(text)
        if kind is None or (n == first and kind != "HEADER_LINE"):
            return None
        fullmatch = match.get(kind)
        if fullmatch is None:
            return None
        m = fullmatch(text)
        if m is None:
            return None
        try:
            obj = builders[kind](m, text, n, state)
        except LineFault:
            return None
        objs.append(obj)
        kinds.append(kind)
        if memo is not None:
            memo.remember(text, kind, obj)
        elif state.game is not None:
            memo = state.game.memo
            seen = memo.lines
        n += 1
    if found.structure("".join([letters[k] for k in kinds])) is None:
        return None
    return assemble(kinds, objs)
