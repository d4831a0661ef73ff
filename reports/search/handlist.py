"""Each player's hands, one table sorted by player: what ``hh serve``'s hand
search by player reads (reports.web.data), kept in the reports' cache
file (reports.cache) beside the per-hand counts.

Why: a search by player otherwise finds his hands through ``seats``, where
his rows are spread over every row group: each search compares every seat's
name, then joins his seats with the hands. Here a player's rows are
contiguous, so DuckDB's zone maps (the least and greatest name of each row
group) skip the row groups of other players: his count and his newest hands
read his rows only.

A row per player seated in a hand (sitting out too: a search by player
finds the hands he has a seat in), ``(hk, player, started_at, site,
hand_id)``, kept per hand key as the counts are (:class:`Cache`): a hand
revalidated or imported again with other text is listed again under its new
key, and rows of keys gone are dropped. :func:`fill` adds the hands the list
lacks in one statement over them, in player order; the ``hh.imported`` hook
calls it (reports.players.counts.after_import), so the import pays for its new
hands only. Rows added after the table was last sorted come after the sorted
ones, and their row groups hold every player; :func:`ensure`, run by ``hh
serve`` before it reads the list, sorts the whole table again once those
rows exceed a quarter of the sorted ones (a search then reads at most that
unsorted share besides its player's rows), so the import never sorts what
it did not add.
"""

from __future__ import annotations

import hashlib

import duckdb

from reports.cache import Cache

KIND = "player_hands"
COLUMNS = (("hk", "UBIGINT"), ("player", "VARCHAR"), ("started_at", "TIMESTAMP"),
           ("site", "VARCHAR"), ("hand_id", "VARCHAR"))  # fmt: skip
# a player's rows together, his newest first (the search's order)
ORDER = "player, started_at DESC NULLS LAST, site DESC, hand_id DESC"
SORTED = f"{KIND}_sorted"  # one row: how many rows were in order when last sorted
UNSORTED_SHARE = 4  # sort again when the rows added since exceed 1/4 of the sorted ones
_ROWS = (f"SELECT DISTINCT h.hk, s.player, h.started_at, h.site, h.hand_id "
         "FROM _todo h JOIN seats s ON s.site = h.site AND s.hand_id = h.hand_id "
         f"WHERE s.player IS NOT NULL ORDER BY {ORDER}")  # fmt: skip
VERSION = hashlib.sha256((repr(COLUMNS) + _ROWS).encode()).hexdigest()[:16]


def fill(con: duckdb.DuckDBPyConnection, cache: Cache) -> int:
    """Add to the list the hands of ``_want`` (:meth:`Cache.want`) it lacks,
    one statement over them; returns how many hands. Into an empty list
    they go in order: the first import leaves it sorted."""
    cache.ensure(KIND, VERSION, COLUMNS)
    table = cache.table(KIND)
    con.execute(f"CREATE TABLE IF NOT EXISTS {cache.table(SORTED)} (rows BIGINT)")
    todo = cache.todo(KIND)
    if todo:
        empty = not con.execute(f"SELECT count(*) FROM (SELECT 1 FROM {table} LIMIT 1)"
                                ).fetchall()[0][0]  # fmt: skip
        con.execute(f"INSERT INTO {table} {_ROWS}")
        if empty:
            _sorted(con, cache)
    cache.done(KIND)
    return todo


def ensure(con: duckdb.DuckDBPyConnection, path: str) -> bool:
    """The list complete for every hand stored and mostly sorted (see the
    module's docstring), in the cache file ``path``: the hands it lacks
    added (an import without the hook, one whose hook found the file held),
    and sorted again when the rows added since the last sort exceed
    ``1/UNSORTED_SHARE`` of the sorted ones. False when the file could not
    be written (another process holds it): the list is then not to be read."""
    cache = Cache(con, path)
    try:
        if not cache.persistent:
            return False
        cache.want("TRUE", [])
        fill(con, cache)
        table, sorted_ = cache.table(KIND), cache.table(SORTED)
        rows = int(con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0])
        done = con.execute(f"SELECT max(rows) FROM {sorted_}").fetchall()[0][0] or 0
        if rows - done > done // UNSORTED_SHARE:
            con.execute(f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM {table} "
                        f"ORDER BY {ORDER}")  # fmt: skip
            _sorted(con, cache)
        return True
    finally:
        cache.close()
        con.execute("DROP TABLE IF EXISTS _want; DROP TABLE IF EXISTS _todo")


def _sorted(con: duckdb.DuckDBPyConnection, cache: Cache) -> None:
    """Record that the list's rows are in order, all of them."""
    con.execute(f"DELETE FROM {cache.table(SORTED)}")
    con.execute(f"INSERT INTO {cache.table(SORTED)} SELECT count(*) FROM {cache.table(KIND)}")
