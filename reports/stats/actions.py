"""The betting actions with the context a statistic needs, as columns.

Window expressions over the hand (and round) give each action what a
tracker's parser keeps in its head while reading a hand: how many bets and
raises came before it in its round (``aggr_before``), the bet level it
faced (``level_before``: Chiribito's blind counts as the first bet of round
1, the stud games have no bring-in), the hand's last round-1 aggressor
(``pfa``) and whether this is the player's first action of round 2.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import AGGRESSIVE, CHIRIBITO


def enrich(actions: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """Actions (betting only, round >= 0) sorted by hand and order, with
    ``game``, ``is_aggr``, ``aggr_before``, ``level_before``, ``pfa``,
    ``first_r2`` and ``cbet_seq`` added."""
    kind, rnd = pl.col("kind"), pl.col("round")
    a = (
        actions.join(hands.select("hk", "game"), on="hk", how="inner")
        .sort("hk", "seq")
        .with_columns(is_aggr=kind.is_in(AGGRESSIVE))
    )
    aggr = pl.col("is_aggr").cast(pl.Int32)
    a = a.with_columns(
        aggr_before=(aggr.cum_sum() - aggr).over("hk", "round"),
        pfa=pl.col("player").filter((rnd == 0) & pl.col("is_aggr")).last().over("hk"),
        first_r2=(pl.col("seq") == pl.col("seq").filter(rnd == 1).min().over("hk", "player"))
        .fill_null(False),
    ).with_columns(
        level_before=pl.col("aggr_before")
        + ((pl.col("game") == CHIRIBITO) & (rnd == 0)).cast(pl.Int32),
    )
    # A c-bet: round 2's first bet, made by round 1's last aggressor at his
    # first turn with nobody having bet before him.
    cbet_chance = (
        (rnd == 1) & pl.col("first_r2") & (pl.col("player") == pl.col("pfa"))
        & (pl.col("aggr_before") == 0)
    )  # fmt: skip
    return a.with_columns(
        cbet_chance=cbet_chance.fill_null(False),
        cbet_seq=pl.col("seq").filter(cbet_chance & (kind == "bet")).min().over("hk"),
    )
