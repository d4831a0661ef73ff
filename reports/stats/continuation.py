"""Continuation bets: cbet and fold_to_cbet.

cbet: opportunity, round 1's last aggressor (last bet or raise of round 1)
reaches his first turn of round 2 with nobody having bet before him; count,
he bets there. fold_to_cbet: opportunity, another player's turn comes in
round 2 after that c-bet with no raise since (the c-bet is the only bet or
raise of the round so far); count, he folds.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import Rate

RATES = (
    Rate("cbet", "c-bet"),
    Rate("fold_to_cbet", "fold to c-bet"),
)

_facing = (
    (pl.col("seq") > pl.col("cbet_seq"))
    & (pl.col("aggr_before") == 1) & (pl.col("pk") != pl.col("pfa"))
)  # fmt: skip

# over round 2's actions only (reports.stats.actions.round_two)
ROUND_TWO_FLAGS = (
    ("cnt_cbet_opp", pl.col("cbet_chance"), "any"),
    ("cnt_cbet", pl.col("cbet_chance") & (pl.col("kind") == "bet"), "any"),
    ("cnt_fold_to_cbet_opp", _facing, "any"),
    ("cnt_fold_to_cbet", _facing & (pl.col("kind") == "fold"), "any"),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
