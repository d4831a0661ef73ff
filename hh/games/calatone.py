"""Calatone (RULES.md section 3): seven-card "stud largo", antes, spread
limit, an all-checked round ends the hand, binding declarations."""

from __future__ import annotations

import re

from hh.cards import FRENCH_52, FRENCH_52_JOKER, stripped_deck
from hh.evaluate import evaluator_for
from hh.games.base import GameRules, Street, Variant, best_exposed
from hh.model import Game

FLUSH_BEATS_FULL = "Flush beats full house"
_DECK_FROM = re.compile(r"Deck from ([3-9])")


def knows_rule(rule: str) -> bool:
    return rule == FLUSH_BEATS_FULL or _DECK_FROM.fullmatch(rule) is not None


def make_variant(house: frozenset[str]) -> Variant:
    """``Deck from R`` strips the deck; then at most (cards in the deck) // 7
    players may be dealt in [decided]."""
    deck = FRENCH_52
    used = set(house)
    for rule in sorted(house):
        m = _DECK_FROM.fullmatch(rule)
        if m and deck is FRENCH_52:
            deck = stripped_deck(m.group(1))
        elif m:
            used.discard(rule)  # a second Deck from: the validator reports it
    rules = frozenset(used)
    return Variant(deck, evaluator_for(Game.CALATONE, rules), min(7, len(deck) // 7), rules)


RULES: GameRules = GameRules(
    game=Game.CALATONE,
    notation=FRENCH_52_JOKER,
    min_players=2,
    max_players=7,
    forced="ante",
    direction=1,
    deal_passes=1,
    streets=(
        Street("2ND STREET", down=1, up=1),
        Street("3RD STREET", up=1),
        Street("4TH STREET", up=1),
        Street("5TH STREET", up=1),
        Street("6TH STREET", up=1),
        Street("7TH STREET", up=1),
    ),
    structure="spread-limit",
    max_bets=None,
    all_checked_ends=True,
    knows_rule=knows_rule,
    opener=best_exposed,
    make_variant=make_variant,
)
