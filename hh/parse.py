"""Text to model: the only way hand-history text enters the system.

The grammar (``grammar/hh.lark``) states the format: one terminal per kind of
line, built from small named pieces, and rules for the order of line kinds.
Parsing a hand goes like this:

* :class:`_LineLexer` (a Lark custom lexer) classifies each line by its first
  words, ``fullmatch``es the one candidate line terminal (regexes compiled
  once from the grammar), checks cards and street names against the hand's
  game, builds the line's model record and emits one token per line;
* Lark's LALR parser checks the order of the line kinds, and the transformer
  given to its constructor assembles the :class:`~hh.model.Hand` (no tree);
* when a line matches nothing, a second parser built lazily from the same
  grammar text (each composite terminal turned into a rule, Earley with the
  dynamic lexer) parses that line alone, so the error can name the first
  piece that did not fit and what would have fitted there.

The parser records what the text says; the validator judges the play.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import os
import re
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from hh.cards import (
    FRENCH_RANKS,
    FRENCH_SUITS,
    JOKER,
    SPANISH_RANKS,
    SPANISH_SUITS,
    UNKNOWN,
)
from hh.model import (
    SHOWDOWN,
    Action,
    Board,
    Collected,
    Commitment,
    Deal,
    DeckLine,
    Game,
    Hand,
    Header,
    HouseRules,
    Info,
    Marker,
    Muck,
    Post,
    Seat,
    SeatOutcome,
    Section,
    Show,
    Stakes,
    Summary,
    Table,
    TopUp,
    TotalPot,
    Uncalled,
)

__all__ = [
    "HandSyntaxError",
    "ParseError",
    "Record",
    "parse_file",
    "parse_hand",
    "parse_stream",
    "parse_text",
    "piece_pattern",
]


# ------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class ParseError:
    """Why a hand (or a run of lines) is not in the format."""

    message: str  # what was wrong and what was expected, in words
    line: int  # in the file, from 1
    column: int  # in code points, from 1
    text: str  # the offending line as read (without line end)


@dataclass(frozen=True, slots=True)
class Record:
    """One hand of a file, or one run of lines that could not be a hand."""

    file: str | None
    line: int  # the hand's first line in the file
    raw: str  # the hand's text as in the file (lines joined with "\n", CR stripped)
    hand: Hand | None
    error: ParseError | None
    hand_id: str | None  # best effort even on error (None when no header could be read)
    site: str | None


class HandSyntaxError(ValueError):
    """Raised by :func:`parse_hand`; ``error`` says where and why."""

    def __init__(self, error: ParseError) -> None:
        super().__init__(f"line {error.line}, column {error.column}: {error.message}")
        self.error = error


class _Fail(Exception):
    """Internal: a line is wrong; carries (message, column from 1)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


# ------------------------------------------------------------------ grammar

LINE_KINDS = (
    "HEADER_LINE",
    "TABLE_LINE",
    "HOUSE_RULES_LINE",
    "COMMITMENT_LINE",
    "SEAT_LINE",
    "POST_LINE",
    "TOP_UP_LINE",
    "MARKER_LINE",
    "DEAL_LINE",
    "ACTION_LINE",
    "UNCALLED_LINE",
    "COLLECTED_LINE",
    "SHOW_LINE",
    "MUCK_LINE",
    "INFO_LINE",
    "SUMMARY_LINE",
    "TOTAL_POT_LINE",
    "BOARD_LINE",
    "DECK_LINE",
    "SEAT_OUTCOME_LINE",
)

# The line kinds that begin with "<name>: ": the word after ": " decides.
_NAME_LINES = (
    "POST_LINE",
    "TOP_UP_LINE",
    "ACTION_LINE",
    "COLLECTED_LINE",
    "SHOW_LINE",
    "MUCK_LINE",
    "INFO_LINE",
)
_VERBS = {
    "posts": "POST_LINE",
    "adds": "TOP_UP_LINE",
    "checks": "ACTION_LINE",
    "folds": "ACTION_LINE",
    "bets": "ACTION_LINE",
    "calls": "ACTION_LINE",
    "raises": "ACTION_LINE",
    "collected": "COLLECTED_LINE",
    "shows": "SHOW_LINE",
    "mucks": "MUCK_LINE",
    "says": "INFO_LINE",
    "is": "INFO_LINE",
}
# Lines told apart by their first words (names may not begin so: see NAME).
_PREFIX = re.compile(
    r"\*\*\* |Seat |Dealt to |Uncalled bet \(|Total pot |Board \[|Deck \[|House rules: "
    r"|Shuffle commitment: |Table '"
)
_PREFIX_KIND = {
    "Dealt to ": "DEAL_LINE",
    "Uncalled bet (": "UNCALLED_LINE",
    "Total pot ": "TOTAL_POT_LINE",
    "Board [": "BOARD_LINE",
    "Deck [": "DECK_LINE",
    "House rules: ": "HOUSE_RULES_LINE",
    "Shuffle commitment: ": "COMMITMENT_LINE",
    "Table '": "TABLE_LINE",
}
# A header: "Hand #" at the start or after the first word (the site).
_LOOKS_LIKE_HEADER = re.compile(r"(?:\S+ )?Hand #")
# Best effort for a header that did not parse, to name the hand in reports.
_HEADER_ID = re.compile(r"(?:(\S+) )?Hand #([A-Za-z0-9_-]+)")


def grammar_text() -> str:
    """The grammar, read from the installed package so that ``hh`` works
    outside the checkout."""
    return (resources.files("hh.grammar") / "hh.lark").read_text(encoding="utf-8")


def _cache_path(text: str) -> str | bool:
    """A per-grammar, per-version cache file for Lark's LALR tables, or False
    when no writable place exists (a read-only home must not break parsing)."""
    key = hashlib.sha256(
        "\0".join((text, lark.__version__, sys.version, __name__)).encode()
    ).hexdigest()[:20]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for folder in (os.path.join(base, "hh"), os.path.join(tempfile.gettempdir(), "hh-cache")):
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return os.path.join(folder, f"lark-{key}.pickle")
    return False


# ------------------------------------------------------------------ decks


class _Game:
    """What the lexer must know of the hand's game to check its lines."""

    __slots__ = ("cards", "dealt", "explain_card", "explain_street", "game", "streets")

    def __init__(self, game: Game) -> None:
        self.game = game
        if game is Game.CHIRIBITO:
            self.cards = frozenset(r + s for r in SPANISH_RANKS for s in SPANISH_SUITS)
            self.explain_card = (
                "Chiribito is played with Spanish cards: a rank of "
                f"{' '.join(SPANISH_RANKS)} followed by a suit of {' '.join(SPANISH_SUITS)}"
            )
            self.streets = frozenset(["HOLE CARDS"] + [f"COMMON {k}" for k in range(1, 6)])
            self.explain_street = "HOLE CARDS, COMMON 1 to COMMON 5 or SHOWDOWN"
        else:
            self.cards = frozenset([r + s for r in FRENCH_RANKS for s in FRENCH_SUITS] + [JOKER])
            self.explain_card = (
                f"{game.label} is played with French cards: a rank of "
                f"{' '.join(FRENCH_RANKS)} followed by a suit of {' '.join(FRENCH_SUITS)}, "
                f"or the joker {JOKER}"
            )
            if game is Game.ACES:
                self.streets = frozenset(["3RD STREET", "4TH STREET", "5TH STREET", "6TH STREET"])
                self.explain_street = "3RD STREET to 6TH STREET or SHOWDOWN"
            else:
                self.streets = frozenset(
                    [
                        "2ND STREET",
                        "3RD STREET",
                        "4TH STREET",
                        "5TH STREET",
                        "6TH STREET",
                        "7TH STREET",
                    ]
                )
                self.explain_street = "2ND STREET to 7TH STREET or SHOWDOWN"
        self.dealt = self.cards | {UNKNOWN}


_GAMES = {g: _Game(g) for g in Game}


# ------------------------------------------------------------------ lines


class _LineToken(Token):
    """One line: ``type`` is its line terminal, ``line`` its number in the
    file, ``obj`` the model record built from it.

    Built with ``str.__new__`` and three assignments, because Token's own
    constructor costs more than the rest of a line's lexing; the position
    fields Lark reads when it appends its end token are class defaults.
    """

    __slots__ = ("obj",)
    start_pos = column = end_line = end_column = end_pos = None


def _cards(text: str, start: int, end: int, ok: frozenset[str], game: _Game) -> tuple[str, ...]:
    """The cards between ``start`` and ``end``, each checked against the
    game's notation (the grammar accepts both notations)."""
    cards = tuple(text[start:end].split(" "))
    if ok.issuperset(cards):
        return cards
    pos = start
    for card in cards:
        if card not in ok:
            if card == UNKNOWN:
                raise _Fail(
                    "'??' (a card the log's writer could not see) may appear only in Dealt lines",
                    pos + 1,
                )
            raise _Fail(f"{card!r} is not a {game.game.label} card: {game.explain_card}", pos + 1)
        pos += len(card) + 1
    raise AssertionError("unreachable")  # pragma: no cover


def _bracket(text: str, start: int, game: _Game, ok: frozenset[str]) -> tuple[tuple[str, ...], int]:
    """The card list opening at ``text[start] == '['``; returns it and the
    index after its ``]``."""
    end = text.index("]", start)
    return _cards(text, start + 1, end, ok, game), end + 1


class _State:
    """Per-hand lexer state: the game, once the header has been read."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: _Game | None = None


def _header(m: re.Match[str], text: str, n: int, st: _State) -> Header:
    g = m.group
    if g("blind") is not None:
        game, stakes = Game.CHIRIBITO, Stakes(int(g("blind")))
    elif g("aces_ante") is not None:
        game = Game.ACES
        stakes = Stakes(int(g("aces_ante")), int(g("small_bet")), int(g("big_bet")))
    else:
        game = Game.CALATONE
        stakes = Stakes(int(g("calatone_ante")), int(g("min_bet")), int(g("max_bet")))
    st.game = _GAMES[game]
    return Header(g("site"), g("hand_id"), game, stakes, g("date"), g("time"), g("zone"), n)


def _table(m: re.Match[str], text: str, n: int, st: _State) -> Table:
    return Table(m.group("table"), int(m.group("max_seats")), int(m.group("dealer")), n)


def _house_rules(m: re.Match[str], text: str, n: int, st: _State) -> HouseRules:
    return HouseRules(tuple(text[len("House rules: ") :].split(", ")), n)


def _commitment(m: re.Match[str], text: str, n: int, st: _State) -> Commitment:
    return Commitment(m.group("digest"), n)


def _seat(m: re.Match[str], text: str, n: int, st: _State) -> Seat:
    return Seat(
        int(m.group("seat")),
        m.group("name"),
        int(m.group("chips")),
        text.endswith(" is sitting out"),
        n,
    )


def _post(m: re.Match[str], text: str, n: int, st: _State) -> Post:
    blind = m.group("blind")
    all_in = text.endswith(" and is all-in")
    if blind is not None:
        return Post(m.group("name"), "blind", int(blind), all_in, n)
    return Post(m.group("name"), "ante", int(m.group("ante")), all_in, n)


def _top_up(m: re.Match[str], text: str, n: int, st: _State) -> TopUp:
    return TopUp(m.group("name"), int(m.group("added")), n)


def _action(m: re.Match[str], text: str, n: int, st: _State) -> Action:
    g = m.group
    name = g("name")
    timed_out = text.endswith(" (timed out)")
    word = text[m.end("name") + 2 :]
    if word[0] == "c":
        if word[1] == "h":
            return Action(name, "checks", None, None, False, timed_out, n)
        return Action(name, "calls", int(g("call")), None, " and is all-in" in word, timed_out, n)
    if word[0] == "f":
        return Action(name, "folds", None, None, False, timed_out, n)
    if word[0] == "b":
        return Action(name, "bets", int(g("bet")), None, " and is all-in" in word, timed_out, n)
    return Action(
        name, "raises", int(g("by")), int(g("to")), " and is all-in" in word, timed_out, n
    )


def _marker(m: re.Match[str], text: str, n: int, st: _State) -> Marker:
    game = st.game
    assert game is not None
    street = m.group("street")
    if street is None:
        street = SHOWDOWN
    elif street not in game.streets:
        raise _Fail(
            f"'*** {street} ***' is not a street of {game.game.label}: expected "
            f"{game.explain_street}",
            5,
        )
    at = text.find("[", 8)
    if at < 0:
        return Marker(street, (), n)
    groups = []
    while at >= 0:
        cards, end = _bracket(text, at, game, game.cards)
        groups.append(cards)
        at = text.find("[", end)
    return Marker(street, tuple(groups), n)


def _deal(m: re.Match[str], text: str, n: int, st: _State) -> Deal:
    game = st.game
    assert game is not None
    at = m.end("name") + 1  # after ":"
    down = up = None
    if text.startswith(" down [", at):
        down, at = _bracket(text, at + 6, game, game.dealt)
    if at < len(text):
        up, at = _bracket(text, at + 4, game, game.dealt)
    return Deal(m.group("name"), down, up, n)


def _uncalled(m: re.Match[str], text: str, n: int, st: _State) -> Uncalled:
    return Uncalled(int(m.group("returned")), m.group("name"), n)


def _collected(m: re.Match[str], text: str, n: int, st: _State) -> Collected:
    side = m.group("side")
    if side is not None:
        pot: int | None = int(side)
    elif text.endswith(" main pot"):
        pot = 0
    else:
        pot = None
    return Collected(m.group("name"), int(m.group("collected")), pot, n)


def _show(m: re.Match[str], text: str, n: int, st: _State) -> Show:
    game = st.game
    assert game is not None
    cards, at = _bracket(text, m.end("name") + 8, game, game.cards)
    declared = None
    if text.startswith(" and declares [", at):
        declared, at = _bracket(text, at + 14, game, game.cards)
    return Show(m.group("name"), cards, declared, m.group("description"), n)


def _muck(m: re.Match[str], text: str, n: int, st: _State) -> Muck:
    return Muck(m.group("name"), n)


def _info(m: re.Match[str], text: str, n: int, st: _State) -> Info:
    name = m.group("name")
    word = text[m.end("name") + 2 :]
    if word[0] == "s":
        return Info(name, "says", m.group("chat") or "", n)
    if word == "is connected":
        return Info(name, "connected", None, n)
    return Info(name, "disconnected", None, n)


def _summary(m: re.Match[str], text: str, n: int, st: _State) -> int:
    return n  # the Summary record is built when the hand is assembled


_SIDE_POT = re.compile(r" Side pot-([0-9]+) ([0-9]+)\.")


def _total_pot(m: re.Match[str], text: str, n: int, st: _State) -> TotalPot:
    main = m.group("main")
    if main is None:
        return TotalPot(int(m.group("total")), int(m.group("rake")), None, (), n)
    start = m.end("main") + 1
    sides = []
    for k, side in enumerate(_SIDE_POT.finditer(text, start, m.start("rake") - 8), 1):
        if int(side.group(1)) != k:
            raise _Fail(
                f"expected 'Side pot-{k}' here: side pots are numbered 1, 2, ... in order",
                side.start() + 2,
            )
        sides.append(int(side.group(2)))
    return TotalPot(int(m.group("total")), int(m.group("rake")), int(main), tuple(sides), n)


def _board(m: re.Match[str], text: str, n: int, st: _State) -> Board:
    game = st.game
    assert game is not None
    return Board(_cards(text, 7, len(text) - 1, game.cards, game), n)


def _deck(m: re.Match[str], text: str, n: int, st: _State) -> DeckLine:
    game = st.game
    assert game is not None
    cards, _ = _bracket(text, 5, game, game.cards)
    return DeckLine(cards, m.group("salt"), n)


def _seat_outcome(m: re.Match[str], text: str, n: int, st: _State) -> SeatOutcome:
    game = st.game
    assert game is not None
    seat, name = int(m.group("seat")), m.group("name")
    at = m.end("name") + 2
    word = text[at]
    if word == "f":
        street = m.group("street")
        if street not in game.streets:
            raise _Fail(
                f"'{street}' is not a street of {game.game.label}: expected "
                f"{game.explain_street.removesuffix(' or SHOWDOWN')}",
                at + 11,
            )
        return SeatOutcome(seat, name, "folded", None, None, street, None, n)
    if word == "s":
        if text[at + 1] == "a":
            return SeatOutcome(seat, name, "sat_out", None, None, None, None, n)
        cards, _ = _bracket(text, at + 7, game, game.cards)
        won = m.group("showed_won")
        if won is None:
            return SeatOutcome(
                seat, name, "showed_lost", cards, None, None, m.group("description"), n
            )
        return SeatOutcome(
            seat, name, "showed_won", cards, int(won), None, m.group("description"), n
        )
    if word == "m":
        return SeatOutcome(seat, name, "mucked", None, None, None, None, n)
    return SeatOutcome(seat, name, "won", None, int(m.group("won")), None, None, n)


_Builder = Callable[[re.Match[str], str, int, _State], Any]
_BUILDERS: dict[str, _Builder] = {
    "HEADER_LINE": _header,
    "TABLE_LINE": _table,
    "HOUSE_RULES_LINE": _house_rules,
    "COMMITMENT_LINE": _commitment,
    "SEAT_LINE": _seat,
    "POST_LINE": _post,
    "TOP_UP_LINE": _top_up,
    "MARKER_LINE": _marker,
    "DEAL_LINE": _deal,
    "ACTION_LINE": _action,
    "UNCALLED_LINE": _uncalled,
    "COLLECTED_LINE": _collected,
    "SHOW_LINE": _show,
    "MUCK_LINE": _muck,
    "INFO_LINE": _info,
    "SUMMARY_LINE": _summary,
    "TOTAL_POT_LINE": _total_pot,
    "BOARD_LINE": _board,
    "DECK_LINE": _deck,
    "SEAT_OUTCOME_LINE": _seat_outcome,
}


def classify(text: str) -> str | None:
    """The one line kind a (right-stripped, non-blank) line can be, from its
    first words; None when it can be none. Names may not begin like another
    kind of line, so the answer is never ambiguous."""
    m = _PREFIX.match(text)
    if m is not None:
        prefix = m.group()
        if prefix == "*** ":
            return "SUMMARY_LINE" if text == "*** SUMMARY ***" else "MARKER_LINE"
        if prefix == "Seat ":
            # "Seat <k>: <name> (" or "Seat <k>: <name>: ": names hold no ":" nor "(".
            at = text.find(": ")
            if at < 0:
                return "SEAT_LINE"
            paren, colon = text.find(" (", at + 2), text.find(": ", at + 2)
            if colon < 0 or 0 <= paren < colon:
                return "SEAT_LINE"
            return "SEAT_OUTCOME_LINE"
        return _PREFIX_KIND[prefix]
    if _LOOKS_LIKE_HEADER.match(text):
        return "HEADER_LINE"
    at = text.find(": ")
    if at < 0:
        return None
    end = text.find(" ", at + 2)
    return _VERBS.get(text[at + 2 :] if end < 0 else text[at + 2 : end], "NAME_LINE")


class _Source:
    """What the parser is given: the hand's lines, right-stripped, and the
    number of its first line in the file."""

    __slots__ = ("first", "lines")

    def __init__(self, lines: list[str], first: int) -> None:
        self.lines = lines
        self.first = first


class _LineLexer(Lexer):
    """One token per line: classify, fullmatch, check against the game, build.

    Errors in a line are raised from here, in line order, so a hand's first
    wrong line is the one reported.
    """

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        self.match: dict[str, Callable[[str], re.Match[str] | None]] = {
            t.name: re.compile(t.pattern.to_regexp()).fullmatch for t in lexer_conf.terminals
        }

    def lex(self, lexer_state: Any, parser_state: Any) -> Iterator[Token]:
        source: _Source = lexer_state.text
        match, builders = self.match, _BUILDERS
        state = _State()
        n = source.first
        new = str.__new__
        for i, text in enumerate(source.lines):
            kind = classify(text)
            if i == 0 and kind != "HEADER_LINE":
                # Not a hand: the rules will say so at this first token.
                tok = new(_LineToken, text)
                tok.type, tok.line, tok.obj = kind or "UNKNOWN_LINE", n, None
                yield tok
                return
            m = match[kind](text) if kind in match else None
            if m is None:
                raise _LineError(n, *_explain(text, kind, state.game))
            try:
                obj = builders[kind](m, text, n, state)  # type: ignore[index]
            except _Fail as e:
                raise _LineError(n, e.message, e.column) from None
            tok = new(_LineToken, text)
            tok.type = kind
            tok.line = n
            tok.obj = obj
            yield tok
            n += 1


class _LineError(Exception):
    def __init__(self, line: int, message: str, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.column = column


class _HandBuilder(Transformer):
    """Assembles the Hand from the flat list of line tokens; the rules have
    already checked the order of the line kinds."""

    def hand(self, children: list[_LineToken]) -> Hand:
        header = children[0].obj
        table = children[1].obj
        i = 2
        house_rules = commitment = None
        if children[i].type == "HOUSE_RULES_LINE":
            house_rules = children[i].obj
            i += 1
        if children[i].type == "COMMITMENT_LINE":
            commitment = children[i].obj
            i += 1
        seats = []
        while children[i].type == "SEAT_LINE":
            seats.append(children[i].obj)
            i += 1
        preamble: list[Any] = []
        sections: list[Section] = []
        lines = preamble
        marker = None
        while True:
            tok = children[i]
            i += 1
            kind = tok.type
            if kind == "MARKER_LINE":
                if marker is not None:
                    sections.append(Section(marker, tuple(lines)))
                marker = tok.obj
                lines = []
            elif kind == "SUMMARY_LINE":
                break
            else:
                lines.append(tok.obj)
        if marker is not None:
            sections.append(Section(marker, tuple(lines)))
        summary_line = tok.obj
        total = children[i].obj
        i += 1
        board = deck = None
        if i < len(children) and children[i].type == "BOARD_LINE":
            board = children[i].obj
            i += 1
        if i < len(children) and children[i].type == "DECK_LINE":
            deck = children[i].obj
            i += 1
        outcomes = tuple(t.obj for t in children[i:])
        return Hand(
            header,
            table,
            tuple(seats),
            tuple(preamble),
            tuple(sections),
            Summary(total, board, deck, outcomes, summary_line),
            house_rules,
            commitment,
        )


@cache
def _parser() -> Lark:
    text = grammar_text()
    return Lark(
        text,
        start="hand",
        parser="lalr",
        lexer=_LineLexer,
        transformer=_HandBuilder(),
        cache=_cache_path(text),
    )


# ------------------------------------------------------------------ structural errors

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
_BODY = frozenset(
    [
        "POST_LINE",
        "TOP_UP_LINE",
        "MARKER_LINE",
        "DEAL_LINE",
        "ACTION_LINE",
        "UNCALLED_LINE",
        "COLLECTED_LINE",
        "SHOW_LINE",
        "MUCK_LINE",
        "INFO_LINE",
    ]
)
_SUMMARY_PARTS = frozenset(["TOTAL_POT_LINE", "BOARD_LINE", "DECK_LINE", "SEAT_OUTCOME_LINE"])


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


def _structural(e: UnexpectedToken, lines: list[str], first: int) -> tuple[int, str, int]:
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


# ------------------------------------------------------------------ parsing


def _strip(text: str) -> str:
    return text.rstrip(" \t\r")


def _parse_lines(lines: list[str], first: int, raw: list[str] | None = None) -> Hand:
    """Parse one hand given as right-stripped, non-blank lines."""
    try:
        return _parser().parse(_Source(lines, first))  # type: ignore[no-any-return]
    except _LineError as e:
        i = e.line - first
        text = (raw or lines)[i]
        raise HandSyntaxError(ParseError(e.message, e.line, e.column, text)) from None
    except UnexpectedToken as e:
        line, message, column = _structural(e, lines, first)
        i = line - first
        text = (raw or lines)[i] if i < len(lines) else ""
        raise HandSyntaxError(ParseError(message, line, column, text)) from None


def parse_hand(text: str, *, first_line: int = 1) -> Hand:
    """Parse the text of one hand; raises :class:`HandSyntaxError`.

    Leading and trailing blank lines are allowed (line numbers count them);
    a blank line inside the hand is an error, since blank lines separate
    hands.
    """
    text = text.removeprefix("\ufeff")
    raw = [x.removesuffix("\r") for x in text.split("\n")]
    lines = [_strip(x) for x in raw]
    start = 0
    while start < len(lines) and not lines[start].strip(" \t"):
        start += 1
    end = len(lines)
    while end > start and not lines[end - 1].strip(" \t"):
        end -= 1
    for i in range(start, end):
        if not lines[i].strip(" \t"):
            raise HandSyntaxError(
                ParseError(
                    "a blank line inside the hand: blank lines separate hands",
                    first_line + i,
                    1,
                    raw[i],
                )
            )
    if start == end:
        raise HandSyntaxError(ParseError("no hand: the text is blank", first_line, 1, ""))
    return _parse_lines(lines[start:end], first_line + start, raw[start:end])


class _Corrupt:
    """Marks the point where a compressed stream could not be read further."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def _lines_of_text(text: str) -> Iterator[tuple[str, int | None]]:
    text = text.removeprefix("\ufeff")
    if text.endswith("\n"):
        text = text[:-1]
    for line in text.split("\n"):
        yield line.removesuffix("\r"), None


def lines_of_stream(stream: Iterable[bytes]) -> Iterator[tuple[str, int | None] | _Corrupt]:
    """Decode line by line, so memory stays flat and a bad byte spoils only
    its own line. Yields (text without line end, column of the first bad
    byte or None)."""
    first = True
    try:
        for b in stream:
            if b.endswith(b"\n"):
                b = b[:-1]
            if b.endswith(b"\r"):
                b = b[:-1]
            try:
                text = b.decode("utf-8")
                bad = None
            except UnicodeDecodeError as e:
                text = b.decode("utf-8", "replace")
                bad = len(b[: e.start].decode("utf-8", "replace")) + 1
            if first:
                first = False
                if text.startswith("\ufeff"):
                    text = text[1:]
                    if bad is not None:
                        bad -= 1
            yield text, bad
    except (EOFError, OSError, zlib.error) as e:
        yield _Corrupt(f"the file cannot be read to its end ({type(e).__name__}: {e})")


@dataclass(frozen=True, slots=True)
class Run:
    """One hand's lines as cut from the input, not parsed yet.

    Cutting is cheap and parsing is not, so they are apart: the import
    hashes a run's text to skip a hand it already holds without parsing it,
    and parallel workers cut a big file at hand boundaries.
    """

    file: str | None
    start: int  # line number of the first line
    lines: list[str]  # text without line ends
    bad: list[tuple[int, int]]  # (line, column) of undecodable bytes
    corrupt: str | None = None  # the stream could not be read past this run

    @property
    def raw(self) -> str:
        return "\n".join(self.lines)


def looks_like_header(line: str) -> bool:
    """Whether a line begins a hand (FORMAT.md: a header inside a run starts
    a new hand). Cheap: used to cut files at hand boundaries."""
    return _LOOKS_LIKE_HEADER.match(line) is not None


def split_runs(
    source: Iterable[tuple[str, int | None] | _Corrupt], file: str | None, first_line: int = 1
) -> Iterator[Run]:
    """Cut decoded lines into hands (FORMAT.md, Settled details). A stream
    that breaks ends with a run of no lines carrying the reason."""
    run: list[str] = []
    bad: list[tuple[int, int]] = []  # (line, column) of undecodable bytes in the run
    start = 0
    n = first_line - 1
    for item in source:
        if isinstance(item, _Corrupt):
            if run:
                yield Run(file, start, run, bad)
            yield Run(file, n + 1, [], [], item.message)
            return
        n += 1
        text, column = item
        stripped = text.rstrip(" \t")
        if not stripped:
            if run:
                yield Run(file, start, run, bad)
                run, bad = [], []
            continue
        if run and _LOOKS_LIKE_HEADER.match(stripped):
            yield Run(file, start, run, bad)
            run, bad = [], []
        if not run:
            start = n
        run.append(text)
        if column is not None:
            bad.append((n, column))
    if run:
        yield Run(file, start, run, bad)


def parse_run(run: Run) -> Record:
    """Parse one run into a record: a hand, or the reason it is not one."""
    if run.corrupt is not None:
        n = run.start
        return Record(run.file, n, "", None, ParseError(run.corrupt, n, 1, ""), None, None)
    return _record(run.lines, run.start, run.bad, run.file)


def _records(
    source: Iterable[tuple[str, int | None] | _Corrupt], file: str | None, first_line: int = 1
) -> Iterator[Record]:
    for run in split_runs(source, file, first_line):
        yield parse_run(run)


def _record(run: list[str], start: int, bad: list[tuple[int, int]], file: str | None) -> Record:
    raw = "\n".join(run)
    lines = [_strip(x) for x in run]
    if not _LOOKS_LIKE_HEADER.match(lines[0]):
        if bad and bad[0][0] == start:  # an undecodable first line: say that, not "no header"
            return Record(file, start, raw, None, _decode_error(run, start, bad), None, None)
        error = ParseError(
            "lines outside a hand: a hand begins with a header line "
            "('[<site> ]Hand #<id>: <game> ... - <date> <time>')",
            start,
            1,
            run[0],
        )
        return Record(file, start, raw, None, error, None, None)
    try:
        hand = _parse_lines(lines, start, run)
    except HandSyntaxError as e:
        error = e.error
        if bad and bad[0][0] <= error.line:
            error = _decode_error(run, start, bad)
        head = _HEADER_ID.match(lines[0])  # best effort, to name the hand in reports
        if head is None:
            return Record(file, start, raw, None, error, None, None)
        return Record(file, start, raw, None, error, head.group(2), head.group(1))
    if bad:  # replacement characters happened to parse, but the bytes were not UTF-8
        return Record(
            file,
            start,
            raw,
            None,
            _decode_error(run, start, bad),
            hand.header.hand_id,
            hand.header.site,
        )
    return Record(file, start, raw, hand, None, hand.header.hand_id, hand.header.site)


def _decode_error(run: list[str], start: int, bad: list[tuple[int, int]]) -> ParseError:
    line, column = bad[0]
    return ParseError(
        "invalid UTF-8: this byte does not decode (the file must be UTF-8)",
        line,
        column,
        run[line - start],
    )


def parse_text(text: str, *, file: str | None = None) -> Iterator[Record]:
    """Parse a whole text of hands separated by blank lines."""
    return _records(_lines_of_text(text), file)


def parse_stream(
    stream: Iterable[bytes], *, file: str | None = None, first_line: int = 1
) -> Iterator[Record]:
    """Parse hands from a binary stream (e.g. stdin), line by line.
    ``first_line``: the line number of the stream's first line, for a part
    of a file read from a byte offset."""
    return _records(lines_of_stream(stream), file, first_line)


def parse_file(path: str | os.PathLike[str]) -> Iterator[Record]:
    """Parse a file, plain or gzip-compressed (by its ``.gz`` suffix or its
    magic bytes), streaming. A file that cannot be opened raises OSError."""
    name = os.fspath(path)
    f = open(name, "rb")  # noqa: SIM115 - closed by the generator below

    def records() -> Iterator[Record]:
        with f:
            compressed = name.endswith(".gz") or f.peek(2)[:2] == b"\x1f\x8b"
            if compressed:
                with gzip.GzipFile(fileobj=f) as z:
                    yield from parse_stream(z, file=name)  # type: ignore[arg-type]
            else:
                yield from parse_stream(f, file=name)

    return records()


# ------------------------------------------------------------------ line diagnostics
#
# A line that matched no terminal is parsed again, alone, by an Earley parser
# built from the same grammar text, in which every composite terminal (a line
# terminal, or a piece built from other pieces) has been turned into a rule
# by lower-casing its name. The error then stops at the first piece that did
# not fit, and the Earley items say what was expected there.

_GRAMMAR_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*)|(?P<string>"(?:\\.|[^"\\])*"i?)"""
    r"""|(?P<regex>/(?!/)(?:\\.|[^/\\\n])*/[imslux]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"""
    r"""|(?P<op>[()|?*+])|(?P<space>\s+)|(?P<other>.)""",
    re.S,
)
_DEFINITION = re.compile(r"^([A-Z_][A-Z0-9_]*)[ \t]*:(.*(?:\n[ \t]+[^\n]*)*)", re.M)
_AMOUNT_REGEX = "0|[1-9][0-9]*"

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


def _grammar_tokens(body: str) -> list[tuple[str, str]]:
    return [
        (m.lastgroup or "", m.group())
        for m in _GRAMMAR_TOKEN.finditer(body)
        if m.lastgroup not in ("comment", "space")
    ]


class _Diagnoser:
    """The Earley twin of the grammar, and the words for its errors."""

    def __init__(self, text: str) -> None:
        self.defs = {m.group(1): _grammar_tokens(m.group(2)) for m in _DEFINITION.finditer(text)}
        self.leaves = {
            name
            for name, body in self.defs.items()
            if len(body) == 1 and body[0][0] in ("string", "regex")
        }
        composite = set(self.defs) - self.leaves
        out = []
        for m in _GRAMMAR_TOKEN.finditer(text):
            word = m.group()
            out.append(word.lower() if m.lastgroup == "name" and word in composite else word)
        lines = [k.lower() for k in LINE_KINDS if k in composite]
        names = " | ".join(k.lower() for k in _NAME_LINES)
        twin = "".join(out) + f"\nname_line: {names}\nline: {' | '.join(lines)}\n"
        self.parser = Lark(
            twin, start=[*lines, "name_line", "line"], parser="earley", lexer="dynamic"
        )
        self.pieces = {k.lower(): k for k in composite}
        self.literals = {
            t.name: t.pattern.value for t in self.parser.terminals if t.pattern.type == "str"
        }
        self.order = {}  # where each piece is first written, to list alternatives in order
        for i, (_kind, word) in enumerate(_grammar_tokens(text)):
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
                return _unquote(word)
            return "<n>" if _AMOUNT_REGEX in word else f"<{name.lower().replace('_', ' ')}>"
        return self.template(name)

    def template(self, name: str) -> str:
        """A composite piece written out: literals as they are, pieces as
        placeholders, optional and repeated parts left out."""
        tokens = self.defs[name]
        text, _ = self._alternatives(tokens, 0)
        return text

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
                text, i = _unquote(word), i + 1
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

    def explain(self, text: str, kind: str | None, game: _Game | None) -> tuple[str, int]:
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
        if len(text) > _LONGEST_EXPLAINED:
            # No real hand's line is this long; Earley's time, about 20 us
            # a character, is better not spent on it.
            return (
                f"this line ({len(text)} characters) does not have the form of "
                f"{_WORDS.get(kind, 'a line')}",
                1,
            )
        start = "name_line" if kind == "NAME_LINE" else kind.lower()
        try:
            self.parser.parse(text, start=start)
        except UnexpectedCharacters as e:
            pos = e.pos_in_stream
            items = [(i.rule, i.ptr) for i in e.considered_rules or ()]
        except UnexpectedEOF as e:
            pos = len(text)
            items = [s for s in e.state if isinstance(s, tuple)]
        else:  # the twin accepts what the line terminal refused: should not happen
            return (f"this line does not have the form of {_WORDS.get(kind, 'a line')}", 1)
        return self._words(text, start, pos, items, game)

    def _words(
        self, text: str, start: str, pos: int, items: list[tuple[Any, int]], game: _Game | None
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
        words = sorted(expected, key=lambda w: (expected[w], w))
        hint = self._hint(text, pos, after_name, words, game)
        if hint is not None:
            return hint
        rest = text[pos:]
        column = pos + 1
        ends_early = not rest
        if rest:
            cut = [w for w, lit in literal_of.items() if lit.startswith(rest) and lit != rest]
            if cut:  # "Ana: bets": the line stops inside what was expected
                words = [w for w in words if w in cut]
                ends_early = True
                column = len(text) + 1
        if not ends_early and self._complete(text[:pos], start):
            words.append("the end of the line")
        message = f"expected {_either(words)} {_context(text, pos)}"
        if ends_early:
            message = f"the line ends too early: {message}"
        else:
            found = _found(rest)
            if any(w in _LONG_FIELDS for w in words):  # fields with spaces: show more
                found = rest if len(rest) <= 24 else rest[:21] + "..."
            message += f", found '{found}'"
        notes = [f"{p} is {_EXPLAIN[p]}" for p in _EXPLAIN if p in words]
        if "<card>" in words and game is not None:
            notes.append(game.explain_card)
        if "<street>" in words and game is not None:
            notes.append(f"the streets of {game.game.label} are {game.explain_street}")
        if notes:
            message += " (" + "; ".join(notes) + ")"
        return message, column

    def _hint(
        self, text: str, pos: int, after_name: bool, words: list[str], game: _Game | None
    ) -> tuple[str, int] | None:
        """Plain words for the usual mistakes, where the grammar's view (what
        would have fitted here) would be beside the point."""
        rest = text[pos:]
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
        try:
            self.parser.parse(text, start=start)
        except UnexpectedInput:
            return False
        return True


_LONGEST_EXPLAINED = 4000  # a Deck line of 53 cards and a long salt is under 300
_LONG_FIELDS = frozenset(["<description>", "<name>", "<table name>", "<text>"])
_NOT_IN_NAMES = frozenset(':()[]"')
_NUMBER = re.compile(r"[-+]?[0-9][0-9,._']*|[-+][0-9,._']*")
_PLAIN = re.compile(_AMOUNT_REGEX)


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


def _unquote(literal: str) -> str:
    return str(ast.literal_eval(literal.rstrip("i")))


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
def _diagnoser() -> _Diagnoser:
    return _Diagnoser(grammar_text())


def _explain(text: str, kind: str | None, game: _Game | None) -> tuple[str, int]:
    return _diagnoser().explain(text, kind, game)


@cache
def piece_pattern(name: str) -> str:
    """The regex of a leaf piece of the grammar (e.g. ``NAME``), for tools
    and tests that must agree with the grammar rather than copy it."""
    for m in _DEFINITION.finditer(grammar_text()):
        if m.group(1) == name:
            body = _grammar_tokens(m.group(2))
            if len(body) == 1 and body[0][0] == "regex":
                return body[0][1][1 : body[0][1].rindex("/")]
            if len(body) == 1 and body[0][0] == "string":
                return re.escape(_unquote(body[0][1]))
    raise KeyError(f"{name} is not a leaf piece of the grammar")
