"""Where reports keep what they computed per hand: the counts
(reports.counts) and the all-in equity (reports.equity).

A second DuckDB file beside the database (``<db>.reports.duckdb``), attached
read-write to the report's read-only connection: the database itself is
never written, so a report never blocks or alters an import. When that
file cannot be opened (another report holds it, a read-only folder, a lake
on object storage) the same tables live in memory for this report only:
the figures are the same, only the next report is not faster.

Each kind of cached data has a table of the hands it holds, ``<kind>_hands
(hk, ck)``: ``hk`` is ``hash(site, hand_id)``, ``ck`` is ``hash(site,
hand_id, content_hash, hh_version)``. A hand is cached when its current
``ck`` is there; a hand whose text or referee changed (``hh import
--revalidate`` rewrites ``hh_version``) has another ``ck`` and is computed
again, its old rows replaced. ``_meta`` records each kind's version (a
digest of its definitions): a new version empties that kind's tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import duckdb

_ALIAS = "hh_reports_cache"
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
        self._total: int | None = None
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

    def want(self, cond: str, params: Sequence[object]) -> int:
        """The hands a report reads (``hands h`` with the filter ``cond``) as
        the temporary table ``_want``; returns how many."""
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE _want AS SELECT hash(h.site, h.hand_id) AS hk, "
            "hash(h.site, h.hand_id, h.content_hash, h.hh_version) AS ck, h.site, h.hand_id, "
            "h.game, h.game = 'chiribito' AS blind, h.valid "
            f"FROM hands h WHERE {cond}",
            list(params) or None,
        )
        self.wanted = _one(self.con, "SELECT count(*) FROM _want")
        return self.wanted

    def ensure(self, kind: str, version: str, columns: Sequence[tuple[str, str]]) -> None:
        """The tables of ``kind`` exist at ``version`` (emptied if older)."""
        con, db = self.con, self.db
        row = con.execute(f"SELECT version FROM {db}._meta WHERE kind = ?", [kind]).fetchall()
        if row and row[0][0] == version:
            return
        cols = ", ".join(f"{n} {t}" for n, t in columns)
        con.execute(f"CREATE OR REPLACE TABLE {db}.{kind} ({cols})")
        con.execute(f"CREATE OR REPLACE TABLE {db}.{kind}_hands (hk UBIGINT, ck UBIGINT)")
        con.execute(f"DELETE FROM {db}._meta WHERE kind = ?", [kind])
        con.execute(f"INSERT INTO {db}._meta VALUES (?, ?)", [kind, version])

    def todo(self, kind: str, where: str = "") -> int:
        """The wanted hands ``kind`` lacks, as the temporary table ``_todo``
        (``where``: a further condition on ``_want w``); returns how many."""
        self.con.execute(
            "CREATE OR REPLACE TEMP TABLE _todo AS SELECT w.* FROM _want w "
            f"ANTI JOIN {self.db}.{kind}_hands c ON c.hk = w.hk AND c.ck = w.ck "
            f"{'WHERE ' + where if where else ''}"
        )
        return _one(self.con, "SELECT count(*) FROM _todo")

    def all_wanted(self, todo: int) -> bool:
        """Whether ``_todo`` is every hand of the database (no filter needed)."""
        if self._total is None:
            self._total = _one(self.con, "SELECT count(*) FROM hands")
        return todo == self._total

    def done(self, kind: str) -> None:
        """Record the hands of ``_todo`` as cached for ``kind``."""
        db = self.db
        self.con.execute(f"DELETE FROM {db}.{kind}_hands WHERE hk IN (SELECT hk FROM _todo)")
        self.con.execute(f"INSERT INTO {db}.{kind}_hands SELECT hk, ck FROM _todo")

    def close(self) -> None:
        """Detach the cache (a file is then free for another process)."""
        self.con.execute(f"DETACH {self.db}")


def default_path(db: str | Path) -> str:
    """The cache file of a database file: beside it."""
    return f"{db}.reports.duckdb"


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    rows = con.execute(sql).fetchall()
    return int(rows[0][0]) if rows else 0


def _quote(text: str) -> str:
    return text.replace("'", "''")
