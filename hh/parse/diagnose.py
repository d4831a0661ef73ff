"""The words for a hand that is not in the format: a line in the wrong
place (:func:`structural`, from Lark's LALR parser) and a line that matches
no line terminal (:func:`explain`, from an Earley twin of the grammar).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from hh.parse.grammar import DEFINITION, all_tokens, grammar_text, grammar_tokens, unquote
from hh.parse.lines import LINE_KINDS, NAME_LINES, GameLines

_WORDS = {
    "HEADER_LINE": "a header line ('[<site> ]Hand #<id>: <game> ... - <date> <time>')",
    "TABLE_LINE": "the table line ('Table '<name>' <n>-max Seat #<k> is the dealer')",
    "HOUSE_RULES_LINE": "a 'House rules: ...' line",
    "COMMITMENT_LINE": "a 'Shuffle commitment: ...' line",
    "SEAT_LINE": "a seat line ('Seat <k>: <name> (<n> in chips)')",
    "POST_LINE": "a forced bet ('<name>: posts blind <n>' or 'posts ante <n>')",
    "TOP_UP_LINE": "a top-up ('<name>: adds <n> chips')",
    "MARKER_LINE": "a street marker ('*** <street> ***')",
    "DEAL_LINE": "a Dealt line",
    "ACTION_LINE": "an action",
    "UNCALLED_LINE": "an 'Uncalled bet' line",
    "COLLECTED_LINE": "a 'collected' line",
    "SHOW_LINE": "a 'shows' line",
    "MUCK_LINE": "a 'mucks hand' line",
    "INFO_LINE": "an informational line (says, is connected, is disconnected)",
    "SUMMARY_LINE": "'*** SUMMARY ***'",
    "TOTAL_POT_LINE": "the 'Total pot <n> | Rake <n>' line",
    "BOARD_LINE": "a 'Board [...]' line",
    "DECK_LINE": "a 'Deck [...]' line",
    "SEAT_OUTCOME_LINE": "a summary seat line ('Seat <k>: <name>: <outcome>')",
    "$END": "the end of the hand",
    "UNKNOWN_LINE": "a line of unknown kind",
    "NAME_LINE": "a line of unknown kind",
}
# the body's line kinds (forced bets to the showdown's lines) and the summary's
# parts after its marker: slices of the grammar's own order, not copies of it
_BODY = frozenset(LINE_KINDS[LINE_KINDS.index("POST_LINE") : LINE_KINDS.index("SUMMARY_LINE")])
_SUMMARY_PARTS = frozenset(LINE_KINDS[LINE_KINDS.index("SUMMARY_LINE") + 1 :])


def _either(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _expected_kinds(expected: Iterable[str]) -> str:
    kinds = set(expected)
    words = []
    if kinds >= _BODY:
        kinds -= _BODY
        words.append("a line of play (forced bet, top-up, marker, Dealt line, action, ...)")
    words += [_WORDS[k] for k in (*LINE_KINDS, "$END") if k in kinds]
    return _either(words)


def structural(e: UnexpectedToken, lines: list[str], first: int) -> tuple[int, str, int]:
    """(line, message, column) for a valid line in the wrong place, or a hand
    that ends too early."""
    tok = e.token
    expected = set(e.expected)
    if tok.type == "$END":
        last = first + len(lines) - 1
        if "SUMMARY_LINE" in expected:
            what = "without '*** SUMMARY ***'"
        elif "TOTAL_POT_LINE" in expected:
            what = "without its 'Total pot <n> | Rake <n>' line"
        else:
            what = "too early"
        return (
            last + 1,
            f"the hand ends {what}: expected {_expected_kinds(expected)} after line {last} "
            "(reported at column 1 of the line after the hand's last line)",
            1,
        )
    found = _WORDS.get(tok.type, tok.type)
    if tok.line == first:
        message = f"a hand begins with {_WORDS['HEADER_LINE']}, not {found}"
    elif "SUMMARY_LINE" in expected and tok.type in _SUMMARY_PARTS:
        message = f"'*** SUMMARY ***' is missing before {found}"
    elif tok.type == "HEADER_LINE":
        message = (
            "a header line inside a hand (a hand begins with its header; "
            "hands are separated by blank lines)"
        )
    else:
        message = f"{found} cannot come here: expected {_expected_kinds(expected)}"
    return tok.line, message, 1


# ------------------------------------------------------------------ line diagnostics
#
# A line that matched no terminal is parsed again, alone, by an Earley parser
# built from the same grammar text, in which every composite terminal (a line
# terminal, or a piece built from other pieces) has been turned into a rule
# by lower-casing its name. The error then stops at the first piece that did
# not fit, and the Earley items say what was expected there.

_AMOUNT_REGEX = "0|[1-9][0-9]{0,17}"
_MAX_DIGITS = 18

_PLACEHOLDERS = {
    "NAME": "<name>",
    "SITE": "<site>",
    "HAND_ID": "<id>",
    "GAME": "<game>",
    "DATE": "<YYYY/MM/DD>",
    "TIME": "<HH:MM:SS>",
    "ZONE": "<zone>",
    "TABLE_NAME": "<table name>",
    "DEALER": "<k>",
    "SEAT_NO": "<k>",
    "SIDE_NO": "<k>",
    "SIDE_POT_NO": "<k>",
    "RANK": "<rank>",
    "DIGEST": "<64 lowercase hex digits>",
    "SALT": "<hex>",
    "CARD": "<card>",
    "CARDS": "<cards>",
    "DEALT_CARDS": "<cards>",
    "STREET": "<street>",
    "DESCRIPTION": "<description>",
    "CHAT": "<text>",
}
_CATEGORIES = (
    "high card",
    "a pair",
    "two pair",
    "three of a kind",
    "a straight",
    "a flush",
    "a full house",
    "four of a kind",
    "a straight flush",
    "five aces",
    "La Perla",
)
_EXPLAIN = {
    "<n>": "a whole number written plainly: no sign, leading zeros or separators",
    "<k>": "a number from 1, written plainly",
    "<name>": 'a player name: 1 to 32 characters, none of : ( ) [ ] " nor a control '
    "character, no space at either end",
    "<description>": "a hand description beginning with its category ("
    + ", ".join(f"'{c}'" for c in _CATEGORIES)
    + "), then optionally ',' and free text",
    "<zone>": "2 to 5 capital letters or an offset like +01:00",
    "<id>": "letters, digits, '_' and '-'",
    "<table name>": "any characters but ' and control characters",
}


class _Diagnoser:
    """The Earley twin of the grammar, and the words for its errors."""

    def __init__(self, text: str, patterns: dict[str, str]) -> None:
        # each line terminal with its numbers unbounded: a line that matches
        # only so is wrong only in the length of a number
        self.loose = {
            kind: re.compile(pattern.replace("[0-9]{0,17}", "[0-9]*"))
            for kind, pattern in patterns.items()
        }
        self.defs = {m.group(1): grammar_tokens(m.group(2)) for m in DEFINITION.finditer(text)}
        self.leaves = {
            name
            for name, body in self.defs.items()
            if len(body) == 1 and body[0][0] in ("string", "regex")
        }
        composite = set(self.defs) - self.leaves
        out = []
        for kind, word in all_tokens(text):
            out.append(word.lower() if kind == "name" and word in composite else word)
        lines = [k.lower() for k in LINE_KINDS if k in composite]
        names = " | ".join(k.lower() for k in NAME_LINES)
        twin = "".join(out) + f"\nname_line: {names}\nline: {' | '.join(lines)}\n"
        self.parser = Lark(
            twin, start=[*lines, "name_line", "line"], parser="earley", lexer="dynamic"
        )
        self._failures: dict[tuple[str, str], tuple[int, list[tuple[Any, int]]] | None] = {}
        self._templates: dict[str, str] = {}
        self.pieces = {k.lower(): k for k in composite}
        self.literals = {
            t.name: t.pattern.value for t in self.parser.terminals if t.pattern.type == "str"
        }
        # where each piece is first written, to list alternatives in order
        self.order: dict[str, int] = {}
        for i, (_kind, word) in enumerate(grammar_tokens(text)):
            self.order.setdefault(word, i)

    # ---------------------------------------------------------- templates

    def placeholder(self, name: str) -> str:
        if name in _PLACEHOLDERS:
            return _PLACEHOLDERS[name]
        body = self.defs.get(name)
        if body is None:
            return f"<{name.lower()}>"
        if name in self.leaves:
            kind, word = body[0]
            if kind == "string":
                return unquote(word)
            return "<n>" if _AMOUNT_REGEX in word else f"<{name.lower().replace('_', ' ')}>"
        return self.template(name)

    def template(self, name: str) -> str:
        """A composite piece written out: literals as they are, pieces as
        placeholders, optional and repeated parts left out."""
        if name not in self._templates:
            self._templates[name], _ = self._alternatives(self.defs[name], 0)
        return self._templates[name]

    def _alternatives(self, tokens: list[tuple[str, str]], i: int) -> tuple[str, int]:
        options = []
        while True:
            text, i = self._sequence(tokens, i)
            options.append(text)
            if i < len(tokens) and tokens[i][1] == "|":
                i += 1
                continue
            break
        if len(options) == 1:
            return options[0], i
        if all(o.startswith(" ") for o in options):
            return " (" + "|".join(o[1:] for o in options) + ")", i
        return "(" + "|".join(options) + ")", i

    def _sequence(self, tokens: list[tuple[str, str]], i: int) -> tuple[str, int]:
        parts = []
        while i < len(tokens) and tokens[i][1] not in ("|", ")"):
            kind, word = tokens[i]
            if word == "(":
                text, i = self._alternatives(tokens, i + 1)
                i += 1  # the ")"
            elif kind == "string":
                text, i = unquote(word), i + 1
            elif kind == "name":
                text, i = self.placeholder(word), i + 1
            else:
                text, i = "", i + 1
            if i < len(tokens) and tokens[i][1] in ("?", "*"):
                # optional words are left out, an optional field is shown
                if not (kind == "name" and word in self.leaves and text.startswith("<")):
                    text = ""
                i += 1
            elif i < len(tokens) and tokens[i][1] == "+":
                i += 1
            parts.append(text)
        return "".join(parts), i

    # ---------------------------------------------------------- errors

    def explain(self, text: str, kind: str | None, game: GameLines | None) -> tuple[str, int]:
        """(message, column) for a line that matched no terminal."""
        if kind is None and ":" in text:
            kind = "NAME_LINE"  # "Ana:checks": read it as the name line it nearly is
        if kind is None:
            return (
                "unknown line: a hand's lines are its header, 'Table ...', 'Seat <k>: ...', "
                "'<name>: <action>', 'Dealt to <name>: ...', '*** <street> ***', "
                "'Uncalled bet (<n>) returned to <name>' and its summary lines",
                1,
            )
        too_long = _long_number(text, kind, self.loose)
        if too_long is not None:
            return too_long
        if len(text) > _LONGEST_EXPLAINED:
            # No real hand's line is this long; Earley's time, which grows
            # with the line's length, is better not spent on it.
            return (
                f"this line ({len(text)} characters) does not have the form of "
                f"{_WORDS.get(kind, 'a line')}",
                1,
            )
        start = "name_line" if kind == "NAME_LINE" else kind.lower()
        shape = _shape(text)
        failure = self._failure(start, shape)
        if failure is None:  # the twin accepts what the line terminal refused: should not happen
            return (f"this line does not have the form of {_WORDS.get(kind, 'a line')}", 1)
        pos, items = failure
        return self._words(text, start, pos, items, game, shape)

    def _failure(self, start: str, text: str) -> tuple[int, list[tuple[Any, int]]] | None:
        """Where Earley stops on ``text`` and what it expected there (None: it
        accepts the line). Earley is what a reject costs (several times the
        judging of a whole hand), and the rejects of one file repeat their
        lines, so its answers are remembered (bounded): a function of the
        text, whatever was seen before."""
        key = (start, text)
        if key in self._failures:
            return self._failures[key]
        if len(self._failures) >= _FAILURES_KEPT:
            self._failures.clear()
        found: tuple[int, list[tuple[Any, int]]] | None
        try:
            self.parser.parse(text, start=start)
        except UnexpectedCharacters as e:
            found = (e.pos_in_stream or 0, [(i.rule, i.ptr) for i in e.considered_rules or ()])
        except UnexpectedEOF as e:
            found = (len(text), [s for s in e.state if isinstance(s, tuple)])
        else:
            found = None
        self._failures[key] = found
        return found

    def _words(
        self,
        text: str,
        start: str,
        pos: int,
        items: list[tuple[Any, int]],
        game: GameLines | None,
        shape: str,
    ) -> tuple[str, int]:
        expected: dict[str, int] = {}  # text -> order
        literal_of: dict[str, str] = {}  # expected text -> the literal that begins it
        after_name = False
        for rule, ptr in items:
            symbol = rule.expansion[ptr]
            if ptr > 0 and rule.expansion[ptr - 1].name == "NAME":
                after_name = True
            origin = str(rule.origin.name)
            if ptr == 0 and origin in self.pieces and not origin.endswith("_line"):
                piece = self.pieces[origin]
                words = f"'{self.template(piece)}'"
                order = self.order.get(piece, 0)
            else:
                name = symbol.name
                if name in self.defs:
                    words = self.placeholder(name)
                    if not words.startswith("<"):
                        words = f"'{words}'"
                    order = self.order.get(name, 0)
                else:
                    words = f"'{self.literals.get(name, name)}'"
                    order = self.order.get(f'"{self.literals.get(name, name)}"', 0)
            expected.setdefault(words, order)
            if symbol.name in self.literals:
                literal_of[words] = self.literals[symbol.name]
        wanted = sorted(expected, key=lambda w: (expected[w], w))
        hint = self._hint(text, pos, after_name, wanted, game)
        if hint is not None:
            return hint
        rest = text[pos:]
        column = pos + 1
        ends_early = not rest
        if rest:
            cut = [w for w, lit in literal_of.items() if lit.startswith(rest) and lit != rest]
            if cut:  # "Ana: bets": the line stops inside what was expected
                wanted = [w for w in wanted if w in cut]
                ends_early = True
                column = len(text) + 1
        if not ends_early and self._complete(shape[:pos], start):
            wanted.append("the end of the line")
        message = f"expected {_either(wanted)} {_context(text, pos)}"
        if ends_early:
            message = f"the line ends too early: {message}"
        else:
            found = _found(rest)
            if any(w in _LONG_FIELDS for w in wanted):  # fields with spaces: show more
                found = rest if len(rest) <= 24 else rest[:21] + "..."
            message += f", found '{found}'"
        notes = [f"{p} is {_EXPLAIN[p]}" for p in _EXPLAIN if p in wanted]
        if "<card>" in wanted and game is not None:
            notes.append(game.explain_card)
        if "<street>" in wanted and game is not None:
            notes.append(f"the streets of {game.game.label} are {game.explain_street}")
        if notes:
            message += " (" + "; ".join(notes) + ")"
        return message, column

    def _hint(
        self, text: str, pos: int, after_name: bool, words: list[str], game: GameLines | None
    ) -> tuple[str, int] | None:
        """Plain words for the usual mistakes, where the grammar's view (what
        would have fitted here) would be beside the point."""
        rest = text[pos:]
        if rest and _CONTROL.match(rest):
            return (
                f"the character {_codepoint(rest[0])} cannot be here: sites, names and table "
                "names hold no control characters, byte-order marks or line separators",
                pos + 1,
            )
        if "<name>" in words:
            for rule, beginning in _NAME_RULES:
                if rule.match(rest):
                    return (
                        f"a name may not begin with {beginning} (FORMAT.md, Settled details): "
                        "a line's first words tell its kind, so a name may not begin like "
                        "another kind of line",
                        pos + 1,
                    )
        bad = pos + len(rest) - len(rest.lstrip(" "))
        later = text[bad + 1 :]  # the name goes on if its end comes later
        if after_name and text[bad : bad + 1] in _NOT_IN_NAMES and (": " in later or " (" in later):
            name_start = _name_start(text)
            return (
                f"a name may not contain {text[bad]!r} (in {text[name_start : bad + 1]!r}...): "
                'names hold none of : ( ) [ ] "',
                bad + 1,
            )
        if after_name and rest and pos - _name_start(text) >= 32 and rest[:2] not in (": ", " ("):
            return ("a name has at most 32 characters", pos + 1)
        if rest.startswith("??") and "<card>" in words:
            return (
                "'??' (a card the log's writer could not see) may appear only in Dealt lines",
                pos + 1,
            )
        number = _NUMBER.match(text, _digits_start(text, pos))
        if number is not None and (
            "<n>" in words or "<k>" in words or (pos > 0 and text[pos - 1].isdigit())
        ):
            value = number.group()
            if not _PLAIN.fullmatch(value) and number.end() > pos:
                return (
                    f"bad amount {value!r}: amounts are whole numbers written plainly "
                    "(no sign, leading zeros, decimals or separators)",
                    number.start() + 1,
                )
        if "<card>" in words and len(rest) >= 2 and rest[1:2].isalpha():
            notation = (
                game.explain_card
                if game is not None
                else (
                    "a card is a French rank 2-9 T J Q K A with a suit c d h s, the joker Jk, or "
                    "a Spanish rank 5 6 7 S C R A with a suit o c e b"
                )
            )
            return (f"{rest[:2]!r} is not a card: {notation}", pos + 1)
        return None

    def _complete(self, text: str, start: str) -> bool:
        """Whether ``text`` is a whole line of its kind (remembered as
        :meth:`_failure` remembers)."""
        key = ("complete " + start, text)
        if key not in self._failures:
            if len(self._failures) >= _FAILURES_KEPT:
                self._failures.clear()
            try:
                self.parser.parse(text, start=start)
            except UnexpectedInput:
                self._failures[key] = None
            else:
                self._failures[key] = (0, [])
        return self._failures[key] is not None


_FAILURES_KEPT = 4096  # Earley's answers remembered (lines of at most _LONGEST_EXPLAINED)
# A header's hand id: each hand has its own, and Earley reads any id alike
_HEADER_ID = re.compile(r"((?:\S+ )?Hand #)([A-Za-z0-9_-]+)(?=: )")


def _shape(text: str) -> str:
    """The line as Earley is asked about it: a header's hand id (when it is
    one: the error is elsewhere) as zeros of its length, so that the
    rejects of a file share their answers; the words of the message are
    made from the line itself."""
    m = _HEADER_ID.match(text)
    if m is None:
        return text
    return m.group(1) + "0" * len(m.group(2)) + text[m.end() :]


_LONGEST_EXPLAINED = 4000  # a Deck line of 53 cards and a long salt is under 300
_LONG_FIELDS = frozenset(["<description>", "<name>", "<table name>", "<text>"])
_NOT_IN_NAMES = frozenset(':()[]"')
_NUMBER = re.compile(r"[-+]?[0-9][0-9,._']*|[-+][0-9,._']*")
_PLAIN = re.compile(_AMOUNT_REGEX)
# What the character classes of sites, names and table names leave out.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")
# The beginnings a name may not have (NAME in the grammar), as FORMAT.md words them.
_NAME_RULES = tuple(
    (re.compile(rule), words)
    for rule, words in (
        (r"Seat [0-9]", "'Seat <n>'"),
        (r"Dealt to (?!\()", "'Dealt to '"),
        (r"\*\*\*", "'***'"),
        (r"Uncalled bet", "'Uncalled bet'"),
        (r"House rules", "'House rules'"),
        (r"Shuffle commitment", "'Shuffle commitment'"),
        (r"Total pot", "'Total pot'"),
        (r"Board (?!\()", "'Board '"),
        (r"Deck (?!\()", "'Deck '"),
        (r"Table '", '"Table \'"'),
        (r"Hand #", "'Hand #'"),
        (r"\S+ Hand #", "'<word> Hand #'"),
    )
)


def _codepoint(char: str) -> str:
    return f"U+{ord(char):04X}"


def _long_number(
    text: str, kind: str, loosened: dict[str, re.Pattern[str]]
) -> tuple[str, int] | None:
    """(message, column) when the line's only fault is a number of more
    than 18 digits (which no int() should be asked to read)."""
    loose = loosened.get(kind)
    m = loose.fullmatch(text) if loose is not None else None
    if m is None:
        return None
    for name, value in m.groupdict().items():
        if value is not None and len(value) > _MAX_DIGITS and value.isdigit():
            return (
                f"this number has {len(value):,} digits: a number in a hand has at most "
                f"{_MAX_DIGITS} digits",
                m.start(name) + 1,
            )
    return None


def _digits_start(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1] in "0123456789":
        pos -= 1
    if pos > 0 and text[pos - 1] in "+-" and (pos == 1 or text[pos - 2] in " ($"):
        pos -= 1
    return pos


def _name_start(text: str) -> int:
    for prefix in ("Dealt to ", "Uncalled bet ("):
        if text.startswith(prefix):
            return len(prefix)
    if text.startswith("Seat "):
        return text.find(": ") + 2
    return 0


def _context(text: str, pos: int) -> str:
    if pos == 0:
        return "at the start of the line"
    before = text[:pos]
    if len(before) > 40:
        before = "..." + before[-37:]
    return f"after {before!r}"


def _found(rest: str) -> str:
    end = rest.find(" ", 1)
    word = rest if end < 0 else rest[:end]
    return word if len(word) <= 20 else word[:17] + "..."


@cache
def _diagnoser(patterns: Callable[[], dict[str, str]]) -> _Diagnoser:
    return _Diagnoser(grammar_text(), patterns())


def explain(
    text: str, kind: str | None, game: GameLines | None, patterns: Callable[[], dict[str, str]]
) -> tuple[str, int]:
    """(message, column) for a line that matched no terminal; ``patterns``
    gives each line terminal's regex as Lark compiles it
    (:func:`hh.parse.lark.line_patterns`)."""
    return _diagnoser(patterns).explain(text, kind, game)
