"""The lake: the import's tables as Delta Lake tables that many machines write at once.

DuckDB has one writer per database file; that is the limit of the local
import. The lake lifts it: every table of the database (docs/schema.md) is
a Delta table (delta-rs, the ``deltalake`` package: no JVM) under
``DIR/<table>``, with the database's columns and two partition columns,
``game`` and ``date`` (the day of the hand's ``started_at``; a hand's seats,
actions, ... take its partition). Spark, Trino, DuckDB or polars read the
lake as tables, through the Delta log, without hh (docs/scale.md).

Writing. A Dask task (a chunk, or several small ones read together) runs
the import's per-chunk function on a worker, which writes the task's rows as
Parquet files into the tables' folders, uncommitted: invisible to every
reader until a commit's ``add`` action names them. The client of the run
commits the finished tasks in input order, a group of them at a time (those
finished together: one Delta transaction per table for the whole group,
carrying every task's application transaction), in this order:

1. ``dirty_tables``: the poker tables the task touches and its chunks, an
   intent record (see the cross-hand pass);
2. ``hands``: the tasks' new hands. A hand already in the lake, or earlier
   in the group, is skipped by its key ``(site, hand_id)``, looked up only
   in the partitions the group touches (an anti-join with the DuckDB
   writer's own SQL, ``pipelines.writer._DROPS``; the same id with other
   text becomes a ``conflict`` reject, ``_CONFLICTS``). The commit carries
   one application transaction per touched partition
   (``hh-partition:<game>/<date>``) beside the tasks': two clients
   committing hands to one partition at once conflict in the Delta log
   (ConcurrentTransaction); the loser reads the partition again and decides
   again, so no hand is stored twice;
3. the other tables, the rows of the hands kept;
4. ``chunks``: the chunks of the task (the file's SHA-256 and line count with
   its last chunk): a committed chunk is not read again.

Exactly once. Every commit carries the application transaction
(``txn``: app id ``hh-task:<id>``, version 1) of each of its tasks, the id a
hash of its chunks (file, byte range, size, mtime): a table that already
holds a task's transaction does not take its rows again (a group, or a
task, a killed client had begun is committed for the tasks and tables
still without it), and two clients committing the same task at once
conflict in the log. The hands keep the task's id
(``_task``) and their place in it (``_ord``), so a task resumed after its
hands were committed takes the same hands for the other tables: those
stored under its id at the same place with the same content hash, never
every hand of the task whose key is stored (a hand of the same id later
in the task, a conflict or a duplicate, is decided again against the
stored one). A task whose ``dirty_tables`` record
exists but whose ``chunks`` do not (the client was killed inside it) is
planned again as the same group of chunks. Files written by attempts that
never committed are never read; ``hh lake optimize`` vacuums them.

The cross-hand pass (:func:`cross_check`) reads the chains of the tables
named in ``dirty_tables``, hands them to the database's cross-hand checks,
replaces those tables' rows of ``cross_violations`` in one transaction,
and only then deletes the records it has checked: a client killed before
that leaves them, and the next run completes the pass.

The committer's memory is one group's keys and the keys of the partitions
it touches: it does not grow with the lake.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from deltalake import CommitProperties, DeltaTable, Transaction, write_deltalake
from deltalake.exceptions import CommitFailedError, TableNotFoundError
from deltalake.transaction import AddAction, RemoveAction

from hh.read.cut import Chunk, cut
from pipelines import schema
from pipelines.rows import SCHEMAS
from pipelines.tables import TABLE, arrow_schema, lake_columns
from pipelines.work import Result, Task, process
from pipelines.writer import _CONFLICTS, _DROPS, Counts, _concat

# The tables the workers write, in commit order after hands (cross_violations
# is computed over the lake).
TABLES = ("hands", "hand_text", "seats", "actions", "pots", "hand_violations", "rejects")
CROSS = "cross_violations"
CHUNKS = "chunks"
DIRTY = "dirty_tables"
PARTITIONS = ["game", "date"]
COMPRESSION = "zstd"
_HAND_KEYS = ["site", "hand_id", "content_hash", "file", "line", "_task"]
# A hand a task's earlier attempt stored is the same hand of the task again
# when all of these are equal (the task's chunks, read again, give the same
# hands in the same order).
_KEPT = ["_ord", "site", "hand_id", "content_hash"]
_REJECT_KEY = ["content_hash", "file", "line", "kind"]
# Columns of the stored tables the worker's batch does not carry: the
# writer adds them (which run, when); the lake stores them in the files.
_RUN_COLUMNS = {t: names for t in TABLES
                if (names := tuple(c.name for c in TABLE[t].columns if c.bookkeeping))}
# A commit that lost a race for a partition is decided again, this often at most.
RETRIES = 20


def _schema(table: str) -> pa.Schema:
    """The Delta table's columns (pipelines.tables.lake_columns): the
    database's (with the batch's ``_ord``, a hand's place in its task), the
    partition columns, and for hands the task that committed them."""
    return arrow_schema(lake_columns(table))


def _partitioned(table: str) -> bool:
    return table not in (CHUNKS, DIRTY)


def _file_schema(table: str) -> pa.Schema:
    """The columns of a data file: the partition columns live in the log."""
    s = _schema(table)
    return pa.schema([f for f in s if f.name not in PARTITIONS]) if _partitioned(table) else s


@dataclass(frozen=True, slots=True)
class Part:
    """One uncommitted Parquet file of one table: ``path`` relative to the
    table's folder; ``game`` and ``date`` its partition."""

    table: str
    path: str
    game: str | None
    date: str | None
    rows: int
    size: int


class FileFacts(NamedTuple):
    """A file's size and mtime when it was read, and its lines and SHA-256
    then (what its ``files`` row records)."""

    size: int
    mtime_ns: int
    lines: int
    sha256: str | None


def file_facts(path: str, target: int) -> tuple[list[Chunk], FileFacts | None]:
    """A file's chunks of about ``target`` bytes and its facts, from the one
    pass the import's cut makes over it (``hh.read.cut.cut``, hashing on the
    way): the workers need not read the file again for its lines and
    SHA-256. No facts when the file changed during the pass."""
    before = _stat(path)
    read = cut(path, target, digest=True)
    after = _stat(path)
    if before != after or read.size != after[0]:
        return read.chunks, None
    return read.chunks, FileFacts(read.size, after[1], read.lines, read.sha256)


@dataclass(slots=True)
class Read:
    """One chunk of a task, as the worker read it."""

    task: Task
    runs: int = 0  # hands and rejected runs read (known ones included)
    known: int = 0  # skipped before parsing
    error: str | None = None  # the chunk could not be read: not committed
    size: int | None = None  # the file's size and mtime when it was read
    mtime_ns: int | None = None
    lines: int | None = None  # the file's lines, read with its last chunk
    sha256: str | None = None  # the file's SHA-256, likewise


@dataclass(slots=True)
class Written:
    """What a worker returns for one task: its uncommitted files and the
    small tables the committer needs, the hands' keys and the rejects'
    (never the rows)."""

    chunks: list[Read]
    task_id: str
    attempt: str
    parts: list[Part] = field(default_factory=list)
    keys: pa.Table | None = None  # b_hands' key columns, for the drops SQL
    rejects: pa.Table | None = None  # the parse rejects' keys


def task_id(tasks: Sequence[Task]) -> str:
    """A task's id: a hash of its chunks (file, byte range, size, mtime), the
    same for every attempt at it and for two clients given the same files."""
    h = hashlib.sha256()
    for t in tasks:
        c = t.chunk
        try:
            size, mtime = _stat(c.path)
        except OSError:
            size, mtime = -1, -1
        h.update(f"{t.name}\0{c.start}\0{c.end}\0{size}\0{mtime}\n".encode())
    return h.hexdigest()[:24]


def _stat(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def _app(task: str) -> str:
    return f"hh-task:{task}"


def _txn(*apps: tuple[str, int]) -> CommitProperties:
    return CommitProperties(app_transactions=[Transaction(a, v) for a, v in apps])


class Lake:
    """A lake at a local path or an object store URL (``s3://bucket/hh``,
    with delta-rs's ``storage_options``, e.g. credentials and region)."""

    def __init__(self, url: str, storage_options: dict[str, str] | None = None) -> None:
        self.url = url.rstrip("/")
        self.local = "://" not in url or url.startswith("file://")
        self.storage_options = storage_options
        self.fs, self.root = pafs.FileSystem.from_uri(
            self.url if not self.local else os.path.abspath(self.url.removeprefix("file://"))
        )

    def uri(self, table: str) -> str:
        return f"{self.url}/{table}"

    def exists(self) -> bool:
        """The lake holds its tables (an import has started it)."""
        return DeltaTable.is_deltatable(self.uri("hands"), self.storage_options)

    def require(self) -> None:
        """:class:`NoLake` unless the lake :meth:`exists`: what every command
        says of a lake that is not there."""
        if not self.exists():
            raise NoLake(
                f"no lake at {self.url} (no Delta tables: run "
                "`hh import --engine dask --lake DIR` first)"
            )

    def table(self, name: str) -> DeltaTable:
        try:
            return DeltaTable(self.uri(name), storage_options=self.storage_options)
        except TableNotFoundError:
            raise LakeError(f"{self.url} is not a lake (no Delta table {name})") from None

    def create(self) -> None:
        """Create the tables that do not exist yet (two clients may race: the
        loser finds the winner's table)."""
        for name in (*TABLES, CROSS, CHUNKS, DIRTY):
            if DeltaTable.is_deltatable(self.uri(name), self.storage_options):
                continue
            with contextlib.suppress(CommitFailedError):
                DeltaTable.create(
                    self.uri(name), _schema(name), mode="ignore",
                    partition_by=PARTITIONS if _partitioned(name) else None,
                    storage_options=self.storage_options,
                )

    # ---------------------------------------------------------- worker side

    def write_task(
        self, tasks: Sequence[Task], task: str, run: int, imported_at: dt.datetime,
        facts: dict[str, FileFacts] | None = None,
    ) -> Written:
        """Run the import's per-chunk function on each chunk of a task and
        write their tables together as uncommitted files, one per table,
        game and date. Runs on a worker. ``facts``: the files' lines and
        SHA-256 as the client's cut found them (:func:`file_facts`), taken
        for a file's last chunk when the file still has the size and mtime
        it had then (else the file is read again for them)."""
        written = Written([Read(t) for t in tasks], task, uuid.uuid4().hex[:12])
        results = []
        for read in written.chunks:
            path = read.task.chunk.path
            with contextlib.suppress(OSError):
                read.size, read.mtime_ns = _stat(path)
            result: Result = process(read.task)
            read.runs, read.known, read.error = result.runs, result.known, result.error
            if result.error:
                continue
            if read.task.chunk.end is None:  # the file's last chunk: its facts
                known = (facts or {}).get(path)
                if known is None or (known.size, known.mtime_ns) != (read.size, read.mtime_ns):
                    from hh.read.cut import cut

                    whole = cut(path, digest=True)  # changed since: the import's own pass
                    known = FileFacts(whole.size, read.mtime_ns or 0, whole.lines,
                                      whole.sha256)
                read.lines, read.sha256 = known.lines, known.sha256
            results.append(result)
        if not any(r.tables for r in results):
            return written
        tables = _with_run_columns(_concat(results), run, imported_at)
        hands = tables["hands"]
        hands = hands.append_column("_task", pa.array([task] * hands.num_rows, pa.string()))
        tables["hands"] = hands
        written.keys = hands.select(
            ["_ord", "site", "hand_id", "content_hash", "file", "line", "game", "table_name",
             "started_at"]
        )
        written.rejects = tables["rejects"].select(
            ["content_hash", "file", "line", "site", "table_name", "game"]
        )
        where, keys = _partition_of_ord(hands, tables["rejects"])
        for table in TABLES:
            tab = tables[table]
            if tab.num_rows:
                written.parts += self.write_partitions(
                    table, tab, pc.take(where, tab.column("_ord")), keys,
                    f"{task}-{written.attempt}",
                )
        return written

    def write_partitions(
        self, table: str, tab: pa.Table, where: pa.Array | pa.ChunkedArray,
        keys: list[tuple[str | None, str | None]], stem: str,
    ) -> list[Part]:
        """Write ``tab`` as one uncommitted file per partition: row k goes to
        ``keys[where[k]]`` (its game and date). A task's rows nearly always
        fall in one or two partitions; the rows keep their order."""
        out = []
        cols = _file_schema(table)
        for k, (game, date) in enumerate(keys):
            rows = tab if len(keys) == 1 else tab.filter(pc.equal(where, k))
            if not rows.num_rows:
                continue
            rel = (f"game={_dirname(game)}/date={_dirname(date)}/"
                   f"part-{stem}-{uuid.uuid4().hex[:8]}.parquet")
            out.append(self.write_file(table, rel, rows.select(cols.names).cast(cols),
                                       game, date))
        return out

    def write_file(
        self, table: str, rel: str, rows: pa.Table, game: str | None, date: str | None
    ) -> Part:
        full = f"{self.root}/{table}/{rel}"
        self.fs.create_dir(full.rsplit("/", 1)[0], recursive=True)
        with self.fs.open_output_stream(full) as f:
            pq.write_table(rows, f, compression=COMPRESSION)
        size = self.fs.get_file_info(full).size
        return Part(table, rel, game, date, rows.num_rows, int(size or 0))

    def read_part(self, p: Part) -> pa.Table:
        with self.fs.open_input_file(f"{self.root}/{p.table}/{p.path}") as f:
            return pq.read_table(f)


def _dirname(value: str | None) -> str:
    """A partition value as a directory name (hive style)."""
    if value is None:
        return "__HIVE_DEFAULT_PARTITION__"
    if not value or any(c in value for c in "/=\\%") or value in (".", ".."):
        raise ValueError(f"cannot use {value!r} as a partition value")
    return value


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


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _partition_predicate(parts: Iterable[tuple[str | None, str | None]]) -> str:
    """A Delta predicate selecting exactly these (game, date) partitions."""
    terms = []
    for game, date in sorted(set(parts), key=lambda p: (p[0] or "", p[1] or "")):
        g = "game IS NULL" if game is None else f"game = {_sql_str(game)}"
        d = "date IS NULL" if date is None else f"date = {_sql_str(date)}"
        terms.append(f"({g} AND {d})")
    return " OR ".join(terms) or "false"


def _lock(game: str | None, date: str | None) -> str:
    return f"hh-partition:{game or ''}/{date or ''}"


_NULL = "__HIVE_DEFAULT_PARTITION__"


def _empty(con: Any, view: str, name: str) -> None:
    """``view`` as a view of an empty table of ``name``'s columns, in the database
    itself (not a registered Arrow object, which only the connection that
    registered it sees: ``hh serve`` reads through cursors)."""
    con.register("_hh_empty", _schema(name).empty_table())
    try:
        con.execute(f"CREATE OR REPLACE TABLE _hh_empty_{name} AS SELECT * FROM _hh_empty")
    finally:
        con.unregister("_hh_empty")
    con.execute(f"CREATE OR REPLACE VIEW {view} AS SELECT * FROM _hh_empty_{name}")


def scan(con: Any, view: str, table: DeltaTable, name: str,
         predicate: str | list[tuple[str, str, Any]] | None = None) -> None:
    """Make ``view`` in DuckDB ``con`` read the Delta table's current
    snapshot: the files its log names (of only the partitions ``predicate``
    selects), read by DuckDB's own Parquet reader, the partition columns
    taken from the files' hive-style folders (checked against the log's
    partition values; a table whose files are laid out otherwise is read
    through PyArrow's dataset instead)."""
    uris = table.file_uris(file_pruning_predicate=predicate)
    if not uris:
        _empty(con, view, name)
        return
    files = "[" + ", ".join(_sql_str(u) for u in uris) + "]"
    if not _partitioned(name):
        con.execute(f"CREATE OR REPLACE VIEW {view} AS SELECT * "
                    f"FROM read_parquet({files})")
        return
    adds = table.get_add_actions(flatten=True)
    paths = pa.table(adds).select(["path", "partition.game", "partition.date"]).to_pylist()
    hive = all(
        r["path"].startswith(f"game={r['partition.game'] or _NULL}/date="
                             f"{r['partition.date'] or _NULL}/") for r in paths)
    if not hive:
        con.register(view, table.to_pyarrow_dataset(file_pruning_predicate=predicate))
        return
    con.execute(
        f"CREATE OR REPLACE VIEW {view} AS SELECT * REPLACE ("
        f"nullif(game, '{_NULL}') AS game, nullif(date, '{_NULL}')::DATE AS date) "
        f"FROM read_parquet({files}, hive_partitioning = true, "
        "hive_types = {'game': VARCHAR, 'date': VARCHAR})")


def files_of(url: str, table: str, games: Sequence[str] | None = None,
             since: dt.date | None = None, until: dt.date | None = None,
             storage_options: dict[str, str] | None = None) -> list[str]:
    """The files of a table's current snapshot that a reader of ``games``
    and of the days ``since`` .. ``until`` opens."""
    t = Lake(url, storage_options).table(table)
    if games is not None and not games:
        return []
    return list(t.file_uris(file_pruning_predicate=_pruning(games, since, until)))


_STOPS: dict[str, int] = {}


def _stop_at(point: str) -> None:
    """Test hook: with HH_LAKE_KILL_AT=point the client kills itself
    (SIGKILL) there, so a test can stop it at any moment of a commit:
    ``written`` (a task written, nothing committed), ``hands`` (its hands
    committed, not its other tables), ``cross`` (every task committed, the
    cross-hand result not), ``crossed`` (the result committed, the
    dirty-tables records not yet removed); ``point:N`` at its N-th time."""
    at, _, nth = os.environ.get("HH_LAKE_KILL_AT", "").partition(":")
    if at != point:
        return
    _STOPS[point] = _STOPS.get(point, 0) + 1
    if _STOPS[point] >= int(nth or 1):
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


# -------------------------------------------------------------- committer


class Committer:
    """The run's one committer: decides the duplicates and conflicts of a
    group of finished tasks against the partitions they touch and commits
    their files as Delta transactions, one per table for the whole group
    (see the module's docstring)."""

    def __init__(self, lake: Lake, run: int) -> None:
        self.lake = lake
        self.run = run
        self.tables = {name: lake.table(name) for name in (*TABLES, CHUNKS, DIRTY)}
        # (site, table_name, game) of the hands and rejects this run stored
        self.touched: set[tuple[str, str, str | None]] = set()
        self.partitions: set[tuple[str | None, str | None]] = set()  # (game, date) written
        self.con = duckdb.connect()
        self.con.execute("SET memory_limit = '256MB'")
        schema.ensure(self.con)  # the database's rejects table, for _CONFLICTS

    def _fresh(self, name: str) -> DeltaTable:
        t = self.tables[name]
        t.update_incremental()
        return t

    def _commit(self, name: str, parts: Sequence[Part], props: CommitProperties,
                t: DeltaTable | None = None) -> None:
        now = int(time.time() * 1000)
        actions: list[AddAction | RemoveAction] = [
            AddAction(p.path, p.size, {"game": p.game, "date": p.date} if _partitioned(name)
                      else {}, now, True, json.dumps({"numRecords": p.rows}))
            for p in parts
        ]
        table = t if t is not None else self._fresh(name)
        table.create_write_transaction(
            actions, "append", _schema(name),
            partition_by=PARTITIONS if _partitioned(name) else None,
            commit_properties=props,
        )

    def _append(self, name: str, rows: Sequence[tuple[str, pa.Table]]) -> None:
        """A small table of the committer's own (chunks, dirty_tables): the
        rows of each task (its app id, its rows) that the table does not hold
        yet, in one commit carrying their tasks' transactions."""
        for _ in range(RETRIES):
            t = self._fresh(name)
            todo = [(app, r) for app, r in rows if t.transaction_version(app) is None]
            if not todo:
                return
            try:
                write_deltalake(t, pa.concat_tables([r.cast(_schema(name)) for _, r in todo]),
                                mode="append", commit_properties=_txn(*((a, 1) for a, _ in todo)))
                return
            except CommitFailedError:  # the same task committed at once elsewhere,
                continue  # or a concurrent delete of records read: look again
        raise LakeError(f"could not commit {name}: the table kept changing")

    def commit(self, group: Sequence[Written]) -> Counts:
        """Commit a group of tasks, consecutive in input order (one, or
        several finished together: each table then takes one commit for
        all, carrying every task's transaction, instead of one per task).
        Chunks that could not be read are left out (the caller lists
        them)."""
        counts = Counts()
        done = {w.task_id: [r for r in w.chunks if r.error is None] for w in group}
        for ok in done.values():
            counts.hands += sum(r.runs for r in ok)
            counts.duplicates += sum(r.known for r in ok)
        data = [w for w in group if w.keys is not None]
        if data:
            self._append(DIRTY, [(_app(w.task_id), _dirty_rows(w)) for w in data])
            _stop_at("written")
            drops = self._hands(data)
            _stop_at("hands")
            gone = {}
            for w in data:
                assert w.keys is not None and w.rejects is not None
                d = drops[w.task_id]
                n_same = pc.sum(d.column("same")).as_py() or 0
                counts.duplicates += n_same
                counts.conflicts += d.num_rows - n_same
                counts.imported += w.keys.num_rows - d.num_rows
                gone[w.task_id] = d.column("_ord").combine_chunks()
                kept = w.keys.filter(pc.invert(pc.is_in(w.keys.column("_ord"),
                                                        value_set=gone[w.task_id])))
                self.touched.update(
                    (r["site"], r["table_name"], r["game"]) for r in
                    kept.group_by(["site", "table_name", "game"]).aggregate([]).to_pylist()
                )
                self.touched.update(_reject_tables(w.rejects))
            for name in TABLES[1:-1]:
                self._others(name, data, gone)
            counts.rejected += self._rejects(data, drops)
        self._append(CHUNKS, [(_app(w.task_id), _chunk_rows(w, done[w.task_id], self.run))
                              for w in group])
        return counts

    def _others(self, name: str, data: Sequence[Written], gone: dict[str, pa.Array]) -> None:
        """Commit the rows of the hands kept in table ``name`` (a hand's
        seats, actions, ...) of the tasks that have not committed it yet;
        no commit when they have no rows in it."""
        parts: dict[str, list[Part]] = {}
        for _ in range(RETRIES):
            t = self._fresh(name)
            todo = [w for w in data if t.transaction_version(_app(w.task_id)) is None]
            for w in todo:
                if w.task_id not in parts:  # rewritten once, without the dropped hands
                    parts[w.task_id] = self._without(
                        [p for p in w.parts if p.table == name], gone[w.task_id])
            todo = [w for w in todo if parts[w.task_id]]
            if not todo:  # nothing of these tasks' in this table: no commit
                return
            try:
                self._commit(name, [p for w in todo for p in parts[w.task_id]],
                             _txn(*((_app(w.task_id), 1) for w in todo)), t)
                return
            except CommitFailedError:  # the same task at once elsewhere
                continue
        raise LakeError(f"could not commit {name}: the table kept changing")

    def _rejects(self, data: Sequence[Written], drops: dict[str, pa.Table]) -> int:
        """Commit the tasks' rejects (their parse rejects, and their
        conflicts) that the partitions they fall in do not hold yet, nor an
        earlier task of the group: the same run of the same file and line,
        of the same kind, is stored once (a file read again in other chunks,
        or by two clients, adds none); a parse reject, as the database's
        writer keeps it, once per text and line, whatever the file (an
        identical copy of a file adds none). Returns how many parse rejects
        were new."""
        parts: dict[str, list[Part]] = {}
        for w in data:
            ps = [p for p in w.parts if p.table == "rejects"]
            d = drops[w.task_id]
            if d.num_rows - (pc.sum(d.column("same")).as_py() or 0):
                ps += self._conflicts(w, d)
            if ps:
                parts[w.task_id] = ps
        if not parts:
            return 0
        rows = {p: self.lake.read_part(p) for ps in parts.values() for p in ps}
        for _ in range(RETRIES):
            t = self._fresh("rejects")
            todo = [k for k in parts if t.transaction_version(_app(k)) is None]
            if not todo:
                return 0
            mine = [p for k in todo for p in parts[k]]
            where = {(p.game, p.date) for p in mine}
            stored = self._read(t, "rejects", where, _REJECT_KEY)
            kept, new = [], 0
            for p, fresh in zip(mine, _fresh_rejects([rows[p] for p in mine], stored),
                                strict=True):
                new += pc.sum(pc.equal(fresh.column("kind"), "parse")).as_py() or 0
                if fresh.num_rows == rows[p].num_rows:
                    kept.append(p)
                elif fresh.num_rows:
                    rel = p.path.replace(".parquet", "-new.parquet")
                    kept.append(self.lake.write_file(p.table, rel, fresh, p.game, p.date))
            locks = [(_lock(g, d), (t.transaction_version(_lock(g, d)) or 0) + 1)
                     for g, d in sorted(where, key=lambda p: (p[0] or "", p[1] or ""))]
            try:
                self._commit("rejects", kept, _txn(*((_app(k), 1) for k in todo), *locks), t)
                return new
            except CommitFailedError:
                continue
        raise LakeError("could not commit rejects: their partitions kept changing")

    def _hands(self, data: Sequence[Written]) -> dict[str, pa.Table]:
        """Commit the new hands of the tasks that have not committed theirs;
        return each task's drops (``_DROPS``'s rows: its hands not stored,
        ``same`` for a duplicate, numbered by its own ``_ord``). The group's
        hands are decided together, in input order: the first of two hands
        with one key, in the lake or earlier in the group, is the one kept."""
        where: dict[str, set[tuple[str | None, str | None]]] = {}
        for w in data:
            assert w.keys is not None
            where[w.task_id] = set(zip(
                w.keys.column("game").to_pylist(),
                pc.strftime(w.keys.column("started_at"), format="%Y-%m-%d").to_pylist(),
                strict=True))
        every = set().union(*where.values())
        self.partitions |= every
        for _ in range(RETRIES):
            t = self._fresh("hands")
            stored = self._stored(t, every)
            out: dict[str, pa.Table] = {}
            todo = []
            for w in data:
                assert w.keys is not None
                if t.transaction_version(_app(w.task_id)) is None:
                    todo.append(w)
                    continue
                # committed by an earlier attempt: the hands it kept are those
                # stored under its id, matched by their place in the task and
                # their content (a key alone would take a later hand of the
                # same id, a conflict or a duplicate, as kept too)
                mine = pc.equal(stored.column("_task"), w.task_id)
                ours = stored.filter(mine).select(_KEPT)
                cand = w.keys.join(ours, _KEPT, join_type="left anti")
                out[w.task_id] = self._drops(cand, stored)
            if not todo:
                return out
            offsets, keys = _numbered([w.keys for w in todo if w.keys is not None])
            drops = self._drops(keys, stored)
            ords = drops.column("_ord")
            parts = []
            for w, lo, hi in zip(todo, offsets, offsets[1:], strict=False):
                mask = pc.and_(pc.greater_equal(ords, lo), pc.less(ords, hi))
                mine = drops.filter(mask)
                mine = mine.set_column(0, "_ord", pc.subtract(mine.column("_ord"),
                                                              pa.scalar(lo, pa.int32())))
                out[w.task_id] = mine
                parts += self._without([p for p in w.parts if p.table == "hands"],
                                       mine.column("_ord").combine_chunks())
            mine_where = set().union(*(where[w.task_id] for w in todo))
            locks = [(_lock(g, d), (t.transaction_version(_lock(g, d)) or 0) + 1)
                     for g, d in sorted(mine_where, key=lambda p: (p[0] or "", p[1] or ""))]
            try:
                self._commit("hands", parts,
                             _txn(*((_app(w.task_id), 1) for w in todo), *locks), t)
                return out
            except CommitFailedError:
                continue  # another commit to these partitions: decide again
        raise LakeError("could not commit hands: their partitions kept changing")

    def _stored(self, t: DeltaTable, where: set[tuple[str | None, str | None]]) -> pa.Table:
        """The keys of the hands stored in these partitions."""
        return self._read(t, "hands", where, ["_ord", *_HAND_KEYS])

    def _read(self, t: DeltaTable, name: str, where: set[tuple[str | None, str | None]],
              columns: Sequence[str]) -> pa.Table:
        scan(self.con, "_stored", t, name, _partition_predicate(where))
        cols = ", ".join(f'"{c}"' for c in columns)
        try:
            return self.con.sql(f"SELECT {cols} FROM _stored").to_arrow_table()
        finally:
            self.con.execute("DROP VIEW IF EXISTS _stored")
            with contextlib.suppress(Exception):
                self.con.unregister("_stored")

    def _drops(self, cand: pa.Table, stored: pa.Table) -> pa.Table:
        con = self.con
        con.register("b_hands", cand)
        con.register("hands", stored)
        try:
            return con.sql(_DROPS).to_arrow_table()
        finally:
            con.unregister("b_hands")
            con.unregister("hands")

    def _without(self, parts: list[Part], ords: pa.Array) -> list[Part]:
        """The files without the dropped hands' rows (rewritten beside them)."""
        if not len(ords):
            return parts
        out = []
        for p in parts:
            tab = self.lake.read_part(p)
            kept = tab.filter(pc.invert(pc.is_in(tab.column("_ord"), value_set=ords)))
            if kept.num_rows == tab.num_rows:
                out.append(p)
            elif kept.num_rows:
                rel = p.path.replace(".parquet", "-kept.parquet")
                out.append(self.lake.write_file(p.table, rel, kept, p.game, p.date))
        return out

    def _conflicts(self, w: Written, drops: pa.Table) -> list[Part]:
        """The conflict rejects, built by the writer's SQL, as files. Reads
        the task's hand_text files back: only for a task with a conflict."""
        texts = [self.lake.read_part(p) for p in w.parts if p.table == "hand_text"]
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
        return self.lake.write_partitions(
            "rejects", found, pa.array(where, pa.int32()), keys, f"{w.task_id}-conflicts"
        )


def _numbered(keys: Sequence[pa.Table]) -> tuple[list[int], pa.Table]:
    """The keys of several tasks as one batch, in their order: each task's
    ``_ord`` shifted past the one before it's (the offsets returned, one per
    task and the end), so the drops SQL sees the group as one input."""
    offsets = [0]
    shifted = []
    for k in keys:
        lo = offsets[-1]
        top = pc.max(k.column("_ord")).as_py()
        offsets.append(lo + (top + 1 if top is not None else 0))
        shifted.append(k if not lo else k.set_column(
            k.schema.get_field_index("_ord"), "_ord",
            pc.add(k.column("_ord"), pa.scalar(lo, pa.int32()))))
    return offsets, pa.concat_tables(shifted)


def _reject_tables(rejects: pa.Table) -> set[tuple[str, str, str | None]]:
    """The poker tables (site, table name, game) of a task's rejects that name one."""
    return {(s or "", t, g) for s, t, g in zip(rejects.column("site").to_pylist(),
                                               rejects.column("table_name").to_pylist(),
                                               rejects.column("game").to_pylist(),
                                               strict=True) if t is not None}


def _chunks_json(w: Written) -> str:
    return json.dumps([[r.task.name, r.task.chunk.start, r.task.chunk.end,
                        r.task.chunk.first_line] for r in w.chunks])


def _dirty_rows(w: Written) -> pa.Table:
    """The task's intent record: the poker tables it may touch, its chunks."""
    assert w.keys is not None and w.rejects is not None
    rows = {(s, t, g) for s, t, g in zip(w.keys.column("site").to_pylist(),
                                         w.keys.column("table_name").to_pylist(),
                                         w.keys.column("game").to_pylist(), strict=True)}
    rows |= _reject_tables(w.rejects)
    if not rows:  # nothing to check later, but the record still names the chunks
        rows = {("", "", None)}
    chunks = _chunks_json(w)
    ordered = sorted(rows, key=lambda r: (r[0], r[1], r[2] or ""))
    return pa.table({
        "task": [w.task_id] * len(ordered),
        "site": [r[0] for r in ordered],
        "table_name": [r[1] for r in ordered],
        "game": [r[2] for r in ordered],
        "chunks": [chunks] * len(ordered),
    })


def _chunk_rows(w: Written, ok: Sequence[Read], run: int) -> pa.Table:
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    return pa.table({
        "task": [w.task_id] * len(ok),
        "run": [run] * len(ok),
        "path": [r.task.name for r in ok],
        "start": [r.task.chunk.start for r in ok],
        "end": [r.task.chunk.end for r in ok],
        "first_line": [r.task.chunk.first_line for r in ok],
        "size": [r.size for r in ok],
        "mtime_ns": [r.mtime_ns for r in ok],
        "hands": [r.runs for r in ok],
        "lines": [r.lines for r in ok],
        "sha256": [r.sha256 for r in ok],
        "committed_at": [now] * len(ok),
    }, schema=_schema(CHUNKS))


def committed_chunks(lake: Lake, paths: Sequence[str]) -> pa.Table:
    """The committed chunks of these files (one row each, the last commit
    of a chunk winning): what a run need not read again."""
    con = duckdb.connect()
    scan(con, "c", lake.table(CHUNKS), CHUNKS)
    con.register("p", pa.table({"path": list(paths)}, schema=pa.schema([("path", pa.string())])))
    return con.sql("SELECT * FROM c SEMI JOIN p USING (path)").to_arrow_table()


def unfinished(lake: Lake) -> dict[str, list[list[Any]]]:
    """Tasks begun and not finished (a ``dirty_tables`` record, no ``chunks``):
    their chunks, to plan them again as the same tasks."""
    dirty = _small(lake, DIRTY)
    chunks = lake.table(CHUNKS)
    out = {}
    for task, listed in set(zip(dirty.column("task").to_pylist(),
                                dirty.column("chunks").to_pylist(), strict=True)):
        if chunks.transaction_version(_app(task)) is None:
            out[task] = json.loads(listed)
    return out


def next_run(lake: Lake) -> int:
    con = duckdb.connect()
    scan(con, "c", lake.table(CHUNKS), CHUNKS)
    row = con.execute("SELECT coalesce(max(run), 0) + 1 FROM c").fetchone()
    return int(row[0]) if row else 1


def _small(lake: Lake, name: str) -> pa.Table:
    """A bookkeeping table whole (dirty_tables: a few rows a task not yet checked)."""
    con = duckdb.connect()
    scan(con, "t", lake.table(name), name)
    return con.sql("SELECT * FROM t").to_arrow_table()


# -------------------------------------------------------------- readers


def _db_columns(con: Any, table: str) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = $t AND table_catalog = current_database() "
        "AND table_schema = 'main' ORDER BY ordinal_position",
        {"t": table},
    ).fetchall()
    return rows


def derived_path(url: str) -> str | None:
    """Where the layers above keep what they derive from a local lake's
    hands (the reports' per-hand cache), inside the lake; None for a lake on
    object storage (they are told where, e.g. ``--cache``). One place, so
    the import that fills it and the report that reads it agree."""
    return None if "://" in url else str(Path(url) / "_reports.duckdb")


def _pruning(
    games: Sequence[str] | None, since: dt.date | None, until: dt.date | None
) -> list[tuple[str, str, Any]] | None:
    """Delta partition filters: the files of other games and days are not opened."""
    out: list[tuple[str, str, Any]] = []
    if games is not None:
        out.append(("game", "in", list(games)))
    if since is not None:
        out.append(("date", ">=", since.isoformat()))
    if until is not None:
        out.append(("date", "<=", until.isoformat()))
    return out or None


def connect(
    url: str,
    games: Sequence[str] | None = None,
    since: dt.date | None = None,
    until: dt.date | None = None,
    storage_options: dict[str, str] | None = None,
) -> Any:
    """An in-memory DuckDB connection whose tables and views are named and
    typed like the database's (docs/schema.md), reading the lake's Delta
    tables (their current snapshot). ``games``, ``since`` and ``until``
    (dates of ``started_at``, inclusive) prune the partitions of every
    table, so DuckDB opens only the files of those games and days. Reports
    run their SQL on this connection exactly as on a database file.

    ``hands.valid`` and ``n_violations`` include the cross-hand violations,
    as the database's do."""
    lake = Lake(url, storage_options)
    lake.require()
    con = duckdb.connect()
    schema.ensure(con)
    prune = _pruning(games, since, until)
    for table in (*TABLES, CROSS):
        cols = _db_columns(con, table)
        select = ", ".join(f'"{c}"::{t} AS "{c}"' for c, t in cols)
        if games is not None and not games:
            _empty(con, f"_delta_{table}", table)
        else:
            scan(con, f"_delta_{table}", lake.table(table), table, prune)
        name = "stored_hands" if table == "hands" else table
        con.execute(f"DROP TABLE {table}")
        con.execute(f"CREATE VIEW {name} AS SELECT {select} FROM _delta_{table}")
        if table == "hands":
            con.execute(_HANDS_VIEW.format(cols=", ".join(
                f'h."{c}"' if c not in ("valid", "n_violations") else _HANDS_FIX[c]
                for c, _ in cols)))
    _files_view(con, lake)
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


def _files_view(con: Any, lake: Lake) -> None:
    """``files`` from the committed chunks: one row per input file, its
    chunks' hands summed, its SHA-256 and lines from its last chunk, as the
    local import records them."""
    scan(con, "_delta_chunks", lake.table(CHUNKS), CHUNKS)
    con.execute("DROP TABLE files")
    con.execute("""
        CREATE VIEW files AS
        WITH c AS (SELECT * FROM _delta_chunks QUALIFY row_number()
                   OVER (PARTITION BY path, start ORDER BY committed_at DESC) = 1)
        SELECT path, max(sha256) FILTER (WHERE "end" IS NULL) AS sha256,
               max(size)::BIGINT AS size,
               max(lines) FILTER (WHERE "end" IS NULL)::BIGINT AS lines,
               sum(hands)::INTEGER AS hands, max(committed_at) AS imported_at,
               CASE WHEN count(*) FILTER (WHERE "end" IS NULL) > 0 THEN 'done'
                    ELSE 'partial' END AS status,
               NULL::VARCHAR AS error,
               -- the lake reads each file whole: no open last hand is kept
               NULL::BIGINT AS open_at, NULL::INTEGER AS open_line
        FROM c GROUP BY path""")


# What the cross-hand checks read of each table: the pass copies these
# columns of the dirty tables' rows, and nothing else.
_CROSS_INPUTS = {
    "hands": ("site", "table_name", "hand_id", "started_at", "file", "line", "judged",
              "dealer_seat", "table_line", "game"),
    "rejects": ("site", "table_name", "hand_id", "started_at", "file", "line", "game", "kind"),
    "seats": ("site", "hand_id", "player", "line", "seat", "stack_start", "stack_end", "top_up",
              "dealt_in"),
}
# The cross-hand pass's DuckDB: past this it spills to a temporary folder.
CROSS_MEMORY = "256MB"


def chains(con: Any, url: str, games: Sequence[str] | None,
           storage_options: dict[str, str] | None = None) -> None:
    """Copy into ``con`` (schema ``xpass``: hands, rejects, seats) what the
    cross-hand checks read of the tables named in the temporary table
    ``_touched_run`` (site, table_name), from the lake's Delta tables of
    only those ``games``' partitions, through DuckDB."""
    lake = Lake(url, storage_options)
    for t in ("hands", "rejects", "seats"):
        scan(con, f"_delta_{t}", lake.table(t), t, _pruning(games, None, None))
    cols = {t: ", ".join(c) for t, c in _CROSS_INPUTS.items()}
    con.execute("CREATE SCHEMA xpass")
    con.execute(f"CREATE TABLE xpass.hands AS SELECT {cols['hands']} FROM _delta_hands "
                "SEMI JOIN _touched_run USING (site, table_name)")
    con.execute(f"CREATE TABLE xpass.rejects AS SELECT {cols['rejects']} FROM _delta_rejects r "
                "SEMI JOIN _touched_run t ON coalesce(r.site, '') = t.site "
                "AND r.table_name = t.table_name WHERE r.kind = 'parse'")
    con.execute(f"CREATE TABLE xpass.seats AS SELECT {cols['seats']} FROM _delta_seats "
                "SEMI JOIN xpass.hands USING (site, hand_id)")


def found_violations(con: Any) -> pa.Table:
    """The seam to the database's cross-hand pass: the violations of the
    chains in ``con`` (schema ``xpass``, see :func:`chains`), as rows of
    ``cross_violations`` (site, hand_id, code, line, message)."""
    from pipelines.crosshand import find

    con.execute("CREATE TABLE dirty_tables AS "
                "SELECT *, NULL::TIMESTAMP AS since FROM _touched_run")  # whole chains
    con.execute("SET search_path = 'xpass,main'")
    find(con)
    return con.sql(
        "SELECT site, hand_id, code, line, message FROM _found ORDER BY site, hand_id, line"
    ).to_arrow_table()


def cross_check(url: str, touched: Iterable[tuple[str, str, str | None]] = (),
                storage_options: dict[str, str] | None = None, _attempt: int = 0) -> int:
    """The cross-hand checks of the poker tables ``touched`` by this run
    (site, table name, game) and of every table named in ``dirty_tables``
    (a run killed before its pass left them): their violations replace the
    earlier ones in one Delta transaction; then the records of the tasks
    finished before the pass read the lake are deleted. Returns the number
    of violations written."""
    import shutil
    import tempfile

    lake = Lake(url, storage_options)
    done = lake.table(CHUNKS)  # snapshot first: every task finished by now is read below
    dirty = _small(lake, DIRTY)
    rows = set(zip(dirty.column("site").to_pylist(), dirty.column("table_name").to_pylist(),
                   dirty.column("game").to_pylist(), strict=True))
    touched = set(touched)
    rows |= touched
    rows = {r for r in rows if r[1]}
    finished = sorted({t for t in dirty.column("task").to_pylist()
                       if done.transaction_version(_app(t)) is not None})
    games = {g for _, _, g in rows}
    # a reject whose game could not be read: its table's chain is read in every game
    prune = None if None in games else sorted(g for g in games if g is not None)
    n = 0
    if rows:
        pairs = sorted({(s, t) for s, t, _ in rows})
        con = duckdb.connect()
        spill = tempfile.mkdtemp(prefix="hh-cross-")
        try:
            con.execute(f"SET memory_limit = '{CROSS_MEMORY}'")
            con.execute(f"SET temp_directory = '{spill}'")
            con.register("_touched_run", pa.table(
                {"site": [p[0] for p in pairs], "table_name": [p[1] for p in pairs]},
                schema=pa.schema([("site", pa.string()), ("table_name", pa.string())]),
            ))
            chains(con, url, prune, storage_options)
            found = found_violations(con)
            con.register("_found_rows", found)
            kept = con.sql(
                "SELECT f.*, h.table_name, h.game, h.started_at::DATE AS date "
                "FROM _found_rows f JOIN xpass.hands h USING (site, hand_id) "
                "ORDER BY site, hand_id, line"
            ).to_arrow_table().cast(_schema(CROSS))
        finally:
            con.close()
            shutil.rmtree(spill, ignore_errors=True)
        where = " OR ".join(
            f"(site = {_sql_str(s)} AND table_name = {_sql_str(t)})" for s, t in pairs)
        _stop_at("cross")
        try:
            write_deltalake(lake.uri(CROSS), kept, mode="overwrite", predicate=where,
                            storage_options=storage_options)
        except CommitFailedError:
            # another client's pass replaced these tables' violations meanwhile:
            # check again over what both have committed
            if _attempt >= RETRIES:
                raise
            return cross_check(url, touched, storage_options, _attempt + 1)
        n = kept.num_rows
    _stop_at("crossed")
    for _ in range(RETRIES):
        if not finished:
            break
        try:  # other clients' new records may land meanwhile: they stay
            lake.table(DIRTY).delete(f"task IN ({', '.join(_sql_str(t) for t in finished)})")
            break
        except CommitFailedError:
            continue
    return n


def invalid_of_run(url: str, run: int, partitions: Iterable[tuple[str | None, str | None]],
                   storage_options: dict[str, str] | None = None) -> int:
    """Hands stored by ``run`` found invalid, by the referee or by the
    cross-hand checks, read from only the partitions the run wrote."""
    lake = Lake(url, storage_options)
    where = _partition_predicate(partitions)
    con = duckdb.connect()
    scan(con, "h", lake.table("hands"), "hands", where)
    scan(con, "x", lake.table(CROSS), CROSS, where)
    row = con.execute(
        "SELECT count(*) FROM h WHERE import_run = $r AND (n_hand_violations > 0 "
        "OR EXISTS (SELECT 1 FROM x WHERE x.site = h.site AND x.hand_id = h.hand_id))",
        {"r": run}).fetchone()
    con.close()
    return int(row[0]) if row else 0


def pending(url: str, storage_options: dict[str, str] | None = None) -> int:
    """Records of ``dirty_tables``: tables whose cross-hand checks are still due."""
    return Lake(url, storage_options).table(DIRTY).count()


# -------------------------------------------------------------- maintenance


def optimize(url: str, retention_hours: int | None = None,
             storage_options: dict[str, str] | None = None) -> dict[str, dict[str, int]]:
    """Compact each table's small files (one Delta ``optimize`` each; the
    data does not change) and vacuum: remove the files no longer in the
    tables (replaced by the compaction) and those of attempts that never
    committed, older than ``retention_hours`` (the tables' setting, a week,
    when None). Returns per table the files added and removed by the
    compaction and the files vacuumed."""
    lake = Lake(url, storage_options)
    out = {}
    for name in (*TABLES, CROSS, CHUNKS, DIRTY):
        t = lake.table(name)
        got = t.optimize.compact()
        gone = t.vacuum(retention_hours=retention_hours, dry_run=False,
                        enforce_retention_duration=retention_hours is None, full=True)
        out[name] = {"added": int(got.get("numFilesAdded", 0)),
                     "removed": int(got.get("numFilesRemoved", 0)), "vacuumed": len(gone)}
    return out


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


def load(url: str, db: str, storage_options: dict[str, str] | None = None) -> dict[str, int]:
    """Copy a lake into a new (or empty) DuckDB file: the same tables a
    direct import of the same files gives. Returns rows per table."""
    target = duckdb.connect(db)
    try:
        schema.ensure(target)
        row = target.execute("SELECT count(*) FROM hands").fetchone()
        if row and row[0]:
            raise LakeError(f"{db} already holds hands: load a lake into a new database")
    finally:
        target.close()
    con = connect(url, storage_options=storage_options)
    con.execute(f"ATTACH {_sql_str(os.path.abspath(db))} AS target")
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


class NoLake(LakeError):
    """No lake where one was named (:meth:`Lake.require`)."""


def _fresh_rejects(tabs: Sequence[pa.Table], stored: pa.Table) -> list[pa.Table]:
    """Of each table of rejects (in commit order), the rows neither in
    ``stored`` nor in an earlier row: a parse reject by its text and line
    (pipelines.writer keeps it so), any other by text, file, line and
    kind (:data:`_REJECT_KEY`). A key with a null never matches, as in a join."""
    seen = {_reject_key(r) for r in stored.select(_REJECT_KEY).to_pylist()}
    out = []
    for tab in tabs:
        keep = []
        for k, r in enumerate(tab.select(_REJECT_KEY).to_pylist()):
            key = _reject_key(r)
            if key is None or key not in seen:
                keep.append(k)
                seen.add(key)
        out.append(tab if len(keep) == tab.num_rows else tab.take(pa.array(keep, pa.int64())))
    return out


def _reject_key(row: dict[str, Any]) -> tuple[Any, ...] | None:
    parse = row["kind"] == "parse"
    key = (row["content_hash"], row["line"], "parse") if parse else tuple(
        row[c] for c in _REJECT_KEY)
    return None if None in key else key
