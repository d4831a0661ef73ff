"""The import on Dask: chunks of files spread over a cluster, into the lake.

``hh import PATH... --engine dask [--scheduler ADDRESS] --lake DIR``

Each Dask task is a group of consecutive chunks of about ``chunk_bytes``
(``hh.read.cut.chunks``: a file, or a byte range of a big plain file cut at a
hand boundary; small files are grouped, :func:`group`). A task runs the
local import's own per-chunk function (``pipelines.work.process``) on a
worker and writes the group's tables as temporary Parquet parts
(``Lake.write_task``, uncommitted files in the Delta tables' folders); the
client commits the finished tasks in input order, several together
(``Committer.commit``: a Delta transaction per table for the group,
:data:`COMMIT_SECONDS`), so the only work on the client is deciding
duplicates by key in the partitions a group touches. Without
``--scheduler`` a ``LocalCluster`` of one single-threaded worker process per
core is started (parsing is pure Python: threads would share one GIL).

A worker that dies mid-task is Dask's to handle: the scheduler gives the
task to another worker (up to ``distributed.scheduler.allowed-failures``
times). The killed attempt's files are never committed (each attempt
writes under its own id; ``hh lake optimize`` vacuums them). A chunk that
still fails is listed as left to do; running the same command again does
exactly those chunks, since committed ones are skipped, and first finishes
any task a killed client had begun (``pipelines.lake.unfinished``).
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hh.pool import default_workers
from hh.read.cut import CHUNK_BYTES
from hh.read.files import not_text
from pipelines import hooks
from pipelines.lake import (
    Committer,
    FileFacts,
    Lake,
    Written,
    committed_chunks,
    cross_check,
    derived_path,
    file_facts,
    invalid_of_run,
    next_run,
    task_id,
    unfinished,
)
from pipelines.work import Task, hh_version, worker_init
from pipelines.writer import Counts


@dataclass
class Summary:
    """The import's summary (the keys of ``hh import --json``), plus the
    chunks that could not be done."""

    files: int = 0
    hands: int = 0
    imported: int = 0
    duplicates: int = 0
    invalid: int = 0
    rejected: int = 0
    conflicts: int = 0
    seconds: float = 0.0
    skipped_chunks: int = 0  # committed by an earlier run
    left: list[str] = field(default_factory=list)  # chunks not done, and why
    errors: list[str] = field(default_factory=list)  # files not read, and why (no text)

    def to_json(self) -> dict[str, Any]:
        return dict(vars(self))


_READY = False


def _write_task(
    tasks: list[Task], task: str, facts: dict[str, FileFacts], url: str, run: int,
    imported_at: dt.datetime, storage_options: dict[str, str] | None = None,
) -> Written:
    """The Dask task (module level, so workers import it by name): the
    chunks of one task into temporary parts. The first call in a worker
    process tunes its garbage collector as the local import's pool does."""
    global _READY
    if not _READY:
        import multiprocessing

        if multiprocessing.parent_process() is not None:  # a worker process, not a thread
            worker_init()
        _READY = True
    return Lake(url, storage_options).write_task(tasks, task, run, imported_at, facts)


def group(tasks: Sequence[Task], target: int) -> list[list[Task]]:
    """Consecutive chunks in groups of about ``target`` bytes, one Dask
    task each: a big file is cut into chunks of that size already, and
    small files (a session's log is often a few hundred hands) are read
    together, so that every task, every commit and every set of parts
    covers thousands of hands, not a few dozen. The groups keep the input
    order, which commits follow."""
    out: list[list[Task]] = []
    size = 0
    for task in tasks:
        c = task.chunk
        n = (c.end if c.end is not None else _size(c.path)) - c.start
        if not out or size + n > target:
            out.append([])
            size = 0
        out[-1].append(task)
        size += n
    return out


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _describe(task: Task) -> str:
    c = task.chunk
    if c.start == 0 and c.end is None:
        return task.name
    return f"{task.name} bytes {c.start}-{'end' if c.end is None else c.end} (line {c.first_line})"


def plan(files: Sequence[str], lake: Lake, chunk_bytes: int = CHUNK_BYTES,
         facts: dict[str, FileFacts] | None = None, refused: list[str] | None = None,
         ) -> tuple[list[tuple[str, list[Task]]], int, int]:
    """The tasks of a run (their ids and chunks, in input order), how many
    chunks earlier runs committed and the hands those chunks held. A task a
    killed client had begun is planned again as the same chunks, under the
    same id, where the files have not changed since. ``facts`` receives
    each file's lines and SHA-256, found by the cut (for the workers);
    ``refused`` the message of each file that is no text, which is not read
    (hh.read.files.not_text, as the local import)."""
    version = hh_version()
    paths = []
    for name in files:
        path = os.path.abspath(name)
        try:
            why = not_text(path)
        except OSError:
            why = None  # the cut says it
        if why is None:
            paths.append(path)
        elif refused is not None:
            refused.append(f"{path} is not a hand history ({why}): it is not read")
    rows = committed_chunks(lake, paths).to_pylist()
    done = {(r["path"], r["start"], r["end"]): r for r in rows}
    begun = {tuple(c[:3]): task for task, listed in unfinished(lake).items() for c in listed}
    fresh: list[Task] = []
    resumed: dict[str, list[Task]] = {}
    skipped = seen = 0
    for path in paths:
        cut, found = file_facts(path, chunk_bytes)
        if found is not None and facts is not None:
            facts[path] = found
        for k, chunk in enumerate(cut):
            task = Task(chunk, path, hh_version=version, seq=len(fresh), last=k == len(cut) - 1)
            row = done.get((path, chunk.start, chunk.end))
            if row is not None and _unchanged(path, row):
                skipped += 1
                seen += row["hands"]
                continue
            key = (path, chunk.start, chunk.end)
            if key in begun:
                resumed.setdefault(begun[key], []).append(task)
            else:
                fresh.append(task)
    out: list[tuple[str, list[Task]]] = []
    for begun_as, group_ in resumed.items():
        if task_id(group_) == begun_as:  # the same chunks of the same, unchanged files
            out.append((begun_as, group_))
        else:
            fresh += group_
    fresh.sort(key=lambda t: (paths.index(t.name), t.chunk.start))
    out += [(task_id(g), g) for g in group(fresh, chunk_bytes)]
    out.sort(key=lambda g: (paths.index(g[1][0].name), g[1][0].chunk.start))
    return out, skipped, seen


def _unchanged(path: str, row: dict[str, Any]) -> bool:
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_size, st.st_mtime_ns) == (row["size"], row["mtime_ns"])


def local_cluster(workers: int | None = None) -> Any:
    """A LocalCluster sized to the machine: one single-threaded process per core."""
    from distributed import LocalCluster

    n = workers or default_workers()
    return LocalCluster(
        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=40,
    )


# Finished tasks wait to be committed together (one Delta commit per table
# for the group, pipelines.lake.Committer.commit): a group is committed
# once its first task has waited this long, once it has this many tasks, or
# once no task is left running. Each commit costs the client about the same
# whatever its size, and on a shared machine that cost is taken from the
# workers; a killed client loses at most this much of their work.
COMMIT_SECONDS = 10.0
COMMIT_TASKS = 32


def run_import(
    files: Sequence[str],
    url: str,
    *,
    scheduler: str | None = None,
    client: Any = None,
    workers: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    progress: bool = False,
    on_commit: Callable[[Written], None] | None = None,
    storage_options: dict[str, str] | None = None,
    commit_seconds: float = COMMIT_SECONDS,
    commit_tasks: int = COMMIT_TASKS,
) -> Summary:
    """Import ``files`` into the lake at ``url`` on Dask: on ``client`` if
    given, else on the scheduler at ``scheduler``, else on a new
    LocalCluster. Commits every task that finishes, in input order, in
    groups (``commit_seconds``, ``commit_tasks``: see :data:`COMMIT_SECONDS`;
    0 seconds commits each task as soon as its turn comes); lists the rest.
    ``on_commit`` hears of each task once its group is committed."""
    from distributed import Client, as_completed

    start = time.perf_counter()
    lake = Lake(url, storage_options)
    lake.create()
    committer = Committer(lake, next_run(lake))
    facts: dict[str, FileFacts] = {}
    refused: list[str] = []
    groups_, skipped, seen = plan(files, lake, chunk_bytes, facts, refused)
    groups = [g for _, g in groups_]
    tasks = [t for g in groups for t in g]
    summary = Summary(files=len(files) - len(refused), skipped_chunks=skipped, errors=refused)
    counts = Counts(hands=seen, duplicates=seen)
    own_cluster = None
    own_client = None
    if client is None:
        if scheduler is None:
            own_cluster = local_cluster(workers)
            own_client = client = Client(own_cluster)
        else:
            own_client = client = Client(scheduler)
    try:
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        last = [{t.chunk.path: facts[t.chunk.path] for t in g
                 if t.chunk.end is None and t.chunk.path in facts}
                for g in groups]  # what a task's last chunks need of the files' facts
        futures = client.map(
            _write_task, groups, [k for k, _ in groups_], last, url=url, run=committer.run,
            imported_at=now, storage_options=storage_options, pure=False,
        )
        order = {f.key: k for k, f in enumerate(futures)}
        ready: dict[int, Written | None] = {}  # finished, waiting for their turn
        waiting: list[Written] = []  # their turn has come: the next group to commit
        since = 0.0  # when the first of them began to wait
        turn = 0
        bar, tick = _bar(progress, len(tasks))

        def commit() -> None:
            got = committer.commit(waiting)
            counts.add(got)
            if on_commit is not None:
                for w in waiting:
                    on_commit(w)
            waiting.clear()

        try:
            for future in as_completed(futures):
                k = order[future.key]
                try:
                    written: Written | None = future.result()
                except Exception as e:  # a task Dask gave up on (KilledWorker, an error)
                    summary.left += [
                        f"{_describe(t)}: {type(e).__name__}: {e}" for t in groups[k]
                    ]
                    written = None
                # the result is here: the cluster may forget it (and need not
                # compute it again if its worker dies later)
                future.release()
                ready[k] = written
                tick(sum(r.runs for r in written.chunks if r.error is None)
                     if written is not None else 0, len(groups[k]))
                # commit in input order, as the local import writes: the first
                # of two hands with one key is the same one in both
                while turn in ready:
                    done = ready.pop(turn)
                    turn += 1
                    if done is None:
                        continue
                    summary.left += [
                        f"{_describe(r.task)}: {r.error}" for r in done.chunks if r.error
                    ]
                    if not waiting:
                        since = time.monotonic()
                    waiting.append(done)
                if waiting and (turn == len(futures) or len(waiting) >= commit_tasks
                                or time.monotonic() - since >= commit_seconds):
                    commit()
            if waiting:
                commit()
        finally:
            if bar is not None:
                bar.stop()
        _finish(client, url, committer, counts.imported > 0, storage_options)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()
    summary.invalid = invalid_of_run(url, committer.run, committer.partitions, storage_options)
    summary.hands, summary.imported = counts.hands, counts.imported
    summary.duplicates, summary.rejected = counts.duplicates, counts.rejected
    summary.conflicts = counts.conflicts
    summary.seconds = round(time.perf_counter() - start, 3)
    return summary


def _finish(client: Any, url: str, committer: Committer, imported: bool,
            storage_options: dict[str, str] | None) -> None:
    """After the last commit: the cross-hand pass over the tables this run
    touched and those a killed run left unchecked (their dirty-tables
    records), and, when the run stored hands into a local lake, the import
    hooks: what the layers above derive from new hands (reports: their
    per-hand counts), kept where they look for it. Neither reads what the
    other writes, so the pass runs on a worker of the cluster (idle by now)
    while the client runs the hooks; should the worker fail, the client
    runs the pass itself."""
    derived = derived_path(url)
    if not imported or derived is None or not hooks.enabled():
        cross_check(url, committer.touched, storage_options)  # nothing to run beside it
        return
    crossing = client.submit(cross_check, url, committer.touched, storage_options, pure=False)
    _after_import(url, derived, storage_options)
    try:
        crossing.result()
    except Exception:  # a worker lost, or the pass failed there: once more, here
        cross_check(url, committer.touched, storage_options)
    finally:
        crossing.release()


def _after_import(url: str, derived: str, storage_options: dict[str, str] | None) -> None:
    """The import hooks (pipelines.importer.after_import) over the lake."""
    from pipelines.importer import after_import
    from pipelines.lake import connect

    con = connect(url, storage_options=storage_options)
    try:
        after_import(con, derived)
    finally:
        con.close()


def _bar(show: bool, total: int) -> tuple[Any, Callable[[int, int], None]]:
    """A rich progress bar on stderr: chunks done, hands, hands/s, ETA."""
    if not show:
        return None, lambda n, k: None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("chunks"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[hands]:,} hands, {task.fields[rate]:,.0f}/s"),
        TimeElapsedColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    )
    bar.start()
    job = bar.add_task("import", total=total, hands=0, rate=0.0)
    start = time.perf_counter()
    done = [0]

    def tick(hands: int, chunks: int) -> None:
        done[0] += hands
        rate = done[0] / max(time.perf_counter() - start, 1e-9)
        bar.update(job, advance=chunks, hands=done[0], rate=rate)

    return bar, tick
