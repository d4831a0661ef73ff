"""One player in depth (``hh report player NAME``): the same counts summed
per position, per round, per table size, per session and per day.

A session is a run of his hands at one table with no gap of more than 30
minutes between two of them (``SESSION_GAP``).
"""

from __future__ import annotations

from datetime import timedelta

import polars as pl
from hh.reports.stats.aggression import ROUNDS
from hh.reports.stats.table import aggregate, column_order

SESSION_GAP = timedelta(minutes=30)

# each section of the player report and the columns it groups by (besides
# player and game); ``by_round`` is made from ``overall``
SECTIONS: dict[str, tuple[str, ...]] = {
    "overall": (), "by_position": ("position",), "by_table_size": ("n_players",),
    "by_session": ("session",), "by_day": ("day",),
}  # fmt: skip


def with_sessions(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Number each player's sessions: a new one at another table or after a gap."""
    rows = rows.sort("player", "table_name", "started_at", "hk")
    gap = pl.col("started_at").diff().over("player", "table_name")
    new = gap.is_null() | (gap > SESSION_GAP)
    return rows.with_columns(
        session=(pl.col("table_name") + " #" + new.cum_sum().over("player", "table_name")
                 .cast(pl.String)),
        day=pl.col("started_at").dt.date(),
    )  # fmt: skip


def in_depth(rows: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    """Sections keyed ``overall``, ``by_position``, ``by_table_size``,
    ``by_session``, ``by_day`` (one row per group and game) and ``by_round``
    (bets+raises, calls, folds, AF, AFq per round)."""
    rows = with_sessions(rows).cache()
    out: dict[str, pl.DataFrame] = {}
    for name, by in SECTIONS.items():
        df = aggregate(rows, ("player", "game", "stakes", *by)).collect()
        keys = ["player", "game", "stakes", *by]
        df = df.select(keys + [c for c in column_order(df.columns) if c not in keys])
        out[name] = df.sort(keys[1:] or ["player"])
    totals = out["overall"]
    per_round = []
    for r in ROUNDS:
        part = totals.select(
            "player", "game", "stakes", pl.lit(r + 1).alias("round"),
            pl.col(f"agg_r{r}_aggr").alias("bets_raises"), pl.col(f"agg_r{r}_calls").alias("calls"),
            pl.col(f"agg_r{r}_folds").alias("folds"), pl.col(f"af_r{r + 1}").alias("af"),
            pl.col(f"afq_r{r + 1}").alias("afq"),
        )  # fmt: skip
        per_round.append(part)
    out["by_round"] = pl.concat(per_round).filter(
        pl.col("bets_raises") + pl.col("calls") + pl.col("folds") > 0
    ).sort("game", "stakes", "round")
    return out
