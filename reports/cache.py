"""Where reports keep what they computed per hand: the counts
(reports.players.counts) and the all-in equity (reports.players.equity).

A second DuckDB file beside the database (``<db>.reports.duckdb``), attached
read-write to the report's read-only connection: the database itself is
never written, so a report never blocks or alters an import. When that
file cannot be opened (another report holds it, a read-only folder, a lake
on object storage) the same tables live in memory for this report only:
the figures are the same, only the next report is not faster.

A hand's key is ``hk = hash(content_hash, hh_version, site, hand_id)``: its
text (``content_hash``, SHA-256) and the referee that judged it
(``hh_version``). Each kind of cached data has a table of the hands it
holds, ``<kind>_hands (hk)``, and rows keyed by ``hk``. A hand whose text
or referee changed (``hh import --revalidate`` rewrites ``hh_version``) has
another key and is computed again; rows of keys no longer in the database
are dropped when a report over all hands runs. ``_meta`` records each kind's
version (a digest of its definitions): a new version empties that kind.

Why not ``hash(site, hand_id)``: DuckDB's string hash is weak for short
strings (``AS-101-5-128~152`` and ``AS-101-2-128~155`` share a hash), while
the SHA-256 in ``content_hash`` makes the key effectively random. The key is
checked to be unique among the hands a report reads (:meth:`Cache.want`);
actions and seats get it through an exact join on ``(site, hand_id)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import duckdb

from pipelines.tables import columns_of
from reports.db import ReportError
from reports.players.stats.base import BLIND

_ALIAS = "hh_reports_cache"
# what _todo keeps of each hand (the counts rows carry them)
HAND_COLUMNS = ", ".join(f"h.{c}" for c in columns_of(
    "hands", "site", "hand_id", "game", "table_name", "started_at", "forced", "players",
    "max_seats", "last_round", "showdown", "house_rules", "small_bet", "big_bet"))
_count = itertools.count()


class Cache:
    """The cache of one report's connection; :meth:`want` says which hands
    the report needs (its filters), :meth:`todo` which of them are missing."""

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str | Path | None) -> None:
        self.con = con
        self.path = str(path) if path else None
        # unique: connections to one file in one process share their attachments
        self.db = f"{_ALIAS}_{next(_count)}"
        self.wanted = 0
        self.filtered = False
        if self.path is not None:
            try:
                con.execute(f"ATTACH '{_quote(self.path)}' AS {self.db} (READ_WRITE)")
            except duckdb.Error:
                self.path = None  # held by another process, or not writable: in memory
        if self.path is None:
            con.execute(f"ATTACH ':memory:' AS {self.db} (READ_WRITE)")
        con.execute(f"CREATE TABLE IF NOT EXISTS {self.db}._meta (kind VARCHAR, version VARCHAR)")

    @property
    def persistent(self) -> bool:
        return self.path is not None

    def table(self, name: str) -> str:
        return f"{self.db}.{name}"

    def holds(self, kind: str) -> bool:
        """Whether the cache has the tables of ``kind`` (some report or
        import made them), whatever hands they hold."""
        return bool(self.con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? AND table_name = ?",
            [self.db, f"{kind}_hands"]).fetchall()[0][0])  # fmt: skip

    def want(self, cond: str, params: Sequence[object]) -> int:
        """The hands a report reads (``hands h`` with the filter ``cond``) as
        the temporary table ``_want``; returns how many."""
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE _want AS "
            "SELECT hash(h.content_hash, h.hh_version, h.site, h.hand_id) AS hk, "
            f"h.site, h.hand_id, h.valid FROM hands h WHERE {cond}",
            list(params) or None,
        )
        rows = self.con.execute("SELECT count(*), count(DISTINCT hk) FROM _want").fetchall()
        self.wanted, distinct = int(rows[0][0]), int(rows[0][1])
        if distinct != self.wanted:
            raise CacheError(
                f"{self.wanted - distinct} hands share a key hash(content_hash, hh_version, "
                "site, hand_id): hands without content_hash? (docs/schema.md requires it)"
            )
        self.filtered = cond != "TRUE"
        return self.wanted

    def ensure(self, kind: str, version: str, columns: Sequence[tuple[str, str]],
               hand_columns: Sequence[tuple[str, str]] = (("hk", "UBIGINT"),)) -> None:
        """The tables of ``kind`` exist at ``version`` (emptied if older):
        ``kind`` with ``columns``, and ``<kind>_hands``, one row per hand
        held, with ``hand_columns`` (``hk`` first)."""
        con, db = self.con, self.db
        row = con.execute(f"SELECT version FROM {db}._meta WHERE kind = ?", [kind]).fetchall()
        if row and row[0][0] == version:
            return
        cols = ", ".join(f"{n} {t}" for n, t in columns)
        con.execute(f"CREATE OR REPLACE TABLE {db}.{kind} ({cols})")
        hand_cols = ", ".join(f"{n} {t}" for n, t in hand_columns)
        con.execute(f"CREATE OR REPLACE TABLE {db}.{kind}_hands ({hand_cols})")
        con.execute(f"DELETE FROM {db}._meta WHERE kind = ?", [kind])
        con.execute(f"INSERT INTO {db}._meta VALUES (?, ?)", [kind, version])

    def todo(self, kind: str) -> int:
        """The wanted hands ``kind`` lacks, as the temporary table ``_todo``
        with the hand's columns (``HAND_COLUMNS``, ``blind``); returns how
        many. ``_want`` keeps only the keys: a report that finds every hand
        cached copies no hand's columns."""
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE _todo AS "
            f"SELECT w.hk, {HAND_COLUMNS}, {BLIND} AS blind, w.valid "
            f"FROM (SELECT * FROM _want w ANTI JOIN {self.db}.{kind}_hands c ON c.hk = w.hk) w "
            "JOIN hands h ON h.site = w.site AND h.hand_id = w.hand_id"
        )
        return _one(self.con, "SELECT count(*) FROM _todo")

    def done(self, kind: str, hand_values: str = "") -> None:
        """Record the hands of ``_todo`` as cached for ``kind`` (with
        ``hand_values``, SQL over ``_todo h``, for the rest of the
        ``hand_columns`` of :meth:`ensure`); when the
        report reads every hand, drop the rows of keys gone from the database
        (hands revalidated or re-imported with other text). There are none
        when ``<kind>_hands`` holds as many keys as are wanted: it holds
        every wanted key once the ``_todo`` are added, so any other key
        would make it more (the look, a scan of every cached row, is then
        saved: most imports and reports find none)."""
        db = self.db
        more = f", {hand_values}" if hand_values else ""
        self.con.execute(f"INSERT INTO {db}.{kind}_hands SELECT h.hk{more} FROM _todo h")
        if not self.filtered and _one(self.con, f"SELECT count(*) FROM {db}.{kind}_hands"
                                      ) != self.wanted:  # fmt: skip
            for table in (kind, f"{kind}_hands"):
                self.con.execute(f"DELETE FROM {db}.{table} WHERE hk NOT IN "
                                 "(SELECT hk FROM _want)")  # fmt: skip

    def batches(self, size: int | None, order: str) -> Iterator[int]:
        """The ``_todo`` hands (:meth:`todo`) ``size`` at a time, in
        ``order`` (SQL over its columns): for each batch ``_todo`` holds only
        its hands, and the number of hands before it is yielded; after the
        last, ``_todo`` holds them all again (for :meth:`done`). A fill's
        statements then need memory for a batch, not for every hand the
        cache lacks. ``size`` None, or no more hands than that: one batch,
        ``_todo`` as it is."""
        todo = _one(self.con, "SELECT count(*) FROM _todo")
        if size is None or todo <= size:
            yield 0
            return
        # numbered once in ``order``: each batch is then a range, not a sort of them all
        self.con.execute("CREATE OR REPLACE TEMP TABLE _todo_all AS SELECT *, "
                         f"row_number() OVER (ORDER BY {order}) - 1 AS _batch_at "
                         "FROM _todo")  # fmt: skip
        for lo in range(0, todo, size):
            self.con.execute("CREATE OR REPLACE TEMP TABLE _todo AS SELECT * EXCLUDE (_batch_at) "
                             f"FROM _todo_all WHERE _batch_at >= {lo} AND _batch_at < {lo + size} "
                             "ORDER BY _batch_at")  # fmt: skip
            yield lo
        # (a fill that failed has its own cleanup, and may have rolled these back)
        self.con.execute("CREATE OR REPLACE TEMP TABLE _todo AS SELECT * EXCLUDE (_batch_at) "
                         "FROM _todo_all; DROP TABLE _todo_all")  # fmt: skip

    def complete(self, kind: str) -> bool:
        """Whether the cache of ``kind`` holds exactly the wanted hands, all
        of them (no join with ``_want`` is then needed to read it)."""
        cached = _one(self.con, f"SELECT count(*) FROM {self.db}.{kind}_hands")
        return not self.filtered and cached == self.wanted

    def close(self) -> None:
        """Detach the cache (a file is then free for another process)."""
        self.con.execute(f"DETACH {self.db}")


def new_hands(stored: str | None) -> str:
    """The condition of :meth:`Cache.want` for an import hook given the
    table ``stored`` of the hands the import stored since the hooks last
    ran (pipelines.hooks.AfterImport): those hands only; every hand when
    None."""
    if stored is None:
        return "TRUE"
    return (f"EXISTS (SELECT 1 FROM {stored} n "
            "WHERE n.site = h.site AND n.hand_id = h.hand_id)")


class CacheError(ReportError):
    """The hands cannot be keyed (a database not written by hh import)."""


def default_path(db: str | Path) -> str:
    """The cache file of a database file: beside it."""
    return f"{db}.reports.duckdb"


def path_of(con: duckdb.DuckDBPyConnection, given: str | None = None) -> str | None:
    """The cache file of the database ``con`` has open: ``given`` when there
    is one (a lake's import gives the lake's), else :func:`default_path`;
    None for an in-memory database, which keeps nothing."""
    if given is not None:
        return given
    row = con.execute("SELECT path FROM duckdb_databases() "
                      "WHERE database_name = current_database()").fetchall()  # fmt: skip
    return default_path(row[0][0]) if row and row[0][0] else None


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    rows = con.execute(sql).fetchall()
    return int(rows[0][0]) if rows else 0


def _quote(text: str) -> str:
    return text.replace("'", "''")
