"""The replay state every collaborator shares: the hand, its rules, the
engine, who sits where, and the faults found so far."""

from __future__ import annotations

from hh.engine import Engine, Player
from hh.games import RULES
from hh.model import Hand, Line
from hh.verdict import Violation


class ReplayState:
    """One hand's shared state. Each collaborator (forced bets, betting,
    dealing, showdown, payouts, summary, deck) keeps its own working fields
    and reads or reports through this object."""

    engine: Engine  # set once the seats are read (seating.seat_players)
    names: tuple[str, ...]  # dealt in, dealing order

    def __init__(self, hand: Hand, file: str | None) -> None:
        self.hand = hand
        self.file = file
        self.rules = RULES[hand.game]
        self.house: tuple[str, ...] = hand.house_rules.rules if hand.house_rules else ()
        self.variant = self.rules.variant(self.house)
        self.deck_set: frozenset[str] = self.variant.deck.dealable
        self.violations: list[Violation] = []
        self.unchecked: list[Violation] = []
        self.sitting_out: set[str] = set()
        # seated with no chips: refused (SEATS, once) and not dealt in
        self.refused: set[str] = set()
        self.seat_line: dict[str, int] = {s.name: s.line for s in hand.seats}
        self.seat_of: dict[str, int] = {s.name: s.seat for s in hand.seats}
        self.in_showdown = False
        # the nearest legal line of each faulty line that has an obvious one
        # (hh.replay.repair), by line number, with the code of its fault:
        # what hh.replay.follows replays
        self.repairs: dict[int, tuple[str, Line]] = {}

    def add(self, code: str, line: int, message: str) -> None:
        """Report a fault: the hand is invalid."""
        self.violations.append(Violation(code, line, message))

    def note(self, code: str, line: int, message: str) -> None:
        """A check the log's ``??`` made impossible: never makes a hand invalid."""
        self.unchecked.append(Violation(code, line, message))

    def player(self, name: str, line: int, doing: str) -> Player | None:
        """The player a line names, or None after reporting NOT_IN_HAND (for
        a player refused for having no chips, the SEATS fault said it all)."""
        p = self.engine.by_name.get(name)
        if p is None:
            if name in self.refused:  # the seat line has the fault already
                return None
            if name in self.sitting_out:
                self.add("NOT_IN_HAND", line, f"{name} is sitting out and {doing}")
            else:
                self.add("NOT_IN_HAND", line, f"{name} is not seated at this hand and {doing}")
        return p
