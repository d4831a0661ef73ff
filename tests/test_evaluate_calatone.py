"""Calatone evaluator (the standard French ranking and its house rules)
against RULES.md section 3, textbook counts, pokerkit and a textbook ranking."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest
from pokerkit import StandardHighHand

from hh.cards import FRENCH_52, CardError, stripped_deck
from hh.evaluate import Category as C
from hh.evaluate import evaluator_for

pytestmark = pytest.mark.compiled

EV = evaluator_for("calatone")
SWAP = evaluator_for("calatone", ["Flush beats full house"])
FROM7 = evaluator_for("calatone", ["Deck from 7"])


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def category(text: str, ev=EV) -> C:
    return ev.category(ev.value(cards(text)))


def categories_of_every_five_card_hand(ev, deck) -> Counter:
    by_value = Counter(map(ev.value, combinations(deck.cards, 5)))
    out: Counter = Counter()
    for v, n in by_value.items():
        out[ev.category(v)] += n
    return out


# ---------------------------------------------------------------- exhaustive and oracles


def test_every_five_card_hand_of_the_52_card_deck_has_the_textbook_counts(counts_for):
    counts = categories_of_every_five_card_hand(EV, FRENCH_52)
    assert counts == {
        C.STRAIGHT_FLUSH: 40,
        C.QUADS: 624,
        C.FULL_HOUSE: 3_744,
        C.FLUSH: 5_108,
        C.STRAIGHT: 10_200,
        C.TRIPS: 54_912,
        C.TWO_PAIR: 123_552,
        C.PAIR: 1_098_240,
        C.HIGH_CARD: 1_302_540,
    }
    assert counts == counts_for(13)
    assert sum(counts.values()) == comb(52, 5)


@pytest.mark.parametrize("lowest", ["7", "9"])
def test_every_five_card_hand_of_a_stripped_deck_has_the_combinatorial_counts(lowest, counts_for):
    deck = stripped_deck(lowest)
    for rules in ([f"Deck from {lowest}"], [f"Deck from {lowest}", "Flush beats full house"]):
        counts = categories_of_every_five_card_hand(evaluator_for("calatone", rules), deck)
        assert counts == counts_for(len(deck.ranks))
        assert sum(counts.values()) == comb(len(deck), 5)


def test_seven_card_hands_order_exactly_as_pokerkit():
    rng = random.Random(52)
    hands = [tuple(rng.sample(FRENCH_52.cards, 7)) for _ in range(480)]
    # Half the hands from a narrow deck, so that full houses, quads and
    # straight flushes are common enough to be compared among themselves.
    narrow = [c for c in FRENCH_52.cards if c[0] in "9TJQKA" and c[1] in "cdh"]
    hands += [tuple(rng.sample(narrow, 7)) for _ in range(120)]
    ours = [EV.value(h) for h in hands]
    theirs = [StandardHighHand.from_game("".join(h[:2]), "".join(h[2:])) for h in hands]
    pairs = 0
    for i in range(len(hands)):
        for j in range(i + 1, len(hands)):
            a, b = ours[i], ours[j]
            x, y = theirs[i], theirs[j]
            assert (a < b, a == b, a > b) == (x < y, x == y, x > y), (hands[i], hands[j])
            pairs += 1
    assert pairs >= 100_000


RULE_SETS = [
    ("2", False),
    ("2", True),
    ("3", False),
    ("7", False),
    ("7", True),
    ("9", True),
]


@pytest.mark.parametrize(("lowest", "swap"), RULE_SETS)
def test_hands_of_one_to_seven_cards_order_as_the_textbook(lowest, swap, textbook, same_order):
    """Best five of five to seven cards, and one to four cards by same-rank
    groups only, under each house-rule combination."""
    rules = [f"Deck from {lowest}"] if lowest != "2" else []
    rules += ["Flush beats full house"] if swap else []
    ev = evaluator_for("calatone", rules)
    deck = stripped_deck(lowest) if lowest != "2" else FRENCH_52
    book = textbook(len(deck.ranks), textbook.FLUSH_OVER_FULL if swap else textbook.STANDARD)
    rng = random.Random(f"{lowest}{swap}")
    for size in range(1, 8):
        pairs = []
        for n in range(700):
            pool = deck.cards
            if n % 2:  # a narrow pool makes the rarer categories common
                ranks = rng.sample(deck.ranks, 6)
                pool = tuple(c for c in deck.cards if c[0] in ranks and c[1] in "cdh")
            hand = rng.sample(pool, size)
            as_ref = [(deck.ranks.index(c[0]), c[1]) for c in hand]
            ref = max(book.key(five) for five in combinations(as_ref, min(size, 5)))
            v = ev.value(hand)
            assert ev.category(v) == book_category(book, ref), hand
            pairs.append((v, ref))
        same_order(pairs)


def book_category(book, key) -> C:
    return next(c for c, s in book.strength.items() if s == key[0])


# ---------------------------------------------------------------- RULES.md, one test per rule


def test_rule_calatone_standard_ranking_order():
    ladder = [
        ("9h Th Jh Qh Kh 2c 2d", C.STRAIGHT_FLUSH),
        ("Kh Kd Ks Kc 9h 7d 2c", C.QUADS),
        ("Js Jd Jh 2c 2s 4s 5d", C.FULL_HOUSE),
        ("2h 7h 9h Jh Kh Kd Kc", C.FLUSH),
        ("6c 7d 8h 9s Tc Kd 2c", C.STRAIGHT),
        ("Kh Kd Ks 2c 5d 9h 7s", C.TRIPS),
        ("9c 9h 5c 5d Kd 3h 2s", C.TWO_PAIR),
        ("Jh Jd 2c 5d 9h 7s 3c", C.PAIR),
        ("Ah Jd 2c 5d 9h 7s 3c", C.HIGH_CARD),
    ]
    values = [EV.value(cards(hand)) for hand, _ in ladder]
    assert [EV.category(v) for v in values] == [c for _, c in ladder]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


def test_rule_calatone_ace_low_straight_is_lowest_and_no_wrap():
    wheel = EV.evaluate(cards("Ah 2c 3d 4s 5h Kd Kc"))
    assert wheel.category == C.STRAIGHT and wheel.description == "a straight, Ace to Five"
    assert wheel.value < EV.value(cards("2c 3d 4s 5h 6h"))
    assert wheel.value > EV.value(cards("Kh Kd Ks 2c 5d 9h 7s"))
    assert category("Kh Ad 2c 3d 4s") == C.HIGH_CARD
    assert category("Qh Kh Ad 2c 3d 4s 9c") == C.HIGH_CARD


def test_rule_calatone_flush_beats_full_house_house_rule():
    flush, full = cards("2h 7h 9h Jh Kh Kd 3c"), cards("Js Jd Jh 2c 2s 4s 5d")
    assert EV.value(flush) < EV.value(full)
    assert SWAP.value(flush) > SWAP.value(full)
    assert SWAP.category(SWAP.value(flush)) == C.FLUSH
    assert SWAP.category(SWAP.value(full)) == C.FULL_HOUSE
    # Nothing else moves.
    quads, straight = cards("Kh Kd Ks Kc 9h"), cards("6c 7d 8h 9s Tc")
    assert SWAP.value(quads) > SWAP.value(flush) > SWAP.value(full) > SWAP.value(straight)
    assert SWAP.value(cards("9h Th Jh Qh Kh")) > SWAP.value(quads)


@pytest.mark.parametrize("lowest", "3456789")
def test_rule_calatone_deck_from_r_ace_low(lowest):
    ev = evaluator_for("calatone", [f"Deck from {lowest}"])
    ranks = stripped_deck(lowest).ranks
    ace_low = cards(f"Ah {ranks[0]}c {ranks[1]}d {ranks[2]}s {ranks[3]}h")
    next_up = cards(f"{ranks[0]}c {ranks[1]}d {ranks[2]}s {ranks[3]}h {ranks[4]}d")
    assert ev.category(ev.value(ace_low)) == C.STRAIGHT
    assert ev.value(ace_low) < ev.value(next_up)
    # The lowest straight: below every other straight of the deck.
    straights = [
        v
        for v in (ev.value(h) for h in combinations(stripped_deck(lowest).cards, 5))
        if ev.category(v) == C.STRAIGHT
    ]
    assert min(straights) == ev.value(ace_low)
    # Without the rule those cards are no straight.
    assert category(" ".join(ace_low)) == C.HIGH_CARD


def test_rule_calatone_deck_from_7_descriptions_and_stripped_cards():
    ev = FROM7.evaluate(cards("Ah 7c 8d 9s Th Kd Kc"))
    assert (ev.category, ev.description) == (C.STRAIGHT, "a straight, Ace to Ten")
    assert ev.cards == ("Th", "9s", "8d", "7c", "Ah")
    with pytest.raises(CardError):
        FROM7.value(cards("2c 7d 8s 9h Th"))  # a 2 is not a card of that deck
    with pytest.raises(CardError):
        FROM7.evaluate(cards("Ah 2c 3d 4s 5h"))
    for bad in ("Deck from 2", "Deck from T", "Deck from x"):
        with pytest.raises(CardError):
            evaluator_for("calatone", [bad])


def test_rule_calatone_short_hands_compare_without_straights_or_flushes():
    # Four suited connected cards: just a high card, below any pair.
    assert category("5h 6h 7h 8h") == C.HIGH_CARD
    assert EV.value(cards("5h 6h 7h 8h")) < EV.value(cards("2c 2d 3h 4s"))
    ladder = [
        ("Kh Kd Ks Kc", C.QUADS),
        ("2h 2d 2s Ac", C.TRIPS),
        ("Kh Kd 7s 7c", C.TWO_PAIR),
        ("Kh Kd 7s 6c", C.PAIR),
        ("Kh Qd 7s 6c", C.HIGH_CARD),
        ("Kh Qd 7s 5c", C.HIGH_CARD),
    ]
    values = [EV.value(cards(h)) for h, _ in ladder]
    assert [EV.category(v) for v in values] == [c for _, c in ladder]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    # Three cards, two cards, one card.
    assert EV.value(cards("Kh Kd 2c")) > EV.value(cards("Ah Qd Jc"))
    assert EV.value(cards("3h 3d")) > EV.value(cards("Ah Kd"))
    assert EV.value(cards("Ah")) > EV.value(cards("Kd"))
    assert EV.value(cards("Ah")) == EV.value(cards("Ac"))


def test_rule_calatone_exposed_ranks_all_categories_of_the_up_cards():
    # First round: the highest up card; equal ranks tie (dealing order decides).
    assert EV.exposed(cards("Jc")) == EV.exposed(cards("Js")) > EV.exposed(cards("7c"))
    assert EV.exposed(cards("Ah")) > EV.exposed(cards("Kh"))
    # Four up: same-rank groups and high cards only.
    assert EV.exposed(cards("5h 6h 7h 8h")) < EV.exposed(cards("2c 2d 3h 4s"))
    # Five up or more: straights and flushes count.
    assert EV.category(EV.exposed(cards("5h 6c 7h 8h 9d"))) == C.STRAIGHT
    assert EV.exposed(cards("5h 6c 7h 8h 9d")) > EV.exposed(cards("Kh Kd Ks 2c 3d"))
    assert EV.category(EV.exposed(cards("2h 6h 7h 8h Kh Ks"))) == C.FLUSH
    assert SWAP.exposed(cards("2h 6h 7h 8h Kh")) > SWAP.exposed(cards("Kc Kd Ks 2c 2d"))


def test_rule_calatone_best_five_of_seven():
    # Quads with the best kicker, even when a full house is also there.
    ev = EV.evaluate(cards("Kh 7c Kd Ks 9h 7d Kc"))
    assert ev.description == "four of a kind, Kings"
    assert ev.cards == ("Kh", "Kd", "Ks", "Kc", "9h")
    # Two trips: the higher three and a pair of the lower.
    ev = EV.evaluate(cards("5h 5d 5s 9c 9d 9h Ac"))
    assert ev.description == "a full house, Nines full of Fives"
    # Three pairs: the two highest and the best remaining kicker.
    assert EV.value(cards("Ah Ad 8s 8c 7d 7h 2c")) < EV.value(cards("Ah Ad 8s 8c 7d 3h 9c"))
    # A six-card flush keeps its best five.
    ev = EV.evaluate(cards("2h 6h 7h 9h Jh Kh 8c"))
    assert ev.cards == ("Kh", "Jh", "9h", "7h", "6h")


# ---------------------------------------------------------------- descriptions and errors


@pytest.mark.parametrize(
    ("hand", "description"),
    [
        ("Kh Kd Ks Kc 9h", "four of a kind, Kings"),  # FORMAT.md: Dario declares
        ("Js Jd Jh 2c 2s", "a full house, Jacks full of Twos"),  # FORMAT.md: Fabio declares
        ("Kh 7c Kd Ks", "three of a kind, Kings"),  # FORMAT.md: the 4th-street example
        ("4s Js Jd 2c", "a pair, Jacks"),
        ("Ah Jd 2c 5d 9h 7s 3c", "high card, Ace"),
        ("9c 9h 5c 5d Kd 3h 2s", "two pair, Nines and Fives"),
        ("6c 7d 8h 9s Tc Kd 2c", "a straight, Six to Ten"),
        ("2h 7h 9h Jh Ah Kd Kc", "a flush, Ace high"),
        ("9h Th Jh Qh Kh 2c 2d", "a straight flush, Nine to King"),
        ("Th Jh Qh Kh Ah", "a straight flush, Ten to Ace"),
        ("Ah 2h 3h 4h 5h", "a straight flush, Ace to Five"),
    ],
)
def test_descriptions(hand, description):
    ev = EV.evaluate(cards(hand))
    assert ev.description == description
    assert ev.description.startswith(ev.category.value)
    assert ev.value == EV.value(cards(hand))
    assert set(ev.cards) <= set(cards(hand)) and len(ev.cards) == min(5, len(cards(hand)))


def test_bad_input_raises():
    with pytest.raises(CardError):
        EV.value(cards("So 2c 3c 4c 5c"))  # a Spanish card
    with pytest.raises(CardError):
        EV.value(cards("Jk 2c 3c 4c 5c"))  # no joker in Calatone
    with pytest.raises(CardError):
        EV.evaluate(cards("2c 2c 3c 4c 5c"))  # a card twice
    with pytest.raises(ValueError):
        EV.value(cards("2c 3c 4c 5c 6c 7c 8c 9c"))  # eight cards
    with pytest.raises(ValueError):
        EV.value(())
    with pytest.raises(ValueError):
        EV.value(cards("2c 3c 4c 5c 6c"), cards("7c"))  # no board in Calatone


def test_evaluator_is_cached_per_rules():
    assert evaluator_for("calatone") is EV
    assert evaluator_for("calatone", ["La Perla wins"]) is EV
    assert evaluator_for("calatone", ["Flush beats full house"]) is SWAP
    assert evaluator_for("calatone", [" Deck from 7 "]) is FROM7
