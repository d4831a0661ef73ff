"""The statistics a report shows, from an open database: the entry points
the presentation (terminal, files, HTML) and the command line call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb
import polars as pl

from reports.cache import Cache
from reports.db import Filters
from reports.players.stats.table import PLAYER_KEYS, finish, per_hand, per_hand_sql, rates, summed

Progress = Callable[[str, int, int], None]


def prepare(con: duckdb.DuckDBPyConnection, filters: Filters, store: Cache, *,
            cards: bool = True, equity: bool | None = True,
            progress: Progress | None = None, hand_columns: bool = True) -> str:  # fmt: skip
    """Fill the cache for the hands the filters keep (player and position
    filters apply later, see :func:`reports.players.stats.table.select_players`)
    and return the SELECT of their per-hand rows.

    Hands not cached yet are computed first: their counts (with the
    card-judged ones; ``cards`` False shows those as 0) and, with
    ``equity``, their all-in equity (``progress(stage, done, total)``
    reports on that, the long part). ``equity=None`` reads the equity
    cached and computes none: the hands without it count at their net
    (:func:`reports.players.equity.missing` says how many)."""
    from reports.players.counts import fill

    cond, params = filters.where()
    store.want(cond, params)
    fill(con, store, progress)
    equity_table = None
    if equity is not False:
        from reports.players.equity import EQUITY_COLUMNS, VERSION, fill_equity

        if equity:
            fill_equity(con, store, progress)
        else:
            store.ensure("equity", VERSION, EQUITY_COLUMNS)
        equity_table = store.table("equity")
    return per_hand_sql(store.table("counts"), equity_table, cards, store.complete("counts"),
                        hand_columns)  # fmt: skip


def hand_rows(con: duckdb.DuckDBPyConnection, filters: Filters, *, cards: bool = True,
              equity: bool | None = True, cache: str | Path | Cache | None = None,
              progress: Progress | None = None, only: Sequence[str] | None = None,
              columns: Sequence[str] | None = None) -> pl.LazyFrame:  # fmt: skip
    """The per-(hand, player) rows with every count (see :func:`prepare`);
    ``cache``: the cache file (reports.cache; None keeps it in memory for
    this call); ``only``: just these players' rows (the others' hands still
    count for them, as opponents); ``columns``: just these columns (DuckDB
    then unpacks and joins nothing else)."""
    store = cache if isinstance(cache, Cache) else Cache(con, cache)
    try:
        source = prepare(con, filters, store, cards=cards, equity=equity, progress=progress)
        cols = ", ".join(f'"{c}"' for c in columns) if columns else "*"
        if only is None:
            return per_hand(con, f"SELECT {cols} FROM ({source})")
        return per_hand(con, f"SELECT {cols} FROM ({source}) WHERE list_contains(?, player)",
                        [list(only)])  # fmt: skip
    finally:
        if store is not cache:
            store.close()


def players(con: duckdb.DuckDBPyConnection, filters: Filters, sort: str | None = None,
            *, cards: bool = True, equity: bool | None = True,
            cache: str | Path | Cache | None = None,
            progress: Progress | None = None) -> pl.DataFrame:  # fmt: skip
    """One row per player, game and stakes (``hh report players``): the per-hand
    rows are summed inside DuckDB, polars computes the rates."""
    store = cache if isinstance(cache, Cache) else Cache(con, cache)
    try:
        source = prepare(con, filters, store, cards=cards, equity=equity, progress=progress,
                         hand_columns=False)  # fmt: skip
        return finish(rates(summed(con, source, filters, PLAYER_KEYS), PLAYER_KEYS), filters,
                      sort)  # fmt: skip
    finally:
        if store is not cache:
            store.close()
