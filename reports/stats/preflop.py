"""Round-1 statistics: vpip, pfr, three_bet, fold_to_three_bet.

The opportunity is a hand in which the player was asked to act in round 1
(he has a check, fold, call, bet or raise there): a Chiribito blind that
nobody raised never acts, so that hand is no chance for him. Forced bets
are not in the enriched actions at all, so they can never count as
voluntary. The bet level a player faces counts Chiribito's blind as the
first bet; in the stud games round 1 opens unbet.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import AGGRESSIVE, VOLUNTARY, Rate

RATES = (
    Rate("vpip", "VPIP"),
    Rate("pfr", "PFR"),
    Rate("three_bet", "3-bet"),
    Rate("fold_to_three_bet", "fold to 3-bet"),
)

_r1 = pl.col("round") == 0
_kind = pl.col("kind")
_level = pl.col("level_before")

# (name, per-action condition, how the hand's actions combine: "any" or "sum")
ACTION_FLAGS = (
    ("cnt_vpip_opp", _r1, "any"),
    ("cnt_vpip", _r1 & _kind.is_in(VOLUNTARY), "any"),
    ("cnt_pfr_opp", _r1, "any"),
    ("cnt_pfr", _r1 & _kind.is_in(AGGRESSIVE), "any"),
    ("cnt_three_bet_opp", _r1 & (_level == 2), "any"),
    ("cnt_three_bet", _r1 & (_level == 2) & _kind.is_in(AGGRESSIVE), "any"),
    # he made the second bet (the first raise) of round 1 ...
    ("_made_two", _r1 & _kind.is_in(AGGRESSIVE) & (_level == 1), "any"),
    # ... and then had to answer a third
    ("_faced_three", _r1 & (_level == 3), "any"),
    ("_folded_three", _r1 & (_level == 3) & (_kind == "fold"), "any"),
)

# computed on the per-hand row from the flags above (temporaries start with _)
AFTER = (
    (pl.col("_made_two") * pl.col("_faced_three")).alias("cnt_fold_to_three_bet_opp"),
    (pl.col("_made_two") * pl.col("_folded_three")).alias("cnt_fold_to_three_bet"),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
