"""Aces, Straights and Flushes: six own cards plus the common joker, a bug.

The joker is an ace, or any card that completes a straight, a flush or a
straight flush; it never pairs anything but aces. So the best hand is the
best of three things, each a table lookup:

- the naturals plus one ace, ranked by same-rank groups (K-K + joker is a
  pair of kings with an ace kicker, A-A-K-K + joker aces full, four aces +
  joker five aces);
- the best straight the naturals' ranks make with at most one rank added;
- if four or more naturals share a suit, that suit's flush with the joker as
  the highest card of the suit the hand lacks (never a second ace), or the
  straight flush the joker completes.

The first two depend only on the naturals' rank multiset, so one table
holds their maximum; the third is a 13-bit mask table. Adding a card never
lowers a best-five hand, so the joker's best use always beats leaving it out.

``board`` is ``("Jk",)`` normally; without the joker the naturals are ranked
alone (standard ranking). ``exposed`` ranks a player's own up cards by
same-rank groups then high cards, never the joker, straights or flushes.
``value`` trusts that the cards are distinct (the validator reports
duplicates); ``evaluate`` checks everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from hh.cards import FRENCH_52, FRENCH_52_JOKER, FRENCH_RANKS, FRENCH_SUITS, JOKER
from hh.evaluate import Category, Evaluation
from hh.evaluate._tables import (
    FRENCH_NAMES,
    FRENCH_PLURALS,
    RANK_MASK,
    STANDARD_ORDER,
    SUIT_SHIFT,
    LazyTable,
    best_straight,
    check_cards,
    describe,
    french_tables,
    pack,
    pair_hand,
    pick,
    rank_mask,
    rank_multiset,
    straight_windows,
    suit_with,
    top_ranks,
    unpack,
)

ACE = 12
WITH_JOKER = range(4, 7)  # naturals beside the joker: 5 to 7 cards in all
NATURALS_ONLY = range(5, 8)
EXPOSED = range(1, 5)
_STRENGTH = {category: i for i, category in enumerate(STANDARD_ORDER)}


@dataclass(frozen=True, slots=True)
class JokerTables:
    ranks: dict[int, int]  # naturals' rank key -> best of (naturals + ace, straight + 1 rank)
    flush: dict[int, int]  # one suit's rank mask (>= 4 naturals) -> best flush / straight flush
    suit4: list[int]  # suit-count field -> the suit with >= 4 naturals, or -1


_WINDOWS = straight_windows(0, ACE)


def joker_rank_value(combo: Sequence[int]) -> int:
    """Naturals beside the joker: the best of the joker as an ace and the
    joker filling a straight."""
    category, used = pair_hand((*combo, ACE))
    value = pack(_STRENGTH[category], used)
    run = best_straight(rank_mask(combo), _WINDOWS, wild=1)
    if run:
        value = max(value, pack(_STRENGTH[Category.STRAIGHT], run))
    return value


def joker_flush_value(mask: int) -> int:
    """One suit's naturals beside the joker: the best flush or straight flush
    (0 under 4 naturals)."""
    if not 0 <= mask < 1 << 13:
        raise IndexError(mask)
    if mask.bit_count() < 4:
        return 0
    run = best_straight(mask, _WINDOWS, wild=1)
    if run:
        return pack(_STRENGTH[Category.STRAIGHT_FLUSH], run)
    lacking = next(r for r in range(ACE, -1, -1) if not mask >> r & 1)
    return pack(_STRENGTH[Category.FLUSH], top_ranks(mask | 1 << lacking))


def _joker_rank_entry(key: int) -> int:
    combo = rank_multiset(key)
    if len(combo) not in WITH_JOKER:
        raise KeyError(key)
    return joker_rank_value(combo)


@cache
def joker_tables() -> JokerTables:
    """Once; the entries are computed as hands need them (LazyTable)."""
    return JokerTables(LazyTable(_joker_rank_entry), LazyTable(joker_flush_value), suit_with(4))


class AcesEvaluator:
    """Values of Aces, Straights and Flushes hands (no house rules apply)."""

    def __init__(self) -> None:
        self.deck = FRENCH_52_JOKER
        self.order = STANDARD_ORDER
        natural = french_tables(FRENCH_52, STANDARD_ORDER)
        joker = joker_tables()
        self._key = natural.key.__getitem__
        self._bit = natural.bit
        self._ranks = natural.ranks
        self._flush = natural.flush
        self._flush_suit = natural.flush_suit
        self._jranks = joker.ranks
        self._jflush = joker.flush
        self._jsuit = joker.suit4
        self._rank_of = {card: FRENCH_RANKS.index(card[0]) for card in FRENCH_52.cards}

    def value(self, own: Sequence[str], board: Sequence[str] = (JOKER,)) -> int:
        if not board:
            return self._natural(own)
        if len(board) != 1 or board[0] != JOKER:
            raise ValueError(f"the only common card is the joker, got {' '.join(board)}")
        try:
            key = sum(map(self._key, own))
            best = self._jranks[key & RANK_MASK]
            suit = self._jsuit[key >> SUIT_SHIFT]
        except (KeyError, IndexError):
            check_cards(self.deck, own, WITH_JOKER, "a player's own cards")
            raise ValueError(f"not a hand: {' '.join(own)}") from None
        if suit < 0:
            return best
        flush = self._jflush[self._suit_mask(own, suit)]
        return flush if flush > best else best

    def values(self, own: Sequence[str], draws: Sequence[Sequence[str]],
               board: Sequence[str] = (JOKER,)) -> list[int]:  # fmt: skip
        """``[value([*own, *draw], board) for draw in draws]``, with ``own``'s
        part of the lookups made once: the many deals of a Monte Carlo."""
        if len(board) != 1 or board[0] != JOKER:
            return [self.value([*own, *draw], board) for draw in draws]
        key_of, jranks, jsuit = self._key, self._jranks, self._jsuit
        out: list[int] = []
        try:
            base = 0
            for card in own:
                base += key_of(card)
            for draw in draws:
                key = base
                for card in draw:
                    key += key_of(card)
                best = jranks[key & RANK_MASK]
                suit = jsuit[key >> SUIT_SHIFT]
                if suit >= 0:
                    flush = self._jflush[self._suit_mask([*own, *draw], suit)]
                    if flush > best:
                        best = flush
                out.append(best)
        except (KeyError, IndexError):  # the plain path says what is wrong
            return [self.value([*own, *draw], board) for draw in draws]
        return out

    def _natural(self, own: Sequence[str]) -> int:
        if len(own) not in NATURALS_ONLY:
            check_cards(self.deck, own, NATURALS_ONLY, "a player's own cards")
        try:
            key = sum(map(self._key, own))
            best = self._ranks[key & RANK_MASK]
            suit = self._flush_suit[key >> SUIT_SHIFT]
        except (KeyError, IndexError):
            check_cards(self.deck, own, NATURALS_ONLY, "a player's own cards")
            raise ValueError(f"not a hand: {' '.join(own)}") from None
        if suit < 0:
            return best
        flush = self._flush[self._suit_mask(own, suit)]
        return flush if flush > best else best

    def _suit_mask(self, own: Sequence[str], suit: int) -> int:
        letter = FRENCH_SUITS[suit]
        bit = self._bit
        mask = 0
        for card in own:
            if card[1] == letter:
                mask |= bit[card]
        return mask

    def exposed(self, up: Sequence[str]) -> int:
        """Same-rank groups, then high cards, of the player's own up cards only.
        One to four cards hold no straight or flush, so the natural table
        (which only finds those with five cards) is exactly this ranking."""
        if len(up) not in EXPOSED:
            check_cards(self.deck, up, EXPOSED, "a player's up cards")
        try:
            return self._ranks[sum(map(self._key, up)) & RANK_MASK]
        except KeyError:
            check_cards(self.deck, up, EXPOSED, "a player's up cards")
            raise ValueError(f"not up cards: {' '.join(up)}") from None

    def category(self, value: int) -> Category:
        return self.order[value >> 20]

    def evaluate(self, own: Sequence[str], board: Sequence[str] = (JOKER,)) -> Evaluation:
        joker = bool(board)
        check_cards(self.deck, own, WITH_JOKER if joker else NATURALS_ONLY, "a player's own cards")
        value = self.value(own, board)
        strength, ranks = unpack(value)
        category = self.order[strength]
        pool: Sequence[str] = own
        if category in (Category.FLUSH, Category.STRAIGHT_FLUSH):
            suits = [card[1] for card in own]
            letter = max(FRENCH_SUITS, key=suits.count)
            pool = [card for card in own if card[1] == letter]
        cards = pick(pool, ranks, self._rank_of, JOKER if joker else None)
        return Evaluation(
            value, category, cards, describe(category, ranks, FRENCH_NAMES, FRENCH_PLURALS)
        )
