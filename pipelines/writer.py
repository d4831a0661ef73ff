"""The one writer: batches from the workers into DuckDB, a transaction each.

A batch's Arrow tables are registered with DuckDB and inserted with
``INSERT ... SELECT`` (never row by row). Inside the same transaction the
writer tells apart, in SQL, the hands it must not store: a key already held
with the same text (a duplicate: skipped) or with other text (a conflict:
kept in ``rejects`` with both locations), also between hands of one batch.
The tables a batch touches are noted in ``dirty_tables`` in that
transaction too (with the earliest instant the batch adds to each), so the
cross-hand checks that follow can never be lost to a crash between the two.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipelines.dbhealth import rollback
from pipelines.rows import SCHEMAS, TABLES
from pipelines.tables import TABLE, arrow_schema
from pipelines.work import Result


@dataclass
class Counts:
    """What one import did, hand by hand (the summary's numbers)."""

    files: int = 0
    hands: int = 0  # runs read: hands and rejected runs, duplicates included
    imported: int = 0
    duplicates: int = 0
    rejected: int = 0
    conflicts: int = 0
    replaced: int = 0  # open last hands stored again with the text they grew to

    def add(self, other: Counts) -> None:
        self.files += other.files
        self.hands += other.hands
        self.imported += other.imported
        self.duplicates += other.duplicates
        self.rejected += other.rejected
        self.conflicts += other.conflicts
        self.replaced += other.replaced


@dataclass(frozen=True)
class FileRow:
    """A file's bookkeeping, written in the transaction of its last batch."""

    path: str
    sha256: str | None
    size: int | None
    lines: int | None
    hands: int | None
    status: str  # done, partial, error
    error: str | None = None
    # a file read whole whose last hand has nothing after it (no blank line):
    # where that hand begins, read again should the file grow
    open_at: int | None = None
    open_line: int | None = None


# a FileRow as Arrow: the files table's columns less its bookkeeping (imported_at)
_FILES = arrow_schema(tuple(c for c in TABLE["files"].columns if not c.bookkeeping))

_DROPS = """
WITH b AS (SELECT _ord, site, hand_id, content_hash, file, line FROM b_hands),
stored AS (
    SELECT b._ord, h.content_hash = b.content_hash AS same,
           h.file AS other_file, h.line AS other_line
    FROM b JOIN hands h ON h.site = b.site AND h.hand_id = b.hand_id
),
fresh AS (
    SELECT _ord, content_hash,
           first_value(_ord) OVER w AS first_ord,
           first_value(content_hash) OVER w AS first_hash,
           first_value(file) OVER w AS first_file,
           first_value(line) OVER w AS first_line
    FROM b WHERE _ord NOT IN (SELECT _ord FROM stored)
    WINDOW w AS (PARTITION BY site, hand_id ORDER BY _ord)
)
SELECT _ord, same, other_file, other_line FROM stored
UNION ALL
SELECT _ord, content_hash = first_hash, first_file, first_line FROM fresh
WHERE _ord <> first_ord
"""

_CONFLICTS = """
INSERT INTO rejects (file, line, raw_text, error, error_line, error_column, kind, site,
                     hand_id, game, table_name, started_at, content_hash, other_file,
                     other_line, import_run, imported_at)
SELECT h.file, h.line, t.raw_text,
       'hand #' || h.hand_id || CASE WHEN h.site = '' THEN '' ELSE ' of ' || h.site END
           || ' is already stored with other content ('
           || coalesce(d.other_file, '-') || ' line ' || d.other_line
           || '): the same id must be the same hand',
       h.line, 1, 'conflict', h.site, h.hand_id, h.game, h.table_name, h.started_at,
       h.content_hash, d.other_file, d.other_line, $run, now()::TIMESTAMP
FROM b_drops d JOIN b_hands h USING (_ord) JOIN b_hand_text t USING (_ord)
WHERE NOT d.same
ORDER BY h._ord
"""


def _columns(table: str) -> str:
    return ", ".join(c for c in SCHEMAS[table].names if c != "_ord")


def _concat(results: Sequence[Result]) -> dict[str, pa.Table]:
    """One table per name for several results, ``_ord`` made unique."""
    out: dict[str, list[pa.Table]] = {t: [] for t in TABLES}
    offset = 0
    for r in results:
        if not r.tables:
            continue
        n = r.tables["hands"].num_rows + r.tables["rejects"].num_rows
        for t in TABLES:
            tab = r.tables[t]
            if offset and tab.num_rows:
                k = tab.schema.get_field_index("_ord")
                shifted = pc.add(tab.column(k), pa.scalar(offset, pa.int32()))
                tab = tab.set_column(k, "_ord", shifted)
            out[t].append(tab)
        offset += n
    return {
        t: pa.concat_tables(parts) if parts else SCHEMAS[t].empty_table()
        for t, parts in out.items()
    }


def _after_commit() -> None:
    """Test hook: with HH_IMPORT_PAUSE_AFTER_COMMIT=seconds, say so on stderr
    and pause after each commit, so a test can kill the import right after
    its first commit (the crash-safety test)."""
    pause = os.environ.get("HH_IMPORT_PAUSE_AFTER_COMMIT")
    if pause:
        sys.stderr.write("hh-import: committed\n")
        sys.stderr.flush()
        time.sleep(float(pause))


class Writer:
    """Appends batches to an open DuckDB connection (this process only)."""

    def __init__(self, con: Any, run: int) -> None:
        self.con = con
        self.run = run
        # a table that also gets the site and id of each hand stored (Importer.track)
        self.stored: str | None = None

    def write(
        self, results: Sequence[Result], files: Sequence[FileRow] = (), own: bool = True
    ) -> Counts:
        """Store a group of results and the files they complete, in one
        transaction (``own``: the writer's, else the caller's); return what
        was imported, skipped and rejected."""
        con = self.con
        counts = Counts()
        for r in results:
            counts.hands += r.runs
            counts.duplicates += r.known
        tables = _concat(results)
        if own:
            con.execute("BEGIN TRANSACTION")
        try:
            for t in TABLES:
                con.register(f"b_{t}", tables[t])
            gone = [(r.task.name, r.replaces) for r in results if r.replaces]
            if gone:
                counts.replaced += self._withdraw(gone)
            drops = con.sql(_DROPS).to_arrow_table()
            con.register("b_drops", drops)
            same = drops.column("same")
            n_same = pc.sum(same).as_py() or 0
            counts.duplicates += n_same
            counts.conflicts += drops.num_rows - n_same
            counts.imported += tables["hands"].num_rows - drops.num_rows
            # Rows are in _ord order in the batch and an insert keeps the order
            # of its scan (preserve_insertion_order): no sort is needed.
            keep = "WHERE _ord NOT IN (SELECT _ord FROM b_drops)" if drops.num_rows else ""
            for t in ("hands", "hand_text", "seats", "actions", "pots", "hand_violations"):
                cols = _columns(t)
                if t == "hands":
                    con.execute(
                        f"INSERT INTO hands ({cols}, import_run) "
                        f"SELECT {cols}, $run FROM b_hands {keep}",
                        {"run": self.run},
                    )
                    if self.stored is not None:
                        con.execute(f"INSERT INTO {self.stored} "
                                    f"SELECT site, hand_id FROM b_hands {keep}")
                else:
                    con.execute(f"INSERT INTO {t} ({cols}) SELECT {cols} FROM b_{t} {keep}")
            if drops.num_rows - n_same:
                con.execute(_CONFLICTS, {"run": self.run})
            # a run that did not parse is kept once: the same text at the same
            # line again (an identical copy of a file) is a duplicate; the same
            # text at other lines (junk repeated in a file) is each its own
            cols = _columns("rejects")
            stored = con.execute(
                f"INSERT INTO rejects ({cols}, import_run, imported_at) "
                f"SELECT {cols}, $run, now()::TIMESTAMP FROM b_rejects r "
                "WHERE NOT EXISTS (SELECT 1 FROM rejects s WHERE s.kind = 'parse' "
                "AND s.content_hash = r.content_hash AND s.line = r.line) "
                "QUALIFY row_number() OVER (PARTITION BY r.content_hash, r.line "
                "ORDER BY r._ord) = 1 "
                "ORDER BY r._ord",
                {"run": self.run},
            ).fetchall()[0][0]  # the rows inserted
            counts.rejected += stored
            counts.duplicates += tables["rejects"].num_rows - stored
            if counts.replaced:  # a replacement is not a new hand nor a new reject
                counts.imported -= self._stored_at(gone, "b_hands", keep)
                counts.rejected -= self._stored_at(gone, "b_rejects", "")
            # each table the batch adds to, from its earliest instant on
            # (NULL: a row without one, which the chain puts first)
            since = "CASE WHEN count(started_at) = count(*) THEN min(started_at) END"
            con.execute(
                f"""INSERT INTO dirty_tables
                SELECT site, table_name, {since} FROM b_hands {keep} GROUP BY ALL
                UNION ALL SELECT coalesce(site, ''), table_name, {since} FROM b_rejects
                WHERE table_name IS NOT NULL GROUP BY ALL"""
            )
            if files:
                self._files(files)
            if own:
                con.execute("COMMIT")
                _after_commit()
        except BaseException:
            if own:
                rollback(con)  # (a failed COMMIT has ended it)
            raise
        finally:
            for t in (*TABLES, "drops", "gone"):
                con.unregister(f"b_{t}")
        return counts

    def _withdraw(self, gone: Sequence[tuple[str, int]]) -> int:
        """Remove what is stored at these (file, line): open last hands
        (pipelines.work.Task.reopen) that grew, about to be stored again
        in the same transaction. Their rows go from every table, their
        cross-hand violations too, and their tables are noted dirty from
        their instant, so the cross-hand checks judge the new text. Returns
        how many runs (hands or rejects) were removed."""
        con = self.con
        files, lines = zip(*gone, strict=True)
        con.register("b_gone", pa.table({"file": list(files), "line": list(lines)}))
        con.execute(
            "CREATE OR REPLACE TEMP TABLE _gone AS SELECT h.site, h.hand_id, h.table_name, "
            "h.started_at FROM hands h SEMI JOIN b_gone g ON h.file = g.file AND h.line = g.line"
        )
        try:
            for t in ("hand_text", "seats", "actions", "pots", "hand_violations",
                      "cross_violations"):  # fmt: skip
                con.execute(f"DELETE FROM {t} x USING _gone g "
                            "WHERE x.site = g.site AND x.hand_id = g.hand_id")  # fmt: skip
            removed = 0
            for t in ("hands", "rejects"):
                removed += con.execute(f"DELETE FROM {t} x USING b_gone g "
                                       "WHERE x.file = g.file AND x.line = g.line"
                                       ).fetchall()[0][0]  # fmt: skip
            con.execute("INSERT INTO dirty_tables SELECT site, table_name, started_at FROM _gone")
        finally:
            con.execute("DROP TABLE IF EXISTS _gone")
        return int(removed)

    def _stored_at(self, gone: Sequence[tuple[str, int]], table: str, keep: str) -> int:
        """How many of the batch's ``table`` rows stored (``keep``: the
        filter of the rows inserted) stand at the places of ``gone``."""
        where = f"{keep} AND" if keep else "WHERE"
        row = self.con.execute(
            f"SELECT count(*) FROM {table} b {where} EXISTS "
            "(SELECT 1 FROM b_gone g WHERE g.file = b.file AND g.line = b.line)"
        ).fetchall()
        return min(int(row[0][0]), len(gone))

    def _files(self, files: Sequence[FileRow]) -> None:
        rows = pa.Table.from_pylist([vars(f) for f in files], schema=_FILES)
        self.con.register("b_files", rows)
        try:
            self.con.execute("DELETE FROM files WHERE path IN (SELECT path FROM b_files)")
            self.con.execute(
                "INSERT INTO files (path, sha256, size, lines, hands, imported_at, status, error, "
                "open_at, open_line) SELECT path, sha256, size, lines, hands, now()::TIMESTAMP, "
                "status, error, open_at, open_line FROM b_files"
            )
        finally:
            self.con.unregister("b_files")
