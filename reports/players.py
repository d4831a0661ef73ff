"""The statistics a report shows, from an open database: the entry points
the presentation (terminal, files, HTML) and the command line call."""

from __future__ import annotations

import duckdb
import polars as pl

from reports.db import Filters, Tables, load
from reports.stats.table import per_hand, players_table


def hand_rows(con: duckdb.DuckDBPyConnection, filters: Filters, *, cards: bool = True,
              equity: bool = True) -> tuple[Tables, pl.LazyFrame]:  # fmt: skip
    """The filtered tables and the per-(hand, player) rows with every count.

    ``cards`` adds the counts judged by the evaluator (joker-made hands,
    under-declarations), ``equity`` the all-in adjusted net.
    """
    tables = load(con, filters)
    extra: list[pl.LazyFrame] = []
    if cards:
        from reports.stats.cards import card_counts

        extra.append(card_counts(con, tables))
    if equity:
        from reports.equity import allin_adjusted

        extra.append(allin_adjusted(con, tables))
    return tables, per_hand(tables, extra)


def players(con: duckdb.DuckDBPyConnection, filters: Filters, sort: str | None = None,
            *, cards: bool = True, equity: bool = True) -> pl.DataFrame:  # fmt: skip
    """One row per player and game (``hh report players``)."""
    _, rows = hand_rows(con, filters, cards=cards, equity=equity)
    return players_table(rows, filters, sort)
