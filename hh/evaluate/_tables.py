"""Pieces shared by the three evaluators: value packing, straights, pair-type
hands, the French lookup tables, descriptions and the cards a hand uses.

Ranks here are always indices into the deck's rank string, low to high
(French ``2`` is 0 and ``A`` is 12; Spanish ``5`` is 0 and ``A`` is 6), so one
set of functions serves both decks; a stripped Calatone deck just starts at a
higher index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from hh.cards import FRENCH_RANKS, FRENCH_SUITS, JOKER, CardError, Deck
from hh.evaluate import Category

C = Category

# A game's ranking, weakest category first; a category's strength is its index.
STANDARD_ORDER: tuple[Category, ...] = (
    C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT,
    C.FLUSH, C.FULL_HOUSE, C.QUADS, C.STRAIGHT_FLUSH, C.FIVE_ACES,
)  # fmt: skip
FLUSH_OVER_FULL_ORDER: tuple[Category, ...] = (
    C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT,
    C.FULL_HOUSE, C.FLUSH, C.QUADS, C.STRAIGHT_FLUSH, C.FIVE_ACES,
)  # fmt: skip

CATEGORY_SHIFT = 20
# Per-card key of the French tables: a base-5 digit per rank (at most 4 cards of
# a rank, so the sum identifies the multiset) plus a 3-bit counter per suit
# above it (at most 7 cards). One ``sum()`` gives both.
SUIT_SHIFT = 31
RANK_MASK = (1 << SUIT_SHIFT) - 1

FRENCH_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip
FRENCH_PLURALS = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights",
    "Nines", "Tens", "Jacks", "Queens", "Kings", "Aces",
)  # fmt: skip

Straight = tuple[int, tuple[int, ...]]  # (rank mask, ranks best first)


def pack(strength: int, ranks: Sequence[int]) -> int:
    """Category strength above five rank nibbles (rank index + 1, 0 = no card)."""
    value = strength
    for i in range(5):
        value = value << 4 | (ranks[i] + 1 if i < len(ranks) else 0)
    return value


def unpack(value: int) -> tuple[int, tuple[int, ...]]:
    """Inverse of :func:`pack`: strength and the rank indices present."""
    nibbles = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    return value >> CATEGORY_SHIFT, tuple(n - 1 for n in nibbles if n)


def straight_windows(lowest: int, highest: int) -> tuple[Straight, ...]:
    """The straights of a deck whose ranks run from ``lowest`` to ``highest``
    (the ace), best first: five in a row, then the ace low next to the lowest
    rank, which is the weakest and ranks by its top card."""
    out: list[Straight] = []
    for top in range(highest, lowest + 3, -1):
        ranks = tuple(range(top, top - 5, -1))
        out.append((sum(1 << r for r in ranks), ranks))
    wheel = (lowest + 3, lowest + 2, lowest + 1, lowest, highest)
    out.append((sum(1 << r for r in wheel), wheel))
    return tuple(out)


def best_straight(mask: int, windows: Sequence[Straight], wild: int = 0) -> tuple[int, ...] | None:
    """Best straight whose ranks are all in ``mask``, allowing ``wild`` missing
    ones (the joker fills one)."""
    for window, ranks in windows:
        if (window & ~mask).bit_count() <= wild:
            return ranks
    return None


def pair_hand(ranks: Sequence[int]) -> tuple[Category, tuple[int, ...]]:
    """Category and best-first ranks of at most five of these cards, counting
    only same-rank groups (the hands a short Calatone hand, an exposed hand or
    a joker-as-ace can make). Kickers are taken once per rank."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
    c1, r1 = groups[0]
    c2 = groups[1][0] if len(groups) > 1 else 0
    if c1 == 5:
        return C.FIVE_ACES, (r1,) * 5
    used: tuple[int, ...]
    if c1 == 4:
        category, used = C.QUADS, (r1,) * 4
    elif c1 == 3 and c2 >= 2:
        return C.FULL_HOUSE, (r1,) * 3 + (groups[1][1],) * 2
    elif c1 == 3:
        category, used = C.TRIPS, (r1,) * 3
    elif c1 == 2 and c2 == 2:
        category, used = C.TWO_PAIR, (r1, r1, groups[1][1], groups[1][1])
    elif c1 == 2:
        category, used = C.PAIR, (r1, r1)
    else:
        category, used = C.HIGH_CARD, ()
    kickers = sorted((r for r in counts if r not in used), reverse=True)
    return category, used + tuple(kickers[: 5 - len(used)])


def rank_mask(ranks: Sequence[int]) -> int:
    mask = 0
    for r in ranks:
        mask |= 1 << r
    return mask


def top_ranks(mask: int, n: int = 5) -> tuple[int, ...]:
    return tuple(r for r in range(12, -1, -1) if mask >> r & 1)[:n]


@dataclass(frozen=True, slots=True)
class FrenchTables:
    """Lookup tables for French-deck hands of 1 to 7 cards.

    ``ranks`` maps the rank part of a card-key sum to the best hand those
    ranks make without a flush (pair-type hands, and straights once five
    distinct ranks are there); ``flush`` maps one suit's 13-bit rank mask to
    its best flush or straight flush; ``flush_suit`` maps the suit-count part
    of the key sum to the suit holding five cards (-1 if none). Any hand is
    then one sum, two list/dict lookups, and on about 3% of hands a second
    pass over the cards of the flush suit.
    """

    deck: Deck
    order: tuple[Category, ...]
    lowest: int
    windows: tuple[Straight, ...]
    key: dict[str, int]
    bit: dict[str, int]
    ranks: dict[int, int]  # a LazyTable
    flush: dict[int, int]  # a LazyTable over 13-bit masks
    flush_suit: list[int]


def card_keys(deck: Deck) -> tuple[dict[str, int], dict[str, int]]:
    """Per-card sum key and rank bit; French rank indices even in a stripped deck."""
    key: dict[str, int] = {}
    bit: dict[str, int] = {}
    for card in deck.cards:
        if card == JOKER:
            continue
        r, s = FRENCH_RANKS.index(card[0]), FRENCH_SUITS.index(card[1])
        key[card] = 5**r + (1 << (SUIT_SHIFT + 3 * s))
        bit[card] = 1 << r
    return key, bit


@cache
def suit_with(at_least: int) -> list[int]:
    """Suit-count field -> the suit with ``at_least`` cards (-1 if none)."""
    out = []
    for field in range(1 << 12):
        counts = [(field >> (3 * s)) & 7 for s in range(4)]
        out.append(next((s for s in range(4) if counts[s] >= at_least), -1))
    return out


def rank_multisets(lowest: int, sizes: range, most: int = 4) -> Iterator[tuple[int, ...]]:
    """Every multiset (sorted tuple) of ranks ``lowest..12`` with ``sizes``
    cards and at most ``most`` of a rank."""
    for size in sizes:
        for combo in combinations_with_replacement(range(lowest, 13), size):
            if all(combo[i] != combo[i + most] for i in range(size - most)):
                yield combo


class LazyTable(dict[int, int]):
    """A lookup table whose entries are computed on their first lookup and
    kept: a run pays only for the hands it meets, and no table is built on
    the first hand's path (a whole table costs more to build than most runs
    spend judging).

    ``entry(key)`` raises KeyError (IndexError for a list-like table) for a
    key that is no entry, exactly where the table built whole had none, so
    callers keep catching a bad hand the way they did.
    """

    __slots__ = ("_entry",)

    def __init__(self, entry: Callable[[int], int]) -> None:
        super().__init__()
        self._entry = entry

    def __missing__(self, key: int) -> int:
        value = self._entry(key)
        self[key] = value
        return value


def rank_multiset(key: int) -> tuple[int, ...]:
    """The ranks (low to high) whose ``sum(5**r)`` is ``key``: base-5 digits
    are the counts per rank (at most 4 of a rank, so the digits never carry)."""
    if not 0 < key < _RANK_KEYS:
        raise KeyError(key)
    combo: list[int] = []
    r = 0
    while key:  # // and % rather than divmod: native integer steps when compiled
        for _ in range(key % 5):
            combo.append(r)
        key //= 5
        r += 1
    return tuple(combo)


_RANK_KEYS = 5**13


def french_rank_value(combo: Sequence[int], strength: dict[Category, int],
                      windows: Sequence[Straight]) -> int:  # fmt: skip
    """Best hand of these ranks without a flush: pair-type, or a straight once
    five distinct ranks are there."""
    category, used = pair_hand(combo)
    value = pack(strength[category], used)
    if len(combo) >= 5 and (run := best_straight(rank_mask(combo), windows)):
        value = max(value, pack(strength[C.STRAIGHT], run))
    return value


def french_flush_value(mask: int, lowest: int, strength: dict[Category, int],
                       windows: Sequence[Straight]) -> int:  # fmt: skip
    """Best flush or straight flush of one suit's rank mask (0 under 5 cards)."""
    if not 0 <= mask < 1 << 13:
        raise IndexError(mask)
    if mask.bit_count() < 5 or mask & ((1 << lowest) - 1):
        return 0
    run = best_straight(mask, windows)
    if run:
        return pack(strength[C.STRAIGHT_FLUSH], run)
    return pack(strength[C.FLUSH], top_ranks(mask))


@cache
def french_tables(deck: Deck, order: tuple[Category, ...]) -> FrenchTables:
    """Once per (deck, ranking); the entries are computed as hands need them."""
    lowest = FRENCH_RANKS.index(deck.ranks[0])
    windows = straight_windows(lowest, 12)
    strength = {category: i for i, category in enumerate(order)}
    key, bit = card_keys(deck)

    def rank_entry(k: int) -> int:
        combo = rank_multiset(k)
        if not 1 <= len(combo) <= 7 or combo[0] < lowest:
            raise KeyError(k)
        return french_rank_value(combo, strength, windows)

    def flush_entry(mask: int) -> int:
        return french_flush_value(mask, lowest, strength, windows)

    return FrenchTables(
        deck, order, lowest, windows, key, bit, LazyTable(rank_entry), LazyTable(flush_entry),
        suit_with(5),
    )  # fmt: skip


def describe(category: Category, ranks: Sequence[int], names: Sequence[str],
             plurals: Sequence[str]) -> str:  # fmt: skip
    """The description FORMAT.md's examples use: category words, a comma, a detail."""
    first = ranks[0] if ranks else 0
    match category:
        case C.HIGH_CARD:
            return f"high card, {names[first]}"
        case C.PAIR:
            return f"a pair, {plurals[first]}"
        case C.TWO_PAIR:
            return f"two pair, {plurals[first]} and {plurals[ranks[2]]}"
        case C.TRIPS:
            return f"three of a kind, {plurals[first]}"
        case C.STRAIGHT | C.STRAIGHT_FLUSH:
            return f"{category.value}, {names[ranks[4]]} to {names[first]}"
        case C.FLUSH:
            return f"a flush, {names[first]} high"
        case C.FULL_HOUSE:
            return f"a full house, {plurals[first]} full of {plurals[ranks[3]]}"
        case C.QUADS:
            return f"four of a kind, {plurals[first]}"
        case _:  # five aces, La Perla: the words say it all
            return category.value


def pick(cards: Sequence[str], ranks: Sequence[int], rank_of: dict[str, int],
         filler: str | None = None) -> tuple[str, ...]:  # fmt: skip
    """The cards that make ``ranks``, in that order, each used once; a rank no
    card supplies is the ``filler`` (the joker)."""
    pool = list(cards)
    out = []
    for r in ranks:
        for i, card in enumerate(pool):
            if rank_of[card] == r:
                out.append(pool.pop(i))
                break
        else:
            if filler is None:
                raise AssertionError(f"no card of rank {r} in {cards}")
            out.append(filler)
    return tuple(out)


def check_cards(deck: Deck, cards: Sequence[str], sizes: range, what: str) -> None:
    """Raise the error a caller needs: an unknown card, a card twice, or a
    wrong number of cards. Called on the slow path only."""
    seen: set[str] = set()
    for card in cards:
        if card == JOKER and deck.joker:
            raise CardError(f"{card!r}: the joker is common to every hand, not {what}")
        if card not in deck.index:
            raise CardError(deck.explain(card))
        if card in seen:
            raise CardError(f"{card!r} appears twice in {' '.join(cards)}")
        seen.add(card)
    if len(cards) not in sizes:
        raise ValueError(
            f"{what}: expected {sizes.start} to {sizes.stop - 1} cards, got {len(cards)}"
        )
