"""Calatone: standard seven-card ranking, with its two house rules.

- ``Flush beats full house`` swaps the two categories (only their strengths
  move; the tables are otherwise the same).
- ``Deck from R`` strips the deck to ranks R..A; the ace is then also low next
  to R (``A-7-8-9-T`` is the lowest straight of ``Deck from 7``) and cards
  below R are not cards of the deck (:class:`~hh.cards.CardError`).

A hand is 1 to 7 cards. With five or more the best five count, straights and
flushes included. With fewer (a hand ended early because every player
checked) only same-rank groups and high cards count, which the same tables
give for free: fewer than five cards cannot hold a straight or a flush.
:meth:`CalatoneEvaluator.exposed` applies the same ranking to the up cards, as
the rules say for choosing who opens.

``value`` trusts that the cards are distinct (the validator reports
duplicates); an unknown card or a wrong count raises. ``evaluate`` checks
everything.
"""

from __future__ import annotations

from collections.abc import Sequence

from hh.cards import FRENCH_52, FRENCH_RANKS, FRENCH_SUITS, stripped_deck
from hh.evaluate import Category, Evaluation
from hh.evaluate._tables import (
    FLUSH_OVER_FULL_ORDER,
    FRENCH_NAMES,
    FRENCH_PLURALS,
    RANK_MASK,
    STANDARD_ORDER,
    SUIT_SHIFT,
    check_cards,
    describe,
    french_tables,
    pick,
    unpack,
)

SIZES = range(1, 8)


class CalatoneEvaluator:
    """Values of Calatone hands under one set of house rules."""

    def __init__(self, lowest: str = "2", flush_beats_full_house: bool = False) -> None:
        self.deck = FRENCH_52 if lowest == "2" else stripped_deck(lowest)
        self.order = FLUSH_OVER_FULL_ORDER if flush_beats_full_house else STANDARD_ORDER
        tables = french_tables(self.deck, self.order)
        self._tables = tables
        self._key = tables.key.__getitem__
        self._bit = tables.bit
        self._ranks = tables.ranks
        self._flush = tables.flush
        self._flush_suit = tables.flush_suit
        self._rank_of = {card: FRENCH_RANKS.index(card[0]) for card in self.deck.cards}

    def value(self, own: Sequence[str], board: Sequence[str] = ()) -> int:
        if board:
            raise ValueError(f"Calatone has no common cards, got board {' '.join(board)}")
        try:
            key = sum(map(self._key, own))
            best = self._ranks[key & RANK_MASK]
            suit = self._flush_suit[key >> SUIT_SHIFT]
        except (KeyError, IndexError):
            check_cards(self.deck, own, SIZES, "a Calatone hand")
            raise ValueError(f"not a Calatone hand: {' '.join(own)}") from None
        if suit < 0:
            return best
        letter = FRENCH_SUITS[suit]
        bit = self._bit
        mask = 0
        for card in own:
            if card[1] == letter:
                mask |= bit[card]
        flush = self._flush[mask]
        return flush if flush > best else best

    def values(self, own: Sequence[str], draws: Sequence[Sequence[str]],
               board: Sequence[str] = ()) -> list[int]:  # fmt: skip
        """``[value([*own, *draw]) for draw in draws]``, with ``own``'s part of
        the lookups made once: the many deals of a Monte Carlo."""
        if board:
            raise ValueError(f"Calatone has no common cards, got board {' '.join(board)}")
        keys, bit, ranks, flush, flush_suit = (self._tables.key, self._bit, self._ranks,
                                               self._flush, self._flush_suit)  # fmt: skip
        out: list[int] = []
        try:
            base = 0
            for card in own:
                base += keys[card]
            for draw in draws:
                key = base
                for card in draw:
                    key += keys[card]
                best = ranks[key & RANK_MASK]
                suit = flush_suit[key >> SUIT_SHIFT]
                if suit >= 0:
                    letter = FRENCH_SUITS[suit]
                    mask = 0
                    for card in own:
                        if card[1] == letter:
                            mask |= bit[card]
                    for card in draw:
                        if card[1] == letter:
                            mask |= bit[card]
                    value = flush[mask]
                    if value > best:
                        best = value
                out.append(best)
        except (KeyError, IndexError):  # the plain path says what is wrong
            return [self.value([*own, *draw]) for draw in draws]
        return out

    def exposed(self, up: Sequence[str]) -> int:
        """The up cards ranked like a hand: all categories they form (straights
        and flushes only once five are up); one card is just its rank."""
        return self.value(up)

    def category(self, value: int) -> Category:
        return self.order[value >> 20]

    def evaluate(self, own: Sequence[str], board: Sequence[str] = ()) -> Evaluation:
        check_cards(self.deck, own, SIZES, "a Calatone hand")
        value = self.value(own, board)
        strength, ranks = unpack(value)
        category = self.order[strength]
        pool: Sequence[str] = own
        if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            suit = self._flush_suit[sum(map(self._key, own)) >> SUIT_SHIFT]
            pool = [card for card in own if card[1] == FRENCH_SUITS[suit]]
        cards = pick(pool, ranks, self._rank_of)
        return Evaluation(
            value, category, cards, describe(category, ranks, FRENCH_NAMES, FRENCH_PLURALS)
        )
