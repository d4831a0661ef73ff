"""The per-chunk work: read, hash, parse, validate, build the batch.

:func:`process` is a pure function of its :class:`Task` (a byte range of a
file, the content hashes already stored for it, the hh version): it reads
the file and returns Arrow tables, touching no database. The import runs it
in a process pool and hands the result to the one writer; the lake can run
the same function anywhere (a Dask task).

A run whose SHA-256 is already known is counted and skipped before it is
parsed: re-importing a file costs a hash per hand, not a parse.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO

import pyarrow as pa

from hh.parse import ParseError, Record, parse_run
from hh.read.cut import Chunk, runs
from hh.read.files import read_whole
from hh.read.lines import MAX_LINE
from hh.read.runs import Run
from hh.validate import ActionFigures, Verdict, validate
from pipelines.rows import Batch, content_hash

_SCAN_BLOCK = 1024 * 1024


def worker_init() -> None:
    """Run once in each worker process of the import's pool: the modules
    imported so far are frozen out of the garbage collector's sight, and it
    runs ten times less often. A chunk allocates millions of small objects,
    nearly all freed by reference counting; the default thresholds made the
    collector walk the batch being built over and over. Reference cycles are
    still collected, per 100,000 allocations. Arrow allocates with the
    system's allocator (:func:`arrow_memory`)."""
    import gc

    import hh.parallel  # noqa: F401 - process() needs it: imported before freezing

    arrow_memory()
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)


def arrow_memory() -> None:
    """Arrow's buffers from the system's allocator (malloc), in each process
    of an import. Arrow's default (mimalloc) keeps the segments of freed
    buffers for reuse, and an import allocates and frees each batch's
    buffers over and over: its processes held a sixth more memory with it,
    at the same speed (docs/decisions.md)."""
    pa.set_memory_pool(pa.system_memory_pool())


def hh_version() -> str:
    """The version that judges, with the build: the compiled referee (make
    fast) is the same source, but a verdict should say which one gave it."""
    import hh.validate

    compiled = not (hh.validate.__file__ or "").endswith(".py")
    return hh.__version__ + ("+mypyc" if compiled else "")


@dataclass(frozen=True, slots=True)
class Task:
    """One chunk of one file. ``name`` is the file as stored (absolute path,
    or ``-`` for standard input); ``known`` the content hashes already in the
    database for this chunk's lines; ``tail``: the file is still being
    written, so its last run is held back until more follows it."""

    chunk: Chunk
    name: str
    known: frozenset[str] = frozenset()
    tail: bool = False
    hh_version: str = ""
    seq: int = 0  # the task's place in the run (results are written in this order)
    last: bool = True  # the file's last chunk
    # the line where a file read again from where the last import stopped
    # resumes (0: none): a hand stored there was the file's last, with
    # nothing after it; read again with other text, it grew, and replaces it
    reopen: int = 0
    # per hh.derive hook, its name and what it computes of each hand for this
    # database (``hook.wants(con)``, see :func:`wanted`); empty: nothing derived
    derive: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class Result:
    task: Task
    tables: dict[str, pa.Table] = field(default_factory=dict)
    runs: int = 0  # hands and rejected runs read (known ones included)
    known: int = 0  # skipped before parsing: already stored
    end: int | None = None  # byte offset where the held-back (or open) run begins
    end_line: int | None = None  # its first line (the next line to read)
    # the last run was stored though nothing follows it (no blank line, no
    # hand): the file's ``open`` hand, read again should the file grow
    open: bool = False
    replaces: int = 0  # Task.reopen, when the run there was stored with other text
    error: str | None = None  # the file could not be read
    derived: dict[str, dict[str, pa.Table]] = field(default_factory=dict)  # by hook
    seconds: float = 0.0  # the time the task took where it ran (the import's busy figures)


def derive_hooks() -> tuple[tuple[str, Any], ...]:
    """The installed ``hh.derive`` entry points, by name: what the layers
    above keep of each hand (the reports' all-in equity,
    reports.players.imported), computed in the workers from each batch
    (``derive(tables, wants)``) and stored by the writer's process after each
    commit (``keep(con, derived)``), so that nothing is left to a second
    pass over the database. Data still flows one way: the import knows
    them only as names. ``HH_NO_IMPORT_HOOKS=1`` loads none.

    A hook may also define ``wants(con)``: what it computes for the
    database of ``con`` (a picklable value, given to each ``derive`` call;
    without it, None), asked once per run by the import's process, so that
    a database pays only for what the layers above read of it."""
    if os.environ.get("HH_NO_IMPORT_HOOKS"):
        return ()
    return _derive_hooks()


def wanted(con: Any) -> tuple[tuple[str, Any], ...]:
    """Each installed hook's name and what it computes for the database of
    ``con`` (:attr:`Task.derive`)."""
    out = []
    for name, hook in derive_hooks():
        try:
            out.append((name, hook.wants(con) if hasattr(hook, "wants") else None))
        except Exception as error:  # derived later, as when its derive fails
            hook_failed(name, error)
    return tuple(out)


def hook_failed(name: str, error: BaseException) -> None:
    """A hook that failed, said on standard error as every command says a
    problem (escaped: the error may quote a name); it never fails the import."""
    from hh.cli_support import say

    say(f"import hook {name} failed: {error}")


@functools.cache
def _derive_hooks() -> tuple[tuple[str, Any], ...]:
    from importlib.metadata import entry_points

    found = sorted(entry_points(group="hh.derive"), key=lambda e: e.name)
    return tuple((ep.name, ep.load()) for ep in found)


def _derive(result: Result) -> None:
    """Each hook's rows for the result's batch; a hook that fails is said on
    standard error and never fails the import (the rows are then computed
    later, by the hook after the import or by a report)."""
    hooks = dict(derive_hooks())
    for name, wants in result.task.derive:
        hook = hooks.get(name)
        if hook is None:
            continue
        try:
            result.derived[name] = hook.derive(result.tables, wants)
        except Exception as error:
            hook_failed(name, error)


def _runs(task: Task, long: list[int]) -> Iterator[Run]:
    """The chunk's runs, cut as ``hh validate`` cuts them (hh.read.cut.runs);
    the numbers of lines too long are appended to ``long`` as they are read.
    A file still being written is read the same way, up to the size the
    import found (its last chunk's end)."""
    return runs(replace(task.chunk, name=task.name), long)


def process(task: Task) -> Result:
    """Read one chunk and build its batch (see the module's docstring); the
    result says how long that took (:attr:`Result.seconds`)."""
    start = time.perf_counter()
    result = _process(task)
    result.seconds = time.perf_counter() - start
    return result


def _process(task: Task) -> Result:
    from hh.parallel import failed_verdict as _failed  # as hh validate judges it

    result = Result(task)
    batch = Batch()
    chunk = task.chunk
    tail = task.tail and not read_whole(chunk.path)
    version = task.hh_version or hh_version()
    pending: Run | None = None
    long: list[int] = []  # lines cut at hh.read.lines.MAX_LINE: their runs are rejects
    try:
        for run in _runs(task, long):
            if pending is not None:
                _one(pending, task, batch, result, version, _failed, long=long)
            pending = run
        if pending is not None:
            # the file's last run: whole when a blank line follows it (or it
            # cannot be placed); else it may still be being written
            # (docs/decisions.md, "A hand is judged only when it is whole")
            at = None
            if task.last and chunk.end is not None and pending.corrupt is None:
                at = _open_at(pending, chunk)
            if at is not None and tail:
                # a hand perhaps still being written: held back, read again from its start
                result.end, result.end_line = at, pending.start
            elif (
                at is not None
                and _too_long(pending, long) is None
                and content_hash(pending.raw) not in task.known
                and _cut_short(pending, chunk, at)
            ):
                # a hand cut at the end of the file: pending, read again when it grows
                result.end, result.end_line = at, pending.start
            else:
                _one(pending, task, batch, result, version, _failed, long=long)
                if at is not None:  # stored, but read again should the file grow
                    result.end, result.end_line, result.open = at, pending.start, True
        elif tail:  # nothing but blank lines: read again from the chunk's start
            result.end, result.end_line = chunk.start, chunk.first_line
    except OSError as e:
        result.error = f"cannot read {task.name}: {e.strerror or e}"
        return result
    except Exception as e:  # (out of memory, a bug): this file fails, not the run
        where = f" from line {chunk.first_line}" if chunk.first_line > 1 else ""
        result.error = f"cannot import {task.name}{where}: {type(e).__name__}: {e}"
        return result
    result.tables = batch.tables()
    _derive(result)
    return result


def _open_at(run: Run, chunk: Chunk) -> int | None:
    """Where ``run``, the last run of the file (``chunk`` is its last chunk,
    bounded by the size the import recorded), begins, when nothing follows
    it: no line after its own, not even a blank one (its last line may lack
    its line end). None when a line follows it (it ended at a blank line: it
    is whole) or it cannot be placed."""
    if not run.lines:
        return None
    assert chunk.end is not None
    with open(chunk.path, "rb") as f:
        at = _line_offset(f, chunk.start, chunk.end, run.start - chunk.first_line)
        if at is None:
            return None
        f.seek(at)
        ends, final = 0, b""  # the line ends from the run's start on, and the last byte
        while (block := f.read(min(_SCAN_BLOCK, chunk.end - f.tell()))) != b"":
            ends += block.count(b"\n")
            final = block[-1:]
    if ends > len(run.lines) or (ends == len(run.lines) and final != b"\n"):
        return None  # lines follow the run: it ended, at a blank line
    return at


def _cut_short(run: Run, chunk: Chunk, at: int) -> bool:
    """Whether ``run``, the file's last run with nothing after it (it
    begins at byte ``at``), is a hand cut at the end of the file
    (docs/decisions.md, "Import under faults"): it does not parse because
    it stops before its end: its last line has no line end, or the parser
    wanted more lines than it has."""
    record = parse_run(run)
    if record.hand is not None or record.error is None:
        return False
    assert chunk.end is not None
    open_line = False
    if chunk.end > at:
        with open(chunk.path, "rb") as f:
            f.seek(chunk.end - 1)
            open_line = f.read(1) != b"\n"
    return open_line or record.error.line > run.start + len(run.lines) - 1


def _line_offset(f: BinaryIO, start: int, end: int, skip: int) -> int | None:
    """The offset of the line ``skip`` lines after the one at ``start``
    (None: not before ``end``)."""
    f.seek(start)
    pos = start
    while skip > 0:
        block = f.read(min(_SCAN_BLOCK, end - pos))
        if not block:
            return None
        k = -1
        while skip > 0:
            k = block.find(b"\n", k + 1)
            if k < 0:
                break
            skip -= 1
        if skip == 0:
            return pos + k + 1
        pos += len(block)
    return pos


def _too_long(run: Run, long: list[int]) -> int | None:
    """The first line of ``run`` cut at hh.read.lines.MAX_LINE, if any."""
    if long:
        end = run.start + len(run.lines)
        for n in long:
            if run.start <= n < end:
                return n
    return None


def _long_reject(run: Run, line: int) -> Record:
    """The reject of a run with a line too long: its text as read (that
    line's beginning kept), the place its first lines give."""
    record = parse_run(run)
    message = (
        f"a line longer than {MAX_LINE:,} bytes: hand-history lines are far shorter (the "
        f"file may be no hand history); its first {MAX_LINE:,} bytes are kept"
    )
    error = ParseError(message, line, 1, run.lines[line - run.start][:80])
    # (built, not dataclasses.replace: the compiled build's records are not dataclasses)
    return Record(record.file, record.line, record.raw, None, error, record.hand_id, record.site)


def _one(
    run: Run, task: Task, batch: Batch, result: Result, version: str,
    failed: Callable[[Record], Verdict], file: str | None = None, long: list[int] | None = None,
) -> None:
    name = task.name if file is None else file
    raw = run.raw
    digest = content_hash(raw)
    if run.start == task.reopen:  # the file's open last hand, read again
        if digest in task.known:
            return  # as it was: counted when it was stored
        result.replaces = run.start  # grown: it replaces the one stored (not a new hand)
    result.runs += 1
    if digest in task.known:
        result.known += 1
        return
    cut = _too_long(run, long) if long else None
    if cut is not None:
        record = _long_reject(run, cut)
        batch.columns.add_reject(record, failed(record), digest)
        batch.added()
        return
    record = parse_run(run)
    if record.hand is None:
        batch.columns.add_reject(record, failed(record), digest)
        batch.added()
        return
    figures = ActionFigures()
    verdict = validate(record.hand, name, figures=figures)
    batch.columns.add_hand(record.hand, verdict, figures, record.raw, digest, name, version)
    batch.added()


@dataclass(frozen=True, slots=True)
class TextTask:
    """Stored hands to judge again (``hh import --revalidate``): their file,
    first line and raw text."""

    texts: tuple[tuple[str | None, int, str], ...]
    hh_version: str = ""


def process_texts(task: TextTask) -> Result:
    """Parse and judge stored raw texts again: the same batch as an import
    of them would give (a text that no longer parses becomes a reject)."""
    from hh.parallel import failed_verdict as _failed

    result = Result(Task(Chunk(""), ""))
    batch = Batch()
    version = task.hh_version or hh_version()
    for file, line, raw in task.texts:
        run = Run(file, line, raw.split("\n"), [])
        _one(run, result.task, batch, result, version, _failed, file)
    result.tables = batch.tables()
    return result
