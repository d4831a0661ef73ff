"""The reports' all-in equity, computed where the import judges the hands:
the ``hh.derive`` entry point.

A report needs, for an all-in hand, each contender's expected share
(hh.reports.equity), kept in the reports' cache beside the database
(hh.reports.cache). It depends on the hand alone and costs milliseconds of
Python a hand, so the import computes it in its worker processes, from the
batch of rows it has just built, with the code a report runs (over the
batch's Arrow tables in an in-memory DuckDB): :func:`derive`. The writer's
process, after committing a group, stores it in the cache file:
:func:`keep`. Every report after an import then finds every all-in hand
computed, however many there are.

The same way, each seat's standing on each round it was in
(hh.reports.standings: the integrity report's "who was ahead") is
computed here and kept in the cache.

The per-hand counts (hh.reports.counts) are not computed here: they are
one SQL statement whose cost is mostly fixed per statement, so a statement
per batch cost about twice the CPU of one statement over the new hands
after the import (hh.reports.counts.after_import), and the import's
workers already keep every core busy (docs/decisions.md).

Only the hands the writer stored are kept: not a conflict (the same id with
other text); a duplicate has the key of the hand stored, and is kept once.
Should the import stop between a commit and :func:`keep`, or the cache file
be held by another process, the hook after the import
(hh.reports.counts.after_import) or the next report computes what is
missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
from hh.reports import equity, standings
from hh.reports.cache import Cache, default_path

# the batch's tables the equity reads (the import's, hh.pipelines.rows)
_TABLES = ("hands", "seats", "actions", "pots")
_con: duckdb.DuckDBPyConnection | None = None


def _connection() -> duckdb.DuckDBPyConnection:
    """One in-memory DuckDB per worker process, on one thread: the worker is
    one of as many processes as there are cores."""
    global _con
    if _con is None:
        _con = duckdb.connect(":memory:", config={"threads": 1})
    return _con


def derive(tables: Mapping[str, pa.Table]) -> dict[str, pa.Table]:
    """The cache rows of a batch's hands: ``equity`` and ``equity_hands``
    (hh.reports.cache), ``standing`` and ``standing_hands``
    (hh.reports.standings), and ``hands``, their keys. A hand the batch holds
    twice (same site and id) counts once, as its first copy: the writer
    stores no other."""
    hands = tables["hands"]
    if not hands.num_rows:
        return {}
    con = _connection()
    # a batch rarely holds a hand twice (or hands of two sites): only then are
    # its tables read through views of the first copies, else as they are
    twice = (pc.count_distinct(hands["site"]).as_py() > 1
             or pc.count_distinct(hands["hand_id"]).as_py() < hands.num_rows)  # fmt: skip
    if twice:
        batch = {f"b_{t}": tables[t] for t in _TABLES}
    else:
        batch = {t: tables[t].drop_columns(["_ord"]) for t in _TABLES}
    for name, table in batch.items():
        con.register(name, table)
    try:
        if twice:
            con.execute(
                "CREATE OR REPLACE TEMP TABLE _first AS SELECT _ord FROM b_hands "
                "QUALIFY row_number() OVER (PARTITION BY site, hand_id ORDER BY _ord) = 1"
            )
            for t in _TABLES:
                con.execute(
                    f"CREATE OR REPLACE TEMP VIEW {t} AS SELECT * EXCLUDE (_ord) FROM b_{t} "
                    "SEMI JOIN _first USING (_ord)"
                )
        rows, keys = equity.of_batch(con)
        con.register("_todo", keys)  # the hands whose seats' standings are computed
        try:
            standing = standings.rows(con).to_arrow()  # each seat's per round (integrity)
        finally:
            con.unregister("_todo")
        hks = keys.select(["hk"])
        return {"equity": rows, "equity_hands": hks, standings.KIND: standing,
                f"{standings.KIND}_hands": hks, "hands": keys.select(["site", "hand_id"])}
    finally:
        for name in batch:
            con.unregister(name)
        if twice:
            for t in _TABLES:
                con.execute(f"DROP VIEW IF EXISTS {t}")
            con.execute("DROP TABLE IF EXISTS _first")


def keep(con: Any, derived: Sequence[Mapping[str, pa.Table]]) -> None:
    """Store what :func:`derive` gave for a group of batches just committed
    into the cache file of ``con``'s database; the hands it already holds
    are left as they are. An in-memory database, or a cache file another
    process holds, keeps nothing (the next report computes)."""
    parts = [d for d in derived if d]
    if not parts:
        return
    row = con.execute("SELECT path FROM duckdb_databases() "
                      "WHERE database_name = current_database()").fetchall()  # fmt: skip
    if not row or not row[0][0]:
        return
    store = Cache(con, default_path(row[0][0]))
    try:
        if not store.persistent:
            return
        store.ensure("equity", equity.VERSION, equity.EQUITY_COLUMNS)
        con.register("d_hands", pa.concat_tables(p["hands"] for p in parts))
        try:  # the keys of the hands the writer stored (not a conflict's)
            stored = con.sql(
                "SELECT hash(h.content_hash, h.hh_version, h.site, h.hand_id) AS hk FROM hands h "
                "SEMI JOIN d_hands d ON d.site = h.site AND d.hand_id = h.hand_id"
            ).to_arrow_table()
        finally:
            con.unregister("d_hands")
        con.register("d_stored", stored)
        try:
            _append(con, store, parts)
            store.ensure(standings.KIND, standings.VERSION, standings.COLUMNS)
            _append(con, store, parts, standings.KIND)
        finally:
            con.unregister("d_stored")
    finally:
        store.close()


def _numbered(parts: Sequence[Mapping[str, pa.Table]], table: str) -> pa.Table:
    """One table of several batches, each row with its batch's number."""
    return pa.concat_tables(
        p[table].append_column("_part", pa.array([k] * p[table].num_rows, pa.int32()))
        for k, p in enumerate(parts)
    )


def _append(con: Any, store: Cache, parts: Sequence[Mapping[str, pa.Table]],
            kind: str = "equity") -> None:  # fmt: skip
    """Append the rows of ``kind`` (the equity, or the seats' standings) of
    several batches, each hand once: the keys new to the cache, from the
    first batch that holds them."""
    keys = _numbered(parts, f"{kind}_hands")
    rows = _numbered(parts, kind)
    con.register("d_keys", keys)
    con.register("d_rows", rows)
    fresh = (f"WITH new AS (SELECT * FROM d_keys WHERE hk IN (SELECT hk FROM d_stored) "
             f"AND hk NOT IN (SELECT hk FROM {store.table(kind + '_hands')}) "
             "QUALIFY row_number() OVER (PARTITION BY hk ORDER BY _part) = 1) ")  # fmt: skip
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"INSERT INTO {store.table(kind)} {fresh}SELECT r.* EXCLUDE (_part) FROM "
                    "d_rows r SEMI JOIN new n ON n.hk = r.hk AND n._part = r._part")  # fmt: skip
        con.execute(f"INSERT INTO {store.table(kind + '_hands')} {fresh}"
                    "SELECT * EXCLUDE (_part) FROM new")  # fmt: skip
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("d_keys")
        con.unregister("d_rows")
