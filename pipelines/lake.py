"""The lake: the import's tables as Parquet files that many machines write at once.

DuckDB has one writer per database file; that is the limit of the local
import. The lake lifts it: every worker writes its own Parquet files (zstd)
under ``DIR/<table>/game=<game>/date=<YYYY-MM-DD>/part-<entry>.parquet``, and
a single committer (the client of the run) only decides, per task (a chunk,
or several small ones read together), which of its hands are new, and
records the task in the manifest.

Exactly once. ``DIR/_manifest/`` holds one JSON entry per committed task:
its chunks (file, byte range, the file's size and mtime, hands read), its
parts, and a Parquet file of the hand keys it committed. A worker writes its
parts under temporary names (``.parquet.tmp``, with a fresh attempt id, so a
retried task never collides with a killed one); the committer renames them
and then writes the entry (itself through a temporary name and a rename).
Readers take the list of parts from the manifest, never from a directory
listing, so a part is visible exactly when its entry is: a worker or the
client killed at any point leaves files no reader sees, and the next run
removes them (:meth:`Lake.sweep`). A chunk an entry names (same file,
range, size and mtime) is not read again.

Duplicates and conflicts are decided by ``(site, hand_id)`` with the
DuckDB writer's own SQL (``hh.pipelines.writer._DROPS`` and ``_CONFLICTS``),
run in the committer against an in-memory index of the committed keys: the
same hand twice is stored once, the same id with other text becomes a
``conflict`` reject. Parts keep the batch's ``_ord`` column (the hand's place
in its chunk) so that the committer can drop exactly the rows of a dropped
hand; the views below select the database's columns only.

Cross-hand checks (stack carry-over, dealer rotation, an id seen twice) are
the database's SQL, run over the lake's views (:func:`connect`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import fsspec
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from hh.pipelines import schema
from hh.pipelines.rows import SCHEMAS
from hh.pipelines.work import Result, Task, process
from hh.pipelines.writer import _CONFLICTS, _DROPS, Counts

# The tables the workers write (cross_violations is computed over the lake).
TABLES = ("hands", "hand_text", "seats", "actions", "pots", "hand_violations", "rejects")
MANIFEST = "_manifest"
TMP = ".tmp"
COMPRESSION = "zstd"
_KEYS = pa.schema(
    [
        ("site", pa.string()),
        ("hand_id", pa.string()),
        ("content_hash", pa.string()),
        ("file", pa.string()),
        ("line", pa.int32()),
        ("kind", pa.string()),  # hand, parse (a reject), conflict
    ]
)
# Columns of the stored tables the worker's batch does not carry: the
# writer adds them (which run, when); the lake stores them in the parts.
_RUN_COLUMNS = {"hands": ("import_run",), "rejects": ("import_run", "imported_at")}


def _quote(value: str | None) -> str:
    """A partition value as a directory name (hive style; NULL for none)."""
    if value is None:
        return "NULL"
    if not value or any(c in value for c in "/=\\%") or value in (".", ".."):
        raise ValueError(f"cannot use {value!r} as a partition value")
    return value


@dataclass(frozen=True, slots=True)
class Part:
    """One Parquet file of one table: ``path`` relative to the lake."""

    table: str
    path: str
    rows: int

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "path": self.path, "rows": self.rows}


@dataclass(slots=True)
class Read:
    """One chunk of a task, as the worker read it."""

    task: Task
    runs: int = 0  # hands and rejected runs read (known ones included)
    known: int = 0  # skipped before parsing: already committed
    error: str | None = None  # the chunk could not be read: not committed
    size: int | None = None  # the file's size and mtime when it was read
    mtime_ns: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The chunk as its manifest entry names it (``chunks``)."""
        c = self.task.chunk
        return {"path": self.task.name, "start": c.start, "end": c.end,
                "first_line": c.first_line, "size": self.size, "mtime_ns": self.mtime_ns,
                "hands": self.runs}


@dataclass(slots=True)
class Written:
    """What a worker returns for one task (one chunk, or several small ones
    read together): its temporary parts and the small tables the committer
    needs, the hands' keys and the rejects' hashes (never the rows)."""

    chunks: list[Read]
    attempt: str
    parts: list[Part] = field(default_factory=list)
    keys: pa.Table | None = None  # b_hands' key columns, for the drops SQL
    rejects: pa.Table | None = None  # content hashes of the parse rejects

    @property
    def stem(self) -> str:
        """The task's name in file names: its first chunk and the attempt."""
        return f"{_chunk_name(self.chunks[0].task)}-{self.attempt}"


class Lake:
    """A lake at a local path or any fsspec URL (``s3://bucket/hh``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        fs, root = fsspec.core.url_to_fs(url)
        self.fs = fs
        self.root = root.rstrip("/")
        self.protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]

    def path(self, *parts: str) -> str:
        return "/".join((self.root, *parts))

    def uri(self, rel: str) -> str:
        """A part's address for DuckDB (a local path, or ``s3://...``)."""
        full = self.path(rel)
        return full if self.protocol in ("file", "local") else f"{self.protocol}://{full}"

    # ---------------------------------------------------------- manifest

    def entries(self) -> list[dict[str, Any]]:
        """Committed entries, in commit order (entry names sort by time)."""
        folder = self.path(MANIFEST)
        if not self.fs.exists(folder):
            return []
        names = sorted(p for p in self.fs.ls(folder, detail=False) if p.endswith(".json"))
        out = []
        for name in names:
            with self.fs.open(name, "rb") as f:
                out.append(json.loads(f.read()))
        return out

    def parts(self, entries: Sequence[dict[str, Any]] | None = None) -> dict[str, list[str]]:
        """The committed parts of each table, as DuckDB addresses."""
        out: dict[str, list[str]] = {t: [] for t in TABLES}
        for e in self.entries() if entries is None else entries:
            for p in e["parts"]:
                out[p["table"]].append(self.uri(p["path"]))
        return out

    def _put(self, rel: str, data: bytes) -> None:
        """Write a small file whole: to a temporary name, then rename."""
        tmp = self.path(rel + f".{uuid.uuid4().hex[:8]}{TMP}")
        self.fs.makedirs(self.path(*rel.split("/")[:-1]), exist_ok=True)
        with self.fs.open(tmp, "wb") as f:
            f.write(data)
        self.fs.mv(tmp, self.path(rel))

    def sweep(self) -> int:
        """Remove files no entry names (left by a killed worker or client).
        Only one run may commit to a lake at a time, so nothing else is
        being written while this runs."""
        if not self.fs.exists(self.root):
            return 0
        entries = self.entries()
        keep = {self.path(p["path"]) for e in entries for p in e["parts"]}
        keep |= {self.path(e["keys"]) for e in entries}
        gone = 0
        for table in (*TABLES, MANIFEST):
            folder = self.path(table)
            if not self.fs.exists(folder):
                continue
            for found in self.fs.find(folder):
                if found.endswith(".json") and not found.endswith(TMP):
                    continue
                if found not in keep:
                    self.fs.rm(found)
                    gone += 1
        return gone

    # ---------------------------------------------------------- worker side

    def write_task(self, tasks: Sequence[Task], run: int, imported_at: dt.datetime) -> Written:
        """Run the import's per-chunk function on each chunk of a task and
        write their tables together as temporary parts, one per table, game
        and date. Runs on a worker."""
        from hh.pipelines.writer import _concat

        written = Written([Read(t) for t in tasks], uuid.uuid4().hex[:12])
        results = []
        for read in written.chunks:
            with contextlib.suppress(OSError):
                read.size, read.mtime_ns = self.fs_local_stat(read.task.chunk.path)
            result: Result = process(read.task)
            read.runs, read.known, read.error = result.runs, result.known, result.error
            if not result.error:
                results.append(result)
        if not any(r.tables for r in results):
            return written
        tables = _with_run_columns(_concat(results), run, imported_at)
        hands = tables["hands"]
        written.keys = hands.select(
            ["_ord", "site", "hand_id", "content_hash", "file", "line", "game", "table_name",
             "started_at"]
        )
        written.rejects = tables["rejects"].select(
            ["content_hash", "file", "line", "site", "table_name"]
        )
        where, keys = _partition_of_ord(hands, tables["rejects"])
        for table in TABLES:
            tab = tables[table]
            if tab.num_rows:
                written.parts += self._write_partitions(
                    table, tab, pc.take(where, tab.column("_ord")), keys, written.stem
                )
        return written

    @staticmethod
    def fs_local_stat(path: str) -> tuple[int, int]:
        import os

        st = os.stat(path)
        return st.st_size, st.st_mtime_ns

    def _write_partitions(
        self, table: str, tab: pa.Table, where: pa.Array | pa.ChunkedArray,
        keys: list[tuple[str | None, str | None]], stem: str,
    ) -> list[Part]:
        """Write ``tab`` as one part per partition: row k goes to
        ``keys[where[k]]`` (its game and date). A task's rows nearly always
        fall in one or two partitions; the rows keep their order."""
        out = []
        for k, (game, date) in enumerate(keys):
            rows = tab if len(keys) == 1 else tab.filter(pc.equal(where, k))
            if not rows.num_rows:
                continue
            rel = f"{table}/game={_quote(game)}/date={_quote(date)}/part-{stem}.parquet"
            self.fs.makedirs(self.path(*rel.split("/")[:-1]), exist_ok=True)
            with self.fs.open(self.path(rel + TMP), "wb") as f:
                pq.write_table(rows, f, compression=COMPRESSION)
            out.append(Part(table, rel, rows.num_rows))
        return out


def _partitions(
    game: Sequence[str | None], started: pa.ChunkedArray | pa.Array
) -> tuple[list[int], list[tuple[str | None, str | None]]]:
    """Each row's partition (an index into the list returned beside it),
    and the partitions: (game, date of ``started``) pairs."""
    date = pc.strftime(started, format="%Y-%m-%d").to_pylist()
    index: dict[tuple[str | None, str | None], int] = {}
    return [index.setdefault(k, len(index)) for k in zip(game, date, strict=True)], list(index)


def _partition_of_ord(
    hands: pa.Table, rejects: pa.Table
) -> tuple[pa.Array, list[tuple[str | None, str | None]]]:
    """The partition of every ``_ord`` of a batch, as an array indexed by
    ``_ord``: a hand's rows in every table take its partition; a reject has
    its own game and time."""
    ords = hands.column("_ord").to_pylist() + rejects.column("_ord").to_pylist()
    game = hands.column("game").to_pylist() + rejects.column("game").to_pylist()
    started = pa.chunked_array(
        [*hands.column("started_at").chunks, *rejects.column("started_at").chunks],
        hands.schema.field("started_at").type,
    )
    where, keys = _partitions(game, started)
    by_ord = [0] * (max(ords, default=-1) + 1)
    for k, p in zip(ords, where, strict=True):
        by_ord[k] = p
    return pa.array(by_ord, pa.int32()), keys


def _chunk_name(task: Task) -> str:
    import hashlib

    c = task.chunk
    return hashlib.sha256(f"{task.name}\0{c.start}\0{c.end}".encode()).hexdigest()[:16]


def _with_run_columns(
    tables: dict[str, pa.Table], run: int, imported_at: dt.datetime
) -> dict[str, pa.Table]:
    out = dict(tables)
    for table, cols in _RUN_COLUMNS.items():
        tab = out[table]
        n = tab.num_rows
        if "import_run" in cols:
            tab = tab.append_column("import_run", pa.array([run] * n, pa.int32()))
        if "imported_at" in cols:
            tab = tab.append_column(
                "imported_at", pa.array([imported_at] * n, pa.timestamp("us"))
            )
        out[table] = tab
    return out


# -------------------------------------------------------------- committer


class Committer:
    """The run's one committer: decides each task's duplicates and
    conflicts with the database writer's SQL, finalises its parts and
    writes its manifest entry.

    Its memory is the committed keys, nothing more: one in-memory DuckDB
    table of (site, hand_id, content_hash, file, line, kind), columnar and
    compressed, read from the manifest's keys files; the
    writer's SQL sees its hands as the view ``hands``. A commit is two
    queries (the drops, then the insert of the new keys), whatever the
    task's size. Parts are read back only when a task has duplicates or
    conflicts to remove from them."""

    def __init__(self, lake: Lake, run: int) -> None:
        self.lake = lake
        self.run = run
        self.con = duckdb.connect()
        # compressed in memory: the keys take some 45 bytes a hand, not 160
        self.con.execute("ATTACH ':memory:' AS committed (COMPRESS)")
        self.con.execute("USE committed")
        schema.ensure(self.con)  # the database's rejects table, for _CONFLICTS
        self.con.execute("DROP TABLE hands")
        self.con.execute(
            "CREATE TABLE keys (site VARCHAR, hand_id VARCHAR, content_hash VARCHAR, "
            "file VARCHAR, line INTEGER, kind VARCHAR)"
        )
        self.con.execute(
            "CREATE VIEW hands AS SELECT site, hand_id, content_hash, file, line FROM keys "
            "WHERE kind <> 'parse'"
        )
        entries = lake.entries()
        self.entries = entries
        self.touched: set[tuple[str, str]] = set()  # (site, table_name) of committed hands
        keys = [lake.uri(e["keys"]) for e in entries]
        if keys:
            self.con.execute(
                "INSERT INTO keys SELECT site, hand_id, content_hash, file, line, kind "
                "FROM read_parquet($k)",
                {"k": keys},
            )
        self.done: dict[tuple[str, int, int | None], tuple[int, int]] = {}
        # hands read by the last commit of each chunk: a skipped chunk's
        # hands are counted as seen and duplicate, as the local re-import does
        self.runs_of: dict[tuple[str, int, int | None], int] = {}
        for e in entries:
            for c in e["chunks"]:
                self.done[(c["path"], c["start"], c["end"])] = (c["size"], c["mtime_ns"])
                self.runs_of[(c["path"], c["start"], c["end"])] = c["hands"]
        self.files = {path for path, _, _ in self.done}  # files with a committed chunk

    def is_done(self, task: Task) -> bool:
        """The chunk was committed and its file has not changed since."""
        c = task.chunk
        seen = self.done.get((task.name, c.start, c.end))
        if seen is None:
            return False
        try:
            return Lake.fs_local_stat(c.path) == tuple(seen)
        except OSError:
            return False

    def known(self, name: str) -> frozenset[str]:
        """Content hashes already committed from this file: the worker skips
        them before parsing, as the local import does. A file no entry names
        has none (no query: a run of many new files asks nothing)."""
        if name not in self.files:
            return frozenset()
        rows = self.con.execute(
            "SELECT DISTINCT content_hash FROM keys WHERE file = $f AND kind <> 'conflict'",
            {"f": name},
        ).fetchall()
        return frozenset(r[0] for r in rows)

    def commit(self, w: Written) -> Counts:
        """Finalise one task's parts and write its manifest entry. Chunks
        that could not be read are left out (the caller lists them)."""
        ok = [r for r in w.chunks if r.error is None]
        counts = Counts(hands=sum(r.runs for r in ok), duplicates=sum(r.known for r in ok))
        if w.keys is None:
            return counts
        con = self.con
        lake = self.lake
        con.register("b_hands", w.keys)
        try:
            drops = con.sql(_DROPS).to_arrow_table()
        finally:
            con.unregister("b_hands")
        n_same = pc.sum(drops.column("same")).as_py() or 0
        counts.duplicates += n_same
        counts.conflicts += drops.num_rows - n_same
        counts.imported += w.keys.num_rows - drops.num_rows
        rejects = w.rejects
        assert rejects is not None  # set with the keys
        counts.rejected += rejects.num_rows
        parts = list(w.parts)
        stored = w.keys
        conflict_part: list[Part] = []
        if drops.num_rows:
            if drops.num_rows - n_same:  # before the rows are dropped from the parts
                conflict_part = self._conflicts(w, drops)
            parts = self._drop_rows(parts, drops.column("_ord"))
            gone = pc.is_in(stored.column("_ord"), value_set=drops.column("_ord").combine_chunks())
            stored = stored.filter(pc.invert(gone))
        self.touched.update(
            (r["site"], r["table_name"])
            for r in stored.group_by(["site", "table_name"]).aggregate([]).to_pylist()
        )
        for p in parts:
            lake.fs.mv(lake.path(p.path + TMP), lake.path(p.path))
        parts += conflict_part
        n = rejects.num_rows
        keys = pa.concat_tables(
            [
                pa.table(
                    {
                        "site": stored.column("site"),
                        "hand_id": stored.column("hand_id"),
                        "content_hash": stored.column("content_hash"),
                        "file": stored.column("file"),
                        "line": stored.column("line"),
                        "kind": pa.array(["hand"] * stored.num_rows, pa.string()),
                    },
                    schema=_KEYS,
                ),
                pa.table(
                    {
                        "site": pa.nulls(n, pa.string()),
                        "hand_id": pa.nulls(n, pa.string()),
                        "content_hash": rejects.column("content_hash"),
                        "file": rejects.column("file"),
                        "line": rejects.column("line"),
                        "kind": pa.array(["parse"] * n, pa.string()),
                    },
                    schema=_KEYS,
                ),
            ]
        )
        stem = f"{_now_key()}-{w.stem}"
        keys_rel = f"{MANIFEST}/keys/{stem}.parquet"
        sink = pa.BufferOutputStream()
        pq.write_table(keys, sink, compression=COMPRESSION)
        lake._put(keys_rel, sink.getvalue().to_pybytes())
        entry = {
            "entry": stem,
            "run": self.run,
            "committed_at": dt.datetime.now(dt.UTC).isoformat(),
            "hh_version": ok[0].task.hh_version,
            "chunks": [r.to_json() for r in ok],
            "counts": vars(counts),
            "parts": [p.to_json() for p in parts],
            "keys": keys_rel,
        }
        lake._put(f"{MANIFEST}/{stem}.json", json.dumps(entry, indent=1).encode())
        # only now are the chunks visible; remember their keys for the next ones
        con.register("b_keys", keys)
        try:
            con.execute("INSERT INTO keys SELECT * FROM b_keys")
        finally:
            con.unregister("b_keys")
        if n:
            self.touched.update(
                (site or "", t)
                for site, t in zip(
                    rejects.column("site").to_pylist(),
                    rejects.column("table_name").to_pylist(),
                    strict=True,
                )
                if t is not None
            )
        for r in ok:
            c = r.task.chunk
            self.done[(r.task.name, c.start, c.end)] = (r.size, r.mtime_ns)
        self.entries.append(entry)
        return counts

    def _drop_rows(self, parts: list[Part], ords: pa.ChunkedArray) -> list[Part]:
        """Rewrite the temporary parts without the dropped hands' rows."""
        lake = self.lake
        out = []
        for p in parts:
            if p.table == "rejects":
                out.append(p)
                continue
            tmp = lake.path(p.path + TMP)
            with lake.fs.open(tmp, "rb") as f:
                tab = pq.read_table(f)
            gone = pc.is_in(tab.column("_ord"), value_set=ords.combine_chunks())
            kept = tab.filter(pc.invert(gone))
            if kept.num_rows == tab.num_rows:
                out.append(p)
                continue
            lake.fs.rm(tmp)
            if kept.num_rows:
                with lake.fs.open(tmp, "wb") as f:
                    pq.write_table(kept, f, compression=COMPRESSION)
                out.append(Part(p.table, p.path, kept.num_rows))
        return out

    def _conflicts(self, w: Written, drops: pa.Table) -> list[Part]:
        """The conflict rejects, built by the writer's SQL, as a part. Reads
        the task's hand_text parts back: only for a task with a conflict."""
        lake = self.lake
        texts = []
        for p in w.parts:
            if p.table == "hand_text":
                with lake.fs.open(lake.path(p.path + TMP), "rb") as f:
                    texts.append(pq.read_table(f))
        assert w.keys is not None
        con = self.con
        cols = ", ".join(c for c in SCHEMAS["rejects"].names if c != "_ord")
        con.register("b_hands", w.keys)
        con.register("b_drops", drops)
        con.register("b_hand_text", pa.concat_tables(texts))
        try:
            con.execute("DELETE FROM rejects")
            con.execute(_CONFLICTS, {"run": self.run})
            found = con.sql(
                f"SELECT -1::INTEGER AS _ord, {cols}, import_run, imported_at FROM rejects"
            ).to_arrow_table()
        finally:
            for b in ("b_hands", "b_drops", "b_hand_text"):
                con.unregister(b)
        where, keys = _partitions(found.column("game").to_pylist(), found.column("started_at"))
        parts = lake._write_partitions(
            "rejects", found, pa.array(where, pa.int32()), keys, f"{w.stem}-conflicts"
        )
        for p in parts:
            lake.fs.mv(lake.path(p.path + TMP), lake.path(p.path))
        return parts


def _now_key() -> str:
    """Sorts by commit time (manifest entries are read in this order)."""
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")


def next_run(entries: Iterable[dict[str, Any]]) -> int:
    return max((int(e["run"]) for e in entries), default=0) + 1


# -------------------------------------------------------------- readers

CROSS = "cross_violations"
_CROSS_POINTER = f"{MANIFEST}/cross/current.json"
_CROSS_SCHEMA = pa.schema(
    [
        ("site", pa.string()),
        ("hand_id", pa.string()),
        ("code", pa.string()),
        ("line", pa.int32()),
        ("message", pa.string()),
    ]
)


def _db_columns(con: Any, table: str) -> list[tuple[str, str]]:
    return con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = $t AND table_catalog = current_database() "
        "AND table_schema = 'main' ORDER BY ordinal_position",
        {"t": table},
    ).fetchall()


def _sql_list(values: Sequence[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)


def derived_path(url: str) -> str | None:
    """Where the layers above keep what they derive from a local lake's
    hands (the reports' per-hand cache), inside the lake; None for a lake on
    object storage (they are told where, e.g. ``--cache``). One place, so
    the import that fills it and the report that reads it agree."""
    return None if "://" in url else str(Path(url) / "_reports.duckdb")


def connect(
    url: str,
    games: Sequence[str] | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
) -> Any:
    """An in-memory DuckDB connection whose tables and views are named and
    typed like the database's (docs/schema.md), reading the lake's committed
    Parquet parts. ``games``, ``since`` and ``until`` (dates of
    ``started_at``, inclusive) filter on the hive partitions in every view,
    so DuckDB opens only the files of those games and days. Reports run
    their SQL on this connection exactly as on a database file.

    ``hands.valid`` and ``n_violations`` include the cross-hand violations
    of the lake's last cross-hand pass, as the database's do."""
    lake = Lake(url)
    entries = lake.entries()
    con = duckdb.connect()
    if lake.protocol not in ("file", "local"):
        con.execute("INSTALL httpfs; LOAD httpfs")
    schema.ensure(con)
    parts = lake.parts(entries)
    where = []
    if games is not None:
        where.append(f"game IN ({_sql_list(list(games)) or 'NULL'})")
    if since is not None:
        where.append(f"date >= DATE '{since.isoformat()}'")
    if until is not None:
        where.append(f"date <= DATE '{until.isoformat()}'")
    cond = f" WHERE {' AND '.join(where)}" if where else ""
    cross = _cross_parts(lake)
    for table in (*TABLES, CROSS):
        files = cross if table == CROSS else parts[table]
        if not files:
            continue
        cols = _db_columns(con, table)
        select = ", ".join(f'"{c}"::{t} AS "{c}"' for c, t in cols)
        if table == CROSS:  # not partitioned: filter through the hands it belongs to
            source = f"read_parquet({_sql_list(files) and '[' + _sql_list(files) + ']'})"
            body = f"SELECT {select} FROM {source}"
            if where:
                body += " SEMI JOIN stored_hands USING (site, hand_id)"
        else:
            source = (f"read_parquet([{_sql_list(files)}], hive_partitioning = true, "
                      "union_by_name = true)")
            body = f"SELECT {select} FROM {source}{cond}"
        name = "stored_hands" if table == "hands" else table
        con.execute(f"DROP TABLE {table}")
        con.execute(f"CREATE VIEW {name} AS {body}")
        if table == "hands":
            con.execute(_HANDS_VIEW.format(cols=", ".join(
                f'h."{c}"' if c not in ("valid", "n_violations") else _HANDS_FIX[c]
                for c, _ in cols)))
    _files_view(con, entries)
    return con


_HANDS_FIX = {
    "n_violations": "(h.n_hand_violations + coalesce(x.n, 0))::INTEGER AS n_violations",
    "valid": "h.n_hand_violations + coalesce(x.n, 0) = 0 AS valid",
}
# the stored hand verdicts plus the cross-hand pass, as the writer's UPDATE does
_HANDS_VIEW = """
CREATE VIEW hands AS SELECT {cols} FROM stored_hands h
LEFT JOIN (SELECT site, hand_id, count(*) AS n FROM cross_violations GROUP BY ALL) x
    USING (site, hand_id)
"""


def _files_view(con: Any, entries: Sequence[dict[str, Any]]) -> None:
    """``files`` from the manifest: one row per input file, its chunks'
    counts summed (no whole-file SHA-256: chunks are hashed per hand)."""
    rows = {}
    for e in entries:
        at = dt.datetime.fromisoformat(e["committed_at"]).replace(tzinfo=None)
        for c in e["chunks"]:
            path = c["path"]
            old = rows.get(path)
            hands = c["hands"] + (old["hands"] if old else 0)
            rows[path] = {"path": path, "size": c["size"], "hands": hands, "imported_at": at}
    if not rows:
        return
    con.register("_lake_files", pa.Table.from_pylist(list(rows.values())))
    con.execute(
        "INSERT INTO files (path, sha256, size, lines, hands, imported_at, status, error) "
        "SELECT path, NULL, size, NULL, hands, imported_at, 'done', NULL FROM _lake_files"
    )
    con.unregister("_lake_files")


def _cross_parts(lake: Lake) -> list[str]:
    pointer = lake.path(_CROSS_POINTER)
    if not lake.fs.exists(pointer):
        return []
    with lake.fs.open(pointer, "rb") as f:
        found = json.loads(f.read())
    return [lake.uri(found["path"])] if found.get("path") else []


# What the cross-hand pass (hh.pipelines.crosshand) reads of each table: the pass
# copies these columns of the touched tables' rows, and nothing else.
_CROSS_INPUTS = {
    "hands": ("site", "table_name", "hand_id", "started_at", "file", "line", "judged",
              "dealer_seat", "table_line", "game"),
    "rejects": ("site", "table_name", "hand_id", "started_at", "file", "line", "game", "kind"),
    "seats": ("site", "hand_id", "player", "line", "seat", "stack_start", "stack_end", "top_up",
              "dealt_in"),
}
# The cross-hand pass's DuckDB: past this it spills to a temporary folder.
CROSS_MEMORY = "1GB"


def cross_check(url: str, touched: Iterable[tuple[str, str]], run: int) -> int:
    """The database's cross-hand pass (hh.pipelines.crosshand.find: the
    stored hands of each touched table in order, through hh validate's
    checks) over the lake, for the tables ``touched`` in this run: their
    violations replace the earlier ones, the other tables' are kept. The result is one Parquet
    file, made visible by rewriting the pointer ``_manifest/cross.json``.
    Returns the number of cross-hand violations in the lake.

    The pass runs on copies of only the columns it reads (``_CROSS_INPUTS``)
    of only the touched tables' rows, in a schema put first on the search
    path, never on the Parquet views themselves: over the views DuckDB
    guesses the joins' sizes from file statistics and could join ``seats``
    to ``seats`` on the player alone (far more rows than the tables hold);
    on tables it knows the sizes and plans as in the database. Its memory
    is capped (``CROSS_MEMORY``; it spills to a temporary folder beyond
    that)."""
    import shutil
    import tempfile

    from hh.pipelines.crosshand import find

    lake = Lake(url)
    con = connect(url)
    spill = tempfile.mkdtemp(prefix="hh-cross-")
    try:
        con.execute(f"SET memory_limit = '{CROSS_MEMORY}'")
        con.execute(f"SET temp_directory = '{spill}'")
        pairs = sorted(set(touched))
        con.register("_touched_run", pa.table(
            {"site": [p[0] for p in pairs], "table_name": [p[1] for p in pairs]},
            schema=pa.schema([("site", pa.string()), ("table_name", pa.string())]),
        ))
        con.execute("DELETE FROM dirty_tables")
        con.execute("INSERT INTO dirty_tables SELECT * FROM _touched_run")
        con.execute("CREATE SCHEMA xpass")
        cols = {t: ", ".join(c) for t, c in _CROSS_INPUTS.items()}
        con.execute(
            f"CREATE TABLE xpass.hands AS SELECT {cols['hands']} FROM main.stored_hands "
            "SEMI JOIN _touched_run USING (site, table_name)"
        )
        con.execute(
            f"CREATE TABLE xpass.rejects AS SELECT {cols['rejects']} FROM main.rejects r "
            "SEMI JOIN _touched_run t ON coalesce(r.site, '') = t.site "
            "AND r.table_name = t.table_name WHERE r.kind = 'parse'"
        )
        con.execute(
            f"CREATE TABLE xpass.seats AS SELECT {cols['seats']} FROM main.seats "
            "SEMI JOIN xpass.hands USING (site, hand_id)"
        )
        con.execute("SET search_path = 'xpass,main'")
        find(con)
        kept = con.sql(
            "SELECT c.site, c.hand_id, c.code, c.line, c.message FROM main.cross_violations c "
            "ANTI JOIN (SELECT * FROM _chain WHERE judged) h USING (site, hand_id) "
            "UNION ALL SELECT site, hand_id, code, line, message FROM _found "
            "ORDER BY site, hand_id, line"
        ).to_arrow_table().cast(_CROSS_SCHEMA)
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
    rel = f"{CROSS}/cross-{run:06d}-{uuid.uuid4().hex[:8]}.parquet"
    sink = pa.BufferOutputStream()
    pq.write_table(kept, sink, compression=COMPRESSION)
    lake._put(rel, sink.getvalue().to_pybytes())
    old = _cross_parts(lake)
    lake._put(_CROSS_POINTER, json.dumps({"path": rel, "run": run}).encode())
    for gone in old:  # the previous generation, now unreferenced
        with contextlib.suppress(OSError, FileNotFoundError):
            lake.fs.rm(gone.split("://", 1)[-1])
    return kept.num_rows


# -------------------------------------------------------------- load, compare

# The tables that say what was imported (not when or by which run).
CONTENT_TABLES = (*TABLES, CROSS, "violations")


def checksums(con: Any, tables: Sequence[str] = CONTENT_TABLES) -> dict[str, tuple[int, int]]:
    """(rows, order-independent hash of every row) per table, the bookkeeping
    columns (which run, when) left out: equal for a database and a lake
    holding the same hands, whatever the order the rows were written in."""
    out = {}
    for table in tables:
        cols = [c for c, _ in _db_columns(con, table) if c not in schema.BOOKKEEPING]
        row = con.execute(
            f"SELECT count(*), coalesce(sum(hash({', '.join(cols)})), 0)::HUGEINT::VARCHAR "
            f"FROM {table}"
        ).fetchone()
        assert row is not None
        out[table] = (int(row[0]), int(row[1]))
    return out


def load(url: str, db: str) -> dict[str, int]:
    """Copy a lake into a new (or empty) DuckDB file: the same tables a
    direct import of the same files gives. Returns rows per table."""
    import os

    target = duckdb.connect(db)
    try:
        schema.ensure(target)
        row = target.execute("SELECT count(*) FROM hands").fetchone()
        if row and row[0]:
            raise LakeError(f"{db} already holds hands: load a lake into a new database")
    finally:
        target.close()
    con = connect(url)
    con.execute(f"ATTACH '{os.path.abspath(db)}' AS target")
    out = {}
    con.execute("BEGIN TRANSACTION")
    for table in (*TABLES, CROSS, "files"):
        cols = ", ".join(f'"{c}"' for c, _ in _db_columns(con, table))
        con.execute(f"INSERT INTO target.{table} ({cols}) SELECT {cols} FROM {table}")
        got = con.execute(f"SELECT count(*) FROM target.{table}").fetchone()
        out[table] = int(got[0]) if got else 0
    con.execute("COMMIT")
    con.execute("DETACH target")
    return out


class LakeError(Exception):
    """The lake cannot be used as asked (a message for the user)."""
