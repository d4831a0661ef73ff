"""Hand evaluators for the three games, behind one small interface.

Every evaluator turns cards into an ``int`` whose natural order is the game's
ranking (higher is better, equal means a split), because the validator and an
equity calculator compare millions of hands and an int comparison is the
cheapest thing Python has. Descriptions and the cards used are derived from
that int on a slower path (:meth:`Evaluator.evaluate`), only when a log needs
them.

Layout of a value (shared by all games so tests and tools can read it)::

    strength << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

``strength`` is the category's position in the game's ranking (so house
rules that reorder categories only change that position), and ``r1..r5`` are
the five ranks of the hand best first (index in the deck's rank string plus
one; 0 where a short Calatone hand has no card). Values compare only within
one game and one set of house rules.

``evaluator_for`` builds each evaluator once per process, on first use: the
tables take a fraction of a second and most commands need one game only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Protocol

from hh.cards import CardError, stripped_deck
from hh.model import Game

if TYPE_CHECKING:
    from hh.evaluate.chiribito import BoardLookup, ChiribitoEvaluator


class Category(StrEnum):
    """A hand's category; the value is the words FORMAT.md begins a description with."""

    HIGH_CARD = "high card"
    PAIR = "a pair"
    TWO_PAIR = "two pair"
    TRIPS = "three of a kind"
    STRAIGHT = "a straight"
    FLUSH = "a flush"
    FULL_HOUSE = "a full house"
    QUADS = "four of a kind"
    STRAIGHT_FLUSH = "a straight flush"
    FIVE_ACES = "five aces"
    LA_PERLA = "La Perla"


@dataclass(frozen=True, slots=True, order=True)
class Evaluation:
    """A hand as a log shows it. Only ``value`` takes part in comparisons."""

    value: int
    category: Category = field(compare=False)
    cards: tuple[str, ...] = field(compare=False)
    description: str = field(compare=False)


class Evaluator(Protocol):
    """What the engine and the validator need from a game's ranking."""

    def value(self, own: Sequence[str], board: Sequence[str] = ()) -> int:
        """The hand's strength; the hot path, so no description is built."""
        ...

    def values(self, own: Sequence[str], draws: Sequence[Sequence[str]],
               board: Sequence[str] = ...) -> list[int]:  # fmt: skip
        """``[value([*own, *draw], board) for draw in draws]`` (the board
        defaulting as ``value``'s does), with what depends on ``own`` alone
        computed once: a Monte Carlo values each contender's known cards
        with each deal's new ones."""
        ...

    def evaluate(self, own: Sequence[str], board: Sequence[str] = ()) -> Evaluation:
        """Value, category, cards used and the description a log writes."""
        ...

    def exposed(self, up: Sequence[str]) -> int:
        """Strength of a player's up cards, to pick who opens a stud round."""
        ...

    def category(self, value: int) -> Category:
        """Category of a value returned by :meth:`value` or :meth:`exposed`."""
        ...


RULE_LA_PERLA = "La Perla wins"
RULE_FLUSH_OVER_FULL = "Flush beats full house"
_DECK_FROM = re.compile(r"Deck from (\S+)")


def evaluator_for(game: Game | str, house_rules: Iterable[str] = ()) -> Evaluator:
    """The evaluator for a game under the house rules written in the log.

    Rules that do not change this game's ranking are ignored: whether a rule
    is allowed at a table is the validator's question, not the evaluator's.
    A malformed ``Deck from R`` (R not 3 to 9) raises :class:`CardError`.
    """
    game = Game(game)
    rules = {rule.strip() for rule in house_rules}
    if game is Game.CHIRIBITO:
        return _chiribito(RULE_LA_PERLA in rules)
    if game is Game.ACES:
        return _aces()
    lowest = "2"
    decks = [m.group(1) for rule in rules if (m := _DECK_FROM.fullmatch(rule))]
    if len(decks) > 1:
        raise CardError(f"conflicting house rules: {', '.join('Deck from ' + d for d in decks)}")
    if decks:
        lowest = stripped_deck(decks[0]).ranks[0]  # validates R
    return _calatone(lowest, RULE_FLUSH_OVER_FULL in rules)


def chiribito_lookup(house_rules: Iterable[str] = ()) -> BoardLookup:
    """Chiribito's ranking under these house rules as the lookups its
    evaluator reads (:class:`~hh.evaluate.chiribito.BoardLookup`): for
    valuing one player's hole cards on every possible board at once, as the
    all-in equity does, with the same values as ``value``."""
    rules = {rule.strip() for rule in house_rules}
    return _chiribito_evaluator(RULE_LA_PERLA in rules).lookup()


def chiribito_showdowns(holes: Sequence[Sequence[str]], board: Sequence[str],
                        unseen: Sequence[str], house_rules: Iterable[str] = ()
                        ) -> dict[tuple[int, ...], int]:  # fmt: skip
    """Every completion of a Chiribito ``board`` to five cards from
    ``unseen``, by the values the players' hole cards get on it (``value``'s,
    one per pair in ``holes``): values -> how many completions give them.
    Counted by rank multisets, flushes apart, rather than board by board
    (:func:`hh.evaluate.chiribito.showdowns`): what an exact all-in equity
    needs."""
    rules = {rule.strip() for rule in house_rules}
    return _chiribito_evaluator(RULE_LA_PERLA in rules).showdowns(holes, board, unseen)


def _chiribito_evaluator(la_perla_wins: bool) -> ChiribitoEvaluator:
    from hh.evaluate.chiribito import ChiribitoEvaluator

    ev = _chiribito(la_perla_wins)
    assert isinstance(ev, ChiribitoEvaluator)
    return ev


@cache
def _chiribito(la_perla_wins: bool) -> Evaluator:
    from hh.evaluate.chiribito import ChiribitoEvaluator

    return ChiribitoEvaluator(la_perla_wins=la_perla_wins)


@cache
def _aces() -> Evaluator:
    from hh.evaluate.aces import AcesEvaluator

    return AcesEvaluator()


@cache
def _calatone(lowest: str, flush_beats_full_house: bool) -> Evaluator:
    from hh.evaluate.calatone import CalatoneEvaluator

    return CalatoneEvaluator(lowest=lowest, flush_beats_full_house=flush_beats_full_house)


__all__ = [
    "RULE_FLUSH_OVER_FULL",
    "RULE_LA_PERLA",
    "Category",
    "Evaluation",
    "Evaluator",
    "chiribito_lookup",
    "chiribito_showdowns",
    "evaluator_for",
]
