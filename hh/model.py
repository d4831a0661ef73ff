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

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, ClassVar, Final, Literal, TypeVar


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


class ModelRecord:
    """What every record shares: its fields (``FIELDS``, in order, the line
    number last where there is one, and the class's ``__slots__``), equality
    and hashing by those fields but ``line``, a repr, and pickling through
    ``__init__``.

    Records are plain classes with ``__slots__`` and an ``__init__`` that
    declares each field ``Final``: mypy refuses any later assignment, and in
    the compiled build (mypyc) they are native classes whose fields are
    read-only."""

    __slots__: tuple[str, ...] = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _compared(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS if name != "line"])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, ModelRecord):
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return type(self), tuple([getattr(self, name) for name in self.FIELDS])


R = TypeVar("R", bound=ModelRecord)


def fields(record: ModelRecord | type[ModelRecord]) -> tuple[str, ...]:
    """A record's (or record class's) field names, in order."""
    return record.FIELDS


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with the fields named in ``changes`` changed
    (like :func:`dataclasses.replace`)."""
    unknown = set(changes).difference(record.FIELDS)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {', '.join(sorted(unknown))}")
    make: Callable[..., R] = type(record)
    return make(*[changes.get(name, getattr(record, name)) for name in record.FIELDS])


class Stakes(ModelRecord):
    """The header's stakes. ``forced`` is the blind (Chiribito) or the ante.

    ``low``/``high`` are the small and big bet (Aces, Straights and Flushes,
    ``bets 1/2``) or the spread minimum and maximum (Calatone, ``bets 5-50``);
    Chiribito has neither.
    """

    FIELDS = ("forced", "low", "high")
    __slots__ = FIELDS

    def __init__(self, forced: int, low: int | None = None, high: int | None = None) -> None:
        self.forced: Final = forced
        self.low: Final = low
        self.high: Final = high


class Header(ModelRecord):
    FIELDS = ("site", "hand_id", "game", "stakes", "date", "time", "zone", "line")
    __slots__ = FIELDS

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
        self.site: Final = site
        self.hand_id: Final = hand_id
        self.game: Final = game
        self.stakes: Final = stakes
        # YYYY/MM/DD as written: an impossible date is the validator's to report
        self.date: Final = date
        self.time: Final = time  # HH:MM:SS as written
        self.zone: Final = zone
        self.line: Final = line


class Table(ModelRecord):
    FIELDS = ("name", "max_seats", "dealer", "line")
    __slots__ = FIELDS

    def __init__(self, name: str, max_seats: int, dealer: int, line: int = 0) -> None:
        self.name: Final = name
        self.max_seats: Final = max_seats
        self.dealer: Final = dealer
        self.line: Final = line


class HouseRules(ModelRecord):
    FIELDS = ("rules", "line")
    __slots__ = FIELDS

    def __init__(self, rules: tuple[str, ...], line: int = 0) -> None:
        # as written: "La Perla wins", "Deck from 7", "Flush beats full house"
        self.rules: Final = rules
        self.line: Final = line


class Commitment(ModelRecord):
    FIELDS = ("digest", "line")
    __slots__ = FIELDS

    def __init__(self, digest: str, line: int = 0) -> None:
        self.digest: Final = digest  # 64 lowercase hex digits
        self.line: Final = line


class Seat(ModelRecord):
    FIELDS = ("seat", "name", "chips", "sitting_out", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        seat: int,
        name: str,
        chips: int,
        sitting_out: bool = False,
        line: int = 0,
    ) -> None:
        self.seat: Final = seat
        self.name: Final = name
        self.chips: Final = chips
        self.sitting_out: Final = sitting_out
        self.line: Final = line


# ---------------------------------------------------------------- body lines


class Post(ModelRecord):
    """``<name>: posts blind <n>`` or ``posts ante <n>``."""

    FIELDS = ("name", "kind", "amount", "all_in", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        name: str,
        kind: Literal["blind", "ante"],
        amount: int,
        all_in: bool = False,
        line: int = 0,
    ) -> None:
        self.name: Final = name
        self.kind: Final = kind
        self.amount: Final = amount
        self.all_in: Final = all_in
        self.line: Final = line


class TopUp(ModelRecord):
    """``<name>: adds <n> chips`` between the seat lines and the first marker."""

    FIELDS = ("name", "amount", "line")
    __slots__ = FIELDS

    def __init__(self, name: str, amount: int, line: int = 0) -> None:
        self.name: Final = name
        self.amount: Final = amount
        self.line: Final = line


Verb = Literal["checks", "folds", "bets", "calls", "raises"]


class Action(ModelRecord):
    """A betting action. ``amount`` is the chips of bets/calls and the ``<by>``
    of a raise; ``total`` is a raise's ``to <total>`` (None otherwise)."""

    FIELDS = ("name", "verb", "amount", "total", "all_in", "timed_out", "line")
    __slots__ = FIELDS

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
        self.name: Final = name
        self.verb: Final = verb
        self.amount: Final = amount
        self.total: Final = total
        self.all_in: Final = all_in
        self.timed_out: Final = timed_out
        self.line: Final = line


class Deal(ModelRecord):
    """``Dealt to <name>: down [..] up [..]``; a group not written is None."""

    FIELDS = ("name", "down", "up", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        name: str,
        down: tuple[str, ...] | None,
        up: tuple[str, ...] | None,
        line: int = 0,
    ) -> None:
        self.name: Final = name
        self.down: Final = down
        self.up: Final = up
        self.line: Final = line


class Uncalled(ModelRecord):
    FIELDS = ("amount", "name", "line")
    __slots__ = FIELDS

    def __init__(self, amount: int, name: str, line: int = 0) -> None:
        self.amount: Final = amount
        self.name: Final = name
        self.line: Final = line


class Collected(ModelRecord):
    """``<name>: collected <n> from <pot>``: ``pot`` None is ``pot``, 0 is
    ``main pot``, k > 0 is ``side pot-k``."""

    FIELDS = ("name", "amount", "pot", "line")
    __slots__ = FIELDS

    def __init__(self, name: str, amount: int, pot: int | None = None, line: int = 0) -> None:
        self.name: Final = name
        self.amount: Final = amount
        self.pot: Final = pot
        self.line: Final = line


class Show(ModelRecord):
    """``<name>: shows [..]`` with an optional ``and declares [..]`` (Calatone)
    and an optional ``(<description>)``."""

    FIELDS = ("name", "cards", "declared", "description", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        name: str,
        cards: tuple[str, ...],
        declared: tuple[str, ...] | None = None,
        description: str | None = None,
        line: int = 0,
    ) -> None:
        self.name: Final = name
        self.cards: Final = cards
        self.declared: Final = declared
        self.description: Final = description
        self.line: Final = line


class Muck(ModelRecord):
    FIELDS = ("name", "line")
    __slots__ = FIELDS

    def __init__(self, name: str, line: int = 0) -> None:
        self.name: Final = name
        self.line: Final = line


class Info(ModelRecord):
    """Kept, never judged: ``says "<text>"``, ``is disconnected``, ``is connected``."""

    FIELDS = ("name", "kind", "text", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        name: str,
        kind: Literal["says", "disconnected", "connected"],
        text: str | None = None,
        line: int = 0,
    ) -> None:
        self.name: Final = name
        self.kind: Final = kind
        self.text: Final = text
        self.line: Final = line


Line = Post | TopUp | Action | Deal | Uncalled | Collected | Show | Muck | Info


class Marker(ModelRecord):
    """A street marker or ``*** SHOWDOWN ***``.

    ``street`` is the marker's name as written (``HOLE CARDS``, ``COMMON 3``,
    ``4TH STREET``, ``SHOWDOWN``); ``groups`` are its bracketed card groups
    (Chiribito's ``[board so far] [new card]``), empty for the other markers.
    """

    FIELDS = ("street", "groups", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        street: str,
        groups: tuple[tuple[str, ...], ...] = (),
        line: int = 0,
    ) -> None:
        self.street: Final = street
        self.groups: Final = groups
        self.line: Final = line

    @property
    def new_cards(self) -> tuple[str, ...]:
        return self.groups[-1] if self.groups else ()

    @property
    def board_before(self) -> tuple[str, ...] | None:
        return self.groups[-2] if len(self.groups) >= 2 else None


SHOWDOWN = "SHOWDOWN"


class Section(ModelRecord):
    """A marker and the lines up to the next marker or the summary."""

    FIELDS = ("marker", "lines")
    __slots__ = FIELDS

    def __init__(self, marker: Marker, lines: tuple[Line, ...]) -> None:
        self.marker: Final = marker
        self.lines: Final = lines


# ---------------------------------------------------------------- summary


class TotalPot(ModelRecord):
    """``Total pot <n> [Main pot <m>. Side pot-1 <s1>. ...] | Rake <r>``;
    ``main`` is None when no pots are listed."""

    FIELDS = ("total", "rake", "main", "side", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        total: int,
        rake: int,
        main: int | None = None,
        side: tuple[int, ...] = (),
        line: int = 0,
    ) -> None:
        self.total: Final = total
        self.rake: Final = rake
        self.main: Final = main
        self.side: Final = side
        self.line: Final = line


class Board(ModelRecord):
    FIELDS = ("cards", "line")
    __slots__ = FIELDS

    def __init__(self, cards: tuple[str, ...], line: int = 0) -> None:
        self.cards: Final = cards
        self.line: Final = line


class DeckLine(ModelRecord):
    FIELDS = ("cards", "salt", "line")
    __slots__ = FIELDS

    def __init__(self, cards: tuple[str, ...], salt: str | None = None, line: int = 0) -> None:
        self.cards: Final = cards
        self.salt: Final = salt
        self.line: Final = line


Outcome = Literal["folded", "showed_won", "showed_lost", "mucked", "won", "sat_out"]


class SeatOutcome(ModelRecord):
    """``Seat <k>: <name>: <outcome>``.

    ``street`` is set for ``folded on <STREET>``, ``cards`` for the showed
    outcomes, ``amount`` for ``won <n>`` and ``showed [..] and won <n>``,
    ``description`` for a showed line's optional ``with <description>``.
    """

    FIELDS = ("seat", "name", "outcome", "cards", "amount", "street", "description", "line")
    __slots__ = FIELDS

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
        self.seat: Final = seat
        self.name: Final = name
        self.outcome: Final = outcome
        self.cards: Final = cards
        self.amount: Final = amount
        self.street: Final = street
        self.description: Final = description
        self.line: Final = line


class Summary(ModelRecord):
    FIELDS = ("total", "board", "deck", "seats", "line")
    __slots__ = FIELDS

    def __init__(
        self,
        total: TotalPot,
        board: Board | None = None,
        deck: DeckLine | None = None,
        seats: tuple[SeatOutcome, ...] = (),
        line: int = 0,
    ) -> None:
        self.total: Final = total
        self.board: Final = board
        self.deck: Final = deck
        self.seats: Final = seats
        self.line: Final = line


class Hand(ModelRecord):
    FIELDS = (
        "header",
        "table",
        "seats",
        "preamble",
        "sections",
        "summary",
        "house_rules",
        "commitment",
    )
    __slots__ = FIELDS

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
        self.header: Final = header
        self.table: Final = table
        self.seats: Final = seats
        self.preamble: Final = preamble
        self.sections: Final = sections
        self.summary: Final = summary
        self.house_rules: Final = house_rules
        self.commitment: Final = commitment

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


def cut_body(items: Iterable[Line | Marker]) -> tuple[tuple[Line, ...], tuple[Section, ...]]:
    """A hand's body in file order cut at its markers: the preamble (the
    lines before the first marker) and one section per marker."""
    preamble: list[Line] = []
    sections: list[Section] = []
    marker: Marker | None = None
    lines: list[Line] = []
    for item in items:
        if isinstance(item, Marker):
            if marker is not None:
                sections.append(Section(marker, tuple(lines)))
            marker, lines = item, []
        elif marker is None:
            preamble.append(item)
        else:
            lines.append(item)
    if marker is not None:
        sections.append(Section(marker, tuple(lines)))
    return tuple(preamble), tuple(sections)
