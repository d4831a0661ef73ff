"""What the three games share: their rules as plain data, and the few hooks
that are logic.

A game is a :class:`GameRules` value: deck, player limits, forced bet,
streets, betting structure, direction of play. Everything that differs by
game and is not a number lives in three hooks: who opens a betting round,
what a shown hand is worth, and whether an all-checked round ends the hand.
The engine (``hh/engine.py``) reads only this; it knows no game by name.

Players are held in *dealing order*: index 0 is the first player dealt, the
last is the dealer. In all three games play goes in the dealing direction, so
"the next player" is always index + 1 (mod n), and every tie rule of
RULES.md (odd chips, stud openers) is "first in dealing order".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from hh.cards import UNKNOWN, Deck
from hh.evaluate import Evaluator, evaluator_for
from hh.model import Game

if TYPE_CHECKING:
    from hh.engine import Engine

Structure = Literal["no-limit", "fixed-limit", "spread-limit"]


@dataclass(frozen=True, slots=True)
class Street:
    """One street: its marker, the cards it deals, the bet size it uses.

    ``down``/``up`` are personal cards per player, ``board`` common cards;
    ``big`` marks a fixed-limit big-bet street.
    """

    name: str
    down: int = 0
    up: int = 0
    board: int = 0
    big: bool = False


@dataclass(frozen=True, slots=True)
class Variant:
    """The house-rule dependent part of a game, built once per rule set."""

    deck: Deck
    evaluator: Evaluator
    max_players: int
    rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GameRules:
    game: Game
    # the cards a log of this game may write (FORMAT.md), whatever the deck in
    # play: the parser accepts these, the validator checks the variant's deck
    notation: Deck
    min_players: int
    max_players: int
    forced: Literal["blind", "ante"]
    # +1: the first player dealt is the dealer's left (clockwise); -1: his right.
    direction: int
    # the direction the deal passes between hands (+1 clockwise)
    deal_passes: int
    streets: tuple[Street, ...]
    structure: Structure
    # fixed limit: bets + raises per round (None: no cap)
    max_bets: int | None
    # Calatone: a round all checked ends the hand (except the last round)
    all_checked_ends: bool
    # does this game know a house rule (as written in the log)?
    knows_rule: Callable[[str], bool]
    # hooks
    opener: Callable[[Engine], int | None]
    make_variant: Callable[[frozenset[str]], Variant]
    # True: the blind waits for a raise before it speaks in round 1 (Chiribito)
    blind_waits: bool = False
    street_index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "street_index", {s.name: i for i, s in enumerate(self.streets)}
        )

    @property
    def last_round(self) -> int:
        """The last betting round, counted from 0 (docs/schema.md)."""
        return len(self.streets) - 1

    def variant(self, house_rules: Sequence[str] = ()) -> Variant:
        """The variant for the house rules as written (unknown rules ignored)."""
        key = (self.game, tuple(house_rules))
        found = _BY_TEXT.get(key)
        if found is None:
            known = frozenset(r for r in house_rules if self.knows_rule(r))
            found = _BY_TEXT[key] = _variant(self, known)
        return found


_VARIANTS: dict[tuple[Game, frozenset[str]], Variant] = {}
_BY_TEXT: dict[tuple[Game, tuple[str, ...]], Variant] = {}


def _variant(rules: GameRules, house: frozenset[str]) -> Variant:
    key = (rules.game, house)
    found = _VARIANTS.get(key)
    if found is None:
        found = _VARIANTS[key] = rules.make_variant(house)
    return found


def plain_variant(game: Game, deck: Deck, max_players: int) -> Callable[[frozenset[str]], Variant]:
    """A variant maker for a game whose house rules change only the evaluator."""

    def make(house: frozenset[str]) -> Variant:
        return Variant(deck, evaluator_for(game, house), max_players, house)

    return make


def best_exposed(engine: Engine) -> int | None:
    """Stud opener: the best exposed hand, ties to the first in dealing order;
    an all-in opener passes to the next player who can act."""
    best = -1
    who: int | None = None
    exposed = engine.variant.evaluator.exposed
    for p in engine.players:
        up = p.up
        if p.folded or not up:
            continue
        if UNKNOWN in up:  # the validator keeps cards it could not accept as ??
            up = [c for c in up if c != UNKNOWN]
            if not up:
                continue
        v = exposed(up)
        if v > best:
            best, who = v, p.index
    if who is None:
        return None
    return engine.next_can_act(who, include_self=True)
