"""The evaluators' functions for many hands at once (what the all-in equity
calls) against brute force: every completion or deal valued one by one
with ``value``."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from hh.cards import FRENCH_52, SPANISH_28, stripped_deck
from hh.evaluate import (
    RULE_FLUSH_OVER_FULL,
    RULE_LA_PERLA,
    chiribito_showdowns,
    evaluator_for,
)


def _brute_showdowns(holes, board, unseen, rules) -> Counter:
    ev = evaluator_for("chiribito", rules)
    out: Counter = Counter()
    for new in combinations(unseen, 5 - len(board)):
        out[tuple(ev.value(hole, [*board, *new]) for hole in holes)] += 1
    return out


def _nonzero(counts: dict) -> dict:
    return {k: v for k, v in counts.items() if v}


# (holes, board, house rules): suited holes of one suit and of two, a board
# with suited cards already, La Perla with and without its rule, three players
SPOTS = [
    ((("Ao", "Ro"), ("7c", "7e")), (), ()),
    ((("So", "7o"), ("Ac", "Ae")), (), (RULE_LA_PERLA,)),
    ((("So", "7o"), ("Ac", "Ae")), ("Co", "6o"), ()),
    ((("Ao", "Co"), ("Rc", "Sc"), ("6e", "6b")), ("7o", "5c"), ()),
    ((("Ao", "Co"), ("Ro", "So")), ("7o", "5o", "6c"), ()),
    ((("So", "7o"), ("Sc", "7c")), ("Ao", "Re", "Cb", "6o"), (RULE_LA_PERLA,)),
    ((("5o", "6o"), ("Ae", "Ab"), ("Cc", "Sc")), ("7o", "So", "Ro", "Cb"), ()),
]


@pytest.mark.parametrize(("holes", "board", "rules"), SPOTS)
def test_chiribito_showdowns_are_every_board_valued(holes, board, rules):
    seen = {c for hole in holes for c in hole} | set(board)
    unseen = [c for c in SPANISH_28.cards if c not in seen]
    got = chiribito_showdowns(holes, board, unseen, rules)
    assert sum(got.values()) == len(list(combinations(unseen, 5 - len(board))))
    assert _nonzero(got) == dict(_brute_showdowns(holes, board, unseen, rules))


def test_chiribito_showdowns_with_dead_cards_and_random_spots():
    rng = random.Random(24)
    for _ in range(40):
        players = rng.randint(2, 4)
        cards = rng.sample(SPANISH_28.cards, 2 * players + 5 + 3)
        holes = [cards[2 * i : 2 * i + 2] for i in range(players)]
        board = cards[2 * players : 2 * players + rng.randint(1, 4)]
        dead = cards[-3:]
        seen = {*cards[: 2 * players], *board, *dead}
        unseen = [c for c in SPANISH_28.cards if c not in seen]
        rules = (RULE_LA_PERLA,) if rng.random() < 0.3 else ()
        got = chiribito_showdowns(holes, board, unseen, rules)
        assert _nonzero(got) == dict(_brute_showdowns(holes, board, unseen, rules))


def test_chiribito_showdowns_refuse_what_is_no_showdown():
    with pytest.raises(ValueError, match="not a Chiribito showdown"):
        chiribito_showdowns([("Ao", "Ao")], (), ["Ro", "Co", "So", "7o", "6o"])
    with pytest.raises(ValueError, match="not a Chiribito showdown"):
        chiribito_showdowns([("Ao", "Zz")], (), ["Ro", "Co", "So", "7o", "6o"])


@pytest.mark.parametrize(
    ("game", "rules", "deck", "board"),
    [
        ("calatone", (), FRENCH_52.cards, ()),
        ("calatone", ("Deck from 7", RULE_FLUSH_OVER_FULL), stripped_deck("7").cards, ()),
        ("aces-straights-flushes", (), FRENCH_52.cards, ("Jk",)),
        ("aces-straights-flushes", (), FRENCH_52.cards, ()),
    ],
)
def test_stud_values_are_value_of_each_deal(game, rules, deck, board):
    ev = evaluator_for(game, rules)
    rng = random.Random(2027)
    total = 6 if board else 7  # Aces: six own cards beside the joker
    for known in range(0, 5):
        for _ in range(30):
            own = rng.sample(deck, known)
            rest = [c for c in deck if c not in own]
            size = total - known
            draws = [rng.sample(rest, size) for _ in range(50)]
            # the flushes: draws of one suit with the own cards
            suit = own[0][1] if own else "h"
            draws.append([c for c in rest if c[1] == suit][:size])
            want = [ev.value([*own, *d], board) for d in draws]
            assert ev.values(own, draws, board) == want


def test_stud_values_on_the_default_board():
    aces = evaluator_for("aces-straights-flushes")
    assert aces.values(["Ah", "Kh"], [["Qh", "Jh", "2c", "3d"]]) == [
        aces.value(["Ah", "Kh", "Qh", "Jh", "2c", "3d"])
    ]


def test_stud_values_say_what_is_wrong():
    ev = evaluator_for("calatone")
    with pytest.raises(ValueError):
        ev.values(["Ah", "Kh"], [["Qh", "Xx"]])
    with pytest.raises(ValueError):
        ev.values(["Ah"], [["Qh"]], ["Jk"])
    aces = evaluator_for("aces-straights-flushes")
    with pytest.raises(ValueError):
        aces.values(["Ah", "Kh", "Qh"], [["Jh", "2c", "Xx"]])


def test_chiribito_values_are_hole_pairs_on_a_board():
    ev = evaluator_for("chiribito")
    board = ["Ao", "Ro", "Co", "5c", "6e"]
    pairs = [["So", "7o"], ["Ac", "Ae"], ["7c", "6c"]]
    assert ev.values([], pairs, board) == [ev.value(p, board) for p in pairs]
