"""The Lark side of the parser: the authority on the format.

hh/parse/fast.py reads a well-formed hand without Lark's parser (with the
per-line regexes Lark compiles from the grammar, :func:`line_patterns`, and
the grammar's rules as one regex over line kinds). When a hand is not well
formed, or to check the fast path in the tests, the hand is parsed here, by
Lark's LALR parser over the same grammar, so that what is an error, and
which error comes first, is decided by the grammar.

* :class:`_LineLexer` (a Lark custom lexer) gives one token per line,
  read by :func:`read_line` with the same line records as the fast path
  (:mod:`hh.parse.lines`);
* Lark's LALR parser checks the order of the line kinds, and the transformer
  assembles the :class:`~hh.model.Hand` (no tree);
* when a line matches nothing, a second parser built lazily from the same
  grammar text (each composite terminal turned into a rule, Earley with the
  dynamic lexer) parses that line alone, so the error can name the first
  piece that did not fit and what would have fitted there
  (:mod:`hh.parse.diagnose`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedToken
from lark.lexer import Lexer

from hh.model import Hand
from hh.parse.diagnose import explain, structural
from hh.parse.grammar import grammar_text
from hh.parse.lines import (
    BUILDERS,
    LINE_KINDS,
    HandSyntaxError,
    LineError,
    LineFault,
    LineState,
    ParseError,
    assemble,
    classify,
)


class _LineToken(Token):
    """One line: ``type`` is its line terminal, ``line`` its number in the
    file, ``obj`` the model record built from it.

    Built with ``str.__new__`` and three assignments, because Token's own
    constructor costs more than the rest of a line's lexing; the position
    fields Lark reads when it appends its end token are class defaults.
    """

    __slots__ = ("obj",)
    obj: Any
    start_pos = column = end_line = end_column = end_pos = None


class _Source:
    """What the parser is given: the hand's lines, right-stripped, and the
    number of its first line in the file."""

    __slots__ = ("first", "lines")

    def __init__(self, lines: list[str], first: int) -> None:
        self.lines = lines
        self.first = first


class _LineLexer(Lexer):
    """One token per line, read by :func:`hh.parse.read_line`.

    Errors in a line are raised from here, in line order, so a hand's first
    wrong line is the one reported (unless the order of the lines went wrong
    before it, which the LALR parser reports as it reads).
    """

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        self.match: dict[str, Any] = {
            t.name: re.compile(t.pattern.to_regexp()).fullmatch for t in lexer_conf.terminals
        }

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        source: _Source = lexer_state.text
        match = self.match
        state = LineState()
        n = source.first
        new = str.__new__
        for i, text in enumerate(source.lines):
            kind, obj = read_line(text, n, state, match, i == 0)
            tok = new(_LineToken, text)
            tok.type, tok.line, tok.obj = kind, n, obj
            yield tok
            if obj is None:  # not a hand: the rules say so at this first token
                return
            n += 1


class _HandBuilder(Transformer[_LineToken, Hand]):
    """Assembles the Hand from the flat list of line tokens; the rules have
    already checked the order of the line kinds."""

    def hand(self, children: list[_LineToken]) -> Hand:
        return assemble([t.type for t in children], [t.obj for t in children])


def build(cache: str | bool) -> Lark:
    """Lark's LALR parser over the grammar. ``cache``: True keeps Lark's
    analysis of the grammar in Lark's own cache file (in the temporary
    folder, keyed by the grammar and Lark's version), False builds it."""
    return Lark(
        grammar_text(),
        start="hand",
        parser="lalr",
        lexer=_LineLexer,
        transformer=_HandBuilder(),
        cache=cache,
    )


@cache
def parser() -> Lark:
    return build(True)


def line_patterns() -> dict[str, str]:
    """Each line terminal's regex, as Lark compiles it from the grammar."""
    return {t.name: t.pattern.to_regexp() for t in parser().terminals if t.name in LINE_KINDS}


def parse_lines(lines: list[str], first: int, raw: list[str] | None = None) -> Hand:
    """Parse one hand (right-stripped, non-blank lines) the authoritative
    way; raises :class:`HandSyntaxError`."""
    try:
        return parser().parse(_Source(lines, first))  # type: ignore[return-value]  # Lark types parse() as a Tree; its transformer makes the Hand
    except LineError as e:
        i = e.line - first
        text = (raw or lines)[i]
        raise HandSyntaxError(ParseError(e.message, e.line, e.column, text)) from None
    except UnexpectedToken as e:
        line, message, column = structural(e, lines, first)
        i = line - first
        text = (raw or lines)[i] if i < len(lines) else ""
        raise HandSyntaxError(ParseError(message, line, column, text)) from None


# ------------------------------------------------------------------ structural errors


def read_line(
    text: str,
    n: int,
    state: LineState,
    match: dict[str, Callable[[str], re.Match[str] | None]],
    first: bool,
) -> tuple[str, Any]:
    """Read line ``n`` of a hand: its kind and model record, or raise
    :class:`LineError`. The first line of a text that is not a header is not
    read (its record is None): the rules will say the hand has no header."""
    kind = classify(text)
    if first and kind != "HEADER_LINE":
        return kind or "UNKNOWN_LINE", None
    fullmatch = match.get(kind) if kind is not None else None
    m = fullmatch(text) if fullmatch is not None else None
    if m is None or kind is None:
        raise LineError(n, *explain(text, kind, state.game, line_patterns))
    try:
        return kind, BUILDERS[kind](m, text, n, state)
    except LineFault as e:
        raise LineError(n, e.message, e.column) from None
