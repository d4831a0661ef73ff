"""One player in depth (``hh report player NAME``): the same counts summed
per position, per round, per table size, per session and per day.

A session is a run of his hands at one table with no gap of more than 30
minutes between two of them (``SESSION_GAP``): each with its start, its
duration (first hand to last) and the usual columns (hands, net, bb/100 ...).
Positions are named per game where a name exists (:func:`position_name`,
docs/statistics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import polars as pl

from reports.players.stats.aggression import ROUNDS
from reports.players.stats.table import aggregate, column_order

SESSION_GAP = timedelta(minutes=30)

# each section of the player report and the columns it groups by (besides
# player, game and stakes), then the columns it shows first; ``by_round`` is
# made from ``overall``
SECTIONS: dict[str, tuple[str, ...]] = {
    "overall": (), "by_position": ("position",), "by_table_size": ("n_players",),
    "by_session": ("session", "start", "minutes"), "by_day": ("day",),
}  # fmt: skip


def section_columns(key: str, columns: Sequence[str]) -> list[tuple[str, str]]:
    """The (column, header) a section of the player report shows, in order:
    what it groups by, then the players table's columns (``by_round``: its
    own), headed from the catalogue (reports.render.columns)."""
    from reports.render.columns import PLAYER_COLUMNS, headed

    group = SECTIONS.get(key)
    if group is None:
        return headed([c for c in columns if c != "player"])
    wanted = [*headed(group), *PLAYER_COLUMNS[1:]]
    return [(c, h) for c, h in wanted if c in columns]


def position_name() -> pl.Expr:
    """A seat's place named as players name it, from ``position`` (1 = first
    dealt) and ``n_players``. Chiribito: 1 the blind, the last the dealer, 2
    the first to speak (round 1 starts after the blind), then the 2nd, 3rd ...
    to speak. The stud games, where the cards decide who opens: the last
    the dealer, 1 the dealer's left (dealt first), the others k-th dealt."""
    k, n = pl.col("position"), pl.col("n_players")
    nth, spoken = _ordinal(k), _ordinal(k - 1)
    chiribito = (pl.when(k == 1).then(pl.lit("blind")).when(k == n).then(pl.lit("dealer"))
                 .when(k == 2).then(pl.lit("first to speak"))
                 .otherwise(spoken + pl.lit(" to speak")))  # fmt: skip
    stud = (pl.when(k == n).then(pl.lit("dealer")).when(k == 1).then(pl.lit("dealer's left"))
            .otherwise(nth + pl.lit(" dealt")))  # fmt: skip
    return (pl.when(k.is_null()).then(None).when(pl.col("game") == "chiribito")
            .then(chiribito).otherwise(stud)).alias("position")  # fmt: skip


def _ordinal(k: pl.Expr) -> pl.Expr:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st ..."""
    teen = (k % 100 >= 11) & (k % 100 <= 13)
    suffix = (pl.when(teen).then(pl.lit("th")).when(k % 10 == 1).then(pl.lit("st"))
              .when(k % 10 == 2).then(pl.lit("nd")).when(k % 10 == 3).then(pl.lit("rd"))
              .otherwise(pl.lit("th")))  # fmt: skip
    return k.cast(pl.String) + suffix


def _position_order() -> pl.Expr:
    """The order positions are listed in: dealing order, the dealer last."""
    k, n = pl.col("position"), pl.col("n_players")
    return pl.when(k == n).then(1000).otherwise(k)


def with_sessions(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Number each player's sessions: a new one at another table or after a gap."""
    rows = rows.sort("player", "table_name", "started_at", "hk")
    gap = pl.col("started_at").diff().over("player", "table_name")
    new = gap.is_null() | (gap > SESSION_GAP)
    session = (pl.col("table_name") + " #" + new.cum_sum().over("player", "table_name")
               .cast(pl.String))  # fmt: skip
    rows = rows.with_columns(session=session, day=pl.col("started_at").dt.date())
    first = pl.col("started_at").min().over("player", "session")
    last = pl.col("started_at").max().over("player", "session")
    return rows.with_columns(
        start=first, minutes=((last - first).dt.total_seconds() // 60).cast(pl.Int64))


def in_depth(rows: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    """Sections keyed ``overall``, ``by_position``, ``by_table_size``,
    ``by_session``, ``by_day`` (one row per group and game) and ``by_round``
    (bets+raises, calls, folds, AF, AFq per round, each named by its street
    as the game's hands name it, in the game's order)."""
    rows = with_sessions(rows).with_columns(
        position_order=_position_order(), position=position_name()).cache()
    out: dict[str, pl.DataFrame] = {}
    for name, by in SECTIONS.items():
        first = ("position_order",) if name == "by_position" else ()
        df = aggregate(rows, ("player", "game", "stakes", *first, *by)).collect()
        keys = ["player", "game", "stakes", *by]
        order = ["start", "session"] if name == "by_session" else [*keys[1:3], *first,
                                                                    *keys[3:]]  # fmt: skip
        order += [k for k in (*keys, *first) if k not in order]  # ties: the same each run
        df = df.sort(order).select(keys + [c for c in column_order(df.columns) if c not in keys
                                           and c not in first])  # fmt: skip
        out[name] = df
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
    by_round = pl.concat(per_round).filter(
        pl.col("bets_raises") + pl.col("calls") + pl.col("folds") > 0
    ).sort("game", "stakes", "round")
    # each round named as the game's hands name it (its street's marker), in its order
    by_round = by_round.join(_streets(), on=["game", "round"], how="left",
                             maintain_order="left")  # fmt: skip
    out["by_round"] = by_round.select("player", "game", "stakes", "street",
                                      pl.exclude("player", "game", "stakes", "round", "street"))
    return out


def _streets() -> pl.DataFrame:
    """:data:`reports.players.stats.base.STREETS` as a frame (game, round, street)."""
    from reports.players.stats.base import STREETS

    return pl.DataFrame([(g, r, name) for (g, r), name in STREETS.items()],
                        schema={"game": pl.String, "round": pl.Int32, "street": pl.String},
                        orient="row")  # fmt: skip
