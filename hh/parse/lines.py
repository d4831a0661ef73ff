"""A hand's lines one at a time: the kinds of line (the grammar's line
terminals), the model record each line gives, checked against the hand's
game, and the :class:`~hh.model.Hand` assembled from them. The fast path
(:mod:`hh.parse.fast`) and Lark's path (:mod:`hh.parse.lark`) both read
lines here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

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
from hh.read.runs import LOOKS_LIKE_HEADER

# ------------------------------------------------------------------ errors


@dataclass(frozen=True, slots=True)
class ParseError:
    """Why a hand (or a run of lines) is not in the format."""

    message: str  # what was wrong and what was expected, in words
    line: int  # in the file, from 1
    column: int  # in code points, from 1
    text: str  # the offending line as read (without line end)


class HandSyntaxError(ValueError):
    """Raised by :func:`parse_hand`; ``error`` says where and why."""

    def __init__(self, error: ParseError) -> None:
        super().__init__(f"line {error.line}, column {error.column}: {error.message}")
        self.error = error


class LineFault(Exception):
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


class GameLines:
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


GAMES = {game: GameLines(rules) for game, rules in RULES.items()}


# ------------------------------------------------------------------ lines


def _cards(text: str, start: int, end: int, ok: frozenset[str], game: GameLines) -> tuple[str, ...]:
    """The cards between ``start`` and ``end``, each checked against the
    game's notation (the grammar accepts both notations)."""
    cards = tuple(text[start:end].split(" "))
    if ok.issuperset(cards):
        return cards
    pos = start
    for card in cards:
        if card not in ok:
            if card == UNKNOWN:
                raise LineFault(
                    "'??' (a card the log's writer could not see) may appear only in Dealt lines",
                    pos + 1,
                )
            raise LineFault(
                f"{card!r} is not a {game.game.label} card: {game.explain_card}", pos + 1
            )
        pos += len(card) + 1
    raise AssertionError("unreachable")  # pragma: no cover


def _bracket(
    text: str, start: int, game: GameLines, ok: frozenset[str]
) -> tuple[tuple[str, ...], int]:
    """The card list opening at ``text[start] == '['``; returns it and the
    index after its ``]``."""
    end = text.index("]", start)
    return _cards(text, start + 1, end, ok, game), end + 1


class LineState:
    """Per-hand lexer state: the game, once the header has been read."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: GameLines | None = None


def _header(m: re.Match[str], text: str, n: int, st: LineState) -> Header:
    g = m.group
    if g("blind") is not None:
        game, stakes = Game.CHIRIBITO, Stakes(int(g("blind")))
    elif g("aces_ante") is not None:
        game = Game.ACES
        stakes = Stakes(int(g("aces_ante")), int(g("small_bet")), int(g("big_bet")))
    else:
        game = Game.CALATONE
        stakes = Stakes(int(g("calatone_ante")), int(g("min_bet")), int(g("max_bet")))
    st.game = GAMES[game]
    return Header(g("site"), g("hand_id"), game, stakes, g("date"), g("time"), g("zone"), n)


def _table(m: re.Match[str], text: str, n: int, st: LineState) -> Table:
    return Table(m.group("table"), int(m.group("max_seats")), int(m.group("dealer")), n)


def _house_rules(m: re.Match[str], text: str, n: int, st: LineState) -> HouseRules:
    return HouseRules(tuple(text[len("House rules: ") :].split(", ")), n)


def _commitment(m: re.Match[str], text: str, n: int, st: LineState) -> Commitment:
    return Commitment(m.group("digest"), n)


def _seat(m: re.Match[str], text: str, n: int, st: LineState) -> Seat:
    return Seat(
        int(m.group("seat")),
        m.group("name"),
        int(m.group("chips")),
        text.endswith(" is sitting out"),
        n,
    )


def _post(m: re.Match[str], text: str, n: int, st: LineState) -> Post:
    blind = m.group("blind")
    all_in = text.endswith(" and is all-in")
    if blind is not None:
        return Post(m.group("name"), "blind", int(blind), all_in, n)
    return Post(m.group("name"), "ante", int(m.group("ante")), all_in, n)


def _top_up(m: re.Match[str], text: str, n: int, st: LineState) -> TopUp:
    return TopUp(m.group("name"), int(m.group("added")), n)


def _action(m: re.Match[str], text: str, n: int, st: LineState) -> Action:
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


def _marker(m: re.Match[str], text: str, n: int, st: LineState) -> Marker:
    game = st.game
    assert game is not None
    street = m.group("street")
    if street is None:
        street = SHOWDOWN
    elif street not in game.streets:
        raise LineFault(
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


def _deal(m: re.Match[str], text: str, n: int, st: LineState) -> Deal:
    game = st.game
    assert game is not None
    at = m.end("name") + 1  # after ":"
    down = up = None
    if text.startswith(" down [", at):
        down, at = _bracket(text, at + 6, game, game.dealt)
    if at < len(text):
        up, at = _bracket(text, at + 4, game, game.dealt)
    return Deal(m.group("name"), down, up, n)


def _uncalled(m: re.Match[str], text: str, n: int, st: LineState) -> Uncalled:
    return Uncalled(int(m.group("returned")), m.group("name"), n)


def _collected(m: re.Match[str], text: str, n: int, st: LineState) -> Collected:
    side = m.group("side")
    if side is not None:
        pot: int | None = int(side)
    elif text.endswith(" main pot"):
        pot = 0
    else:
        pot = None
    return Collected(m.group("name"), int(m.group("collected")), pot, n)


def _show(m: re.Match[str], text: str, n: int, st: LineState) -> Show:
    game = st.game
    assert game is not None
    cards, at = _bracket(text, m.end("name") + 8, game, game.cards)
    declared = None
    if text.startswith(" and declares [", at):
        declared, at = _bracket(text, at + 14, game, game.cards)
    return Show(m.group("name"), cards, declared, m.group("description"), n)


def _muck(m: re.Match[str], text: str, n: int, st: LineState) -> Muck:
    return Muck(m.group("name"), n)


def _info(m: re.Match[str], text: str, n: int, st: LineState) -> Info:
    name = m.group("name")
    word = text[m.end("name") + 2 :]
    if word[0] == "s":
        return Info(name, "says", m.group("chat") or "", n)
    if word == "is connected":
        return Info(name, "connected", None, n)
    return Info(name, "disconnected", None, n)


def _summary(m: re.Match[str], text: str, n: int, st: LineState) -> int:
    return n  # the Summary record is built when the hand is assembled


_SIDE_POT = re.compile(r" Side pot-([0-9]+) ([0-9]+)\.")


def _total_pot(m: re.Match[str], text: str, n: int, st: LineState) -> TotalPot:
    main = m.group("main")
    if main is None:
        return TotalPot(int(m.group("total")), int(m.group("rake")), None, (), n)
    start = m.end("main") + 1
    sides = []
    for k, side in enumerate(_SIDE_POT.finditer(text, start, m.start("rake") - 8), 1):
        if int(side.group(1)) != k:
            raise LineFault(
                f"expected 'Side pot-{k}' here: side pots are numbered 1, 2, ... in order",
                side.start() + 2,
            )
        sides.append(int(side.group(2)))
    return TotalPot(int(m.group("total")), int(m.group("rake")), int(main), tuple(sides), n)


def _board(m: re.Match[str], text: str, n: int, st: LineState) -> Board:
    game = st.game
    assert game is not None
    return Board(_cards(text, 7, len(text) - 1, game.cards, game), n)


def _deck(m: re.Match[str], text: str, n: int, st: LineState) -> DeckLine:
    game = st.game
    assert game is not None
    cards, _ = _bracket(text, 5, game, game.cards)
    return DeckLine(cards, m.group("salt"), n)


def _seat_outcome(m: re.Match[str], text: str, n: int, st: LineState) -> SeatOutcome:
    game = st.game
    assert game is not None
    seat, name = int(m.group("seat")), m.group("name")
    at = m.end("name") + 2
    word = text[at]
    if word == "f":
        street = m.group("street")
        if street not in game.streets:
            raise LineFault(
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


_Builder = Callable[[re.Match[str], str, int, LineState], Any]
BUILDERS: dict[str, _Builder] = {
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
