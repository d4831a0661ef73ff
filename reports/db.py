"""From the DuckDB file of docs/schema.md to polars frames, filtered.

DuckDB does what it is best at (scanning, filtering on the hands, projecting
the few columns a report needs) and hands the result over as Arrow; polars
does the statistics. Nothing here loops over rows in Python.

A hand's key ``(site, hand_id)`` becomes one integer, ``hk = hash(site,
hand_id)`` computed inside DuckDB (and a player's seat in a hand ``pk =
hash(site, hand_id, player)``), because joining and grouping millions of
action rows on two strings costs several times more than on one ``UInt64``
(a collision needs ~4e9 hands to be likely; the tests compare against a SQL
oracle keyed on the strings).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb
import polars as pl

DEFAULT_DB = "hands.duckdb"

GAMES = ("chiribito", "aces-straights-flushes", "calatone")


class ReportError(Exception):
    """A report that cannot be made (no database, wrong schema): exit 2."""


def default_db() -> str:
    """``$HH_DB`` if set, else ``hands.duckdb`` in the current folder."""
    return os.environ.get("HH_DB") or DEFAULT_DB


def connect(path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open the database read-only, so that a report never blocks or alters
    an import running beside it."""
    p = Path(path)
    if not p.exists():
        raise ReportError(f"no database at {p} (run `hh import` first, or pass --db FILE)")
    try:
        con = duckdb.connect(str(p), read_only=True)
    except duckdb.Error as error:
        raise ReportError(f"cannot open {p} as a DuckDB database: {error}") from error
    missing = {"hands", "seats", "actions", "pots"} - {
        row[0] for row in con.sql("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if missing:
        con.close()
        raise ReportError(
            f"{p} is not an hh database: tables {', '.join(sorted(missing))} are missing "
            "(expected the tables of docs/schema.md)"
        )
    return con


@dataclass(frozen=True)
class Filters:
    """What the command line narrows a report to. Hand filters (game, site,
    table, time, validity) are applied in DuckDB; player and position
    filters apply to a player's rows after the per-hand flags are computed,
    since his opponents' actions still matter (a fold to a c-bet needs the
    c-bet)."""

    games: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    valid_only: bool = False
    positions: tuple[int, ...] = ()
    min_hands: int = 0

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition on ``hands`` (alias h) and its parameters."""
        parts: list[str] = []
        params: list[object] = []
        for column, values in (("game", self.games), ("site", self.sites),
                               ("table_name", self.tables)):  # fmt: skip
            if values:
                parts.append(f"h.{column} IN ({', '.join('?' * len(values))})")
                params.extend(values)
        if self.since is not None:
            parts.append("h.started_at >= ?")
            params.append(self.since)
        if self.until is not None:
            parts.append("h.started_at < ?")
            params.append(self.until)
        if self.valid_only:
            parts.append("h.valid")
        return (" AND ".join(parts) or "TRUE"), params


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None
          ) -> pl.DataFrame:  # fmt: skip
    """Run a query and take its result as a polars frame through Arrow."""
    return pl.from_arrow(con.sql(sql, params=params or None).to_arrow_table())  # type: ignore[return-value]


def _hand_filter(filters: Filters) -> tuple[str, list[object]]:
    """A join clause restricting a table aliased x to the filtered hands."""
    cond, params = filters.where()
    if cond == "TRUE":
        return "", []
    return f" SEMI JOIN hands h ON h.site = x.site AND h.hand_id = x.hand_id AND {cond}", params


@dataclass
class Tables:
    """The filtered tables a report reads, as lazy polars frames keyed by hk."""

    hands: pl.LazyFrame
    seats: pl.LazyFrame
    actions: pl.LazyFrame
    pots: pl.LazyFrame


def load(con: duckdb.DuckDBPyConnection, filters: Filters) -> Tables:
    """The hands, seats (dealt in), betting actions and pots the filters keep.

    Only the columns the statistics read are transferred; ``actions`` leaves
    out forced bets and returned bets (no statistic counts them as acting).
    """
    cond, params = filters.where()
    hands = frame(
        con,
        "SELECT hash(h.site, h.hand_id) AS hk, h.site, h.hand_id, h.game, h.table_name, "
        "h.started_at, h.forced, h.players AS n_players, h.max_seats, h.rake, h.last_round, "
        "h.showdown, h.valid, h.n_violations, h.house_rules "
        f"FROM hands h WHERE {cond}",
        params,
    )
    join, jparams = _hand_filter(filters)
    seats = frame(
        con,
        "SELECT hash(x.site, x.hand_id) AS hk, hash(x.site, x.hand_id, x.player) AS pk, "
        "x.player, x.seat, x.position, x.net, x.won, "
        "x.put_in, x.rake_paid, x.went_to_showdown, x.folded_round, x.all_in_round, "
        "x.down_cards, x.up_cards, x.shown, x.hand_category "
        f"FROM seats x{join} WHERE NOT x.sitting_out",
        jparams,
    )
    # joined with the (filtered) hands in DuckDB, which also sorts them by
    # hand and order: cheaper there than in polars, and the statistics'
    # running sums need that order (reports.stats.actions)
    actions = frame(
        con,
        "SELECT hash(x.site, x.hand_id) AS hk, hash(x.site, x.hand_id, x.player) AS pk, "
        "x.seq, x.round, x.kind, "
        "h.game = 'chiribito' AS blind_game "
        "FROM actions x JOIN hands h ON h.site = x.site AND h.hand_id = x.hand_id "
        f"WHERE x.round >= 0 AND x.kind <> 'uncalled' AND {cond} ORDER BY hk, x.seq",
        params,
    ).with_columns(pl.col("hk").set_sorted())
    pots = frame(
        con,
        "SELECT hash(x.site, x.hand_id) AS hk, x.pot_index, x.amount, x.eligible, x.winners, "
        f"x.shares FROM pots x{join}",
        jparams,
    )
    return Tables(hands.lazy(), seats.lazy(), actions.lazy(), pots.lazy())
