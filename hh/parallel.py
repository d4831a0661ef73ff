"""Judging the hands of a run, on one core or several, in input order.

The unit of work is a :class:`~hh.sources.Chunk` (a file, or a byte range of
a big one, cut at hand boundaries). Each hand is parsed, replayed and
rendered where it is judged; what comes back is small: the rendered pieces
(:class:`~hh.output.Rendered`) and the hand's cross-hand
:class:`~hh.crosshand.Summary`. The cross-hand checks then run in the main
process over those summaries, in input order, so the output does not depend
on the number of workers.

With N workers, N - 1 processes are forked once per run (they inherit the
modules already imported, the grammar included) and the main process is the
N-th: it judges chunks itself between taking the others' results. Chunks
are handed out in order, a bounded backlog ahead of the output; a run too
small to gain from workers (under :data:`POOL_MIN_BYTES`) is judged in the
main process alone. A worker that dies (killed, out of memory) ends the run
with :class:`WorkerDied`, never a hang.
"""

from __future__ import annotations

import contextlib
import gc
import marshal
import os
import pickle
import struct
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from itertools import islice
from typing import Any, Protocol

from hh.crosshand import Summary, summarize
from hh.inputs import Unreadable
from hh.output import Rendered, render
from hh.parse import Record
from hh.places import Place, placement
from hh.sources import Chunk, numbered, records
from hh.validate import SeatStack, Verdict, Violation, parse_failure, validate

POOL_MIN_BYTES = 512 * 1024
AHEAD = 2  # tasks queued per worker
BACKLOG_BYTES = 16 * 1024 * 1024  # input judged ahead of the output, at most
POLL_HANDS = 4  # hands judged here between looks at the workers' results
FORK = hasattr(os, "fork")  # else the standard process pool (_Pooled)
Judged = tuple[Summary, Rendered]


def judge(record: Record, as_json: bool) -> Judged:
    """One hand (or run of lines) judged and rendered."""
    lines = record.raw.split("\n", 2)
    place = placement(lines[0], lines[1] if len(lines) > 1 else None)
    try:
        hand = record.hand
        v = validate(hand, record.file) if hand is not None else _failed(record, place)
        return summarize(v, place), render(v, record.raw, as_json)
    except Exception as exc:  # a bug in hh must not stop the run
        v = _internal(record, exc)
        return summarize(v, place), render(v, record.raw, as_json)


def failed_verdict(record: Record) -> Verdict:
    """The verdict ``hh validate`` gives a run of lines that did not parse,
    placed in its table's chain by what its first lines say (the import
    stores the same verdict)."""
    lines = record.raw.split("\n", 2)
    return _failed(record, placement(lines[0], lines[1] if len(lines) > 1 else None))


def _failed(record: Record, place: Place) -> Verdict:
    """The verdict of a hand that did not parse: one PARSE_ERROR. Its game and
    table are read from the raw text where they can be, so that the failure
    breaks its table's chain of cross-hand checks."""
    error = record.error
    assert error is not None
    return parse_failure(
        record.file,
        record.line,
        record.hand_id,
        record.site,
        error.line,
        error.column,
        error.message,
        game=place.game,
        table=place.table,
        when=place.when,
        zone=place.zone,
    )


def _internal(record: Record, exc: Exception) -> Verdict:
    return Verdict(
        file=record.file,
        line=record.line,
        hand_id=record.hand_id,
        site=record.site,
        game=None,
        violations=(
            Violation(
                "INTERNAL_ERROR",
                record.line,
                f"hh could not judge this hand ({type(exc).__name__}: {exc}); "
                f"this is a bug in hh, please report it with the hand",
            ),
        ),
        pots=None,
        payouts=None,
        net=None,
    )


def unreadable(item: Unreadable, as_json: bool) -> Judged:
    """A file or folder that cannot be read, as a result of its own."""
    what = "folder" if os.path.isdir(item.path) else "file"
    v = parse_failure(item.path, 1, None, None, 1, 1, f"cannot read this {what}: {item.reason}")
    return summarize(v, Place(None, None, None, None, None)), render(v, "", as_json)


def judge_chunk(chunk: Chunk | Unreadable, as_json: bool) -> Iterator[Judged]:
    """Every hand of a chunk, in order, one at a time (an unreadable file: its
    one result)."""
    if isinstance(chunk, Unreadable):
        yield unreadable(chunk, as_json)
        return
    try:
        hands = records(chunk)
    except OSError as error:  # unreadable, or gone since it was found
        reason = error.strerror or str(error)
        yield unreadable(Unreadable(chunk.name or chunk.path, reason), as_json)
        return
    for record in hands:
        yield judge(record, as_json)


_AS_JSON = False


def _init(as_json: bool) -> None:
    global _AS_JSON
    _AS_JSON = as_json
    # Ctrl-C is the main process's to handle: it stops the workers itself.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _work(chunk: Chunk | Unreadable) -> list[Judged]:
    return list(judge_chunk(chunk, _AS_JSON))


class WorkerDied(RuntimeError):
    """A worker process ended without its results (killed, out of memory):
    the run cannot be completed, which no hand can cause."""


class Results(Protocol):
    """The judged hands of a run, in input order; ``close()`` stops early."""

    def __iter__(self) -> Iterator[Judged]: ...
    def __next__(self) -> Judged: ...
    def close(self) -> None: ...


def judged(work: Iterable[Chunk | Unreadable], as_json: bool, workers: int) -> Results:
    """The judged hands of a run, in input order. ``workers`` > 1 uses a pool
    of processes when the input is big enough to gain from it; the workers
    start at once, so that they judge while the caller prepares (the scan
    for the order of tables). Closing early (the reader went away) stops
    them at once."""
    items = list(work)
    size = sum(_size(c) for c in items if isinstance(c, Chunk))
    if workers <= 1 or len(items) < 2 or size < POOL_MIN_BYTES:
        return _serial(items, as_json)
    if FORK:
        return _Forked(items, as_json, min(workers, len(items)))
    return _Pooled(items, as_json, min(workers, len(items)))


def _serial(items: list[Chunk | Unreadable], as_json: bool) -> Generator[Judged, None, None]:
    for k in range(len(items)):
        yield from judge_chunk(numbered(items, k), as_json)


class _Stream:
    """A pool's judged hands, in input order, from its ``_run`` generator."""

    _results: Iterator[Judged]

    def __iter__(self) -> Iterator[Judged]:
        return self

    def __next__(self) -> Judged:
        return next(self._results)


class _Worker:
    """A forked worker: its process, the pipe it reads tasks from and the
    pipe it writes results to (the parent's ends), its tasks in flight."""

    __slots__ = ("pid", "results", "tasks", "todo")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.todo = 0


class _Forked(_Stream):
    """Chunks judged by worker processes forked here, on Linux and wherever
    ``os.fork`` exists; the tasks go down a pipe per worker and the results
    come back up another, as length-prefixed pickles (a chunk's results
    marshalled inside, see :func:`_pack`).

    Why not ``concurrent.futures``: importing its process pool (with
    multiprocessing, sockets, queues and threads) took ~16 ms, paid before
    the first worker could start, and it receives results on a thread of
    its own; a 4,000-hand run takes ~0.7 s on two cores. What it gave is
    kept: each worker takes its next chunk as it finishes one (the chunks go
    to whichever worker is free, :data:`AHEAD` queued each), a slow reader
    makes the workers wait instead of piling up results, a worker that dies
    ends the run with :class:`WorkerDied`, and closing stops every worker
    at once.

    The main process is one of the ``n`` workers: it judges a chunk
    whenever no result is waiting (looking at the pipes every
    :data:`POLL_HANDS` hands, so that the others never wait for their next
    chunk). On two cores a main process that only received and wrote
    shared them with two workers; judging here as well saves pickling half
    of the results, one worker's warm-up and the third process's share of
    the cores (two workers' rate against one, interleaved runs, best of
    6: 1.77 / 1.68 / 1.72x with two forked workers, 1.77 / 1.75 / 1.73x
    with this process judging; medians 1.63 / 1.63 / 1.48 and 1.75 /
    1.75 / 1.58; Aces / Calatone / Chiribito).

    How far the workers may run ahead of the output is counted in bytes of
    input (:data:`BACKLOG_BYTES`), not in chunks: the cores of a shared
    machine are not equally fast (here one often judged a hand in 0.35 ms
    while the other took 0.24 ms), and with a window of a few chunks the
    fast worker idled while the output waited on the slow one's chunk
    (up to ~90 ms of a 0.8 s run, timed)."""

    def __init__(self, items: list[Chunk | Unreadable], as_json: bool, n: int) -> None:
        self._items = items
        self._as_json = as_json
        self._next = 0  # the next item to send
        self._done: dict[int, list[Judged]] = {}  # received, not yet given out
        self._out = 0  # the next item to give out
        self._window = AHEAD * n  # chunks ahead, whatever their size
        self._sizes = [_size(c) if isinstance(c, Chunk) else 0 for c in items]
        self._ahead = 0  # bytes sent and not yet given out
        self._workers: list[_Worker] = []
        self._by_fd: dict[int, _Worker] = {}
        # See _Pooled: frozen, the parent's objects are neither walked nor
        # copied by a worker's collections.
        gc.freeze()
        try:
            for _ in range(n - 1):  # this process is the n-th
                self._fork(as_json)
        finally:
            gc.unfreeze()
        for worker in self._workers:
            self._feed(worker)
        self._results = self._run()

    def _fork(self, as_json: bool) -> None:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        _widen(result_w)
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 0
            try:
                os.close(task_w)
                os.close(result_r)
                for other in self._workers:  # so that a dead worker's pipe reads as ended
                    os.close(other.tasks)
                    os.close(other.results)
                _init(as_json)
                _serve(task_r, result_w)
            except BaseException:
                code = 70
            finally:
                os._exit(code)
        os.close(task_r)
        os.close(result_w)
        worker = _Worker(pid, task_w, result_r)
        self._workers.append(worker)
        self._by_fd[result_r] = worker

    def _feed(self, worker: _Worker) -> None:
        """Queue chunks for ``worker``: :data:`AHEAD` while many are left, so
        that it never waits for the next; then one at a time, so that the
        last ones go to whoever is free (this process included) instead of
        waiting in one worker's queue while the others end (the run's end
        came 11-21 ms after this process's last chunk, timed)."""
        if worker.tasks < 0:  # released
            return
        depth = AHEAD if len(self._items) - self._next > AHEAD * (len(self._workers) + 1) else 1
        while worker.todo < depth and self._send(worker):
            pass

    def _send(self, worker: _Worker) -> bool:
        """Give ``worker`` the next chunk, if there is one and the backlog
        allows it."""
        k = self._take()
        if k is None:
            return False
        try:
            _write(worker.tasks, (k, numbered(self._items, k)))
        except OSError:
            raise self._died(worker) from None
        worker.todo += 1
        return True

    def _take(self) -> int | None:
        """The next chunk to judge, if there is one and the backlog allows
        it: under :data:`BACKLOG_BYTES`, or within a few chunks of the
        output whatever their size."""
        k = self._next
        if k >= len(self._items):
            return None
        if k >= self._out + self._window and self._ahead + self._sizes[k] > BACKLOG_BYTES:
            return None
        self._ahead += self._sizes[k]
        self._next += 1
        return k

    def _died(self, worker: _Worker) -> WorkerDied:
        _, status = os.waitpid(worker.pid, 0)
        worker.pid = 0
        if os.WIFSIGNALED(status):
            how = f"signal {os.WTERMSIG(status)}"
        else:
            how = f"exit status {os.waitstatus_to_exitcode(status)}"
        return WorkerDied(f"a worker process ended abruptly ({how})")

    def _run(self) -> Iterator[Judged]:
        import select

        try:
            while self._out < len(self._items):
                batch = self._done.pop(self._out, None)
                if batch is None:
                    self._wait(select.select)
                    continue
                self._ahead -= self._sizes[self._out]
                self._out += 1
                for worker in self._workers:  # the backlog moved: the idle may take more
                    self._feed(worker)
                yield from batch
        finally:
            self.close()

    def _wait(self, select: Any) -> None:
        """Towards the next chunk to give out: take the results that came;
        if none has, judge the next chunk here (or, with none left to take,
        wait for a result)."""
        fds = list(self._by_fd)
        ready = select(fds, [], [], 0)[0] if fds else []
        if ready:
            self._receive(ready)
            return
        k = self._take()
        if k is None:
            if not fds:  # cannot happen: every chunk is judged or with a worker
                raise RuntimeError(f"chunk {self._out} of the run was never judged")
            self._receive(select(fds, [], [])[0])
            return
        done = []
        for judged in judge_chunk(numbered(self._items, k), self._as_json):
            done.append(judged)
            if not len(done) % POLL_HANDS and self._by_fd:  # keep the workers fed meanwhile
                ready = select(list(self._by_fd), [], [], 0)[0]
                if ready:
                    self._receive(ready)
        self._done[k] = done

    def _receive(self, ready: list[int]) -> None:
        for fd in ready:
            worker = self._by_fd[fd]
            message = _read(fd)
            if message is None:
                raise self._died(worker)
            k, ok, payload = message
            if not ok:
                raise payload
            self._done[k] = _unpack(payload)
            worker.todo -= 1
            self._feed(worker)
            if not worker.todo and self._next >= len(self._items):  # nothing left for it
                self._release(worker)

    def _release(self, worker: _Worker) -> None:
        """Close an idle worker's pipes: it ends on its own (the end of its
        task pipe), while this process writes what is left of the output,
        instead of being stopped and waited for after it (3-5 ms, timed)."""
        del self._by_fd[worker.results]
        for fd in (worker.tasks, worker.results):
            with contextlib.suppress(OSError):
                os.close(fd)
        worker.tasks = worker.results = -1

    def close(self) -> None:
        """End the workers, idle or no longer wanted: killed, not left to
        finish their chunks."""
        import signal

        for worker in self._workers:
            if worker.pid and worker.tasks >= 0:  # not released: may be busy
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGTERM)
            for fd in (worker.tasks, worker.results):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
        for worker in self._workers:
            if worker.pid:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(worker.pid, 0)
                worker.pid = 0
        self._workers = []
        self._by_fd = {}


def _serve(tasks: int, results: int) -> None:
    """A worker's loop: judge each chunk that comes, send its results back,
    until the parent closes the pipe."""
    while True:
        message = _read(tasks)
        if message is None:
            return
        k, chunk = message
        reply: tuple[int, bool, object]
        try:
            reply = (k, True, _pack(_work(chunk)))
        except Exception as error:  # the parent raises it: hh validate calls it a failure
            reply = (k, False, error)
        try:
            _write(results, reply)
        except (pickle.PicklingError, TypeError, AttributeError):  # an error that will not pickle
            _write(results, (k, False, RuntimeError(repr(reply[2]))))


_HEADER = struct.Struct("<Q")
PIPE_BYTES = 1024 * 1024  # Linux's default limit for a pipe's buffer


def _widen(fd: int) -> None:
    """Let a worker write its results without waiting for the main process
    to read them (a chunk's results are ~70 KB pickled; a pipe holds 64 KB
    by default): while the main process judges a chunk of its own, a worker
    blocked on a full pipe sat idle (~30-50 ms of a 0.7 s run, timed).
    Where the size cannot be set (not Linux, a lower limit), the pipe stays
    as it is: slower, never wrong."""
    import fcntl

    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, setsize, PIPE_BYTES)


def _pack(judged: list[Judged]) -> bytes:
    """A chunk's results as marshalled plain tuples: the worker's pickling
    of them (~3 us a hand: class references, a memo) showed as a gap of
    about a millisecond after each chunk on a per-chunk timeline; marshal
    takes ~1.5 us, and the main process rebuilds the named tuples in about
    the time unpickling took (docs/performance.md, sixth pass). Marshal
    knows only the exact built-in types: anything else (a str subclass,
    say) sends the chunk pickled, as before. The first byte tells which."""
    try:
        return b"m" + marshal.dumps([(_plain(s), tuple(r)) for s, r in judged])
    except ValueError:  # "unmarshallable object"
        return b"p" + pickle.dumps(judged, pickle.HIGHEST_PROTOCOL)


_STACKS = Summary._fields.index("stacks")


def _plain(s: Summary) -> tuple[Any, ...]:
    """A summary as built-in types only (its seat stacks as plain tuples)."""
    out = list(s)
    out[_STACKS] = tuple((x.seat, x.name, x.start, x.end, x.line) for x in s.stacks)
    return tuple(out)


def _summary(plain: list[Any] | tuple[Any, ...]) -> Summary:
    out = list(plain)
    out[_STACKS] = tuple(SeatStack(*x) for x in out[_STACKS])
    return Summary._make(out)


def _unpack(data: bytes) -> list[Judged]:
    body = memoryview(data)[1:]
    if data[:1] == b"p":
        judged: list[Judged] = pickle.loads(body)
        return judged
    new = tuple.__new__
    return [(_summary(s), new(Rendered, r)) for s, r in marshal.loads(body)]


def _write(fd: int, obj: object) -> None:
    data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int) -> Any:
    """The next message on ``fd``; None when the other end has gone."""
    head = _read_exactly(fd, _HEADER.size)
    if head is None:
        return None
    body = _read_exactly(fd, _HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts = []
    while n:
        part = os.read(fd, min(n, 1 << 20))
        if not part:
            return None
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


class _Pooled(_Stream):
    """Chunks judged by workers of a ``concurrent.futures`` process pool, where
    ``os.fork`` is missing (see :class:`_Forked`): a few tasks ahead per
    worker and no more, so that when the output is slow (a pager, a full
    pipe) the workers wait instead of piling up results."""

    def __init__(self, items: list[Chunk | Unreadable], as_json: bool, n: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(
            n, mp_context=_context(), initializer=_init, initargs=(as_json,)
        )
        self._todo = (numbered(items, k) for k in range(len(items)))
        # Forked workers share the parent's pages until they write to them,
        # and a garbage collection writes to every object it walks: frozen,
        # what the parent holds is never walked in a worker (nor copied for
        # it). The first submit forks every worker; the parent then thaws.
        gc.freeze()
        try:
            first = [self._pool.submit(_work, c) for c in islice(self._todo, AHEAD * n)]
        finally:
            gc.unfreeze()
        self._pending = deque(first)
        self._results = self._run()

    def _run(self) -> Iterator[Judged]:
        from concurrent.futures.process import BrokenProcessPool

        try:
            while self._pending:
                batch = self._pending.popleft().result()
                for item in islice(self._todo, 1):
                    self._pending.append(self._pool.submit(_work, item))
                yield from batch
        except BrokenProcessPool as error:
            raise WorkerDied(f"a worker process ended abruptly ({error})") from None
        finally:
            self.close()

    def close(self) -> None:
        """End the workers, idle or no longer wanted: killed, not left to
        finish their chunks."""
        processes = getattr(self._pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _size(chunk: Chunk) -> int:
    if chunk.end is not None:
        return chunk.end - chunk.start
    try:
        return os.path.getsize(chunk.path) - chunk.start
    except OSError:
        return 0


def _context() -> Any:
    """Fork where there is fork: the workers then start at once, with every
    module already imported. (Imported here: a run on one core never needs
    multiprocessing, whose import, sockets and pickling included, took ~6 ms.)"""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)
