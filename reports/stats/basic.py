"""hands, net, net_per_100, rake_paid: straight from the seat rows, which
carry the referee's verdict (``net`` = won - put in; a returned uncalled bet
is neither put in nor won)."""

from __future__ import annotations

import polars as pl

from reports.stats.base import Rate

RATES: tuple[Rate, ...] = ()

SEAT_COUNTS: tuple[pl.Expr, ...] = (
    pl.lit(1, pl.Int64).alias("hands"),
    pl.col("net").cast(pl.Int64).alias("net"),
    pl.col("rake_paid").cast(pl.Int64).alias("rake_paid"),
)
