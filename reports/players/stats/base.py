"""What every statistic is made of: a count and its opportunities.

PokerTracker caches, per player and hand, ``cnt_x`` (he did it) and
``cnt_x_opp`` (he could have); a rate is their ratio over any set of hands.
Keeping the two apart, instead of a rate, is what lets one per-hand table
(reports.players.counts, cached like PokerTracker's) answer every grouping (by
player, position, table size, session, day) with a sum, and what lets the
tests check that a count never exceeds its opportunities.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hh.games import RULES
from hh.games.base import GameRules
from hh.model import Game

ACTING = ("check", "fold", "call", "bet", "raise")
AGGRESSIVE = ("bet", "raise")
VOLUNTARY = ("call", "bet", "raise")

# the games as stored (hh.model.Game) and the last betting round of each
# (docs/schema.md counts rounds from 0), as the referee's rules say
CHIRIBITO = Game.CHIRIBITO.value
ACES = Game.ACES.value
CALATONE = Game.CALATONE.value
LAST_ROUND = {game.value: rules.last_round for game, rules in RULES.items()}
# each game's betting rounds, numbered from 1, by the name its hands give them
# (the street's marker: COMMON 1, 3RD STREET)
STREETS = {(game.value, k + 1): street.name for game, rules in RULES.items()
           for k, street in enumerate(rules.streets)}  # fmt: skip


def games_where(column: str, keep: Callable[[GameRules], bool]) -> str:
    """SQL true for the games whose rules ``keep`` (``column`` holds the
    game as stored), so that the reports ask the rules instead of naming
    games: ``games_where("h.game", lambda r: r.forced == "blind")``."""
    names = ", ".join(f"'{g.value}'" for g, rules in RULES.items() if keep(rules))
    return f"{column} IN ({names})" if names else "FALSE"


# a game with a blind (Chiribito): its unit of play is the blind, its
# stakes are written as the blind; the others' are their bets
BLIND = games_where("h.game", lambda r: r.forced == "blind")
SPREAD = games_where("h.game", lambda r: r.structure == "spread-limit")


@dataclass(frozen=True)
class Rate:
    """A rate shown to users: ``cnt_<key>`` over ``cnt_<key>_opp``.

    ``games`` limits it to some games (its value is null elsewhere);
    ``bounded`` is False for ratios that are not fractions (``af``).
    """

    key: str
    label: str
    games: tuple[str, ...] | None = None
    bounded: bool = True

    @property
    def n(self) -> str:
        return f"cnt_{self.key}"

    @property
    def opp(self) -> str:
        return f"cnt_{self.key}_opp"
