"""Judging the hands of a run, on one core or several, in input order.

The unit of work is a :class:`~hh.read.cut.Chunk` (a file, or a byte range of
a big one, cut at hand boundaries). Each hand is parsed, replayed and
rendered where it is judged; what comes back is small: the rendered pieces
(:class:`~hh.output.Rendered`) and the hand's cross-hand
:class:`~hh.crosshand.Summary`. The cross-hand checks then run in the main
process over those summaries, in input order, so the output does not depend
on the number of workers.

With several workers the chunks go to a :class:`hh.pool.Pool` (ordered, a
bounded window ahead of the output); a run too small to gain from workers
(under :data:`POOL_MIN_BYTES`) is judged in the main process alone. A worker
that dies (killed, out of memory) ends the run with
:class:`~hh.pool.WorkerDied`, never a hang.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Protocol

from hh.crosshand import Summary, summarize
from hh.output import Rendered, render
from hh.parse import Record, parse_chunk
from hh.pool import Ordered, Pool, WorkerDied
from hh.read.cut import Chunk
from hh.read.files import Unreadable
from hh.read.places import Place, placement
from hh.validate import Verdict, internal_failure, parse_failure, validate

__all__ = ["POOL_MIN_BYTES", "Judged", "WorkerDied", "judge", "judge_chunk", "judged"]

POOL_MIN_BYTES = 512 * 1024
Judged = tuple[Summary, Rendered]
Item = Chunk | Unreadable  # a unit of work


def judge(record: Record, as_json: bool) -> Judged:
    """One hand (or run of lines) judged and rendered."""
    place = place_of(record)
    try:
        hand = record.hand
        v = validate(hand, record.file) if hand is not None else _failed(record, place)
        return summarize(v, place), render(v, record.raw, as_json)
    except Exception as exc:  # a bug in hh must not stop the run
        v = internal_failure(record.file, record.line, record.hand_id, record.site, exc)
        return summarize(v, place), render(v, record.raw, as_json)


def place_of(record: Record) -> Place:
    """Where a hand sits among its table's hands: read from its header and
    Table line as parsed, or, for a run that did not parse, from its first
    two lines as written (:func:`hh.read.places.placement`, which reads a
    parsed hand's lines the same way)."""
    hand = record.hand
    if hand is not None:
        h = hand.header
        return Place(h.site, hand.table.name, f"{h.date} {h.time}", h.zone, h.game.value)
    lines = record.raw.split("\n", 2)
    return placement(lines[0], lines[1] if len(lines) > 1 else None)


def failed_verdict(record: Record) -> Verdict:
    """The verdict ``hh validate`` gives a run of lines that did not parse,
    placed in its table's chain by what its first lines say (the import
    stores the same verdict)."""
    return _failed(record, place_of(record))


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
        hands = parse_chunk(chunk)
    except OSError as error:  # unreadable, or gone since it was found
        reason = error.strerror or str(error)
        yield unreadable(Unreadable(chunk.name or chunk.path, reason), as_json)
        return
    for record in hands:
        yield judge(record, as_json)


_AS_JSON = False


def _init(as_json: bool) -> None:
    """A worker's set-up: the output's format, and the modules imported so far
    frozen out of the garbage collector's sight (the parent's objects, shared
    after a fork, are then never walked, nor copied, by a worker)."""
    import gc

    global _AS_JSON
    _AS_JSON = as_json
    gc.freeze()


def _work(chunk: Chunk | Unreadable) -> list[Judged]:
    """A chunk's judged hands, pickled to the main process as they are (the
    records pickle through their compiled ``__init__``)."""
    return list(judge_chunk(chunk, _AS_JSON))


def _describe(chunk: Chunk | Unreadable) -> str:
    if isinstance(chunk, Unreadable):
        return f"reading {chunk.path}"
    name = chunk.name or chunk.path
    return f"reading {name}" + (f" from line {chunk.first_line}" if chunk.start else "")


class Results(Protocol):
    """The judged hands of a run, in input order; ``close()`` stops early."""

    def __iter__(self) -> Iterator[Judged]: ...
    def __next__(self) -> Judged: ...
    def close(self) -> None: ...


def judged(work: Iterable[Chunk | Unreadable], as_json: bool, workers: int) -> Results:
    """The judged hands of a run, in input order. ``workers`` > 1 uses a pool
    of processes when the input is big enough to gain from it. The workers
    start at once on the first chunks, so that they judge while the caller
    prepares (cuts the rest of the files); closing early (the reader went
    away) stops them at once."""
    return _Judged(iter(work), as_json, workers)


class _Judged:
    """See :func:`judged`."""

    def __init__(self, items: Iterator[Chunk | Unreadable], as_json: bool, workers: int) -> None:
        self._pool: Pool | None = None
        first: list[Chunk | Unreadable] = []
        size = 0
        if workers > 1:  # enough to read for a pool? (look at the first items only)
            for item in items:
                first.append(item)
                size += _size(item)
                if size >= POOL_MIN_BYTES and len(first) >= 2:
                    break
        chain = _chain(first, items)
        if workers > 1 and size >= POOL_MIN_BYTES and len(first) >= 2:
            self._pool = Pool(workers, _init, (as_json,))
            batches = self._pool.map(_work, chain, _describe)  # the first tasks go out now
            self._results: Iterator[Judged] = self._pooled(self._pool, batches)
        else:
            self._results = _serial(chain, as_json)

    @staticmethod
    def _pooled(
        pool: Pool, batches: Ordered[Item, list[Judged]]
    ) -> Iterator[Judged]:
        try:
            for batch in batches:
                yield from batch
        finally:
            batches.close()
            pool.close()

    def __iter__(self) -> Iterator[Judged]:
        return self

    def __next__(self) -> Judged:
        return next(self._results)

    def close(self) -> None:
        close = getattr(self._results, "close", None)
        if close is not None:
            close()
        if self._pool is not None:
            self._pool.close()


def _chain(first: list[Item], rest: Iterator[Item]) -> Iterator[Item]:
    yield from first
    yield from rest


def _serial(items: Iterator[Chunk | Unreadable], as_json: bool) -> Iterator[Judged]:
    for item in items:
        yield from judge_chunk(item, as_json)


def _size(item: Chunk | Unreadable) -> int:
    if isinstance(item, Unreadable):
        return 0
    if item.end is not None:
        return item.end - item.start
    try:
        return os.path.getsize(item.path) - item.start
    except OSError:
        return 0
