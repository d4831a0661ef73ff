"""The per-hand frame (one row per player dealt in, per hand) and the sums.

:func:`per_hand` reads the cached per-hand counts (reports.players.counts) of the
hands a report wants, with the all-in adjusted net (reports.players.equity);
:func:`aggregate` sums them over any grouping and turns counts into rates.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from reports.db import Filters, frame
from reports.players.stats import RATES
from reports.players.stats.aggression import ROUNDS
from reports.players.stats.cards import CARD_COLUMNS
from reports.render.columns import sort_order

# per-hand amounts that add up (besides the cnt_ columns)
SUMS = ("hands", "net", "rake_paid", "won", "allin_adjusted_net", "under_declared_cost")
# a players table's rows: one per player, game and stakes
PLAYER_KEYS = ("player", "game", "stakes")


def per_hand_sql(counts: str, equity: str | None, cards: bool, complete: bool = False,
                 hand_columns: bool = True) -> str:  # fmt: skip
    """The SELECT of the per-hand rows of the wanted hands (``_want``):
    ``counts`` and ``equity`` name the cache tables (None: no equity, the
    adjusted net is the net); without ``cards`` the card-judged counts are 0.
    ``complete``: the counts table holds exactly the wanted hands (every
    hand, reports.cache.Cache.complete), so no join with ``_want`` is needed
    and ``valid`` is left out. Without ``hand_columns`` the hand's own
    columns (``counts_hands``: site, hand_id, table, time ...) are left out:
    what the sums by player and game need, without a join."""
    from reports.players.counts import CARD_VALUES, COLUMNS, HAND_IDENTITY, unpacked

    hand = {n for n, _, _ in HAND_IDENTITY}
    # the sums by player (no hand columns) take the counts as BIGINT, uncast
    count = unpacked("c", cast=hand_columns) | {n: f"c.{n}" for n, _ in CARD_VALUES}
    card_names = {n for n, _ in CARD_COLUMNS}
    out = []
    for name, kind in COLUMNS:
        if name in hand:
            if hand_columns:
                out.append(f"hh.{name}")
        elif name in card_names and not cards:
            out.append(f"0::{kind} AS {name}")
        elif name in count:
            out.append(f"{count[name]} AS {name}")
        else:
            out.append(f"c.{name}")
    if not complete:
        out.append("w.valid")
    tables = f"{counts} c"
    if hand_columns:
        tables += f" JOIN {counts}_hands hh ON hh.hk = c.hk"
    if not complete:
        tables += " JOIN _want w ON w.hk = c.hk"
    if equity is None:
        out += ["c.net::DOUBLE AS allin_adjusted_net", "NULL::DOUBLE AS allin_se"]
    else:
        out += ["coalesce(c.net - c.won + e.expected_won, c.net::DOUBLE) AS allin_adjusted_net",
                "e.se AS allin_se"]  # fmt: skip
        tables += f" LEFT JOIN {equity} e ON e.hk = c.hk AND e.player = c.player"
    return f"SELECT {', '.join(out)} FROM {tables}"


def per_hand(con: duckdb.DuckDBPyConnection, source: str,
             params: list[object] | None = None) -> pl.LazyFrame:  # fmt: skip
    """One row per (hand, player dealt in) with every ``cnt_`` column, from
    the SELECT ``source`` (:func:`per_hand_sql`)."""
    return frame(con, source, params).lazy()


def summed(con: duckdb.DuckDBPyConnection, source: str, filters: Filters,
           by: Sequence[str] = PLAYER_KEYS) -> pl.LazyFrame:  # fmt: skip
    """The per-hand rows of ``source`` summed over ``by`` inside DuckDB (the
    player and position filters applied first): what :func:`aggregate`
    computes before the rates, without moving every row to polars."""
    from reports.players.counts import COLUMNS

    names = [n for n, _ in COLUMNS if n.startswith(("cnt_", "agg_"))]
    sums = [f"sum({c})::BIGINT AS {c}" for c in ("hands", "net", "rake_paid", "won",
                                                "under_declared_cost", *names)]  # fmt: skip
    # floats summed as fixed-point decimals (each rounded to 1e-9 first): the
    # same figure whatever order the rows come in (a lake's files, threads)
    sums.append("sum(allin_adjusted_net::DECIMAL(38, 9))::DOUBLE AS allin_adjusted_net")
    sums.append("CASE WHEN count(bb_won) > 0 THEN sum(bb_won::DECIMAL(38, 9))::DOUBLE "
                "* 100 / count(bb_won) END AS bb_per_100")
    where, params = [], []
    for column, values in (("player", filters.players), ("position", filters.positions)):
        if values:
            where.append(f"{column} IN ({', '.join('?' * len(values))})")
            params += list(values)
    cond = " AND ".join(where) or "TRUE"
    keys = ", ".join(by)
    sql = f"SELECT {keys}, {', '.join(sums)} FROM ({source}) WHERE {cond} GROUP BY {keys}"
    return frame(con, sql, params).lazy()


def select_players(rows: pl.LazyFrame, filters: Filters) -> pl.LazyFrame:
    """The player and position filters, applied after the per-hand counts."""
    if filters.players:
        rows = rows.filter(pl.col("player").is_in(filters.players))
    if filters.positions:
        rows = rows.filter(pl.col("position").is_in(filters.positions))
    return rows


def _ratio(n: pl.Expr, d: pl.Expr) -> pl.Expr:
    return pl.when(d > 0).then(n / d).otherwise(None)


def aggregate(rows: pl.LazyFrame, by: Sequence[str]) -> pl.LazyFrame:
    """Sum the per-hand rows over ``by`` and compute every rate: for each
    rate ``x``, the columns ``x`` (fraction, null without opportunity),
    ``x_opp`` and ``x_n``. Rates of another game are null."""
    names = rows.collect_schema().names()
    counts = [c for c in names if c.startswith(("cnt_", "agg_"))]
    sums = [_sum(c, names) for c in (*SUMS, *counts) if c in names]
    blinds = _exact_sum("bb_won") * 100 / pl.col("bb_won").count()
    out = rows.group_by(list(by)).agg(
        *sums,
        pl.when(pl.col("bb_won").count() > 0).then(blinds).alias("bb_per_100"),
    )
    return rates(out, by)


def _exact_sum(column: str) -> pl.Expr:
    """A float column summed as fixed-point decimals (each value rounded to
    1e-9 first): the same figure whatever order the rows come in (a lake's
    files, DuckDB's threads), as :func:`summed` does in SQL."""
    return pl.col(column).cast(pl.Decimal(38, 9)).sum().cast(pl.Float64)


def _sum(column: str, names: Sequence[str]) -> pl.Expr:
    return _exact_sum(column).alias(column) if column == "allin_adjusted_net" else (
        pl.col(column).sum())  # fmt: skip


def rates(out: pl.LazyFrame, by: Sequence[str]) -> pl.LazyFrame:
    """Every rate from the summed counts (:func:`aggregate`, :func:`summed`)."""
    game = pl.col("game") if "game" in by else None
    columns: list[pl.Expr] = [
        _ratio(pl.col("net") * 100, pl.col("hands")).alias("net_per_100"),
    ]
    for rate in RATES:
        n, opp = pl.col(rate.n), pl.col(rate.opp)
        value, x_n, x_opp = _ratio(n, opp), n, opp
        if rate.games is not None and game is not None:
            mine = game.is_in(rate.games)
            value, x_n, x_opp = (pl.when(mine).then(e) for e in (value, x_n, x_opp))
        columns += [value.alias(rate.key), x_opp.alias(f"{rate.key}_opp"),
                    x_n.alias(f"{rate.key}_n")]  # fmt: skip
    for r in ROUNDS:
        aggr, calls, folds = (pl.col(f"agg_r{r}_{k}") for k in ("aggr", "calls", "folds"))
        columns += [
            _ratio(aggr, calls).alias(f"af_r{r + 1}"),
            _ratio(aggr, aggr + calls + folds).alias(f"afq_r{r + 1}"),
        ]
    return out.with_columns(columns)


def players_table(rows: pl.LazyFrame, filters: Filters, sort: str | None = None) -> pl.DataFrame:
    """One row per player, game and stakes, the columns of :func:`column_order`."""
    return finish(aggregate(select_players(rows, filters), PLAYER_KEYS), filters, sort)


def finish(table: pl.LazyFrame, filters: Filters, sort: str | None = None) -> pl.DataFrame:
    """The players table from its rates: ``--min-hands``, columns, order."""
    if filters.min_hands:
        table = table.filter(pl.col("hands") >= filters.min_hands)
    df = table.collect()
    df = df.select(column_order(df.columns))
    key, descending = sort_order(sort, df.columns)  # UnknownColumn (a KeyError) if none
    ties = [c for c in PLAYER_KEYS if c != key and c in df.columns]
    return df.sort([key, *ties], descending=[descending, *(False for _ in ties)],
                   nulls_last=True)  # fmt: skip


def column_order(columns: Sequence[str]) -> list[str]:
    """Identity first, money next, then each rate with its counts, then the
    per-round aggression and the raw counts."""
    head = ["player", "game", "stakes", "position", "hands", "net", "bb_per_100",
            "net_per_100", "rake_paid", "allin_adjusted_net", "under_declared_cost"]  # fmt: skip
    order = [c for c in head if c in columns]
    for rate in RATES:
        order += [rate.key, f"{rate.key}_opp", f"{rate.key}_n"]
    order += [c for c in columns if c.startswith(("af_r", "afq_r"))]
    order += [c for c in columns if c not in order]
    return [c for c in order if c in columns]
