"""A textbook poker ranking, written independently of ``hh.evaluate``, that the
evaluator tests compare against; and the combinatorial five-card counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import pairwise
from math import comb

import pytest

from hh.evaluate import Category as C

STANDARD = [C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT, C.FLUSH, C.FULL_HOUSE,
            C.QUADS, C.STRAIGHT_FLUSH, C.FIVE_ACES]  # fmt: skip
FLUSH_OVER_FULL = [C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT, C.FULL_HOUSE, C.FLUSH,
                   C.QUADS, C.STRAIGHT_FLUSH, C.FIVE_ACES]  # fmt: skip


class Textbook:
    """Hands of at most five cards given as (rank, suit) with ranks 0..n-1
    (n-1 the ace) and suit None for a suitless card. Suits are only ever
    compared for equality, so the result is the same for any relabelling of
    the suits."""

    STANDARD = STANDARD
    FLUSH_OVER_FULL = FLUSH_OVER_FULL

    def __init__(self, n_ranks: int, order: Sequence[C] = STANDARD) -> None:
        ace = n_ranks - 1
        self.heights = {frozenset(range(lo, lo + 5)): lo + 4 for lo in range(n_ranks - 4)}
        self.heights[frozenset({ace, 0, 1, 2, 3})] = 3
        self.strength = {category: i for i, category in enumerate(order)}

    def classify(self, cards: Sequence[tuple[int, object]]) -> tuple[C, tuple[int, ...]]:
        ranks = [r for r, _ in cards]
        counts = Counter(ranks)
        shape = sorted(counts.values(), reverse=True)
        by_group = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
        five = len(cards) == 5
        suits = {s for _, s in cards}
        flush = five and len(suits) == 1 and None not in suits
        height = self.heights.get(frozenset(ranks)) if five else None
        if shape[0] == 5:
            return C.FIVE_ACES, ()
        if height is not None:
            return (C.STRAIGHT_FLUSH if flush else C.STRAIGHT), (height,)
        if flush:
            return C.FLUSH, tuple(sorted(ranks, reverse=True))
        if shape[0] == 4:
            return C.QUADS, by_group
        if shape[:2] == [3, 2]:
            return C.FULL_HOUSE, by_group
        if shape[0] == 3:
            return C.TRIPS, by_group
        if shape[:2] == [2, 2]:
            return C.TWO_PAIR, by_group
        if shape[0] == 2:
            return C.PAIR, by_group
        return C.HIGH_CARD, by_group

    def key(self, cards: Sequence[tuple[int, object]]) -> tuple[int, tuple[int, ...]]:
        category, ranks = self.classify(cards)
        return self.strength[category], ranks


def assert_same_order(pairs: Sequence[tuple[int, object]]) -> None:
    """(fast value, reference key) pairs: the two orderings agree, ties included
    (sorting by value then checking neighbours covers every pair)."""
    ordered = sorted(pairs, key=lambda p: p[0])
    for (v1, k1), (v2, k2) in pairwise(ordered):
        if v1 == v2:
            assert k1 == k2, f"equal values {v1} for different hands {k1} {k2}"
        else:
            assert k1 < k2, f"value {v1} < {v2} but reference {k1} >= {k2}"


def five_card_counts(n: int) -> dict[C, int]:
    """Five-card hands of a 4-suit deck of n ranks with n-3 straights (the ace
    also low next to the lowest rank). Standard 52 cards: n = 13."""
    straights = n - 3
    no_pair_rank_sets = comb(n, 5) - straights
    return {
        C.STRAIGHT_FLUSH: 4 * straights,
        C.QUADS: n * (4 * n - 4),
        C.FULL_HOUSE: n * 4 * (n - 1) * 6,
        C.FLUSH: 4 * no_pair_rank_sets,
        C.STRAIGHT: straights * (4**5 - 4),
        C.TRIPS: n * 4 * comb(n - 1, 2) * 4**2,
        C.TWO_PAIR: comb(n, 2) * 6**2 * (n - 2) * 4,
        C.PAIR: n * 6 * comb(n - 1, 3) * 4**3,
        C.HIGH_CARD: no_pair_rank_sets * (4**5 - 4),
    }


@pytest.fixture(scope="session")
def textbook() -> type[Textbook]:
    return Textbook


@pytest.fixture(scope="session")
def same_order() -> Callable[[Sequence[tuple[int, object]]], None]:
    return assert_same_order


@pytest.fixture(scope="session")
def counts_for() -> Callable[[int], dict[C, int]]:
    return five_card_counts
