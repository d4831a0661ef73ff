"""One module per game: its rules as data plus the few hooks that are logic."""

from hh.games import aces, calatone, chiribito
from hh.games.base import GameRules, Street, Variant
from hh.model import Game

RULES: dict[Game, GameRules] = {
    Game.CHIRIBITO: chiribito.RULES,
    Game.ACES: aces.RULES,
    Game.CALATONE: calatone.RULES,
}

__all__ = ["RULES", "GameRules", "Street", "Variant"]
