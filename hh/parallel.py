"""Judging the hands of a run, on one core or several, in input order.

The unit of work is a :class:`~hh.sources.Chunk` (a file, or a byte range of
a big one, cut at hand boundaries). Each hand is parsed, replayed and
rendered where it is judged; what comes back is small: the rendered pieces
(:class:`~hh.output.Rendered`) and the hand's cross-hand
:class:`~hh.crosshand.Summary`. The cross-hand checks then run in the main
process over those summaries, in input order, so the output does not depend
on the number of workers.

Workers are forked once per run (they inherit the modules already imported,
the grammar included) and take chunks in order, a few ahead of the output;
a run too small to gain from them (under :data:`POOL_MIN_BYTES`) is judged in
the main process. A worker that dies (killed, out of memory) ends the run
with :class:`WorkerDied`, never a hang.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, Protocol

from hh.crosshand import Place, Summary, placement, summarize
from hh.output import Rendered, render
from hh.parse import Record
from hh.sources import Chunk, Unreadable, records
from hh.validate import Verdict, Violation, parse_failure, validate

POOL_MIN_BYTES = 512 * 1024
AHEAD = 2  # tasks submitted ahead per worker
Judged = tuple[Summary, Rendered]


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


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
    return _Pooled(items, as_json, min(workers, len(items)))


def _serial(items: list[Chunk | Unreadable], as_json: bool) -> Iterator[Judged]:
    for item in items:
        yield from judge_chunk(item, as_json)


class _Pooled:
    """Chunks judged by forked workers, a few tasks ahead per worker and no
    more: when the output is slow (a pager, a full pipe) the workers wait
    instead of piling up results."""

    def __init__(self, items: list[Chunk | Unreadable], as_json: bool, n: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(
            n, mp_context=_context(), initializer=_init, initargs=(as_json,)
        )
        self._todo = iter(items)
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

    def __iter__(self) -> Iterator[Judged]:
        return self

    def __next__(self) -> Judged:
        return next(self._results)

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
        """End the workers, idle or no longer wanted, without waiting for them."""
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
