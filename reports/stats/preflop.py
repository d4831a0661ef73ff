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

from reports.stats.base import AGGRESSIVE, VOLUNTARY, Rate, any_

RATES = (
    Rate("vpip", "VPIP"),
    Rate("pfr", "PFR"),
    Rate("three_bet", "3-bet"),
    Rate("fold_to_three_bet", "fold to 3-bet"),
)

_r1 = pl.col("round") == 0
_kind = pl.col("kind")
_level = pl.col("level_before")
# he made the second bet (the first raise) of round 1 ...
_made_two = (_r1 & _kind.is_in(AGGRESSIVE) & (_level == 1)).any()
# ... and then had to answer a third
_faced_three = (_r1 & (_level == 3)).any()

ACTION_COUNTS = (
    any_("cnt_vpip_opp", _r1),
    any_("cnt_vpip", _r1 & _kind.is_in(VOLUNTARY)),
    any_("cnt_pfr_opp", _r1),
    any_("cnt_pfr", _r1 & _kind.is_in(AGGRESSIVE)),
    any_("cnt_three_bet_opp", _r1 & (_level == 2)),
    any_("cnt_three_bet", _r1 & (_level == 2) & _kind.is_in(AGGRESSIVE)),
    (_made_two & _faced_three).cast(pl.Int64).alias("cnt_fold_to_three_bet_opp"),
    (_made_two & (_r1 & (_level == 3) & (_kind == "fold")).any())
    .cast(pl.Int64)
    .alias("cnt_fold_to_three_bet"),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
