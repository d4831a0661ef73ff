"""The grammar's text, read as data: its definitions, its leaf pieces, and
the order of line kinds its rules allow, written as a regex.

The parser's fast path (hh/parse/fast.py) reads the rules from here; Lark
(hh/parse/lark.py) reads the same text, compiles the line terminals and stays
the authority on what is an error.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

_GRAMMAR_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*)|(?P<string>"(?:\\.|[^"\\])*"i?)"""
    r"""|(?P<regex>/(?!/)(?:\\.|[^/\\\n])*/[imslux]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"""
    r"""|(?P<op>[()|?*+])|(?P<space>\s+)|(?P<other>.)""",
    re.S,
)
# A terminal's definition (NAME: ...), continuation lines indented.
DEFINITION = re.compile(r"^([A-Z_][A-Z0-9_]*)[ \t]*:(.*(?:\n[ \t]+[^\n]*)*)", re.M)
# A rule's definition (hand: ..., _head: ...), continuation lines indented.
RULE = re.compile(r"^(_?[a-z][a-z0-9_]*)[ \t]*:(.*(?:\n[ \t]+[^\n]*)*)", re.M)


@cache
def grammar_text() -> str:
    """The grammar, read from the installed package (``hh.grammar``, the
    repository's grammar/ folder) so that ``hh`` works outside the checkout."""
    return files("hh.grammar").joinpath("hh.lark").read_text(encoding="utf-8")


def grammar_tokens(body: str) -> list[tuple[str, str]]:
    """The tokens of a definition's body: (kind, text), without comments
    and white space."""
    return [
        (m.lastgroup or "", m.group())
        for m in _GRAMMAR_TOKEN.finditer(body)
        if m.lastgroup not in ("comment", "space")
    ]


def all_tokens(text: str) -> list[tuple[str, str]]:
    """Every token of a text, comments and white space included, in order."""
    return [(m.lastgroup or "", m.group()) for m in _GRAMMAR_TOKEN.finditer(text)]


def unquote(literal: str) -> str:
    return str(ast.literal_eval(literal.rstrip("i")))


@cache
def piece_pattern(name: str) -> str:
    """The regex of a leaf piece of the grammar (e.g. ``NAME``), for tools
    and tests that must agree with the grammar rather than copy it."""
    for m in DEFINITION.finditer(grammar_text()):
        if m.group(1) == name:
            body = grammar_tokens(m.group(2))
            if len(body) == 1 and body[0][0] == "regex":
                return body[0][1][1 : body[0][1].rindex("/")]
            if len(body) == 1 and body[0][0] == "string":
                return re.escape(unquote(body[0][1]))
    raise KeyError(f"{name} is not a leaf piece of the grammar")


def structure_regex(text: str, kinds: Sequence[str], start: str = "hand") -> str:
    """The rules of the grammar (which line kinds may follow which) as a
    regex over one letter per line kind: ``kinds[i]`` is ``chr(65 + i)``.

    The rules are regular (no rule refers to itself), so the translation is
    exact: names of line kinds become their letter, a rule's name becomes
    its body in a group, and ``( ) | ? * +`` mean what they mean in a regex.
    Anything else in a rule (a string, a regex, ``[...]``, a template) is
    refused, so a grammar that outgrows this reading fails loudly here
    instead of being read wrongly.
    """
    rules = {m.group(1): grammar_tokens(m.group(2)) for m in RULE.finditer(text)}
    letters = {kind: chr(65 + i) for i, kind in enumerate(kinds)}

    def expand(name: str, seen: tuple[str, ...]) -> str:
        if name in seen:
            raise ValueError(f"rule {name} refers to itself: not a regular structure")
        out = []
        for kind, word in rules[name]:
            if kind == "op":
                out.append("(?:" if word == "(" else word)
            elif kind == "name" and word in letters:
                out.append(letters[word])
            elif kind == "name" and word in rules:
                out.append("(?:" + expand(word, (*seen, name)) + ")")
            else:
                raise ValueError(f"rule {name}: {word!r} cannot be read as line structure")
        return "".join(out)

    return expand(start, ())
