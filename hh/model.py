"""Immutable records of a hand history, one class per kind of line.

The model keeps every choice the text made (site or none, zone or none,
``from pot`` or ``from main pot``, optional lines), so a canonical hand writes
back byte for byte; it keeps no derived state, which belongs to the engine.
Every record carries the line number it came from (``line``), left out of
equality so that a hand re-parsed from another place compares equal.

The body of a hand is cut at its marker lines: the ``preamble`` holds what
comes before the first marker (forced bets, top-ups, chat), then one
:class:`Section` per marker, in file order, whatever that order is: the
parser records, the validator judges.
"""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal


class Game(StrEnum):
    """The three games; the value is the name used in JSON and on the command line."""

    CHIRIBITO = "chiribito"
    ACES = "aces-straights-flushes"
    CALATONE = "calatone"

    @property
    def label(self) -> str:
        """The game's name as the header writes it (not ``title``: that is str's)."""
        return _TITLES[self]

    @property
    def betting(self) -> str:
        return _BETTING[self]


_TITLES = {
    Game.CHIRIBITO: "Chiribito",
    Game.ACES: "Aces, Straights and Flushes",
    Game.CALATONE: "Calatone",
}
_BETTING = {Game.CHIRIBITO: "No Limit", Game.ACES: "Limit", Game.CALATONE: "Spread Limit"}


class _Record:
    """What every record shares. Each record class writes out its
    ``__init__``: compiled (mypyc), that makes the records native classes
    that the parser builds in ~50 ns instead of ~500 ns through a Python
    ``__init__``, and whose fields the referee reads directly. Pure, that
    ``__init__`` would hit the frozen ``__setattr__``: ``_quick_init`` (at
    the end of the module) replaces it with one that fills the slots.

    The line field is declared ``field(default=0, compare=False)`` in each
    class, not through a helper: mypyc reads dataclass fields literally."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled (and copied) by its fields, through ``__init__``: a native
        class has no ``__setstate__`` a frozen dataclass could use."""
        return type(self), tuple([getattr(self, f.name) for f in dataclasses.fields(self)])  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True, init=False)
class Stakes(_Record):
    """The header's stakes. ``forced`` is the blind (Chiribito) or the ante.

    ``low``/``high`` are the small and big bet (Aces, Straights and Flushes,
    ``bets 1/2``) or the spread minimum and maximum (Calatone, ``bets 5-50``);
    Chiribito has neither.
    """

    forced: int
    low: int | None = None
    high: int | None = None

    def __init__(self, forced: int, low: int | None = None, high: int | None = None) -> None:
        self.forced = forced  # type: ignore[misc]
        self.low = low  # type: ignore[misc]
        self.high = high  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Header(_Record):
    site: str | None
    hand_id: str
    game: Game
    stakes: Stakes
    date: str  # YYYY/MM/DD as written: an impossible date is the validator's to report
    time: str  # HH:MM:SS as written
    zone: str | None
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        site: str | None,
        hand_id: str,
        game: Game,
        stakes: Stakes,
        date: str,
        time: str,
        zone: str | None,
        line: int = 0,
    ) -> None:
        self.site = site  # type: ignore[misc]
        self.hand_id = hand_id  # type: ignore[misc]
        self.game = game  # type: ignore[misc]
        self.stakes = stakes  # type: ignore[misc]
        self.date = date  # type: ignore[misc]
        self.time = time  # type: ignore[misc]
        self.zone = zone  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Table(_Record):
    name: str
    max_seats: int
    dealer: int
    line: int = field(default=0, compare=False)

    def __init__(self, name: str, max_seats: int, dealer: int, line: int = 0) -> None:
        self.name = name  # type: ignore[misc]
        self.max_seats = max_seats  # type: ignore[misc]
        self.dealer = dealer  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class HouseRules(_Record):
    rules: tuple[str, ...]  # as written: "La Perla wins", "Deck from 7", "Flush beats full house"
    line: int = field(default=0, compare=False)

    def __init__(self, rules: tuple[str, ...], line: int = 0) -> None:
        self.rules = rules  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Commitment(_Record):
    digest: str  # 64 lowercase hex digits
    line: int = field(default=0, compare=False)

    def __init__(self, digest: str, line: int = 0) -> None:
        self.digest = digest  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Seat(_Record):
    seat: int
    name: str
    chips: int
    sitting_out: bool = False
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        seat: int,
        name: str,
        chips: int,
        sitting_out: bool = False,
        line: int = 0,
    ) -> None:
        self.seat = seat  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.chips = chips  # type: ignore[misc]
        self.sitting_out = sitting_out  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


# ---------------------------------------------------------------- body lines


@dataclass(frozen=True, slots=True, init=False)
class Post(_Record):
    """``<name>: posts blind <n>`` or ``posts ante <n>``."""

    name: str
    kind: Literal["blind", "ante"]
    amount: int
    all_in: bool = False
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        name: str,
        kind: Literal["blind", "ante"],
        amount: int,
        all_in: bool = False,
        line: int = 0,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.all_in = all_in  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class TopUp(_Record):
    """``<name>: adds <n> chips`` between the seat lines and the first marker."""

    name: str
    amount: int
    line: int = field(default=0, compare=False)

    def __init__(self, name: str, amount: int, line: int = 0) -> None:
        self.name = name  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


Verb = Literal["checks", "folds", "bets", "calls", "raises"]


@dataclass(frozen=True, slots=True, init=False)
class Action(_Record):
    """A betting action. ``amount`` is the chips of bets/calls and the ``<by>``
    of a raise; ``total`` is a raise's ``to <total>`` (None otherwise)."""

    name: str
    verb: Verb
    amount: int | None = None
    total: int | None = None
    all_in: bool = False
    timed_out: bool = False
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        name: str,
        verb: Verb,
        amount: int | None = None,
        total: int | None = None,
        all_in: bool = False,
        timed_out: bool = False,
        line: int = 0,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.verb = verb  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.total = total  # type: ignore[misc]
        self.all_in = all_in  # type: ignore[misc]
        self.timed_out = timed_out  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Deal(_Record):
    """``Dealt to <name>: down [..] up [..]``; a group not written is None."""

    name: str
    down: tuple[str, ...] | None
    up: tuple[str, ...] | None
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        name: str,
        down: tuple[str, ...] | None,
        up: tuple[str, ...] | None,
        line: int = 0,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.down = down  # type: ignore[misc]
        self.up = up  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Uncalled(_Record):
    amount: int
    name: str
    line: int = field(default=0, compare=False)

    def __init__(self, amount: int, name: str, line: int = 0) -> None:
        self.amount = amount  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Collected(_Record):
    """``<name>: collected <n> from <pot>``: ``pot`` None is ``pot``, 0 is
    ``main pot``, k > 0 is ``side pot-k``."""

    name: str
    amount: int
    pot: int | None = None
    line: int = field(default=0, compare=False)

    def __init__(self, name: str, amount: int, pot: int | None = None, line: int = 0) -> None:
        self.name = name  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.pot = pot  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Show(_Record):
    """``<name>: shows [..]`` with an optional ``and declares [..]`` (Calatone)
    and an optional ``(<description>)``."""

    name: str
    cards: tuple[str, ...]
    declared: tuple[str, ...] | None = None
    description: str | None = None
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        name: str,
        cards: tuple[str, ...],
        declared: tuple[str, ...] | None = None,
        description: str | None = None,
        line: int = 0,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]
        self.declared = declared  # type: ignore[misc]
        self.description = description  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Muck(_Record):
    name: str
    line: int = field(default=0, compare=False)

    def __init__(self, name: str, line: int = 0) -> None:
        self.name = name  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Info(_Record):
    """Kept, never judged: ``says "<text>"``, ``is disconnected``, ``is connected``."""

    name: str
    kind: Literal["says", "disconnected", "connected"]
    text: str | None = None
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        name: str,
        kind: Literal["says", "disconnected", "connected"],
        text: str | None = None,
        line: int = 0,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.text = text  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


Line = Post | TopUp | Action | Deal | Uncalled | Collected | Show | Muck | Info


@dataclass(frozen=True, slots=True, init=False)
class Marker(_Record):
    """A street marker or ``*** SHOWDOWN ***``.

    ``street`` is the marker's name as written (``HOLE CARDS``, ``COMMON 3``,
    ``4TH STREET``, ``SHOWDOWN``); ``groups`` are its bracketed card groups
    (Chiribito's ``[board so far] [new card]``), empty for the other markers.
    """

    street: str
    groups: tuple[tuple[str, ...], ...] = ()
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        street: str,
        groups: tuple[tuple[str, ...], ...] = (),
        line: int = 0,
    ) -> None:
        self.street = street  # type: ignore[misc]
        self.groups = groups  # type: ignore[misc]
        self.line = line  # type: ignore[misc]

    @property
    def new_cards(self) -> tuple[str, ...]:
        return self.groups[-1] if self.groups else ()

    @property
    def board_before(self) -> tuple[str, ...] | None:
        return self.groups[-2] if len(self.groups) >= 2 else None


SHOWDOWN = "SHOWDOWN"


@dataclass(frozen=True, slots=True, init=False)
class Section(_Record):
    """A marker and the lines up to the next marker or the summary."""

    marker: Marker
    lines: tuple[Line, ...]

    def __init__(self, marker: Marker, lines: tuple[Line, ...]) -> None:
        self.marker = marker  # type: ignore[misc]
        self.lines = lines  # type: ignore[misc]


# ---------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True, init=False)
class TotalPot(_Record):
    """``Total pot <n> [Main pot <m>. Side pot-1 <s1>. ...] | Rake <r>``;
    ``main`` is None when no pots are listed."""

    total: int
    rake: int
    main: int | None = None
    side: tuple[int, ...] = ()
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        total: int,
        rake: int,
        main: int | None = None,
        side: tuple[int, ...] = (),
        line: int = 0,
    ) -> None:
        self.total = total  # type: ignore[misc]
        self.rake = rake  # type: ignore[misc]
        self.main = main  # type: ignore[misc]
        self.side = side  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Board(_Record):
    cards: tuple[str, ...]
    line: int = field(default=0, compare=False)

    def __init__(self, cards: tuple[str, ...], line: int = 0) -> None:
        self.cards = cards  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class DeckLine(_Record):
    cards: tuple[str, ...]
    salt: str | None = None
    line: int = field(default=0, compare=False)

    def __init__(self, cards: tuple[str, ...], salt: str | None = None, line: int = 0) -> None:
        self.cards = cards  # type: ignore[misc]
        self.salt = salt  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


Outcome = Literal["folded", "showed_won", "showed_lost", "mucked", "won", "sat_out"]


@dataclass(frozen=True, slots=True, init=False)
class SeatOutcome(_Record):
    """``Seat <k>: <name>: <outcome>``.

    ``street`` is set for ``folded on <STREET>``, ``cards`` for the showed
    outcomes, ``amount`` for ``won <n>`` and ``showed [..] and won <n>``,
    ``description`` for a showed line's optional ``with <description>``.
    """

    seat: int
    name: str
    outcome: Outcome
    cards: tuple[str, ...] | None = None
    amount: int | None = None
    street: str | None = None
    description: str | None = None
    line: int = field(default=0, compare=False)

    def __init__(
        self,
        seat: int,
        name: str,
        outcome: Outcome,
        cards: tuple[str, ...] | None = None,
        amount: int | None = None,
        street: str | None = None,
        description: str | None = None,
        line: int = 0,
    ) -> None:
        self.seat = seat  # type: ignore[misc]
        self.name = name  # type: ignore[misc]
        self.outcome = outcome  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.street = street  # type: ignore[misc]
        self.description = description  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Summary(_Record):
    total: TotalPot
    board: Board | None = None
    deck: DeckLine | None = None
    seats: tuple[SeatOutcome, ...] = ()
    line: int = field(default=0, compare=False)  # the *** SUMMARY *** marker

    def __init__(
        self,
        total: TotalPot,
        board: Board | None = None,
        deck: DeckLine | None = None,
        seats: tuple[SeatOutcome, ...] = (),
        line: int = 0,
    ) -> None:
        self.total = total  # type: ignore[misc]
        self.board = board  # type: ignore[misc]
        self.deck = deck  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.line = line  # type: ignore[misc]


@dataclass(frozen=True, slots=True, init=False)
class Hand(_Record):
    header: Header
    table: Table
    seats: tuple[Seat, ...]
    preamble: tuple[Line, ...]
    sections: tuple[Section, ...]
    summary: Summary
    house_rules: HouseRules | None = None
    commitment: Commitment | None = None

    def __init__(
        self,
        header: Header,
        table: Table,
        seats: tuple[Seat, ...],
        preamble: tuple[Line, ...],
        sections: tuple[Section, ...],
        summary: Summary,
        house_rules: HouseRules | None = None,
        commitment: Commitment | None = None,
    ) -> None:
        self.header = header  # type: ignore[misc]
        self.table = table  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.preamble = preamble  # type: ignore[misc]
        self.sections = sections  # type: ignore[misc]
        self.summary = summary  # type: ignore[misc]
        self.house_rules = house_rules  # type: ignore[misc]
        self.commitment = commitment  # type: ignore[misc]

    @property
    def game(self) -> Game:
        return self.header.game

    @property
    def line(self) -> int:
        """The hand's first line in its file."""
        return self.header.line

    def lines(self) -> list[tuple[str | None, Line | Marker]]:
        """The body in file order as (street, line) pairs; markers are
        included with their own street, preamble lines have street None."""
        out: list[tuple[str | None, Line | Marker]] = [(None, x) for x in self.preamble]
        for section in self.sections:
            street = section.marker.street
            out.append((street, section.marker))
            out.extend((street, x) for x in section.lines)
        return out


# ---------------------------------------------------------------- construction speed


def _quick_init(cls: type) -> None:
    """Give a record class of the pure build an ``__init__`` that fills its
    slots through their descriptors.

    The ``__init__`` a record class writes out is for the compiled build
    (see :class:`_Record`); pure, its ``self.x = x`` would hit the frozen
    ``__setattr__``. The dataclass's own ``__init__`` would set each field
    with ``object.__setattr__`` (an attribute lookup per field), about 1.7x
    slower than the slot descriptor's ``__set__``. The signature, defaults
    and annotations are the class's; everything else (frozen assignment,
    equality, hashing, ``replace``) is the dataclass's own.
    """
    fields = dataclasses.fields(cls)
    assert all(f.default_factory is dataclasses.MISSING and f.init for f in fields), cls
    scope: dict[str, Any] = {f"_set_{f.name}": getattr(cls, f.name).__set__ for f in fields}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"\n    _set_{f.name}(self, {f.name})" for f in fields) or "\n    pass"
    exec(f"def __init__(self, {', '.join(params)}):{body}", scope)
    init = scope["__init__"]
    old = cls.__init__  # type: ignore[misc]
    init.__annotations__ = dict(old.__annotations__)
    init.__qualname__ = old.__qualname__
    init.__doc__ = old.__doc__
    cls.__init__ = init  # type: ignore[misc]


for _cls in list(globals().values()):
    if (
        isinstance(_cls, type)
        and _cls.__module__ == __name__
        and dataclasses.is_dataclass(_cls)
        and isinstance(_cls.__dict__.get("__init__"), types.FunctionType)  # pure, not compiled
    ):
        _quick_init(_cls)
del _cls
