"""Continuation bets: cbet and fold_to_cbet.

cbet: opportunity, round 1's last aggressor (last bet or raise of round 1)
reaches his first turn of round 2 with nobody having bet before him; count,
he bets there. fold_to_cbet: opportunity, another player's turn comes in
round 2 after that c-bet with no raise since (the c-bet is the only bet or
raise of the round so far); count, he folds.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import Rate, any_

RATES = (
    Rate("cbet", "c-bet"),
    Rate("fold_to_cbet", "fold to c-bet"),
)

_facing = (
    (pl.col("seq") > pl.col("cbet_seq"))
    & (pl.col("aggr_before") == 1) & (pl.col("player") != pl.col("pfa"))
)  # fmt: skip

ACTION_COUNTS: tuple[pl.Expr, ...] = ()

# over round 2's actions only (reports.stats.actions.round_two)
ROUND_TWO_COUNTS = (
    any_("cnt_cbet_opp", pl.col("cbet_chance")),
    any_("cnt_cbet", pl.col("cbet_chance") & (pl.col("kind") == "bet")),
    any_("cnt_fold_to_cbet_opp", _facing),
    any_("cnt_fold_to_cbet", _facing & (pl.col("kind") == "fold")),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
