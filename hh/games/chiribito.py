"""Chiribito (RULES.md section 1): 28 Spanish cards, one blind to the
dealer's right, play to the right, six no-limit rounds, 2 hole + 3 common."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hh.cards import SPANISH_28
from hh.games.base import GameRules, Street, plain_variant
from hh.model import Game

if TYPE_CHECKING:
    from hh.engine import Engine

LA_PERLA_WINS = "La Perla wins"


def opener(engine: Engine) -> int | None:
    """Round 1: the player after the blind (the blind, index 0, waits for a raise).
    Later rounds: the last aggressor of the hand so far, in any earlier round,
    folded or not; nobody bet yet: the blind. The engine passes an opener who
    cannot act on to the next player who can."""
    if not engine.players:  # nobody dealt in (SEATS)
        return None
    if engine.street == 0:
        return 1 % len(engine.players)
    if engine.last_aggressor is not None:
        return engine.last_aggressor
    return 0


RULES: GameRules = GameRules(
    game=Game.CHIRIBITO,
    notation=SPANISH_28,
    min_players=2,
    max_players=6,
    forced="blind",
    direction=-1,
    deal_passes=-1,
    streets=(
        Street("HOLE CARDS", down=2),
        Street("COMMON 1", board=1),
        Street("COMMON 2", board=1),
        Street("COMMON 3", board=1),
        Street("COMMON 4", board=1),
        Street("COMMON 5", board=1),
    ),
    structure="no-limit",
    max_bets=None,
    all_checked_ends=False,
    knows_rule=lambda rule: rule == LA_PERLA_WINS,
    opener=opener,
    make_variant=plain_variant(Game.CHIRIBITO, SPANISH_28, 6),
    blind_waits=True,
)
