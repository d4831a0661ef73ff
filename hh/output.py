"""Verdicts as ``hh validate`` prints them, and untrusted text made safe to show.

A verdict is rendered where it is judged (a worker process, or the main one)
into :class:`Rendered` pieces: the lines before and after its violations,
and one block per violation. The cross-hand checks, which run later in the
main process, may add violations; :func:`finish` then merges their blocks
by line, so no verdict object crosses processes and a hand without
cross-hand faults costs one string join.

Player names, table names, sites, file names and quoted lines come from the
input. In text output every control character is shown escaped (``\\x1b``),
as a linter does, so that no escape sequence reaches the terminal; the JSON
output escapes the characters that split lines for some readers (U+2028,
U+2029, U+0085 and the other C1 controls, DEL).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from json.encoder import encode_basestring
from typing import Final

from hh.model import ModelRecord
from hh.validate import Verdict, Violation

# C0 and C1 controls, DEL, line and paragraph separators, the byte-order mark
# and the bidirectional controls (which reorder what a terminal shows): every
# command that shows untrusted text on a terminal escapes these (hh validate,
# hh show, hh report)
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029]")


def _escape_one(m: re.Match[str]) -> str:
    c = m.group()
    named = _NAMED.get(c)
    if named is not None:
        return named
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def safe(text: str) -> str:
    """``text`` with every control character written as an escape."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_escape_one, text)


def safe_json(line: str) -> str:
    """A JSON text with U+2028, U+2029, DEL and the C1 controls (U+0085 among
    them) as ``\\u`` escapes: still the same JSON, and one line for every
    reader (``str.splitlines`` breaks at them)."""
    if _JSON_UNSAFE.search(line) is None:
        return line
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def dumps(obj: object) -> str:
    """One JSON line as ``hh`` writes it: UTF-8 as is, the odd characters escaped."""
    return safe_json(json.dumps(obj, ensure_ascii=False))


def quote(text: str, column: int | None, indent: int = 6) -> str:
    """A quoted input line, indented, with a caret under ``column`` (counted
    in the line as read; escapes before it move the caret with them)."""
    pad = " " * indent
    out = f"{pad}{safe(text)}\n"
    if column is not None:
        out += f"{pad}{' ' * len(safe(text[: column - 1]))}^\n"
    return out


def label(hand_id: str | None, game: str | None) -> str:
    """How a verdict names its hand: ``#CH-2 chiribito``; a hand whose id
    cannot be read, ``chiribito hand (no readable id)``; lines that are no
    hand, ``(not a hand)``."""
    if hand_id:
        return f"#{safe(hand_id)} {game}" if game else f"#{safe(hand_id)}"
    if game:
        return f"{game} hand (no readable id)"
    return "(not a hand)"


class Rendered(ModelRecord):
    """A verdict ready to print, but for the cross-hand faults still to come
    (a record: it crosses from the workers, pickled through ``__init__``).
    ``where``: (text output) the file, escaped, which cross-hand blocks
    need; ``blocks``: (line, text) per violation, by line; ``quotes``: (text
    output) the lines cross-hand faults may quote."""

    FIELDS = ("head", "where", "blocks", "tail", "quotes")
    __slots__ = FIELDS

    def __init__(
        self,
        head: str,
        where: str,
        blocks: tuple[tuple[int, str], ...],
        tail: str,
        quotes: tuple[tuple[int, str], ...],
    ) -> None:
        self.head: Final = head
        self.where: Final = where
        self.blocks: Final = blocks
        self.tail: Final = tail
        self.quotes: Final = quotes


def render(v: Verdict, raw: str, as_json: bool) -> Rendered:
    """The pieces of one verdict's output. ``raw`` is the hand's text, split
    once for all its violations (quoting each from a new split was
    quadratic in the violations of a hand). JSON pieces are escaped here,
    each on its own (the text :func:`finish` puts between them is ASCII), so
    that the search for odd characters runs in the workers, not in the main
    process over every finished line."""
    if as_json:
        return Rendered(
            safe_json(_json_head(v)),
            "",
            tuple((x.line, dumps(x.to_json())) for x in v.violations),
            safe_json(_json_tail(v)),
            (),
        )
    where = safe(v.file or "-")
    head = f"{where}:{v.line}: {label(v.hand_id, v.game)}"
    if v.valid:
        return Rendered(head, where, (), "", ())
    lines = raw.split("\n")
    blocks = tuple((x.line, _block(where, x, _line(lines, v.line, x.line))) for x in v.violations)
    wanted = {v.line, v.table_line, *(s.line for s in v.stacks)}
    quotes = tuple((n, _line(lines, v.line, n)) for n in sorted(wanted) if n)
    return Rendered(head, where, blocks, "", quotes)


# The verdict's JSON around its violations, written directly: the bytes
# json.dumps(v.to_json(), ensure_ascii=False) gives there (strings by the
# function json.dumps itself uses, integers as json writes them), without
# building the dict and running the encoder for every hand.
# Verdict.to_json stays the definition: a test holds
# these to it on simulated, mutated and unparsable hands and odd names.
def _text(x: str | None) -> str:
    return "null" if x is None else encode_basestring(x)


def _names(names: Sequence[str]) -> str:
    return "[" + ", ".join([encode_basestring(x) for x in names]) + "]"


def _chips(by_name: dict[str, int] | None) -> str:
    if by_name is None:
        return "null"
    return "{" + ", ".join([f"{encode_basestring(k)}: {n}" for k, n in by_name.items()]) + "}"


def _json_head(v: Verdict) -> str:
    """``{"file": ..., "game": ...`` (to_json's first keys), without the closing brace."""
    return (
        f'{{"file": {_text(v.file)}, "line": {v.line}, "hand_id": {_text(v.hand_id)}, '
        f'"site": {_text(v.site)}, "game": {_text(v.game)}'
    )


def _json_tail(v: Verdict) -> str:
    """``, "pots": ...}``: to_json's keys after the violations."""
    if v.pots is None:
        pots = "null"
    else:
        pots = (
            "["
            + ", ".join(
                [
                    f'{{"amount": {p.amount}, "eligible": {_names(p.eligible)}, '
                    f'"winners": {_names(p.winners)}}}'
                    for p in v.pots
                ]
            )
            + "]"
        )
    tail = f', "pots": {pots}, "payouts": {_chips(v.payouts)}, "net": {_chips(v.net)}'
    if v.unchecked:
        unchecked = [x.to_json() for x in v.unchecked]
        tail += ', "unchecked": ' + json.dumps(unchecked, ensure_ascii=False)
    return tail + "}"


def _line(lines: Sequence[str], first: int, line: int) -> str:
    k = line - first
    return lines[k] if 0 <= k < len(lines) else ""


def _block(where: str, x: Violation, text: str) -> str:
    column = f"{x.column}:" if x.column is not None else ""
    follows = "" if x.follows is None else f" (follows from line {x.follows})"
    out = f"  {where}:{x.line}:{column} {x.code}: {safe(x.message)}{follows}\n"
    return out + quote(text, x.column) if text else out


def finish(r: Rendered, extra: Sequence[Violation], as_json: bool) -> tuple[str, bool]:
    """The verdict's output with the cross-hand faults merged in by line, and
    whether the hand is valid."""
    blocks = r.blocks
    if extra:
        if as_json:
            more = tuple((x.line, dumps(x.to_json())) for x in extra)
        else:
            quotes = dict(r.quotes)
            more = tuple((x.line, _block(r.where, x, quotes.get(x.line, ""))) for x in extra)
        blocks = tuple(sorted(blocks + more, key=lambda b: b[0]))
    valid = not blocks
    if as_json:
        body = ", ".join(b for _, b in blocks)
        line = f'{r.head}, "valid": {"true" if valid else "false"}, "violations": [{body}]{r.tail}'
        return line + "\n", valid  # its pieces are escaped already (see render)
    if valid:
        return f"{r.head}: valid\n", True
    n = len(blocks)
    return f"{r.head}: INVALID, {n} violation{'' if n == 1 else 's'}\n" + "".join(
        b for _, b in blocks
    ), False
