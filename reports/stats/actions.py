"""The betting actions with the context a statistic needs, as columns.

What a tracker's parser keeps in its head while reading a hand becomes
columns: how many bets and raises came before an action in its round
(``aggr_before``), the bet level it faced (``level_before``: Chiribito's
blind counts as the first bet of round 1, the stud games have no bring-in),
the hand's last round-1 aggressor (``pfa``, as his ``pk``), and in round 2 whether this is
the player's first action and whether it is (or faces) a c-bet.

The frame arrives sorted by hand and order (reports.db); counts within a
hand's round are then differences of one running sum (no per-group
window), and the per-hand facts (``pfa``, the c-bet's position) are small
group-bys joined back: this keeps millions of actions within seconds.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import AGGRESSIVE


def enrich(actions: pl.LazyFrame) -> pl.LazyFrame:
    """Actions (betting only, round >= 0, sorted by hk and seq) with
    ``is_aggr``, ``aggr_before``, ``level_before`` and ``pfa``."""
    kind, rnd, hk = pl.col("kind"), pl.col("round"), pl.col("hk")
    a = actions.with_columns(is_aggr=kind.is_in(AGGRESSIVE))
    aggr = pl.col("is_aggr").cast(pl.Int32)
    before = aggr.cum_sum() - aggr  # aggressive actions before this one, in the whole frame
    start = ((hk != hk.shift()) | (rnd != rnd.shift())).fill_null(True)
    a = a.with_columns(
        aggr_before=before - pl.when(start).then(before).otherwise(None).forward_fill(),
    ).with_columns(
        level_before=pl.col("aggr_before")
        + (pl.col("blind_game") & (rnd == 0)).cast(pl.Int32),
    )
    pfa = a.filter((rnd == 0) & pl.col("is_aggr")).group_by("hk").agg(pfa=pl.col("pk").last())
    return a.join(pfa, on="hk", how="left", maintain_order="left")


def round_two(enriched: pl.LazyFrame) -> pl.LazyFrame:
    """Round 2's actions with ``first_r2`` (the player's first action of the
    round), ``cbet_chance`` (round 1's last aggressor at his first turn, nobody
    having bet before him) and ``cbet_seq`` (where the c-bet is, if any)."""
    r2 = enriched.filter(pl.col("round") == 1).with_columns(
        first_r2=pl.col("pk").is_first_distinct()
    )
    r2 = r2.with_columns(
        cbet_chance=(pl.col("first_r2") & (pl.col("pk") == pl.col("pfa"))
                     & (pl.col("aggr_before") == 0)).fill_null(False)
    )  # fmt: skip
    cbets = (
        r2.filter(pl.col("cbet_chance") & (pl.col("kind") == "bet"))
        .group_by("hk")
        .agg(cbet_seq=pl.col("seq").min())
    )
    return r2.join(cbets, on="hk", how="left", maintain_order="left")
