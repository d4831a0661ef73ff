"""Text to model: the only way hand-history text enters the system.

The grammar (``grammar/hh.lark``) states the format: one terminal per kind of
line, built from small named pieces, and rules for the order of line kinds.
A hand is read in one pass over its lines, without Lark's parser:

* :func:`classify` tells a line's kind from its first words (names may not
  begin like another kind of line, so one kind fits), the line is
  ``fullmatch``ed against that kind's regex (the terminal Lark builds from
  the grammar), its cards and street names are checked against the hand's
  game (its :class:`~hh.games.GameRules`) and its model record is built
  (:func:`read_line`); a line seen before in the session is taken from the
  game's :class:`LineMemo`;
* the sequence of line kinds is checked against the grammar's rules, read
  as one regex over a letter per line kind (``hh._grammar.structure_regex``);
* :func:`assemble` builds the :class:`~hh.model.Hand`.

When anything fails, the hand is parsed again by Lark's LALR parser over the
same grammar (``hh._lark``), which decides what the error is and which comes
first, and explains a bad line by parsing it alone with an Earley twin of
the grammar. The tests check that both ways give the same model or the
same error.

The parser records what the text says; the validator judges the play.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from hh._grammar import grammar_text, structure_regex
from hh._grammar import piece_pattern as piece_pattern
from hh.cards import JOKER, UNKNOWN
from hh.games import RULES, GameRules
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
    ModelRecord,
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
from hh.sources import LOOKS_LIKE_HEADER, gzipped, is_ohh

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
NAME_LINES = (
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
# Lines told apart by their first words (names may not begin so: see NAME in
# the grammar, whose look-ahead this mirrors: "Seat " counts only before a
# digit, so a player may be called "Seat Belt").
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
# Best effort for a header that did not parse, to name the hand in reports.
_HEADER_ID = re.compile(r"(?:(\S+) )?Hand #([A-Za-z0-9_-]+)")


# ------------------------------------------------------------------ decks


class LineMemo:
    """Lines seen before in hands of one game, at most ``bound`` of them.

    Lines repeat: in a session the same player checks, calls the same amount
    or is dealt the same up card hand after hand. A line's record depends
    only on its text and the hand's game, so the memo keeps, per line text,
    its kind, record class and fields but the line number; a line seen
    before is then built without being classified, matched or cut up. Only
    the kinds that repeat more often than not are kept (``KINDS``): headers,
    commitments, decks, shows, top-ups and seat lines, whose stacks change,
    mostly do not. It is emptied when full, which bounds its memory.
    """

    __slots__ = ("bound", "lines", "once")

    KINDS: ClassVar[dict[str, type[ModelRecord]]] = {
        "TABLE_LINE": Table,
        "HOUSE_RULES_LINE": HouseRules,
        "POST_LINE": Post,
        "MARKER_LINE": Marker,
        "DEAL_LINE": Deal,
        "ACTION_LINE": Action,
        "UNCALLED_LINE": Uncalled,
        "COLLECTED_LINE": Collected,
        "MUCK_LINE": Muck,
        "INFO_LINE": Info,
        "TOTAL_POT_LINE": TotalPot,
        "BOARD_LINE": Board,
        "SEAT_OUTCOME_LINE": SeatOutcome,
    }

    def __init__(self, bound: int = 1 << 12) -> None:
        self.bound = bound
        # line text -> (kind, record class, fields but the line number)
        self.lines: dict[str, tuple[str, Callable[..., Any], tuple[Any, ...]]] = {}
        self.once: set[str] = set()  # lines of those kinds seen once so far

    def remember(self, text: str, kind: str, obj: Any) -> None:
        """Keep a line that matched, if its kind is one that repeats, the
        second time it is seen: many lines of a kind that repeats never do
        (random cards), and the first sight only notes their text."""
        cls = self.KINDS.get(kind)
        if cls is None:
            return
        once = self.once
        if text not in once:
            if len(once) >= self.bound:
                once.clear()
            once.add(text)
            return
        once.discard(text)
        if len(self.lines) >= self.bound:
            self.lines.clear()
        self.lines[text] = (kind, cls, tuple([getattr(obj, name) for name in cls.FIELDS[:-1]]))


class _Game:
    """What the lexer must know of the hand's game to check its lines: its
    card notation and streets (from its :class:`~hh.games.GameRules`), and
    the memo of its lines."""

    __slots__ = (
        "cards",
        "dealt",
        "explain_card",
        "explain_street",
        "game",
        "memo",
        "streets",
    )

    def __init__(self, rules: GameRules) -> None:
        self.game = rules.game
        self.memo = LineMemo()
        notation = rules.notation
        self.cards = frozenset(notation.cards)
        self.dealt = self.cards | {UNKNOWN}
        joker = f", or the joker {JOKER}" if notation.joker else ""
        kind = notation.name.split(" ")[0]  # a deck's name begins with its notation's
        self.explain_card = (
            f"{self.game.label} is played with {kind} cards: a rank of "
            f"{' '.join(notation.ranks)} followed by a suit of {' '.join(notation.suits)}{joker}"
        )
        names = [street.name for street in rules.streets]
        self.streets = frozenset(names)
        self.explain_street = f"{_in_words(names)} or {SHOWDOWN}"


def _in_words(streets: list[str]) -> str:
    """The streets in words, a run of streets named alike but for their
    number written as a range: "HOLE CARDS, COMMON 1 to COMMON 5"."""
    shapes = [re.sub(r"[0-9]+(?:ST|ND|RD|TH)?", "#", name) for name in streets]
    words = []
    i = 0
    while i < len(streets):
        j = i
        while j + 1 < len(streets) and shapes[j + 1] == shapes[i]:
            j += 1
        words.append(streets[i] if i == j else f"{streets[i]} to {streets[j]}")
        i = j + 1
    return ", ".join(words)


_GAMES = {game: _Game(rules) for game, rules in RULES.items()}


# ------------------------------------------------------------------ lines


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


# The first words that tell a line's kind ("Seat " only before a digit), by
# their first character: one or two startswith checks for each line that
# missed the memo. No name begins with these words (the grammar's NAME).
_PREFIXES = {
    "*": ("*** ",),
    "S": ("Seat ", "Shuffle commitment: "),
    "D": ("Dealt to ", "Deck ["),
    "U": ("Uncalled bet (",),
    "T": ("Total pot ", "Table '"),
    "B": ("Board [",),
    "H": ("House rules: ",),
}


def _prefix(text: str) -> str | None:
    """The line's first words, when they are those of a kind of line."""
    for word in _PREFIXES.get(text[:1], ()):
        if text.startswith(word):
            if word == "Seat " and not "0" <= text[5:6] <= "9":
                return None
            return word
    return None


def classify(text: str) -> str | None:
    """The one line kind a (right-stripped, non-blank) line can be, from its
    first words; None when it can be none. Names may not begin like another
    kind of line, so the answer is never ambiguous."""
    prefix = _prefix(text)
    if prefix is not None:
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
    if LOOKS_LIKE_HEADER.match(text):
        return "HEADER_LINE"
    at = text.find(": ")
    if at < 0:
        return None
    end = text.find(" ", at + 2)
    return _VERBS.get(text[at + 2 :] if end < 0 else text[at + 2 : end], "NAME_LINE")


class LineError(Exception):
    """A line is wrong: its number in the file, what is wrong, the column."""

    def __init__(self, line: int, message: str, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.column = column


def read_line(
    text: str,
    n: int,
    state: _State,
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
        from hh._lark import explain

        raise LineError(n, *explain(text, kind, state.game))
    try:
        return kind, _BUILDERS[kind](m, text, n, state)
    except _Fail as e:
        raise LineError(n, e.message, e.column) from None


def assemble(kinds: list[str], objs: list[Any]) -> Hand:
    """The Hand from its lines' kinds and records, in order; the rules have
    already checked the order of the line kinds."""
    header = objs[0]
    table = objs[1]
    i = 2
    house_rules = commitment = None
    if kinds[i] == "HOUSE_RULES_LINE":
        house_rules = objs[i]
        i += 1
    if kinds[i] == "COMMITMENT_LINE":
        commitment = objs[i]
        i += 1
    seats = []
    while kinds[i] == "SEAT_LINE":
        seats.append(objs[i])
        i += 1
    preamble: list[Any] = []
    sections: list[Section] = []
    lines = preamble
    marker = None
    while True:
        kind = kinds[i]
        obj = objs[i]
        i += 1
        if kind == "MARKER_LINE":
            if marker is not None:
                sections.append(Section(marker, tuple(lines)))
            marker = obj
            lines = []
        elif kind == "SUMMARY_LINE":
            break
        else:
            lines.append(obj)
    if marker is not None:
        sections.append(Section(marker, tuple(lines)))
    summary_line = obj
    total = objs[i]
    i += 1
    board = deck = None
    if i < len(kinds) and kinds[i] == "BOARD_LINE":
        board = objs[i]
        i += 1
    if i < len(kinds) and kinds[i] == "DECK_LINE":
        deck = objs[i]
        i += 1
    return Hand(
        header,
        table,
        tuple(seats),
        tuple(preamble),
        tuple(sections),
        Summary(total, board, deck, tuple(objs[i:]), summary_line),
        house_rules,
        commitment,
    )


# ------------------------------------------------------------------ the fast path


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
def _tables() -> _Tables:
    """The line regexes as Lark reads them from the grammar (Lark keeps its
    analysis of the grammar in its own cache), and the rules' regex."""
    from hh._lark import line_patterns

    return _Tables(line_patterns(), structure_regex(grammar_text(), LINE_KINDS))


def _parse_fast(lines: list[str], first: int) -> Hand | None:
    """The hand, read without Lark; None when any line or the order of the
    lines is wrong (then Lark says which error comes first)."""
    tables = _tables()
    match, letters, builders = tables.match, tables.letters, _BUILDERS
    state = _State()
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
        except _Fail:
            return None
        objs.append(obj)
        kinds.append(kind)
        if memo is not None:
            memo.remember(text, kind, obj)
        elif state.game is not None:
            memo = state.game.memo
            seen = memo.lines
        n += 1
    if tables.structure("".join([letters[k] for k in kinds])) is None:
        return None
    return assemble(kinds, objs)


# ------------------------------------------------------------------ parsing


def _trailing(run: list[str]) -> bool:
    """Whether a line of the run ends with a space, tab or CR: each line's
    last character (three substring searches of the whole text read every
    character, five times the work; a regex for a set of characters tries
    every one)."""
    return any(line[-1:] in (" ", "\t", "\r") for line in run)


def _strip(text: str) -> str:
    return text.rstrip(" \t\r")


def _parse_lines(lines: list[str], first: int, raw: list[str] | None = None) -> Hand:
    """Parse one hand given as right-stripped, non-blank lines."""
    hand = _parse_fast(lines, first)
    if hand is not None:
        return hand
    for i, line in enumerate(lines):
        cr = line.find("\r")
        if cr >= 0:
            raise HandSyntaxError(
                ParseError(
                    "a carriage return (CR) inside a line: this file uses CR line ends (or has "
                    "a stray CR), but lines end with LF or CRLF (FORMAT.md)",
                    first + i,
                    cr + 1,
                    (raw or lines)[i],
                )
            )
    from hh._lark import parse_lines

    return parse_lines(lines, first, raw)


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
    if lines[start].startswith("\ufeff"):  # a byte-order mark before the header
        lines[start] = lines[start][1:]
        raw[start] = raw[start][1:]
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


def _decode(b: bytes, first: bool) -> tuple[str, int | None]:
    """One raw line (line end included or not) as text without its line end,
    and the column of its first undecodable byte or None. ``first``: the
    stream's first line, whose byte-order mark is not text."""
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
    if first and text.startswith("\ufeff"):
        text = text[1:]
        if bad is not None:
            bad -= 1
    return text, bad


def lines_of_stream(stream: Iterable[bytes]) -> Iterator[tuple[str, int | None] | _Corrupt]:
    """Decode line by line, so memory stays flat and a bad byte spoils only
    its own line. Yields (text without line end, column of the first bad
    byte or None)."""
    first = True
    try:
        for b in stream:
            yield _decode(b, first)
            first = False
    except (EOFError, OSError, zlib.error) as e:
        yield _Corrupt(_unreadable(e))


def _unreadable(e: BaseException) -> str:
    return f"the file cannot be read to its end ({type(e).__name__}: {e})"


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


def split_runs(
    source: Iterable[tuple[str, int | None] | _Corrupt], file: str | None, first_line: int = 1
) -> Iterator[Run]:
    """Cut decoded lines into hands (FORMAT.md, Settled details). A stream
    that breaks ends with a run of no lines carrying the reason."""
    cut = _Cutter(file, first_line)
    for item in source:
        if isinstance(item, _Corrupt):
            yield from cut.corrupt(item.message)
            return
        done = cut.line(item[0], item[1])
        if done is not None:
            yield done
    last = cut.end()
    if last is not None:
        yield last


# Where to look, in a whole block of text, for the lines that end a run
# (blank: spaces and tabs, and one CR, at most) or begin one (a header):
# two literal searches, each far cheaper than one regex tried at every line.
_MAYBE_BLANK = re.compile(r"\n(?=[ \t\r\n]|\Z)")
_INDENTED = re.compile(r"\n[ \t\r]")  # a line that may be blank but not empty


def split_blocks(blocks: Iterable[bytes], file: str | None, first_line: int = 1) -> Iterator[Run]:
    """The runs :func:`split_runs` cuts from ``lines_of_stream``, the same
    runs with the same line numbers, from blocks of whole lines (each ends
    with a line end, but perhaps the last).

    Why: cutting line by line costs a Python step per line (decode, strip,
    look for a header), about a tenth of judging a hand. A block that
    decodes and holds no byte-order mark is cut by one regex over its text
    and split into lines by ``str.split``; any other block is read line by
    line as before, so that a bad byte still spoils only its own line."""
    cut = _Cutter(file, first_line)
    first = True
    try:
        for block in blocks:
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                text = "\ufeff"  # read line by line, below
            if "\ufeff" in text:
                lines = block.split(b"\n")
                if block.endswith(b"\n"):
                    lines.pop()
                for b in lines:
                    done = cut.line(*_decode(b, first))
                    first = False
                    if done is not None:
                        yield done
                continue
            first = False
            yield from cut.block(text[:-1] if text.endswith("\n") else text)
    except (EOFError, OSError, zlib.error) as e:
        yield from cut.corrupt(_unreadable(e))
        return
    last = cut.end()
    if last is not None:
        yield last


class _Cutter:
    """The state of cutting lines into runs: the run so far, its first line
    and undecodable bytes, and the number of the last line read."""

    __slots__ = ("bad", "file", "n", "run", "start")

    def __init__(self, file: str | None, first_line: int) -> None:
        self.file = file
        self.n = first_line - 1
        self.run: list[str] = []
        self.bad: list[tuple[int, int]] = []
        self.start = 0

    def _done(self) -> Run:
        done = Run(self.file, self.start, self.run, self.bad)
        self.run, self.bad = [], []
        return done

    def line(self, text: str, column: int | None) -> Run | None:
        """Read one line; returns the run it ends, if any."""
        self.n += 1
        done = None
        if text.startswith("\ufeff") and LOOKS_LIKE_HEADER.match(text, 1):
            # a byte-order mark before a header (files joined with cat): not text
            text = text[1:]
            if column is not None:
                column -= 1
        stripped = text.rstrip(" \t")
        if not stripped:
            return self._done() if self.run else None
        if self.run and LOOKS_LIKE_HEADER.match(stripped):
            done = self._done()
        if not self.run:
            self.start = self.n
        self.run.append(text)
        if column is not None:
            self.bad.append((self.n, column))
        return done

    def block(self, text: str) -> list[Run]:
        """Read whole lines of decoded text holding no byte-order mark (no
        line end after the last line); returns the runs they end."""
        lines = text.split("\n")
        if "\r" in text:
            lines = [x.removesuffix("\r") for x in lines]
        # (where the line begins, whether it is blank): blank lines end a
        # run, headers begin one
        marks = [(0, True)] if not lines[0].rstrip(" \t") else []
        if _INDENTED.search(text) is not None:
            marks.extend((m.start() + 1, True) for m in _MAYBE_BLANK.finditer(text))
        else:  # the usual text: only "\n\n" (or a last "\n") begins a blank line
            # (str.find, not the regex: a literal search reads several
            # characters a step, a pattern is tried at every line end)
            at = text.find("\n\n")
            while at >= 0:
                marks.append((at + 1, True))
                at = text.find("\n\n", at + 1)
            if text.endswith("\n"):
                marks.append((len(text), True))
        seen = -1
        at = text.find("Hand #")
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            if start != seen and LOOKS_LIKE_HEADER.match(text, start):
                marks.append((start, False))
                seen = start
            at = text.find("Hand #", at + 6)
        marks.sort()
        out: list[Run] = []
        base = self.n + 1  # the number of lines[0]
        begin = 0  # lines[begin:] are in the current run
        at = pos = 0  # lines[at] begins at text[pos]
        for p, blank in marks:
            at += text.count("\n", pos, p)
            pos = p
            if blank:
                if lines[at].rstrip(" \t"):
                    continue  # not blank after all
                if self.run or begin < at:
                    self._extend(lines, begin, at, base)
                    out.append(self._done())
                begin = at + 1
            elif self.run or begin < at:  # a header begins the next run
                self._extend(lines, begin, at, base)
                out.append(self._done())
                begin = at
        if begin < len(lines):
            self._extend(lines, begin, len(lines), base)
        self.n += len(lines)
        return out

    def _extend(self, lines: list[str], begin: int, end: int, base: int) -> None:
        if not self.run:
            self.start = base + begin
        self.run.extend(lines[begin:end])

    def end(self) -> Run | None:
        """The run the input ended in, if any."""
        return self._done() if self.run else None

    def corrupt(self, message: str) -> list[Run]:
        """The input broke: the run so far, and a run of no lines saying why."""
        out = [self._done()] if self.run else []
        out.append(Run(self.file, self.n + 1, [], [], message))
        return out


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
    # right-stripped lines: most logs have no trailing blanks, and one search
    # of the whole text is cheaper than a strip per line
    lines = [_strip(x) for x in run] if _trailing(run) else run
    if not LOOKS_LIKE_HEADER.match(lines[0]):
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
    """Parse a file, plain or gzip-compressed (by its magic bytes:
    :func:`hh.sources.gzipped`), streaming. A file that
    cannot be opened raises OSError."""
    name = os.fspath(path)
    if is_ohh(name):  # Open Hand History: the text of its hands (hh.openformats.ohh_read)
        from hh.openformats.ohh_read import text_lines

        return parse_stream(text_lines(name), file=name)
    f = open(name, "rb")  # noqa: SIM115 - closed by the generator below

    def records() -> Iterator[Record]:
        with f:
            if gzipped(f):
                import gzip  # only for a compressed file

                with gzip.GzipFile(fileobj=f) as z:
                    yield from parse_stream(z, file=name)
            else:
                yield from parse_stream(f, file=name)

    return records()
