"""Cards in the open formats: OHH and PHH know only the French notation
(rank ``23456789TJQKA``, suit ``cdhs``), so the Spanish deck is written as
its French equivalents, one to one (docs/formats.md, "Cards"):

======  ===========  ======  =========
Spanish  French      Spanish  French
======  ===========  ======  =========
5       8            o (oros, coins)     d (diamonds)
6       9            c (copas, cups)     h (hearts)
7       T            e (espadas, swords) s (spades)
S (Sota)   J         b (bastos, clubs)   c (clubs)
C (Caballo) Q
R (Rey)  K
A (As)   A
======  ===========  ======  =========

The ranks keep their order (RULES.md gives 8 9 T J Q K A as Chiribito's
French equivalent), so a French evaluator orders single cards, pairs and
flushes as the Spanish game does; straights differ (A-5-6-7-S is
A-8-9-T-J). The map is a bijection between the 28 Spanish cards and 28
French ones: reading a file back with the deck it names gives every card
as written. French decks, the joker ``Jk`` and the unknown card ``??`` are
written as they are.
"""

from __future__ import annotations

from collections.abc import Iterable

from hh.cards import SPANISH_RANKS, SPANISH_SUITS

_RANKS = dict(zip(SPANISH_RANKS, "89TJQKA", strict=True))
_SUITS = dict(zip(SPANISH_SUITS, "dhsc", strict=True))
TO_FRENCH: dict[str, str] = {r + s: _RANKS[r] + _SUITS[s] for r in _RANKS for s in _SUITS}
FROM_FRENCH: dict[str, str] = {f: s for s, f in TO_FRENCH.items()}

# the deck names our OHH extension (and PHH's _hh_deck) write
SPANISH = "spanish-28"


def out(cards: Iterable[str], spanish: bool) -> list[str]:
    """Cards as the open formats write them."""
    if not spanish:
        return list(cards)
    return [TO_FRENCH.get(c, c) for c in cards]


def back(cards: Iterable[str], spanish: bool) -> tuple[str, ...]:
    """Cards of an open-format file in our notation (the inverse of :func:`out`)."""
    if not spanish:
        return tuple(cards)
    return tuple(FROM_FRENCH.get(c, c) for c in cards)
