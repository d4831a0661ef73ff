"""Aces, Straights and Flushes (RULES.md section 2): six-card stud with a
shared joker as a bug, antes, fixed limit 1/2 with a cap of four bets."""

from __future__ import annotations

from hh.cards import FRENCH_52_JOKER
from hh.games.base import GameRules, Street, best_exposed, plain_variant
from hh.model import Game

RULES: GameRules = GameRules(
    game=Game.ACES,
    notation=FRENCH_52_JOKER,
    min_players=2,
    max_players=7,
    forced="ante",
    direction=1,
    deal_passes=1,
    streets=(
        Street("3RD STREET", down=2, up=1),
        Street("4TH STREET", up=1),
        Street("5TH STREET", up=1, big=True),
        Street("6TH STREET", down=1, big=True),
    ),
    structure="fixed-limit",
    max_bets=4,
    all_checked_ends=False,
    knows_rule=lambda rule: False,
    opener=best_exposed,
    make_variant=plain_variant(Game.ACES, FRENCH_52_JOKER, 7),
)
