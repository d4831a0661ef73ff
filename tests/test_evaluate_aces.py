"""Aces, Straights and Flushes evaluator against RULES.md section 2 and a
brute-force reference for the joker written here, independently."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from hh.cards import FRENCH_52, FRENCH_RANKS, FRENCH_SUITS, JOKER, CardError
from hh.evaluate import Category as C
from hh.evaluate import evaluator_for

pytestmark = pytest.mark.compiled

EV = evaluator_for("aces-straights-flushes")
J = (JOKER,)
ACE = 12
# What the joker may be: any of the 52 cards, or an ace of no suit (which may
# duplicate an ace in hand, and never makes a flush).
SUBSTITUTES = [(r, s) for r in range(13) for s in range(4)] + [(ACE, None)]
MAY_USE_ANY_CARD = {C.STRAIGHT, C.FLUSH, C.STRAIGHT_FLUSH}


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def value(text: str) -> int:
    return EV.value(cards(text), J)


def as_ref(hand) -> list[tuple[int, int]]:
    return [(FRENCH_RANKS.index(c[0]), FRENCH_SUITS.index(c[1])) for c in hand]


def reference(naturals: list[tuple[int, int]], book) -> tuple[int, tuple[int, ...]]:
    """Best five of the naturals plus the joker, by brute force: every
    five-card hand of naturals alone, and every four naturals with the joker
    as each possible substitute, kept only if the substitute is an ace or the
    five cards are a straight, a flush or a straight flush."""
    best = (-1, ())
    for five in combinations(naturals, 5):
        best = max(best, book.key(five))
    for four in combinations(naturals, 4):
        for sub in SUBSTITUTES:
            if sub in four:
                continue
            category, ranks = book.classify([*four, sub])
            if sub[0] == ACE or category in MAY_USE_ANY_CARD:
                best = max(best, (book.strength[category], ranks))
    return best


def category_of(book, key) -> C:
    return next(c for c, s in book.strength.items() if s == key[0])


# ---------------------------------------------------------------- the joker, exhaustively


def test_every_four_naturals_plus_joker_agrees_with_brute_force(textbook, same_order):
    """All C(52,4) = 270,725 hands of four naturals and the joker.

    The reference only ever compares suits for equality and tries every suit
    for the joker, so its answer depends only on the multiset of the four
    per-suit rank masks. Every hand is evaluated by the fast evaluator; the
    hands of one suit class must get one value, and that value must order
    as the reference's answer for the class, computed once on a member."""
    book = textbook(13)
    by_class: dict[tuple[int, ...], int] = {}
    hands = 0
    for four in combinations(FRENCH_52.cards, 4):
        masks = [0, 0, 0, 0]
        for card in four:
            masks[FRENCH_SUITS.index(card[1])] |= 1 << FRENCH_RANKS.index(card[0])
        v = EV.value(four, J)
        assert by_class.setdefault(tuple(sorted(masks)), v) == v, four
        hands += 1
    assert hands == 270_725
    pairs = []
    for masks, v in by_class.items():
        member = [(r, s) for s, mask in enumerate(masks) for r in range(13) if mask >> r & 1]
        ref = reference(member, book)
        assert EV.category(v) == category_of(book, ref), member
        pairs.append((v, ref))
    same_order(pairs)


def test_six_naturals_plus_joker_agree_with_brute_force(textbook, same_order):
    book = textbook(13)
    rng = random.Random(1951)
    pairs = []
    for n in range(1_600):
        pool = FRENCH_52.cards
        if n % 2:  # narrow pools: straights, flushes and their joker cases are frequent
            ranks = rng.sample(FRENCH_RANKS, rng.choice((6, 7, 8)))
            suits = rng.sample(FRENCH_SUITS, rng.choice((2, 3)))
            pool = tuple(c for c in FRENCH_52.cards if c[0] in ranks and c[1] in suits)
        hand = tuple(rng.sample(pool, rng.choice((5, 6, 6, 6))))
        ref = reference(as_ref(hand), book)
        v = EV.value(hand, J)
        assert EV.category(v) == category_of(book, ref), hand
        pairs.append((v, ref))
    same_order(pairs)


def test_without_the_joker_the_naturals_rank_alone(textbook, same_order):
    book = textbook(13)
    rng = random.Random(3)
    pairs = []
    for _ in range(1_000):
        hand = tuple(rng.sample(FRENCH_52.cards, 6))
        ref = max(book.key(five) for five in combinations(as_ref(hand), 5))
        pairs.append((EV.value(hand, ()), ref))
    same_order(pairs)
    assert EV.evaluate(cards("As Ks Qs 7s 9d 2c"), ()).description == "high card, Ace"


# ---------------------------------------------------------------- RULES.md, one test per rule


def test_rule_asf_seed_example_anna_flush_beats_ben_two_pair():
    anna = EV.evaluate(cards("As Ks Qs 7s 9d 2c"), J)
    ben = EV.evaluate(cards("9c 9h 5c 5d Kd 3h"), J)
    assert (anna.category, anna.description) == (C.FLUSH, "a flush, Ace high")
    assert anna.cards == ("As", "Ks", "Qs", "Jk", "7s")  # the joker is the J of spades
    assert value("As Ks Qs 7s 9d 2c") == EV.value(cards("As Ks Qs Js 7s"), ())  # not a royal
    assert (ben.category, ben.description) == (C.TWO_PAIR, "two pair, Nines and Fives")
    assert ben.cards == ("9c", "9h", "5c", "5d", "Jk")  # the joker is an ace kicker
    assert anna > ben


def test_rule_asf_joker_never_pairs():
    # K-K + joker: a pair of kings with an ace kicker, the same as a natural ace.
    kings = EV.evaluate(cards("Kh Kd 2c 5d 8s 9h"), J)
    assert kings.description == "a pair, Kings"
    assert kings.cards == ("Kh", "Kd", "Jk", "9h", "8s")
    assert kings.value == EV.value(cards("Kh Kd Ac 9h 8s 5d 2c"), ())
    # 8-8-5-5 + joker: two pair with an ace kicker, not a full house.
    two = EV.evaluate(cards("8h 8d 5c 5d 2s 3h"), J)
    assert two.category == C.TWO_PAIR
    assert two.value == EV.value(cards("8h 8d 5c 5d Ac"), ())
    # Trips never become quads, a pair never becomes trips.
    assert EV.category(value("7h 7d 7s 2c 4d 9h")) == C.TRIPS
    assert EV.category(value("7h 7d 3s 2c Jd 9h")) == C.PAIR
    assert value("7h 7d 7s 2c 4d 9h") == EV.value(cards("7h 7d 7s Ac 9h"), ())


def test_rule_asf_joker_is_an_ace():
    assert EV.evaluate(cards("Ah Ad Kc Kd 2s 3h"), J).description == (
        "a full house, Aces full of Kings"
    )
    assert EV.evaluate(cards("Ah Ad Ac 2s 3h 7d"), J).description == "four of a kind, Aces"
    assert EV.evaluate(cards("Ah Td 2c 6s 3h 8d"), J).description == "a pair, Aces"
    assert EV.evaluate(cards("Kh Kd Kc 2s 2h 7d"), J).description == (
        "a full house, Kings full of Twos"
    )
    assert EV.evaluate(cards("Kh Kd Kc Ad 2h 7d"), J).description == (
        "a full house, Kings full of Aces"
    )


def test_rule_asf_five_aces_is_the_top_hand():
    five = EV.evaluate(cards("Ah Ad Ac As 2s 3h"), J)
    assert (five.category, five.description) == (C.FIVE_ACES, "five aces")
    assert five.cards == ("Ah", "Ad", "Ac", "As", "Jk")
    royal = value("Ts Js Qs Ks As 2c")
    assert EV.category(royal) == C.STRAIGHT_FLUSH
    assert five.value > royal
    assert five.value == value("Ah Ad Ac As Kh Qh")  # equal hands split


def test_rule_asf_joker_completes_straights_and_flushes():
    assert EV.evaluate(cards("9h Tc Jd Ks 2c 2d"), J).description == "a straight, Nine to King"
    assert EV.evaluate(cards("2h 3c 4d 5s Kc Kd"), J).description == "a straight, Two to Six"
    sf = EV.evaluate(cards("As Ks Qs Js 7s 2c"), J)
    assert (sf.category, sf.cards) == (C.STRAIGHT_FLUSH, ("As", "Ks", "Qs", "Js", "Jk"))
    assert EV.evaluate(cards("5h 6h 8h 9h Kc Kd"), J).description == (
        "a straight flush, Five to Nine"
    )


def test_rule_asf_joker_in_a_flush_is_the_highest_card_lacking_no_double_ace():
    # No ace of the suit: the joker is that ace.
    no_ace = EV.evaluate(cards("Ks Qs 9s 7s 2c 3d"), J)
    assert no_ace.cards == ("Jk", "Ks", "Qs", "9s", "7s")
    assert no_ace.value == EV.value(cards("As Ks Qs 9s 7s"), ())
    # With the ace: the joker is the king, never a second ace of spades.
    with_ace = EV.evaluate(cards("As 9s 7s 5s 2c 3d"), J)
    assert with_ace.cards == ("As", "Jk", "9s", "7s", "5s")
    assert with_ace.value == EV.value(cards("As Ks 9s 7s 5s"), ())
    # Five suited naturals: the joker still upgrades the flush.
    assert value("As Ks Qs 9s 2s 3d") == EV.value(cards("As Ks Qs Js 9s"), ())


def test_rule_asf_ace_low_straight_is_five_high_and_no_wrap():
    assert EV.category(EV.value(cards("Kc Ad 2h 3s 4c"), ())) == C.HIGH_CARD  # K-A-2-3-4
    assert EV.category(value("Kc Ad 2h 3s 9d 8c")) == C.PAIR  # the joker only an ace
    wheel = EV.evaluate(cards("Ad 2h 3s 4c 9d 9c"), J)
    assert (wheel.category, wheel.description) == (C.STRAIGHT, "a straight, Ace to Five")
    assert wheel.cards == ("Jk", "4c", "3s", "2h", "Ad")
    assert wheel.value < value("2h 3s 4c 5d 9d 9c")
    assert wheel.value < value("2h 3s 4c 6d 9d 9c")  # the joker as a 5 makes 2-3-4-5-6
    assert value("Jh Qc Kd Ad 2c 3d") == EV.value(cards("Th Jh Qc Kd Ad"), ())  # ace high, top


def test_rule_asf_ranking_order():
    ladder = [
        ("Ah Ad Ac As 2s 3h", C.FIVE_ACES),
        ("9h Th Jh Qh 2s 3d", C.STRAIGHT_FLUSH),
        ("Kh Kd Ks Kc 2s 3h", C.QUADS),
        ("Kh Kd Ks Qc Qs 3h", C.FULL_HOUSE),
        ("As 9s 7s 5s 2c 3d", C.FLUSH),
        ("9h Tc Jd Ks 2c 2d", C.STRAIGHT),
        ("7h 7d 7s 2c 4d 9h", C.TRIPS),
        ("8h 8d 5c 5d 2s 3h", C.TWO_PAIR),
        ("Kh Kd 2c 5d 8s 9h", C.PAIR),
        ("Kh Qd 2c 5d 8s 9h", C.HIGH_CARD),  # the joker is an ace high
    ]
    values = [value(h) for h, _ in ladder]
    assert [EV.category(v) for v in values] == [c for _, c in ladder]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert values[-1] == EV.value(cards("Ac Kh Qd 9h 8s"), ())


def test_rule_asf_suits_never_break_ties():
    assert value("As 9s 7s 5s 2c 3d") == value("Ah 9h 7h 5h 2c 3s")
    assert value("9c 9h 5c 5d Kd 3h") == value("9s 9d 5h 5s Kc 3d")


def test_rule_asf_exposed_ignores_straights_flushes_and_the_joker():
    # Four suited connected up cards are only a high card: below any pair.
    assert EV.exposed(cards("5h 6h 7h 8h")) < EV.exposed(cards("2c 2d 3h"))
    assert EV.category(EV.exposed(cards("5h 6h 7h 8h"))) == C.HIGH_CARD
    # The joker is not an ace here: a king is just below an ace, never paired.
    assert EV.exposed(cards("Kh")) < EV.exposed(cards("Ah"))
    assert EV.category(EV.exposed(cards("Kh"))) == C.HIGH_CARD
    with pytest.raises(CardError):
        EV.exposed(cards("Kh Jk"))
    ladder = [
        cards("9h 9d 9s 9c"),
        cards("2h 2d 2s Ac"),
        cards("Kh Kd 7s 7c"),
        cards("Kh Kd 7s 6c"),
        cards("Kh Kd"),
        cards("Ah Qd 7s"),
        cards("Ah Qd"),
        cards("Kd"),
    ]
    values = [EV.exposed(up) for up in ladder]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    # FORMAT.md's example: Anna's queen opens 3rd street, Ben's pair of fives 4th.
    assert EV.exposed(cards("Qs")) > EV.exposed(cards("5c")) > EV.exposed(cards("2d"))
    assert EV.exposed(cards("5c 5d")) > EV.exposed(cards("Qs 7s")) > EV.exposed(cards("2d 8h"))
    assert EV.exposed(cards("Qs 7s")) == EV.exposed(cards("Qh 7d"))  # ties: seat order decides


# ---------------------------------------------------------------- errors and plumbing


@pytest.mark.parametrize(
    ("own", "board", "error"),
    [
        ("As Ks Qs 7s 9d Jk", J, CardError),  # the joker is nobody's own card
        ("As Ks Qs 7s 9d So", J, CardError),
        ("As Ks Qs 7s 9d 9d", J, CardError),
        ("As Ks Qs", J, ValueError),
        ("As Ks Qs 7s 9d 2c 3c", J, ValueError),  # seven own cards
        ("As Ks Qs 7s 9d 2c", ("Ah",), ValueError),  # only the joker is common
        ("As Ks Qs 7s", (), ValueError),
    ],
)
def test_bad_input_raises(own, board, error):
    with pytest.raises(error):
        EV.evaluate(cards(own), board)
    if error is not CardError or "Jk" in own or "So" in own:  # value() trusts distinct cards
        with pytest.raises(error):
            EV.value(cards(own), board)


def test_joker_is_the_default_board_and_evaluator_is_cached():
    assert EV.value(cards("As Ks Qs 7s 9d 2c")) == value("As Ks Qs 7s 9d 2c")
    assert evaluator_for("aces-straights-flushes", ["La Perla wins"]) is EV
