"""An import run: sources -> workers (cut, hash, parse, validate, batch) ->
the one writer in this process -> the cross-hand checks.

Work is split by file and, for big plain files, by byte ranges cut at hand
boundaries: one pass over each file (``hh.read.cut.cut``) gives its chunks
and its SHA-256 together. Results come back in task order through the
bounded window of ``hh.pool.Pool`` (the pool ``hh validate`` uses), so
memory stays flat whatever the input's size and the database is written in
input order: two imports of the same files, or an import killed and run
again, give the same rows.

What is skipped, cheapest first:
- a file already imported whole, with the same size and SHA-256: its hands
  are counted as duplicates without reading them again;
- a file that only grew (a live session, or a log appended to): read from
  where the last import stopped;
- within a file seen before (or half imported when a run was killed): each
  hand whose SHA-256 is stored for that file's lines is skipped unparsed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from hh.pool import Pool, WorkerDied
from hh.read.cut import Chunk, cut
from hh.read.files import not_text, read_whole
from pipelines import crosshand, hooks, schema
from pipelines.dbhealth import is_storage_error
from pipelines.work import (
    Result,
    Task,
    arrow_memory,
    hh_version,
    process,
    wanted,
    worker_init,
)
from pipelines.writer import Counts, FileRow, Writer

if TYPE_CHECKING:
    import duckdb

CHUNK_BYTES = 2 * 1024 * 1024  # ~1,500 hands: parallel enough, small in memory
GROUP_HANDS = 12_000  # hands per write transaction (more: fewer commits)
# Less to read than this is imported in this process, without starting
# workers: spawning them costs about as much as judging a thousand hands.
POOL_MIN_BYTES = 2 * 1024 * 1024
# DuckDB's own memory (its buffers, tables not checkpointed yet, the sorts
# of the checks after the reading; it spills to a temporary file beyond
# it). Its default, 80% of the RAM, let the import process grow with the
# log. DuckDB caches the tables' blocks up to its limit as the database
# grows, so a limit that a small import already reaches keeps the peak the
# same for a large one: the reading, when this process also holds the
# workers' results on their way in, gets less; the checks after it, when
# those are gone, more (their sorts of every new hand's seats).
MEMORY_LIMIT = "128MB"
CHECK_MEMORY_LIMIT = "256MB"
_HASH_BLOCK = 4 * 1024 * 1024


class ImportFailure(Exception):
    """The import could not run (exit 2): the message says why, for users."""


def find_files(paths: Iterable[str], problems: list[str] | None = None) -> list[str]:
    """The files to read, in order, as ``hh validate`` finds them
    (:func:`hh.read.files.find_inputs`: a folder gives its *.txt, *.log and
    *.gz files recursively, sorted; ``-`` is standard input), by absolute
    path. A file reached twice (named and in a folder, through a link) is
    read once, where it is first reached. What cannot be read (a link that
    loops or points nowhere, a folder that cannot be listed) is left out
    and said in ``problems``, a line each. A missing path fails before
    anything is read."""
    from hh.read.files import MissingPath, Unreadable, find_inputs

    try:
        found = find_inputs(paths)
    except MissingPath as missing:
        raise ImportFailure(f"no such file or folder: {missing}") from None
    files: list[str] = []
    seen: set[tuple[int, int]] = set()
    for item in found:
        if isinstance(item, Unreadable):
            if problems is not None:
                problems.append(f"cannot read {item.path}: {item.reason}")
            continue
        if item != "-":
            with contextlib.suppress(OSError):  # gone since it was found: said when read
                st = os.stat(item)
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
            item = os.path.abspath(item)
        files.append(item)
    return files


def connect(db: str, wait: float | None = None, say: Callable[[str], None] | None = None) -> Any:
    """Open (or create) the database; while another process holds it, wait
    up to ``wait`` seconds (None: ``$HH_DB_WAIT`` or 30; negative: forever;
    pipelines.dblock), then fail with a message. A damaged file fails
    before anything is written (pipelines.dbhealth). Whoever closes the
    connection after writing calls :func:`closed`."""
    from pipelines.database import open_db
    from pipelines.dblock import DatabaseBusy, DatabaseUnusable

    try:
        con = open_db(db, timeout=wait, say=say)
    except DatabaseBusy as e:
        raise ImportFailure(f"{e}, or import into another file with --db") from None
    except DatabaseUnusable as e:
        raise ImportFailure(str(e)) from None
    try:
        schema.ensure(con)
    except schema.SchemaError as e:
        con.close()
        raise ImportFailure(f"{db}: {e}") from None
    except Exception as e:  # not a DuckDB file, or a damaged one
        con.close()
        raise ImportFailure(f"cannot use the database {db}: {e}") from None
    return con


def closed(con: Any, db: str) -> None:
    """Close a connection that wrote ``db`` without a failure: the file is
    as hh left it, and the next command need not scan it
    (pipelines.dbhealth.stamp)."""
    from pipelines.dbhealth import stamp

    con.close()
    stamp(db)


class NotText(Exception):
    """A file that is no text (hh.read.files.not_text): the message says so."""


def _sha256(path: str, size: int | None = None) -> str:
    """SHA-256 of the file's first ``size`` bytes (all of it: None)."""
    h = hashlib.sha256()
    left = size
    with open(path, "rb") as f:
        while left is None or left > 0:
            block = f.read(_HASH_BLOCK if left is None else min(_HASH_BLOCK, left))
            if not block:
                break
            h.update(block)
            if left is not None:
                left -= len(block)
    return h.hexdigest()


@dataclass
class _Plan:
    """What to read of one file."""

    name: str  # as stored: absolute path, or "-"
    path: str  # where to read it (a spooled copy for standard input)
    chunks: list[Chunk]
    sha256: str | None  # of the whole file, when it is read to its end
    size: int
    lines: int  # as the cut counted them
    before: int = 0  # hands counted by earlier imports (a file read from where it stopped)
    reopen: int = 0  # the line it resumes at, where an open hand may be stored (Task.reopen)

    def __post_init__(self) -> None:
        # A plain file is read up to the size the cut saw, not to its end as
        # the worker finds it: what is recorded (size, SHA-256, lines) is
        # what was read, though a client appends to the file meanwhile.
        last = self.chunks[-1]
        if last.end is None and not read_whole(self.path):
            self.chunks[-1] = replace(last, end=self.size)


ProgressFn = Callable[[int, int, int], None]  # (bytes done, files done, hands done)


@dataclass
class Busy:
    """Where an importer's reading went, in seconds, summed over its calls
    (``make bench`` reports them): the wall time of the reading (``reading``:
    from the first task handed out to the last batch written), the
    writer's part of it (``writing``: inserts, commits and what the hooks
    keep), and the workers' (``working``: each task's time where it ran,
    summed). The writer is on the critical path for ``writing / reading``
    of the reading; the workers idled for the rest of
    ``workers * reading - working``."""

    workers: int
    reading: float = 0.0
    writing: float = 0.0
    working: float = 0.0

    @property
    def writer_share(self) -> float:
        return self.writing / self.reading if self.reading else 0.0

    @property
    def workers_share(self) -> float:
        return self.working / (self.workers * self.reading) if self.reading else 0.0


class Importer:
    """Runs imports against one open database (several, for --watch)."""

    def __init__(
        self,
        con: Any,
        workers: int = 1,
        command: str = "import",
        chunk_bytes: int = CHUNK_BYTES,
    ) -> None:
        self.con = con
        self.workers = max(1, workers)
        arrow_memory()
        # overrides for tests (many small commits, files cut in several chunks)
        self.chunk_bytes = int(os.environ.get("HH_IMPORT_CHUNK_BYTES", chunk_bytes))
        self.group_hands = int(os.environ.get("HH_IMPORT_GROUP_HANDS", GROUP_HANDS))
        self.pool_min_bytes = int(os.environ.get("HH_IMPORT_POOL_MIN_BYTES", POOL_MIN_BYTES))
        self.version = hh_version()
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        row = con.execute("SELECT coalesce(max(import_run), 0) + 1 FROM imports").fetchall()
        self.run = int(row[0][0])
        con.execute(
            "INSERT INTO imports (import_run, started_at, hh_version, command) "
            "VALUES (?, now()::TIMESTAMP, ?, ?)",
            [self.run, self.version, command],
        )
        self.writer = Writer(con, self.run)
        self.pool: Pool | None = None
        self.errors: list[str] = []
        self.notes: list[str] = []  # for the user, not failures (exit 0)
        self.counts = Counts()
        self.busy = Busy(self.workers)

    def use(self, con: Any) -> None:
        """Go on with another connection to the same database (a watch lets
        the file go between two cycles: pipelines.dblock)."""
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        self.con = con
        self.writer.con = con

    def track(self) -> str:
        """From now on, the site and id of each hand stored also go to a
        temporary table of the connection, emptied here; returns its name
        (pipelines.hooks.STORED), which the hooks are given: a watch's
        cycle calls this before it imports."""
        self.con.execute(f"CREATE OR REPLACE TEMP TABLE {hooks.STORED} "
                         "(site VARCHAR, hand_id VARCHAR)")  # fmt: skip
        self.writer.stored = hooks.STORED
        return hooks.STORED

    # ------------------------------------------------------------ planning

    def _stored(self, name: str) -> tuple[Any, ...] | None:
        rows = self.con.execute(
            "SELECT sha256, size, lines, hands, status, open_at, open_line FROM files "
            "WHERE path = ?",
            [name],
        ).fetchall()
        return rows[0] if rows else None

    def plan(self, name: str, path: str, tail: bool) -> _Plan | None:
        """What to read of a file; None when it is known whole (counted here).
        One pass over the file cuts it and hashes it; a file stored before
        is cut from where the last import stopped, which is read only if
        the bytes before it are the same (the file only grew)."""
        row = self._stored(name)
        if row is not None:
            sha, done_size, lines, hands, status, open_at, open_line = row
            size = os.path.getsize(path)
            if status == "error" and sha is not None:  # no text when it was read
                if size == done_size and _sha256(path) == sha:
                    return None  # the same bytes: said then, not read again
                sha = lines = None  # changed since: read as a new file
            grown = sha is not None and lines is not None and 0 < (done_size or 0) <= size
            read = cut(path, self.chunk_bytes, start=done_size if grown else 0, digest=True)
            if status == "done" and done_size == read.size and sha == read.sha256:
                self.counts.files += 1
                self.counts.hands += hands or 0
                self.counts.duplicates += hands or 0
                return None
            if grown and sha == read.head_sha256:  # it grew: read from where it stopped
                whole = None if tail else read.sha256
                chunks = read.chunks
                if status == "done" and open_at is not None:
                    # its last hand had nothing after it: read again from its start
                    chunks[0] = replace(chunks[0], start=open_at, first_line=open_line)
                return _Plan(name, path, chunks, whole, read.size, read.lines, hands or 0,
                             chunks[0].first_line)
        why = not_text(path)
        if why is not None:
            raise NotText(f"{name} is not a hand history ({why}): it is not read again "
                          "until it changes")
        read = cut(path, self.chunk_bytes, digest=not tail)
        return _Plan(name, path, read.chunks, read.sha256, read.size, read.lines)

    def _present(self, names: list[str]) -> set[str]:
        """Which of these files have hands or rejects stored (one scan for
        the whole run), whatever the ``files`` table says: it may have been
        cleared, or a run killed before the file's row was written."""
        if not names:
            return set()
        self.con.register("b_names", pa.table({"name": names}))
        try:
            rows = self.con.execute(
                "SELECT DISTINCT file FROM hands WHERE file IN (SELECT name FROM b_names) "
                "UNION SELECT DISTINCT file FROM rejects WHERE file IN (SELECT name FROM b_names)"
            ).fetchall()
        finally:
            self.con.unregister("b_names")
        return {r[0] for r in rows}

    def _stored_hashes(self, name: str, first: int) -> pa.Table:
        """(line, content_hash) of what is stored for a file from line
        ``first`` on: one query per file, sliced per chunk by
        :func:`_known_in`, rather than a scan of the tables per chunk."""
        return self.con.sql(
            "SELECT line, content_hash FROM hands WHERE file = $f AND line >= $lo "
            "UNION ALL SELECT line, content_hash FROM rejects WHERE file = $f AND line >= $lo",
            params={"f": name, "lo": first},
        ).to_arrow_table()

    def _tasks(self, plans: list[_Plan], tail: bool) -> Iterator[Task]:
        seq = 0
        derive = wanted(self.con)
        present = self._present([p.name for p in plans])
        for plan in plans:
            stored = None
            if plan.name in present:
                stored = self._stored_hashes(plan.name, plan.chunks[0].first_line)
            for k, c in enumerate(plan.chunks):
                last = k + 1 == len(plan.chunks)
                end = None if last else plan.chunks[k + 1].first_line
                known: frozenset[str] = frozenset()
                if stored is not None and stored.num_rows:
                    known = _known_in(stored, c.first_line, end)
                reopen = 0
                if k == 0 and plan.reopen and stored is not None and stored.num_rows:
                    # a hand (or reject) stored where it resumes: the open last hand
                    at = pc.equal(stored.column("line"), plan.reopen)
                    reopen = plan.reopen if pc.any(at).as_py() else 0
                yield Task(c, plan.name, known, tail and last, self.version, seq, last, reopen,
                           derive)
                seq += 1
            del stored

    # ------------------------------------------------------------ running

    def _results(self, tasks: Iterator[Task], size: int) -> Iterator[Result]:
        """The tasks' results in order: in the workers, or here when there is
        little to read (``size`` bytes) and no pool was started yet."""
        if self.pool is None and size < self.pool_min_bytes:
            return (process(t) for t in tasks)
        return self.map(process, tasks)

    def map(self, fn: Callable[[Any], Result], tasks: Iterable[Any]) -> Iterator[Result]:
        """``fn`` over tasks in the workers (started with spawn: this process
        holds DuckDB's threads); results in task order, at most two per
        worker in flight (memory stays flat, writes stay in order). A worker
        that dies ends the import with a message (exit 2): what is written
        stays, and the same command again completes it."""
        if self.workers == 1:
            for t in tasks:
                yield fn(t)
            return
        if self.pool is None:
            self.pool = Pool(self.workers, worker_init, start="spawn")
        try:
            yield from self.pool.map(fn, tasks, _describe)
        except WorkerDied as died:
            raise ImportFailure(
                f"{died}; what was imported before is kept: run the same command again "
                f"to complete the import"
            ) from None

    def import_files(
        self, files: list[str], tail: bool = False, progress: ProgressFn | None = None
    ) -> Counts:
        """Import files (``-``: standard input); return this call's counts."""
        before = Counts()
        before.add(self.counts)
        spooled: list[str] = []
        try:
            plans: list[_Plan] = []
            for name in files:
                path = name
                if name == "-":
                    path = _spool_stdin()
                    spooled.append(path)
                try:
                    plan = self.plan(name, path, tail)
                except OSError as e:
                    self._unreadable(name, e)
                    continue
                except NotText as e:
                    self._not_text(name, path, str(e))
                    continue
                if plan is not None:
                    plans.append(plan)
            self._run(plans, tail, progress)
        finally:
            for p in spooled:
                os.unlink(p)
        out = Counts()
        out.add(self.counts)
        for field in vars(out):
            setattr(out, field, getattr(out, field) - getattr(before, field))
        return out

    def _unreadable(self, name: str, e: OSError) -> None:
        message = f"cannot read {name}: {e.strerror or e}"
        self.errors.append(message)
        self.writer.write([], [FileRow(name, None, None, None, None, "error", message)])

    def _not_text(self, name: str, path: str, message: str) -> None:
        """A file that is no text: an error of the file, said once; its row
        keeps its size and SHA-256, so that no import reads it again while
        it is the same (:meth:`plan`)."""
        self.errors.append(message)
        self.writer.write([], [FileRow(name, _sha256(path), os.path.getsize(path), None, 0,
                                       "error", message)])

    def _run(self, plans: list[_Plan], tail: bool, progress: ProgressFn | None) -> None:
        size = sum(
            (c.end if c.end is not None else p.size) - c.start for p in plans for c in p.chunks
        )
        # While workers read, they hold every core: DuckDB's own threads would
        # only compete with them (the writer then costs a sixth more CPU). The
        # checks after the reading have the cores to themselves again.
        if self.workers > 1:
            self.con.execute("SET threads = 1")
        try:
            self._read(plans, tail, progress, size)
        finally:
            if self.workers > 1:
                with contextlib.suppress(Exception):  # (a broken connection: its error stands)
                    self.con.execute("RESET threads")

    def _read(self, plans: list[_Plan], tail: bool, progress: ProgressFn | None,
              size: int) -> None:  # fmt: skip
        by_name = {p.name: p for p in plans}
        failed: set[str] = set()  # files a chunk of which could not be read
        runs: dict[str, int] = {}
        group: list[Result] = []
        files: list[FileRow] = []
        hands = 0
        done_bytes = 0
        done_files = 0

        busy = self.busy
        began = time.perf_counter()

        def flush() -> None:
            nonlocal group, files, hands
            if group or files:
                start = time.perf_counter()
                self.counts.add(self.writer.write(group, _last_per_path(files)))
                keep(self.con, group)
                busy.writing += time.perf_counter() - start
            group, files, hands = [], [], 0

        for r in self._results(self._tasks(plans, tail), size):
            busy.working += r.seconds
            plan = by_name[r.task.name]
            if r.error is not None:
                if plan.name not in failed:  # said once a file: its other chunks fail alike
                    failed.add(plan.name)
                    self.errors.append(r.error)
                    files.append(FileRow(plan.name, None, None, None, None, "error", r.error))
                    flush()
                continue
            if plan.name in failed:  # a chunk read before the file went: not a part of it
                continue
            # (an open last hand that grew is not one more hand of its file)
            runs[plan.name] = runs.get(plan.name, 0) + r.runs - bool(r.replaces)
            group.append(r)
            hands += r.tables["hands"].num_rows + r.tables["rejects"].num_rows
            chunk = r.task.chunk
            done_bytes += (chunk.end if chunk.end is not None else plan.size) - chunk.start
            if r.task.last and r.end is not None and not r.task.tail and not r.open:
                self.notes.append(
                    f"{plan.name}: the hand at line {r.end_line} is unfinished (it stops "
                    f"before its end): held back until the file is completed"
                )
            if r.task.last:
                done_files += 1
                self.counts.files += 1
                files.append(self._file_row(plan, r, runs[plan.name]))
            else:  # committed in part: a rerun must look for what is stored
                files.append(FileRow(plan.name, None, None, None, None, "partial"))
            if hands >= self.group_hands or (r.task.last and r.task.tail):
                flush()
            if progress is not None:
                progress(done_bytes, done_files, self.counts.hands + sum(x.runs for x in group))
        flush()
        busy.reading += time.perf_counter() - began

    def _file_row(self, plan: _Plan, r: Result, runs: int) -> FileRow:
        hands = plan.before + runs
        if r.end is not None and not r.open:  # a file still being written: what was read of it
            assert r.end_line is not None
            return FileRow(
                plan.name, _sha256(plan.path, r.end), r.end, r.end_line - 1, hands, "partial"
            )
        if r.open:  # its last hand is stored, but nothing follows it: it may still grow
            return FileRow(plan.name, plan.sha256, plan.size, plan.lines, hands, "done", None,
                           r.end, r.end_line)
        return FileRow(plan.name, plan.sha256, plan.size, plan.lines, hands, "done")

    # ------------------------------------------------------------ after

    def finish(self) -> dict[str, object]:
        """Cross-hand checks over the tables touched, the import hooks (when
        this run stored hands: a re-import that adds nothing stays quick),
        then the summary."""
        self.con.execute(f"SET memory_limit = '{CHECK_MEMORY_LIMIT}'")
        try:
            crosshand.check(self.con)
            if self.counts.imported or self.counts.replaced:
                after_import(self.con)
        finally:
            with contextlib.suppress(Exception):  # (a broken connection: its error stands)
                self.con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        row = self.con.execute(
            "SELECT count(*) FROM hands WHERE import_run = ? AND NOT valid", [self.run]
        ).fetchall()
        invalid = int(row[0][0])
        c = self.counts
        return {
            "files": c.files,
            "hands": c.hands,
            "imported": c.imported,
            "duplicates": c.duplicates,
            "replaced": c.replaced,
            "invalid": invalid,
            "rejected": c.rejected,
            "conflicts": c.conflicts,
        }

    def record(self, summary: dict[str, object]) -> None:
        import json

        self.con.execute(
            "UPDATE imports SET finished_at = now()::TIMESTAMP, summary = ? WHERE import_run = ?",
            [json.dumps(summary), self.run],
        )

    def release(self) -> None:
        """The import's reading is over: its workers end while this process
        checks and stores the rest (:meth:`close` waits for them)."""
        if self.pool is not None:
            self.pool.close(wait=False)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def keep(con: duckdb.DuckDBPyConnection, results: Sequence[Result]) -> None:
    """After a group's commit: each deriver (pipelines.hooks.DERIVERS) stores
    what the workers derived from its batches. A hook that fails is said on
    standard error and does not fail the import: what it lacks is computed
    later."""
    if not hooks.enabled():
        return
    for name, hook in hooks.derivers():
        derived = [r.derived[name] for r in results if name in r.derived]
        if not derived:
            continue
        try:
            hook.keep(con, derived)
        except Exception as error:
            if is_storage_error(error):  # the database's, not the hook's: the import's
                raise
            hooks.hook_failed(name, error)


def after_import(con: duckdb.DuckDBPyConnection, cache: str | None = None,
                 stored: str | None = None) -> None:
    """Run every after-import hook (pipelines.hooks.AFTER_IMPORT) on the
    database just written (the import's read-write connection, committed;
    for a lake, its views and where the layers above keep what they derive:
    ``cache``, else they choose beside the database file).

    This is how the layers above keep what they derive from new hands up to
    date (``reports`` computes their per-hand counts, as PokerTracker fills
    its cache on import: docs/statistics.md) without the import knowing
    them: data still flows one way. A hook that fails is reported on
    standard error and does not fail the import; ``HH_NO_IMPORT_HOOKS=1``
    runs none. ``stored``: the hands stored since the hooks last ran, when
    the import knows them (pipelines.hooks.AfterImport)."""
    if not hooks.enabled():
        return
    for name in hooks.AFTER_IMPORT:
        try:
            hooks.after_import_hook(name)(con, cache, stored)
        except Exception as error:  # a hook never fails the import,
            if is_storage_error(error):  # a damaged or full database does
                raise
            hooks.hook_failed(name, error)


def _describe(task: Any) -> str:
    """What a task reads, for the message of a worker that died on it."""
    if isinstance(task, Task):
        line = task.chunk.first_line
        return f"reading {task.name}" + (f" from line {line}" if line > 1 else "")
    return "judging stored hands again"


def _known_in(stored: pa.Table, first: int, end: int | None) -> frozenset[str]:
    """The content hashes of ``stored`` (line, content_hash) for lines
    [first, end) of its file: a chunk's known hands."""
    lines = stored.column("line")
    mask = pc.greater_equal(lines, first)
    if end is not None:
        mask = pc.and_(mask, pc.less(lines, end))
    return frozenset(stored.column("content_hash").filter(mask).to_pylist())


def _last_per_path(rows: list[FileRow]) -> list[FileRow]:
    out: dict[str, FileRow] = {}
    for r in rows:
        out[r.path] = r
    return list(out.values())


def _spool_stdin() -> str:
    """Standard input copied to a temporary file, so it is read like one."""
    fd, path = tempfile.mkstemp(prefix="hh-stdin-", suffix=".txt")
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(sys.stdin.buffer, out, 1024 * 1024)
    return path


def timed() -> Callable[[], float]:
    """A clock started now: the seconds since, rounded to milliseconds."""
    start = time.perf_counter()
    return lambda: round(time.perf_counter() - start, 3)
