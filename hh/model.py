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


def _line() -> int:
    return field(default=0, compare=False)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Stakes:
    """The header's stakes. ``forced`` is the blind (Chiribito) or the ante.

    ``low``/``high`` are the small and big bet (Aces, Straights and Flushes,
    ``bets 1/2``) or the spread minimum and maximum (Calatone, ``bets 5-50``);
    Chiribito has neither.
    """

    forced: int
    low: int | None = None
    high: int | None = None


@dataclass(frozen=True, slots=True)
class Header:
    site: str | None
    hand_id: str
    game: Game
    stakes: Stakes
    date: str  # YYYY/MM/DD as written: an impossible date is the validator's to report
    time: str  # HH:MM:SS as written
    zone: str | None
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    max_seats: int
    dealer: int
    line: int = _line()


@dataclass(frozen=True, slots=True)
class HouseRules:
    rules: tuple[str, ...]  # as written: "La Perla wins", "Deck from 7", "Flush beats full house"
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Commitment:
    digest: str  # 64 lowercase hex digits
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    name: str
    chips: int
    sitting_out: bool = False
    line: int = _line()


# ---------------------------------------------------------------- body lines


@dataclass(frozen=True, slots=True)
class Post:
    """``<name>: posts blind <n>`` or ``posts ante <n>``."""

    name: str
    kind: Literal["blind", "ante"]
    amount: int
    all_in: bool = False
    line: int = _line()


@dataclass(frozen=True, slots=True)
class TopUp:
    """``<name>: adds <n> chips`` between the seat lines and the first marker."""

    name: str
    amount: int
    line: int = _line()


Verb = Literal["checks", "folds", "bets", "calls", "raises"]


@dataclass(frozen=True, slots=True)
class Action:
    """A betting action. ``amount`` is the chips of bets/calls and the ``<by>``
    of a raise; ``total`` is a raise's ``to <total>`` (None otherwise)."""

    name: str
    verb: Verb
    amount: int | None = None
    total: int | None = None
    all_in: bool = False
    timed_out: bool = False
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Deal:
    """``Dealt to <name>: down [..] up [..]``; a group not written is None."""

    name: str
    down: tuple[str, ...] | None
    up: tuple[str, ...] | None
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Uncalled:
    amount: int
    name: str
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Collected:
    """``<name>: collected <n> from <pot>``: ``pot`` None is ``pot``, 0 is
    ``main pot``, k > 0 is ``side pot-k``."""

    name: str
    amount: int
    pot: int | None = None
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Show:
    """``<name>: shows [..]`` with an optional ``and declares [..]`` (Calatone)
    and an optional ``(<description>)``."""

    name: str
    cards: tuple[str, ...]
    declared: tuple[str, ...] | None = None
    description: str | None = None
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Muck:
    name: str
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Info:
    """Kept, never judged: ``says "<text>"``, ``is disconnected``, ``is connected``."""

    name: str
    kind: Literal["says", "disconnected", "connected"]
    text: str | None = None
    line: int = _line()


Line = Post | TopUp | Action | Deal | Uncalled | Collected | Show | Muck | Info


@dataclass(frozen=True, slots=True)
class Marker:
    """A street marker or ``*** SHOWDOWN ***``.

    ``street`` is the marker's name as written (``HOLE CARDS``, ``COMMON 3``,
    ``4TH STREET``, ``SHOWDOWN``); ``groups`` are its bracketed card groups
    (Chiribito's ``[board so far] [new card]``), empty for the other markers.
    """

    street: str
    groups: tuple[tuple[str, ...], ...] = ()
    line: int = _line()

    @property
    def new_cards(self) -> tuple[str, ...]:
        return self.groups[-1] if self.groups else ()

    @property
    def board_before(self) -> tuple[str, ...] | None:
        return self.groups[-2] if len(self.groups) >= 2 else None


SHOWDOWN = "SHOWDOWN"


@dataclass(frozen=True, slots=True)
class Section:
    """A marker and the lines up to the next marker or the summary."""

    marker: Marker
    lines: tuple[Line, ...]


# ---------------------------------------------------------------- summary


@dataclass(frozen=True, slots=True)
class TotalPot:
    """``Total pot <n> [Main pot <m>. Side pot-1 <s1>. ...] | Rake <r>``;
    ``main`` is None when no pots are listed."""

    total: int
    rake: int
    main: int | None = None
    side: tuple[int, ...] = ()
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Board:
    cards: tuple[str, ...]
    line: int = _line()


@dataclass(frozen=True, slots=True)
class DeckLine:
    cards: tuple[str, ...]
    salt: str | None = None
    line: int = _line()


Outcome = Literal["folded", "showed_won", "showed_lost", "mucked", "won", "sat_out"]


@dataclass(frozen=True, slots=True)
class SeatOutcome:
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
    line: int = _line()


@dataclass(frozen=True, slots=True)
class Summary:
    total: TotalPot
    board: Board | None = None
    deck: DeckLine | None = None
    seats: tuple[SeatOutcome, ...] = ()
    line: int = _line()  # the *** SUMMARY *** marker


@dataclass(frozen=True, slots=True)
class Hand:
    header: Header
    table: Table
    seats: tuple[Seat, ...]
    preamble: tuple[Line, ...]
    sections: tuple[Section, ...]
    summary: Summary
    house_rules: HouseRules | None = None
    commitment: Commitment | None = None

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
    """Give a frozen, slotted dataclass an ``__init__`` that fills its slots
    through their descriptors.

    The parser builds one record per line, so their construction is a fair
    share of its time; a frozen dataclass's own ``__init__`` sets each field
    with ``object.__setattr__(self, name, value)`` (an attribute lookup per
    field), about 1.7x slower than the slot descriptor's ``__set__``. The
    signature, defaults and annotations are the dataclass's, and everything
    else (frozen assignment, equality, hashing, ``replace``, pickling) is the
    dataclass's own, untouched.
    """
    fields = dataclasses.fields(cls)
    if any(f.default_factory is not dataclasses.MISSING or not f.init for f in fields):
        return  # not the simple case: keep the dataclass's __init__
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
        and _cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        and "__slots__" in _cls.__dict__
    ):
        _quick_init(_cls)
del _cls
