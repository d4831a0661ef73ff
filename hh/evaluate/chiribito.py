"""Chiribito: both hole cards plus exactly three of the five common cards.

A showdown is the best of the ten hands "two hole cards + one board triple",
written out, so four board cards or one hole card can never be used by
mistake. Each of the ten costs an addition and a list lookup:

- a hand that is not a flush is ranked by its rank multiset alone; with the
  per-card key 5**rank the sum of five keys indexes a list of 5**7 = 78,125
  entries (ranks 5..A are 0..6);
- a flush needs both hole cards of one suit and three board cards of that
  suit, which is rare enough to check by hand, through a 128-entry table over
  the seven-bit rank mask.

Both tables hold :func:`classify5` of a representative hand, so the
exhaustive tests of ``classify5`` are tests of the tables; building them
takes milliseconds. ``value`` trusts that the seven cards are distinct (the
validator reports duplicates); ``evaluate`` checks everything.

Ranking, high to low: straight flush, four of a kind, flush, full house (the
flush beats the full house), straight, three of a kind, two pair, pair, high
card. Straights: 5-6-7-S-C, 6-7-S-C-R, 7-S-C-R-A and A-5-6-7-S, the last one
the lowest (the ace low; it ranks as Sota-high). Suits never rank.

La Perla (hole cards Sota and 7 of one suit):

- Without the house rule it is a name only: the hand ranks by its cards and
  ``evaluate`` describes it by its cards, so the default output for the
  FORMAT.md example (``So 7o`` on ``7c Sc Re Cc 6o``) is
  ``a straight, Seis to Rey``. Pass ``name_la_perla=True`` to get the
  traditional ``a straight, La Perla`` instead; both are valid descriptions,
  since FORMAT.md makes everything after the comma free text.
- With ``La Perla wins`` a La Perla beats every other hand and two of them
  tie: category ``LA_PERLA``, description ``La Perla``, and the cards used are
  the two hole cards, since they alone make it win.

``exposed`` raises :class:`NotImplementedError`: Chiribito deals no up cards
and the opener follows the betting, so calling it is a bug in the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

from hh.cards import SPANISH_28, SPANISH_RANKS
from hh.evaluate import Category, Evaluation
from hh.evaluate._tables import (
    best_straight,
    check_cards,
    describe,
    pack,
    pair_hand,
    pick,
    rank_mask,
    straight_windows,
    top_ranks,
    unpack,
)

C = Category
ORDER: tuple[Category, ...] = (
    C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT,
    C.FULL_HOUSE, C.FLUSH, C.QUADS, C.STRAIGHT_FLUSH, C.LA_PERLA,
)  # fmt: skip
_STRENGTH = {category: i for i, category in enumerate(ORDER)}
LA_PERLA_VALUE = _STRENGTH[C.LA_PERLA] << 20

NAMES = ("Cinco", "Seis", "Siete", "Sota", "Caballo", "Rey", "As")
PLURALS = ("Cincos", "Seises", "Sietes", "Sotas", "Caballos", "Reyes", "Ases")
WINDOWS = straight_windows(0, len(SPANISH_RANKS) - 1)
RANK_OF = {card: SPANISH_RANKS.index(card[0]) for card in SPANISH_28.cards}
SUITS = SPANISH_28.suits
KEY = {card: 5 ** SPANISH_RANKS.index(card[0]) for card in SPANISH_28.cards}
RBIT = {card: 1 << SPANISH_RANKS.index(card[0]) for card in SPANISH_28.cards}
BIT = {card: 1 << i for i, card in enumerate(SPANISH_28.cards)}
# The four La Perlas as hole-card masks: Sota and 7 of each suit.
PERLAS = frozenset(BIT["S" + suit] | BIT["7" + suit] for suit in SPANISH_28.suits)


def is_la_perla(hole: Sequence[str]) -> bool:
    """Sota and 7 of the same suit as the two hole cards, in either order."""
    return len(hole) == 2 and (BIT.get(hole[0], 0) | BIT.get(hole[1], 0)) in PERLAS


def classify5(cards: Sequence[str]) -> int:
    """Value of exactly five distinct Spanish cards under Chiribito's ranking
    (La Perla aside: it depends on which cards are the hole cards)."""
    ranks = [RANK_OF[card] for card in cards]
    flush = len({card[1] for card in cards}) == 1
    run = best_straight(rank_mask(ranks), WINDOWS) if len(set(ranks)) == 5 else None
    if run:
        return pack(_STRENGTH[C.STRAIGHT_FLUSH if flush else C.STRAIGHT], run)
    if flush:
        return pack(_STRENGTH[C.FLUSH], top_ranks(rank_mask(ranks)))
    category, used = pair_hand(ranks)
    return pack(_STRENGTH[category], used)


@dataclass(frozen=True, slots=True)
class Tables:
    ranks: list[int | None]  # sum of 5**rank -> value of a non-flush hand (None: no hand)
    flush: list[int]  # 7-bit rank mask of five suited cards -> flush or straight flush


@cache
def tables() -> Tables:
    """Built from :func:`classify5` of one representative hand per entry."""
    ranks: list[int | None] = [None] * 5**7
    same: dict[int, int] = {}  # one int object per distinct value keeps the list compact
    for combo in combinations_with_replacement(range(7), 5):
        if combo[0] == combo[4]:
            continue  # five of a rank
        seen: dict[int, int] = {}
        hand = []
        for r in combo:  # the i-th card of a rank gets the i-th suit: no flush ...
            seen[r] = seen.get(r, -1) + 1
            hand.append(SPANISH_RANKS[r] + SUITS[seen[r]])
        if len(set(combo)) == 5:
            hand[0] = hand[0][0] + SUITS[1]  # ... even with five different ranks
        value = classify5(hand)
        ranks[sum(5**r for r in combo)] = same.setdefault(value, value)
    flush = [0] * (1 << 7)
    for combo in combinations(range(7), 5):
        flush[rank_mask(combo)] = classify5([SPANISH_RANKS[r] + SUITS[0] for r in combo])
    return Tables(ranks, flush)


@dataclass(frozen=True, slots=True)
class BoardLookup:
    """How :meth:`ChiribitoEvaluator.value` computes a value, as plain
    lookups, for callers that value one pair of hole cards on many boards at
    once (the all-in equity does it over every board, column-wise); the
    values are exactly ``value``'s.

    For hole cards ``h0 h1`` and a triple ``a b c`` of the board, the
    five-card hand is worth ``ranks[key[h0] + key[h1] + key[a] + key[b] +
    key[c]]`` (None: five of one rank, which distinct cards never make),
    and when the five cards share a suit (``card[1]``) it is worth
    ``flush[rank_bit[h0] | rank_bit[h1] | rank_bit[a] | rank_bit[b] |
    rank_bit[c]]`` instead. A showdown is worth the best of its ten
    triples, except that under ``La Perla wins`` hole cards that are a La
    Perla (:meth:`is_la_perla`) are worth ``la_perla`` whatever the board.
    """

    key: dict[str, int]  # card -> 5 ** rank
    rank_bit: dict[str, int]  # card -> 1 << rank
    ranks: list[int | None]  # sum of five keys -> value of a hand that is not a flush
    flush: list[int]  # rank mask of five cards of one suit -> its value
    la_perla: int | None  # the value of a La Perla under "La Perla wins"; None without it

    @staticmethod
    def is_la_perla(hole: Sequence[str]) -> bool:
        """Sota and 7 of the same suit as the two hole cards."""
        return is_la_perla(hole)


_BOARDS = 5**7  # a sum of five keys is below it: hole * _BOARDS + board indexes _PLAIN
# (hole keys' sum, board keys' sum) -> the best of the ten triples, flushes aside; the
# ranks table is the same under every house rule: at most 28 hole sums times 462 boards
_PLAIN: dict[int, int] = {}
# (the keys available, how many drawn) -> each multiset of that many: its keys' sum and
# how often each key is in it
_SHAPES: dict[tuple[tuple[int, ...], int], list[tuple[int, list[tuple[int, int]]]]] = {}


def _plain(hole: int, board: int) -> int:
    """What hole cards whose keys sum to ``hole`` are worth, flushes aside,
    on a board whose five keys sum to ``board`` (a sum of at most four of a
    key is the rank multiset itself, in base 5)."""
    at = hole * _BOARDS + board
    found = _PLAIN.get(at)
    if found is not None:
        return found
    keys: list[int] = []
    rest = board
    for r in range(7):
        keys.extend([5**r] * (rest % 5))
        rest //= 5
    ranks = tables().ranks
    best = 0
    for a, b, c in combinations(keys, 3):
        v = ranks[hole + a + b + c]
        if v is not None and v > best:
            best = v
    _PLAIN[at] = best
    return best


def _shapes(keys: tuple[int, ...], k: int) -> list[tuple[int, list[tuple[int, int]]]]:
    at = (keys, k)
    found = _SHAPES.get(at)
    if found is not None:
        return found
    out: list[tuple[int, list[tuple[int, int]]]] = []
    for combo in combinations_with_replacement(keys, k):
        counts: dict[int, int] = {}
        for x in combo:
            counts[x] = counts.get(x, 0) + 1
        out.append((sum(combo), list(counts.items())))
    _SHAPES[at] = out
    return out


def _multisets(cards: Sequence[str], k: int) -> list[tuple[int, int]]:
    """Every multiset of ``k`` ranks drawn from ``cards``: its keys' sum, and
    how many sets of ``k`` of the cards have it."""
    avail: dict[int, int] = {}
    for c in cards:
        avail[KEY[c]] = avail.get(KEY[c], 0) + 1
    choose = {x: [comb(n, j) for j in range(k + 1)] for x, n in avail.items()}
    out: list[tuple[int, int]] = []
    for total, counts in _shapes(tuple(sorted(avail)), k):
        ways = 1
        for x, j in counts:
            ways *= choose[x][j]
        if ways:
            out.append((total, ways))
    return out


def showdowns(holes: Sequence[Sequence[str]], board: Sequence[str], unseen: Sequence[str],
              la_perla_wins: bool = False) -> dict[tuple[int, ...], int]:  # fmt: skip
    """Every completion of ``board`` to five cards from ``unseen``, by the
    values the players' hole cards (``holes``, two each) get on it, as
    :meth:`ChiribitoEvaluator.value` gives them: values (one per player, in
    order) -> how many completions give them; the counts add up to
    ``comb(len(unseen), 5 - len(board))``.

    By counting, not board by board (an all-in before the flop has up to
    C(24, 5) boards): a hand that is not a flush is worth what the board's
    rank multiset gives it, so each multiset of the ranks to come is valued
    once, with the number of boards that have it. Then, for each suit in
    which a player holds both hole cards, the boards with three or more
    common cards of that suit (the only ones where a flush can play, at
    most one such suit per board) are enumerated by their cards of that
    suit and the rank multiset of the others, and where a flush changes a
    value those boards move from the values by ranks to the true ones. The
    entries come in the order first met; a count can be 0 (values the ranks
    gave, that flushes took back on every such board)."""
    m = 5 - len(board)
    seen = [c for hole in holes for c in hole] + list(board) + list(unseen)
    if (any(len(hole) != 2 for hole in holes) or m < 0 or len(set(seen)) != len(seen)
            or any(c not in KEY for c in seen)):  # fmt: skip
        raise ValueError(f"not a Chiribito showdown: {list(holes)} on {list(board)}, "
                         f"completed from {list(unseen)}")  # fmt: skip
    flush = tables().flush
    sums = [KEY[hole[0]] + KEY[hole[1]] for hole in holes]
    perla = [LA_PERLA_VALUE if la_perla_wins and is_la_perla(hole) else 0 for hole in holes]
    known = 0
    for c in board:
        known += KEY[c]
    n = len(holes)
    out: dict[tuple[int, ...], int] = {}
    for new, ways in _multisets(unseen, m):
        total = known + new
        values = tuple([perla[i] or _plain(sums[i], total) for i in range(n)])
        out[values] = out.get(values, 0) + ways
    suits: list[str] = []
    for i in range(n):
        suit = holes[i][0][1]
        if not perla[i] and suit == holes[i][1][1] and suit not in suits:
            suits.append(suit)
    for suit in suits:
        flushers = [(i, RBIT[holes[i][0]] | RBIT[holes[i][1]]) for i in range(n)
                    if not perla[i] and holes[i][0][1] == holes[i][1][1] == suit]  # fmt: skip
        known_suited = [c for c in board if c[1] == suit]
        unseen_suited = [c for c in unseen if c[1] == suit]
        others = [c for c in unseen if c[1] != suit]
        low = max(0, 3 - len(known_suited))
        # the rank multisets of the other cards, by how many of them come
        rests = [_multisets(others, j) if j <= m - low else [] for j in range(m + 1)]
        for f in range(low, min(m, len(unseen_suited)) + 1):
            for drawn in combinations(unseen_suited, f):
                bits = [RBIT[c] for c in known_suited] + [RBIT[c] for c in drawn]
                masks = [a | b | c for a, b, c in combinations(bits, 3)]
                best = [(i, max([flush[hole | x] for x in masks])) for i, hole in flushers]
                drawn_sum = known
                for c in drawn:
                    drawn_sum += KEY[c]
                for rest, ways in rests[m - f]:
                    total = drawn_sum + rest
                    plain = [perla[i] or _plain(sums[i], total) for i in range(n)]
                    true = list(plain)
                    for i, v in best:
                        if v > true[i]:
                            true[i] = v
                    if true != plain:
                        was = tuple(plain)
                        out[was] = out.get(was, 0) - ways
                        now = tuple(true)
                        out[now] = out.get(now, 0) + ways
    return out


class ChiribitoEvaluator:
    """Values of Chiribito showdowns, with or without ``La Perla wins``."""

    def __init__(self, la_perla_wins: bool = False) -> None:
        self.deck = SPANISH_28
        self.order = ORDER
        self.la_perla_wins = la_perla_wins
        built = tables()
        self._ranks = built.ranks
        self._flush = built.flush

    def value(self, own: Sequence[str], board: Sequence[str] = ()) -> int:
        t = self._ranks
        try:
            h0, h1 = own
            hole = KEY[h0] + KEY[h1]
            b0, b1, b2, b3, b4 = map(KEY.__getitem__, board)
            x0 = hole + b0
            x01 = x0 + b1
            x02 = x0 + b2
            x1 = hole + b1
            x12 = x1 + b2
            b34 = b3 + b4
            best: int = max(
                t[x01 + b2], t[x01 + b3], t[x01 + b4], t[x02 + b3], t[x02 + b4], t[x0 + b34],
                t[x12 + b3], t[x12 + b4], t[x1 + b34], t[hole + b2 + b34],
            )  # fmt: skip
        except (KeyError, ValueError, TypeError):  # TypeError: a None entry, five of a rank
            self._check(own, board)
            raise ValueError(f"not a Chiribito showdown: {own} {board}") from None
        suit = h0[1]
        if suit == h1[1]:
            suited = [card for card in board if card[1] == suit]
            if len(suited) >= 3:
                mask = RBIT[h0] | RBIT[h1]
                for c0, c1, c2 in combinations(suited, 3):
                    flush = self._flush[mask | RBIT[c0] | RBIT[c1] | RBIT[c2]]
                    if flush > best:
                        best = flush
        if self.la_perla_wins and is_la_perla(own):
            return LA_PERLA_VALUE
        return best

    def values(self, own: Sequence[str], draws: Sequence[Sequence[str]],
               board: Sequence[str] = ()) -> list[int]:  # fmt: skip
        """``[value([*own, *draw], board) for draw in draws]``: with ``own``
        empty, many pairs of hole cards on one board."""
        return [self.value([*own, *draw], board) for draw in draws]

    def showdowns(self, holes: Sequence[Sequence[str]], board: Sequence[str],
                  unseen: Sequence[str]) -> dict[tuple[int, ...], int]:  # fmt: skip
        """The players' values over every completion of the board from
        ``unseen``, with how many completions give each (:func:`showdowns`,
        under this evaluator's house rules)."""
        return showdowns(holes, board, unseen, self.la_perla_wins)

    def lookup(self) -> BoardLookup:
        """The tables :meth:`value` reads, for valuing many boards at once
        (see :class:`BoardLookup`)."""
        return BoardLookup(
            dict(KEY),
            dict(RBIT),
            self._ranks,
            self._flush,
            LA_PERLA_VALUE if self.la_perla_wins else None,
        )

    def _check(self, own: Sequence[str], board: Sequence[str]) -> None:
        if len(own) != 2:
            raise ValueError(f"a Chiribito hand has 2 hole cards, got {len(own)}")
        if len(board) != 5:
            raise ValueError(f"a Chiribito showdown has 5 common cards, got {len(board)}")
        check_cards(SPANISH_28, [*own, *board], range(7, 8), "a Chiribito showdown")

    def exposed(self, up: Sequence[str]) -> int:
        raise NotImplementedError("Chiribito deals no up cards; the opener follows the betting")

    def category(self, value: int) -> Category:
        return ORDER[value >> 20]

    def evaluate(
        self, own: Sequence[str], board: Sequence[str] = (), *, name_la_perla: bool = False
    ) -> Evaluation:
        """As :meth:`value`, plus the five cards used and the description.
        ``name_la_perla`` names a La Perla after the comma when the house rule
        is off (see the module docstring)."""
        self._check(own, board)
        value = self.value(own, board)
        if value == LA_PERLA_VALUE:
            hole = tuple(sorted(own, key=RANK_OF.__getitem__, reverse=True))
            return Evaluation(value, C.LA_PERLA, hole, C.LA_PERLA.value)
        triple = next(x for x in combinations(board, 3) if classify5((*own, *x)) == value)
        strength, ranks = unpack(value)
        category = ORDER[strength]
        cards = pick((*own, *triple), ranks, RANK_OF)
        if name_la_perla and is_la_perla(own):
            description = f"{category.value}, La Perla"
        else:
            description = describe(category, ranks, NAMES, PLURALS)
        return Evaluation(value, category, cards, description)
