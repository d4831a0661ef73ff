"""Where hands come from: the files of a run, and big files cut into parts.

Both ``hh validate --workers`` and the import spread work over processes;
the unit of work is a :class:`Chunk`, a byte range of one file that begins
at a hand's first line and ends where the next chunk begins. A big plain
file is cut into several chunks so that one 2 GB log still uses every core;
a compressed file cannot be entered in the middle, so it is one chunk.

Cutting reads the file once, block by block, counting line ends so that each
chunk knows the line number it starts at: hands parsed from a chunk carry the
same line numbers as hands parsed from the whole file.

Also here: finding the files of a run (:func:`find_inputs`, where what cannot
be read is a result, not a gap) and planning the work (:func:`plan`). The
parser is imported only to read a chunk's hands (:func:`runs`,
:func:`records`): finding and planning come before it (see :mod:`hh.order`,
the scan that tells which tables come out of time order).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, BinaryIO

from hh.inputs import GZIP_MAGIC, Unreadable, reason
from hh.places import looks_like_header

if TYPE_CHECKING:
    from hh.parse import Record, Run

CHUNK_BYTES = 16 * 1024 * 1024
MIN_CHUNK_BYTES = 256 * 1024  # ~200 hands: a worker's task stays well above its cost
# A worker's results come back a chunk at a time: this bounds what is in flight.
MAX_TASK_BYTES = 1024 * 1024
_BLOCK = 1024 * 1024  # read to count lines: small, so that cutting adds no memory
# Read to cut hands: big enough that a block's fixed cost vanishes (eight
# hands or more), small enough that what a block holds (its bytes, text and lines,
# ~4x its size) keeps a streamed run's memory flat.
RUN_BLOCK = 16 * 1024


@dataclass(frozen=True, slots=True)
class Chunk:
    """Bytes ``[start, end)`` of ``path`` (``end`` None: to the end of the
    file), whose first line is line ``first_line`` of the file. ``name``:
    the file as results name it, when not ``path`` (standard input, copied
    to a temporary file, is ``-``)."""

    path: str
    start: int = 0
    end: int | None = None
    first_line: int = 1
    name: str | None = None

    def __reduce__(self) -> tuple[type[Chunk], tuple[str, int, int | None, int, str | None]]:
        """Pickled by its fields: chunks go to worker processes, and the
        compiled build's frozen dataclasses cannot be unpickled by setting
        their state."""
        return Chunk, (self.path, self.start, self.end, self.first_line, self.name)


def is_compressed(path: str) -> bool:
    """By the suffix or the gzip magic bytes, as ``parse_file`` decides."""
    if path.endswith(".gz"):
        return True
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


def chunks(path: str, target: int = CHUNK_BYTES, tail: int = 0, count: bool = True) -> list[Chunk]:
    """Cut a file into chunks of about ``target`` bytes at hand boundaries
    (a line that begins a hand). Small and compressed files are one chunk.
    The last ``tail`` bytes are cut four times finer (see :func:`plan`).
    ``count=False`` leaves the line numbers of all chunks but the first
    uncounted (``first_line`` 0), for :func:`numbered` to count when each
    chunk is handed out."""
    size = os.path.getsize(path)
    if size <= target or is_compressed(path):
        return [Chunk(path)]
    with open(path, "rb") as f:
        offsets = [0]
        while True:
            step = target if size - offsets[-1] > tail else max(1, target // 4)
            if offsets[-1] + step >= size:
                break
            at = _next_hand(f, offsets[-1] + step)
            if at is None:
                break
            offsets.append(at)
        out = []
        line = 1
        for k, start in enumerate(offsets):
            end = offsets[k + 1] if k + 1 < len(offsets) else None
            out.append(Chunk(path, start, end, line if count or k == 0 else 0))
            if end is not None and count:
                line += _count_lines(f, start, end)
    return out


def numbered(items: list[Chunk | Unreadable], k: int) -> Chunk | Unreadable:
    """Item ``k`` of a :func:`plan`, with its first line counted if it was not
    (from the chunk before it, which is counted already: work is handed out
    in order). Counting costs ~0.5 ms a megabyte (3.6 ms for a 7.7 MB file,
    timed) besides reading it; done here, as each chunk goes to a worker,
    it is no longer paid before the first worker can start."""
    item = items[k]
    if isinstance(item, Chunk) and item.first_line == 0:
        before = items[k - 1] if k else None
        if not (isinstance(before, Chunk) and before.path == item.path and before.first_line):
            raise ValueError(f"chunk {k} of the plan is handed out before the one before it")
        with open(item.path, "rb") as f:
            lines = _count_lines(f, before.start, item.start)
        item = items[k] = replace(item, first_line=before.first_line + lines)
    return item


def _next_hand(f: BinaryIO, offset: int) -> int | None:
    """The offset of the first line after ``offset`` that begins a hand."""
    f.seek(offset - 1)
    f.readline()  # to the start of the next line (none lost if offset began one)
    while True:
        at = f.tell()
        raw = f.readline()
        if not raw:
            return None
        if looks_like_header(raw.decode("utf-8", "replace").lstrip("\ufeff")):
            return at


def _count_lines(f: BinaryIO, start: int, end: int) -> int:
    f.seek(start)
    n = 0
    left = end - start
    while left > 0:
        block = f.read(min(_BLOCK, left))
        if not block:
            break
        n += block.count(b"\n")
        left -= len(block)
    return n


def _lines(path: str) -> Iterator[bytes]:
    """The raw lines of a gzip file. The file is opened here, not when the
    lines are first read, so that a file that cannot be opened raises
    OSError rather than reading as cut short."""
    f = open(path, "rb")  # noqa: SIM115 - closed by the generator below

    def lines() -> Iterator[bytes]:
        import gzip  # only for a compressed file

        with f, gzip.GzipFile(fileobj=f) as z:
            yield from z

    return lines()


def _blocks(path: str, chunk: Chunk) -> Iterator[bytes]:
    """The bytes of a plain chunk in blocks of whole lines (the last may
    have no line end), for :func:`hh.parse.split_blocks`. Opened at the
    call, as :func:`_lines`."""
    f = open(path, "rb")  # noqa: SIM115 - closed by the generator below

    def blocks() -> Iterator[bytes]:
        with f:
            f.seek(chunk.start)
            left = -1 if chunk.end is None else chunk.end - chunk.start
            tail: list[bytes] = []  # a line begun in an earlier block
            while left != 0:
                data = f.read(RUN_BLOCK if left < 0 else min(RUN_BLOCK, left))
                if not data:
                    break
                if left > 0:
                    left -= len(data)
                cut = data.rfind(b"\n") + 1
                if cut == 0:  # no line end yet: a line longer than a block
                    tail.append(data)
                    continue
                tail.append(data[:cut])
                yield b"".join(tail)
                tail = [data[cut:]]
            last = b"".join(tail)
            if last:
                yield last

    return blocks()


def runs(chunk: Chunk) -> Iterator[Run]:
    """The hands of a chunk, cut but not parsed (see :class:`hh.parse.Run`)."""
    from hh.parse import lines_of_stream, split_blocks, split_runs

    name = chunk.path if chunk.name is None else chunk.name
    if chunk.start == 0 and chunk.end is None and is_compressed(chunk.path):
        return split_runs(lines_of_stream(_lines(chunk.path)), name, chunk.first_line)
    return split_blocks(_blocks(chunk.path, chunk), name, chunk.first_line)


def records(chunk: Chunk) -> Iterator[Record]:
    """The hands of a chunk, parsed: the same records, with the same line
    numbers, as :func:`hh.parse.parse_file` gives for that part of the file.
    A file that cannot be opened raises OSError here, at the call."""
    return _parsed(runs(chunk))


def _parsed(cut: Iterator[Run]) -> Iterator[Record]:
    """One at a time: the hands of a big file must not all be in memory."""
    from hh.parse import parse_run

    for run in cut:
        yield parse_run(run)


# ------------------------------------------------------------ planning work


def plan(
    inputs: Iterable[str | Unreadable],
    workers: int,
    names: dict[str, str] | None = None,
    smallest: int | None = None,
) -> list[Chunk | Unreadable]:
    """The units of work of a run, in input order: chunks of files, the
    unreadable ones as they are. ``names`` renames files in the results (a
    temporary copy of standard input is ``-``). With several workers a file
    is cut into about 8 parts per worker (within ``smallest``, by default
    :data:`MIN_CHUNK_BYTES`, and :data:`MAX_TASK_BYTES`), so that the workers
    stay busy to the end and their results come back in small parts. The
    run's last file ends in parts a quarter that size (a part per worker's
    worth of bytes): the run ends when its slowest worker does, and a worker
    that finished early idled for half a part on average (~40 ms of a
    4,000-hand run on two cores, measured). The chunks' line numbers are
    counted as they are handed out: take each through :func:`numbered`."""
    items = list(inputs)
    target = CHUNK_BYTES
    if workers > 1:
        total = 0
        for item in items:
            if isinstance(item, str):
                with contextlib.suppress(OSError):
                    total += os.path.getsize(item)
        least = MIN_CHUNK_BYTES if smallest is None else smallest
        target = max(least, min(MAX_TASK_BYTES, total // (workers * 8) + 1))
    last = max((k for k, item in enumerate(items) if isinstance(item, str)), default=-1)
    out: list[Chunk | Unreadable] = []
    for k, item in enumerate(items):
        if isinstance(item, Unreadable):
            out.append(item)
            continue
        name = (names or {}).get(item)
        try:
            parts = chunks(
                item, target, target * workers if workers > 1 and k == last else 0, count=False
            )
        except OSError as error:
            out.append(Unreadable(name or item, reason(error)))
            continue
        out.extend(parts if name is None else [replace(c, name=name) for c in parts])
    return out
