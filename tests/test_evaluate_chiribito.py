"""Chiribito evaluator against RULES.md section 1 and an independent textbook ranking."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest

from hh.cards import SPANISH_28, SPANISH_RANKS, CardError
from hh.evaluate import Category as C
from hh.evaluate import evaluator_for
from hh.evaluate.chiribito import KEY, RBIT, classify5, is_la_perla, tables

pytestmark = pytest.mark.compiled

# Chiribito's ranking, weakest first: the flush above the full house.
CHIRIBITO_ORDER = [C.HIGH_CARD, C.PAIR, C.TWO_PAIR, C.TRIPS, C.STRAIGHT, C.FULL_HOUSE, C.FLUSH,
                   C.QUADS, C.STRAIGHT_FLUSH]  # fmt: skip
EV = evaluator_for("chiribito")
PERLA = evaluator_for("chiribito", ["La Perla wins"])


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def value(hole: str, board: str) -> int:
    return EV.value(cards(hole), cards(board))


def category(hole: str, board: str) -> C:
    return EV.category(value(hole, board))


def as_textbook(hand: tuple[str, ...]) -> list[tuple[int, str]]:
    return [(SPANISH_RANKS.index(card[0]), card[1]) for card in hand]


# ---------------------------------------------------------------- exhaustive


def test_every_five_card_hand_has_the_combinatorial_category_counts(counts_for):
    counts = Counter(EV.category(classify5(hand)) for hand in combinations(SPANISH_28.cards, 5))
    assert counts[C.STRAIGHT_FLUSH] == 16
    assert counts[C.STRAIGHT] == 4_080
    assert counts[C.FLUSH] == 68
    assert counts[C.FULL_HOUSE] == 1_008
    # The other categories from the same formulas (7 ranks, 4 suits, 4 straights).
    assert counts == counts_for(7)
    assert sum(counts.values()) == comb(28, 5) == 98_280
    assert C.LA_PERLA not in counts  # La Perla is about hole cards, never a five-card class


def test_tables_give_classify5_for_every_five_card_hand():
    """The lookups value() combines: the rank-sum list for any hand, and the
    flush list on top of it when the five cards share a suit."""
    built = tables()
    for hand in combinations(SPANISH_28.cards, 5):
        v = built.ranks[sum(KEY[c] for c in hand)]
        if len({c[1] for c in hand}) == 1:
            v = max(v, built.flush[sum(RBIT[c] for c in hand)])
        assert v == classify5(hand), hand


def test_every_five_card_hand_orders_as_the_textbook_ranking(textbook, same_order):
    book = textbook(7, CHIRIBITO_ORDER)
    pairs = []
    for hand in combinations(SPANISH_28.cards, 5):
        v = classify5(hand)
        ref_category, ref_ranks = book.classify(as_textbook(hand))
        assert EV.category(v) == ref_category, hand
        pairs.append((v, (book.strength[ref_category], ref_ranks)))
    same_order(pairs)


def test_showdowns_are_the_best_of_both_hole_cards_and_three_common(textbook, same_order):
    """Random showdowns against the textbook ranking over the ten legal
    five-card hands (two hole + three common), written out independently."""
    book = textbook(7, CHIRIBITO_ORDER)
    rng = random.Random(20261129)
    two_suits = [c for c in SPANISH_28.cards if c[1] in "oc"]  # flushes are frequent here
    pairs = []
    for n in range(16_000):
        dealt = rng.sample(two_suits if n % 2 else SPANISH_28.cards, 7)
        hole, board = tuple(dealt[:2]), tuple(dealt[2:])
        ref = max(book.key(as_textbook(hole + three)) for three in combinations(board, 3))
        v = EV.value(hole, board)
        assert EV.category(v) == CHIRIBITO_ORDER[ref[0]]
        assert EV.evaluate(hole, board).value == v
        pairs.append((v, ref))
    same_order(pairs)


# ---------------------------------------------------------------- RULES.md, one test per rule


def test_rule_chiribito_hand_is_both_hole_cards_and_exactly_three_common():
    # Five oros on the board and no oro in hand: no flush (hold'em would have one).
    assert category("5c 5e", "6o 7o Ro Ao Co") == C.PAIR
    # One hole card plus four common would be a straight flush; both must play.
    assert EV.evaluate(cards("Ao 5c"), cards("6o 7o So Co Ro")).description == (
        "a straight, As to Sota"
    )
    # Four common aces are never used: 5-5 + three aces is a full house, not quads.
    assert EV.evaluate(cards("5c 5e"), cards("Ao Ae Ac Ab Ro")).description == (
        "a full house, Ases full of Cincos"
    )
    # The seed's example: Sota and Caballo with 6, 7 and Rey on the board.
    assert EV.evaluate(cards("Sc Cb"), cards("6c 7e Rb 5o 5e")).description == (
        "a straight, Seis to Rey"
    )
    # Both hole cards oros with 6, 7, Rey of oros: a straight flush.
    sf = EV.evaluate(cards("So Co"), cards("6o 7o Ro 5c 5e"))
    assert sf.category == C.STRAIGHT_FLUSH
    assert sorted(sf.cards) == sorted(cards("So Co 6o 7o Ro"))
    # The cards used always hold both hole cards and three common cards.
    for hole, board in [("5c 5e", "6o 7o Ro Ao Co"), ("Ao 5c", "6o 7o So Co Ro")]:
        used = EV.evaluate(cards(hole), cards(board)).cards
        assert len(used) == 5 and set(cards(hole)) <= set(used)


def test_rule_chiribito_ranking_order_flush_beats_full_house():
    board = "7o Ro 5o 7c 7e"
    ladder = [  # the same board, one hand per category, best first
        ("7b Ao", C.QUADS),
        ("Co Ao", C.FLUSH),
        ("Rc Re", C.FULL_HOUSE),
        ("Ac Ae", C.FULL_HOUSE),
        ("Sc Cc", C.TRIPS),
    ]
    values = [value(hole, board) for hole, _ in ladder]
    assert [EV.category(v) for v in values] == [c for _, c in ladder]
    assert values == sorted(values, reverse=True)
    # A flush beats even the best full house, a straight flush beats four of a kind.
    assert value("Co So", "Ao Ro 6o Ac Ae") > value("Rb Re", "Ao Ro 6o Ac Ae")
    assert category("Co So", "Ao Ro 6o Ac Ae") == C.FLUSH
    assert EV.evaluate(cards("Rb Re"), cards("Ao Ro 6o Ac Ae")).description == (
        "a full house, Ases full of Reyes"
    )
    assert value("So Co", "7o Ro 6o Cc Ce") > value("Cb Ao", "7o Ro 6o Cc Ce")
    # Full order over one hand of each category.
    hands = [
        ("So Co", "6o 7o Ro 5c 5e", C.STRAIGHT_FLUSH),
        ("Ac Ae", "Ao Ab 5c 6e 7b", C.QUADS),
        ("5o 6o", "Ao Ro So 5c 6e", C.FLUSH),
        ("Ac Ae", "Ao Rb Re 6e 7b", C.FULL_HOUSE),
        ("Sc Cb", "6c 7e Rb 5o 5e", C.STRAIGHT),
        ("Ac Ae", "Ao 6b Re 5e 7b", C.TRIPS),
        ("Ac Ae", "Rb Re 6e 7b 5o", C.TWO_PAIR),
        ("Ac Ae", "Rb Ce 6e 5b 7o", C.PAIR),
        ("Ac Re", "Cb 5e 6e 6b 6o", C.TRIPS),
        ("Ac Re", "Cb Se 5e 6b 6o", C.PAIR),
    ]
    for hole, board, expected in hands:
        assert category(hole, board) == expected, (hole, board)
    ranked = [value(h, b) for h, b, _ in hands[:8]]
    assert ranked == sorted(ranked, reverse=True) and len(set(ranked)) == 8


def test_rule_chiribito_only_four_straights_ace_low_is_lowest():
    mixed = "ocebo"
    straights = set()
    for ranks in combinations(SPANISH_RANKS, 5):
        hand = tuple(r + s for r, s in zip(ranks, mixed, strict=True))
        if EV.category(classify5(hand)) == C.STRAIGHT:
            straights.add("".join(ranks))
    assert straights == {"567SC", "67SCR", "7SCRA", "567SA"}
    wheel = value("Ac 5b", "6o 7e So Cc Cb")  # A-5-6-7-S plus a pair on the board
    assert EV.evaluate(cards("Ac 5b"), cards("6o 7e So Cc Cb")).description == (
        "a straight, As to Sota"
    )
    assert value("Cc 5b", "6o 7e So Ac Ab") > wheel  # 5-6-7-S-C, the next one up
    assert wheel > value("Ac Ae", "Ao 6b Re 5e 7b")  # still above three of a kind
    assert category("Ac Re", "Cb 5e 6e So 6o") == C.PAIR  # C-R-A-5-6 does not wrap


def test_rule_chiribito_ties_combination_first_then_kickers_and_split():
    # Full houses: the trips decide first.
    assert value("Rc Re", "Rb 5c 5e Ao 6b") > value("5o 5b", "5c Ac Ae Ro 6o")
    # Two pair: the higher pair first, then the lower pair, then the kicker.
    assert value("Ac Ae", "5c 5e 6o Ro So") > value("Rc Re", "Co Cb 6b Sb Ao")
    assert value("Ac Rc", "Ae Re 5b 6o 7o") > value("Ab Cc", "Ao Ce 5o 6b 7b")
    assert value("Ac Ae", "5c 5e Ro 6o 7o") > value("Ao Ab", "5o 5b Co 6b 7b")
    # A pair: then the kickers in order.
    assert value("Ac Ae", "Rc Cc 6e 5e 7o") > value("Ao Ab", "Rb Sb 5b 6o 7b")
    # Straights by their top card only.
    assert value("Cc Rb", "6o 7e So Ac 5b") > value("6c 7b", "So Ce 5e 5c 5o")
    # Equal hands split: equal values.
    assert value("Ac Ae", "5c 6e 7o Ro Rc") == value("Ao Ab", "5c 6e 7o Ro Rc")
    assert value("Sc Cb", "6c 7e Rb 5o 5e") == value("So Ce", "6c 7e Rb 5o 5e")


def test_rule_chiribito_suits_never_break_ties():
    rng = random.Random(7)
    for _ in range(2_000):
        dealt = rng.sample(SPANISH_28.cards, 7)
        perm = dict(zip("oceb", rng.sample("oceb", 4), strict=True))
        relabelled = [card[0] + perm[card[1]] for card in dealt]
        assert EV.value(dealt[:2], dealt[2:]) == EV.value(relabelled[:2], relabelled[2:])


def test_rule_chiribito_la_perla_is_a_name_only_by_default():
    assert is_la_perla(cards("So 7o")) and is_la_perla(cards("7b Sb"))
    assert is_la_perla(cards("Sc 7c"))
    assert not is_la_perla(cards("So 7c"))
    assert not is_la_perla(cards("So 6o"))
    assert not is_la_perla(cards("So"))
    board = "Ac Re 5b Rc 5c"
    # Ranks by its cards: exactly like a Sota and a 7 of different suits.
    assert value("So 7o", board) == value("Sc 7o", board)
    assert category("So 7o", board) == C.PAIR  # two pair would need four common cards
    assert value("So 7o", board) < value("Ae Ab", board)
    assert value("So 7o", board) > value("Sc 6o", board)  # the 7 is only a kicker


def test_rule_chiribito_la_perla_wins_house_rule():
    board = "Ac Re 5b Rc 5c"
    perla = PERLA.value(cards("So 7o"), cards(board))
    assert PERLA.category(perla) == C.LA_PERLA
    ev = PERLA.evaluate(cards("So 7o"), cards(board))
    assert (ev.category, ev.description, ev.cards) == (C.LA_PERLA, "La Perla", ("So", "7o"))
    # It beats every other hand, the best straight flush and four of a kind included.
    assert perla > PERLA.value(cards("So Co"), cards("6o 7o Ro 5c 5e"))
    assert PERLA.value(cards("7c Sc"), cards("Co Ro Ao 5c 5e")) > PERLA.value(
        cards("Ro Ao"), cards("Co 7c So Sb Se")
    )
    best_other = max(
        PERLA.value(hole, cards(board))
        for hole in combinations([c for c in SPANISH_28.cards if c not in board], 2)
        if not is_la_perla(hole)
    )
    assert perla > best_other
    # Two La Perlas split, whatever else they make.
    assert PERLA.value(cards("Sc 7c"), cards("Cc Rc Ac 5o 6o")) == perla
    # Only the hole cards make La Perla, not the board.
    on_board = (cards("Ac Ae"), cards("So 7o 5b 6e 5c"))
    assert PERLA.value(*on_board) == EV.value(*on_board)
    assert PERLA.category(PERLA.value(*on_board)) == C.TWO_PAIR


# ---------------------------------------------------------------- descriptions and errors


def test_format_md_descriptions():
    board = cards("7c Sc Re Cc 6o")
    lucia = EV.evaluate(cards("So 7o"), board)
    assert lucia.description == "a straight, Seis to Rey"
    assert EV.evaluate(cards("So 7o"), board, name_la_perla=True).description == (
        "a straight, La Perla"
    )
    inigo = EV.evaluate(cards("5c 5e"), board)
    assert inigo.description == "a pair, Cincos"
    assert lucia > inigo
    # name_la_perla only names a real La Perla.
    assert EV.evaluate(cards("5c 5e"), board, name_la_perla=True).description == "a pair, Cincos"


@pytest.mark.parametrize(
    ("hole", "board", "description"),
    [
        ("Rc 5e", "6e 7o So Cb Ab", "high card, As"),
        ("Ac Ae", "Rc Cc 6e 5e 7o", "a pair, Ases"),
        ("Ac Ae", "5c 5e 6o Ro So", "two pair, Ases and Cincos"),
        ("Ac Ae", "Ao 6b Re 5e 7b", "three of a kind, Ases"),
        ("Sc Cb", "6c 7e Rb 5o 5e", "a straight, Seis to Rey"),
        ("5o 6o", "Ao Ro So 5c 6e", "a flush, As high"),
        ("Rc Re", "Rb 5c 5e Ao 6b", "a full house, Reyes full of Cincos"),
        ("Ac Ae", "Ao Ab 5c 6e 7b", "four of a kind, Ases"),
        ("So Co", "6o 7o Ro 5c 5e", "a straight flush, Seis to Rey"),
        ("Ao 5o", "6o 7o So Co 6c", "a straight flush, As to Sota"),
    ],
)
def test_descriptions_name_the_category_then_the_ranks(hole, board, description):
    ev = EV.evaluate(cards(hole), cards(board))
    assert ev.description == description
    assert ev.description.startswith(ev.category.value)
    assert ev.value == value(hole, board)


def test_cards_used_best_first():
    ev = EV.evaluate(cards("Rc Re"), cards("Rb 5c 5e Ao 6b"))
    assert ev.cards == ("Rc", "Re", "Rb", "5c", "5e")
    ev = EV.evaluate(cards("Ac 5b"), cards("6o 7e So Cc Cb"))
    assert ev.cards == ("So", "7e", "6o", "5b", "Ac")


@pytest.mark.parametrize(
    ("hole", "board", "error"),
    [
        ("Ah 5c", "6o 7o So Co Ro", CardError),  # a French card
        ("5c", "6o 7o So Co Ro", ValueError),
        ("5c 6c 7c", "6o 7o So Co", ValueError),
        ("5c 6c", "6o 7o So Co", ValueError),  # showdown needs the five common cards
    ],
)
def test_bad_input_raises(hole, board, error):
    with pytest.raises(error):
        EV.value(cards(hole), cards(board))
    with pytest.raises(error):
        EV.evaluate(cards(hole), cards(board))


@pytest.mark.parametrize(
    ("hole", "board"),
    [("5c 5c", "6o 7o So Co Ro"), ("5c 6c", "6c 7o So Co Ro"), ("5c 6c", "6o 7o So Co Co")],
)
def test_evaluate_rejects_a_card_twice(hole, board):
    with pytest.raises(CardError):
        EV.evaluate(cards(hole), cards(board))


def test_exposed_is_not_a_chiribito_notion():
    with pytest.raises(NotImplementedError):
        EV.exposed(cards("So"))


def test_evaluator_is_cached_per_rules():
    assert evaluator_for("chiribito") is EV
    assert evaluator_for("chiribito", ("La Perla wins",)) is PERLA
    assert evaluator_for("chiribito", ["Deck from 7"]) is EV  # not a Chiribito rule


def _by_lookup(lookup, hole, board) -> int:
    """A showdown's value computed from the public lookups alone, as their
    docstring says (hh.evaluate.chiribito.BoardLookup)."""
    if lookup.la_perla is not None and lookup.is_la_perla(hole):
        return lookup.la_perla
    best = -1
    for triple in combinations(board, 3):
        five = (*hole, *triple)
        value = lookup.ranks[sum(lookup.key[c] for c in five)]
        if len({c[1] for c in five}) == 1:
            mask = 0
            for c in five:
                mask |= lookup.rank_bit[c]
            value = lookup.flush[mask]
        assert value is not None
        best = max(best, value)
    return best


@pytest.mark.parametrize("rules", [(), ("La Perla wins",)])
def test_chiribito_lookup_gives_the_evaluators_values(rules):
    from hh.evaluate import chiribito_lookup

    ev = evaluator_for("chiribito", rules)
    lookup = chiribito_lookup(rules)
    assert (lookup.la_perla is not None) == bool(rules)
    rng = random.Random(4)
    cards = list(SPANISH_28.cards)
    # the FORMAT.md example (a straight, Seis to Rey; La Perla under the rule),
    # a flush, and random showdowns
    spots = [(("So", "7o"), ("7c", "Sc", "Re", "Cc", "6o")),
             (("Ab", "5b"), ("7b", "Sb", "Cb", "Re", "6o"))]  # fmt: skip
    for _ in range(2000):
        seven = rng.sample(cards, 7)
        spots.append((tuple(seven[:2]), tuple(seven[2:])))
    for hole, board in spots:
        assert _by_lookup(lookup, hole, board) == ev.value(hole, board), (hole, board)
    perla = _by_lookup(lookup, ("So", "7o"), ("7c", "Sc", "Re", "Cc", "6o"))
    assert ev.category(perla) == (C.LA_PERLA if rules else C.STRAIGHT)
