"""Finding hands from the terminal (``hh hands``) and what did not parse
(``hh report rejects``), from the database: plain SQL over ``hands``,
``seats``, ``violations`` and ``rejects`` (docs/schema.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import duckdb
import polars as pl

from reports.db import Filters, frame

# ``hh hands --sort``: the orders a list of hands can take
HAND_SORTS = {"time": "h.started_at, h.site, h.hand_id", "pot": "h.total_pot DESC, "
              "h.started_at, h.site, h.hand_id", "-pot": "h.total_pot, h.started_at, h.site, "
              "h.hand_id", "-time": "h.started_at DESC, h.site, h.hand_id"}  # fmt: skip


@dataclass(frozen=True)
class HandQuery:
    """What ``hh hands`` looks for, besides the report filters (game, site,
    table, time, player: a hand any of them was dealt in)."""

    codes: tuple[str, ...] = ()  # a violation with one of these codes
    invalid: bool = False  # the referee found the hand invalid
    min_pot: int = 0  # a total pot of at least this many chips
    sort: str = "time"
    limit: int | None = None


def _marks(values: tuple[str, ...]) -> str:
    return ", ".join("?" * len(values))


def find_hands(con: duckdb.DuckDBPyConnection, filters: Filters, query: HandQuery
               ) -> tuple[pl.DataFrame, int]:  # fmt: skip
    """The hands the filters and the query keep, in ``query.sort`` order
    (at most ``query.limit``), with their players and violation codes; and
    how many there are in all."""
    cond, params = filters.where()
    where = [cond]
    if filters.players:
        where.append("EXISTS (SELECT 1 FROM seats s WHERE s.site = h.site AND "
                     f"s.hand_id = h.hand_id AND s.player IN ({_marks(filters.players)}))")
        params += list(filters.players)
    if query.codes:
        where.append("EXISTS (SELECT 1 FROM violations v WHERE v.site = h.site AND "
                     f"v.hand_id = h.hand_id AND v.code IN ({_marks(query.codes)}))")
        params += list(query.codes)
    if query.invalid:
        where.append("NOT h.valid")
    if query.min_pot:
        where.append("h.total_pot >= ?")
        params.append(query.min_pot)
    sql_where = " AND ".join(where)
    total = con.sql(f"SELECT count(*) FROM hands h WHERE {sql_where}",
                    params=params or None).fetchall()[0][0]
    limit = f" LIMIT {int(query.limit)}" if query.limit else ""
    df = frame(con, f"""
        WITH picked AS (SELECT h.* FROM hands h WHERE {sql_where}
                        ORDER BY {HAND_SORTS[query.sort]}{limit})
        SELECT h.site, h.hand_id, h.started_at, h.game, h.table_name, h.players, h.total_pot,
               h.valid,
               (SELECT string_agg(DISTINCT v.code, ' ' ORDER BY v.code) FROM violations v
                WHERE v.site = h.site AND v.hand_id = h.hand_id
                  AND NOT coalesce(v.unchecked, FALSE)) AS codes,
               h.file, h.line
        FROM picked h ORDER BY {HAND_SORTS[query.sort]}""", params)  # fmt: skip
    return df, int(total)


def rejects(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """What did not parse (and conflicts: same id, other text), one row per
    distinct run of text and error: where it was first read, how many
    copies were stored, its error. Filters on game, site, table and time
    apply where the header could be read."""
    tables = {r[0] for r in con.sql("SELECT table_name FROM information_schema.tables")
              .fetchall()}  # fmt: skip
    if "rejects" not in tables:
        return pl.DataFrame(schema={"kind": pl.String, "file": pl.String, "line": pl.Int32,
                                    "hand_id": pl.String, "error": pl.String,
                                    "copies": pl.Int64})  # fmt: skip
    cond, params = filters.where()
    cols = {r[0] for r in con.sql("SELECT column_name FROM information_schema.columns "
                                  "WHERE table_name = 'rejects'").fetchall()}  # fmt: skip
    # the hand filters name hands' columns; rejects have them when the header was read
    for column in ("game", "table_name", "started_at", "site"):
        if f"h.{column}" in cond and column not in cols:
            cond = cond.replace(f"h.{column}", "NULL")
    return frame(con, f"""
        SELECT kind, min(file) AS file, min(line) AS line, any_value(site) AS site,
               any_value(hand_id) AS hand_id, error, count(*) AS copies
        FROM rejects h WHERE {cond}
        GROUP BY kind, error, raw_text
        ORDER BY file, line, kind, error, raw_text""", params)  # fmt: skip


def hand_texts(con: duckdb.DuckDBPyConnection, found: pl.DataFrame, batch: int = 1000
               ) -> Iterator[tuple[str, int, str | None]]:  # fmt: skip
    """The stored text of the hands of ``found`` (a frame with ``site`` and
    ``hand_id``, as :func:`find_hands` gives), in its order: (raw text,
    first line, file), read ``batch`` hands at a time."""
    keys = found.select("site", "hand_id").with_row_index("k").to_arrow()
    con.register("_hand_keys", keys)
    try:
        cursor = con.execute(
            "SELECT t.raw_text, h.line, h.file FROM _hand_keys k "
            "JOIN hands h ON h.site = k.site AND h.hand_id = k.hand_id "
            "JOIN hand_text t ON t.site = k.site AND t.hand_id = k.hand_id ORDER BY k.k")
        while rows := cursor.fetchmany(batch):
            for raw, line, file in rows:
                yield raw, line or 1, file
    finally:
        con.unregister("_hand_keys")
