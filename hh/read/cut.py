"""The cut of files into chunks for the workers, and a chunk's runs.

One pass over a file (:func:`cut`, :class:`Plan`) finds each hand (offset,
line, place), and from it the chunks of the file (byte ranges cut at hand
boundaries, each knowing its first line number), the order of the run's
tables (which tables come out of time order, for
:class:`hh.crosshand.CrossChecker`) and, for the import, the file's
SHA-256: each file is read once for all of it. A chunk's hands are read
back as runs of lines (:func:`runs`); parsing them is :mod:`hh.parse`'s job.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, NamedTuple, cast

from hh.read.files import Unreadable, gzipped, is_compressed, is_ohh, reason
from hh.read.lines import MAX_LINE, bounded_lines, drop_line
from hh.read.places import Place, TableKey, placement
from hh.read.runs import (
    Run,
    lines_of_stream,
    looks_like_header,
    split_blocks,
    split_runs,
)

# ------------------------------------------------------------ the cut

CHUNK_BYTES = 16 * 1024 * 1024
MIN_CHUNK_BYTES = 256 * 1024  # ~200 hands: a worker's task stays well above its cost
# A worker's results come back a chunk at a time: this bounds what is in flight.
MAX_TASK_BYTES = 1024 * 1024
_BLOCK = 1024 * 1024  # read a block at a time: memory stays flat whatever the file's size
# Read to cut hands in a worker: big enough that a block's fixed cost
# vanishes, small enough that what a block holds keeps a run's memory flat.
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


class Mark(NamedTuple):
    """A hand the cut found: a run of lines (begun after a blank line, at the
    file's start or at a header, as :func:`hh.parse.split_runs` cuts) whose
    second line is a Table line. ``offset``: where its first line begins (in
    the decompressed text, for a gzip file); ``header``: that line is a
    header, so a chunk may begin there."""

    offset: int
    line: int
    place: Place
    header: bool


class TableOrder(NamedTuple):
    """The order of a run's tables: the tables whose hands do not come in
    time order, each with its number of hands, and the number of hands with
    a table line in all (to size the cross-hand checker's id table once)."""

    disordered: dict[TableKey, int]
    hands: int


class Order:
    """The order of tables, gathered from the places of a run's hands in
    input order (:meth:`add`), across files."""

    __slots__ = ("_count", "_last", "_out", "hands")

    def __init__(self) -> None:
        self._last: dict[TableKey, int] = {}
        self._count: dict[TableKey, int] = {}
        self._out: set[TableKey] = set()
        self.hands = 0

    def add(self, place: Place) -> None:
        if place.table is None:
            return
        self.hands += 1
        key = (place.site, place.table)
        when = place.instant
        last = self._last.get(key, when)
        self._count[key] = self._count.get(key, 0) + 1
        if when < last:
            self._out.add(key)
        self._last[key] = max(when, last)

    def result(self) -> TableOrder:
        return TableOrder({key: self._count[key] for key in self._out}, self.hands)


class Cut(NamedTuple):
    """What one pass over a file found: its chunks, size and lines (of the
    text, in a compressed file), and (when asked) the SHA-256 of the whole
    file and of the bytes before the first chunk (the import's check that a
    file only grew)."""

    chunks: list[Chunk]
    size: int
    lines: int
    sha256: str | None
    head_sha256: str | None


class _Reader:
    """A file's raw bytes as the pass reads them, hashed on the way: the whole
    file, and the bytes before ``head`` apart, their line ends counted."""

    __slots__ = (
        "_f",
        "_head",
        "_limit",
        "_pos",
        "ended",
        "head_lines",
        "head_sha",
        "newlines",
        "sha",
        "text_lines",
    )

    def __init__(self, f: BinaryIO, digest: bool, head: int, limit: int = -1) -> None:
        self._f = f
        self._limit = limit  # read no further (-1: to the end)
        self._pos = 0
        self._head = head
        self.sha = hashlib.sha256() if digest else None
        self.head_sha = hashlib.sha256() if digest and head == 0 else None
        self.head_lines = 0
        self.newlines = 0  # in the bytes read
        self.ended = True  # the bytes read end with a line end (or there are none)
        self.text_lines = 0  # lines of the decompressed text (counted by _marks_gzip)

    def read(self, n: int = -1) -> bytes:
        return self._seen(self._f.read(self._bound(n)))

    def readline(self, n: int = -1) -> bytes:
        return self._seen(self._f.readline(self._bound(n)))

    def _bound(self, n: int) -> int:
        if self._limit < 0:
            return n
        left = max(0, self._limit - self._pos)
        return left if n < 0 else min(n, left)

    def _seen(self, data: bytes) -> bytes:
        pos, self._pos = self._pos, self._pos + len(data)
        if data:
            self.newlines += data.count(b"\n")
            self.ended = data.endswith(b"\n")
        if pos < self._head:  # (the head is counted even without a digest)
            part = min(len(data), self._head - pos)
            self.head_lines += data.count(b"\n", 0, part)
            if self.sha is not None:
                self.sha.update(data[:part])
                if part < len(data) or self._pos == self._head:
                    self.head_sha = self.sha.copy()
                self.sha.update(data[part:])
        elif self.sha is not None:
            self.sha.update(data)
        return data

    def drain(self) -> None:
        """Read (and hash) what is left of the file."""
        while self.read(_BLOCK):
            pass


def cut(
    path: str,
    target: int = CHUNK_BYTES,
    tail: int = 0,
    *,
    start: int = 0,
    order: Order | None = None,
    digest: bool = False,
) -> Cut:
    """One pass over a file: its chunks of about ``target`` bytes from byte
    ``start`` on, cut where a hand begins with a header (the last ``tail``
    bytes four times finer, see :class:`Plan`); a small or compressed file
    is one chunk. The places of all its hands go to ``order``; with
    ``digest``, the SHA-256 of the file and of its first ``start`` bytes.
    A file that cannot be opened raises OSError."""
    done: list[Cut] = []
    parts = list(_cut(path, target, tail, start, order, digest, done))
    return done[0]._replace(chunks=parts)


def chunks(path: str, target: int = CHUNK_BYTES, tail: int = 0) -> list[Chunk]:
    """The chunks of a file (see :func:`cut`)."""
    return cut(path, target, tail).chunks


def _cut(
    path: str,
    target: int,
    tail: int,
    start: int,
    order: Order | None,
    digest: bool,
    done: list[Cut],
) -> Iterator[Chunk]:
    """:func:`cut`, a chunk at a time as the pass finds them (so that the
    workers start on the first chunks while the rest is cut); the pass's
    figures are appended to ``done`` at its end."""
    if is_ohh(path):
        yield from _cut_ohh(path, order, digest, done)
        return
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        compressed = gzipped(f)
        # the file as it is now: a client may append to it while it is read
        reader = _Reader(f, digest, start, size)
        whole = compressed or size - start <= target
        if whole and start == 0:  # known at once: the workers need not wait for the pass
            yield Chunk(path)
        at, at_line = start, 0 if start else 1  # the chunk being cut (its line: once read)
        try:
            for mark in _marks_gzip(reader) if compressed else _marks_plain(reader):
                if order is not None:
                    order.add(mark.place)
                if whole or not mark.header or mark.offset < start:
                    continue
                if not at_line:
                    at_line = reader.head_lines + 1
                step = target if size - at > tail else max(1, target // 4)
                if mark.offset >= at + step:
                    yield Chunk(path, at, mark.offset, at_line)
                    at, at_line = mark.offset, mark.line
        except (EOFError, OSError, zlib.error):
            if not compressed:  # a plain file that cannot be read: the worker will say so
                raise
        if digest:
            reader.drain()  # a compressed stream that broke: its bytes still count
        if not whole or start:
            yield Chunk(path, at, None, at_line or reader.head_lines + 1)
        lines = reader.text_lines if compressed else reader.newlines + (not reader.ended)
        done.append(
            Cut(
                [],
                size,
                lines,
                reader.sha.hexdigest() if reader.sha is not None else None,
                reader.head_sha.hexdigest() if reader.head_sha is not None else None,
            )
        )


def _cut_ohh(path: str, order: Order | None, digest: bool, done: list[Cut]) -> Iterator[Chunk]:
    """:func:`cut` of an OHH file: one chunk, its hands' places and lines
    those of the text it converts to, its size and SHA-256 the file's."""
    import io

    from hh.openformats.ohh_read import converted

    yield Chunk(path)
    with open(path, "rb") as f:
        reader = _Reader(f, digest, -1)
        reader.drain()
        size = reader._pos
    text = converted(path)
    if order is not None:
        for mark in _marks_plain(_Reader(io.BytesIO(text), False, 0)):
            order.add(mark.place)
    lines = text.count(b"\n")
    done.append(Cut([], size, lines, reader.sha.hexdigest() if reader.sha else None, None))


def marks(path: str) -> Iterator[Mark]:
    """Every hand of a file with its place, in file order (the pass
    :func:`cut` makes); a compressed file is read up to where it breaks."""
    if is_ohh(path):
        import io

        from hh.openformats.ohh_read import converted

        yield from _marks_plain(_Reader(io.BytesIO(converted(path)), False, 0))
        return
    with open(path, "rb") as f:
        compressed = gzipped(f)
        reader = _Reader(f, False, 0)
        try:
            yield from _marks_gzip(reader) if compressed else _marks_plain(reader)
        except (EOFError, OSError, zlib.error):
            if not compressed:
                raise


# a literal search with bytes.find ("^" in multiline mode is tried at every
# byte; a regex's literal search reads the block several times slower)
_TABLE_LINE = b"\nTable '"


def _marks_plain(f: _Reader) -> Iterator[Mark]:
    """The hands of a plain file, a block at a time: the regex engine finds
    the Table lines, and only the lines around them are looked at. Each
    block ends at a line end and is searched after the last two lines of
    the one before, the context a Table line at its start needs."""
    tail = b""  # the last two lines before the block
    offset = 0  # where ``tail`` begins in the file
    lines = 0  # line ends before ``tail``
    while True:
        block = f.read(_BLOCK)
        if not block:
            return
        skipped = 0  # bytes of a too long last line read and dropped
        if not block.endswith(b"\n"):
            block += f.readline(MAX_LINE + 1)
            if not block.endswith(b"\n"):
                skipped = drop_line(f.readline)[0]
        data = tail + block
        pos, n = 0, lines  # line ends before data[pos]
        at = data.find(_TABLE_LINE, max(len(tail) - 1, 0))
        while at >= 0:
            at += 1  # the file's first line is never found: no line before it
            begin = data.rfind(b"\n", 0, at - 1) + 1
            first = offset == 0 and begin == 0
            prev2 = None if begin == 0 else data[data.rfind(b"\n", 0, begin - 1) + 1 : begin]
            end = data.find(b"\n", at)
            line = data[at : len(data) if end < 0 else end + 1]
            found = _place(prev2, data[begin:at], line, first)
            if found is not None:
                n += data.count(b"\n", pos, begin)
                pos = begin
                yield Mark(offset + begin, n + 1, *found)
            at = data.find(_TABLE_LINE, at)
        if skipped:  # what follows a long line: a new block, nothing before it
            lines = n + data.count(b"\n", pos) + 1
            offset += len(data) + skipped
            tail = b""
            continue
        last = data.rfind(b"\n", 0, len(data) - 1)  # the end of the line before the last
        keep = 0 if last < 0 else data.rfind(b"\n", 0, last) + 1
        lines = n + data.count(b"\n", pos, keep)
        offset += keep
        tail = data[keep:]


def _marks_gzip(f: _Reader) -> Iterator[Mark]:
    """The hands of a gzip file, line by line."""
    import gzip  # only for a compressed file

    stream = gzip.GzipFile(fileobj=cast(BinaryIO, f))  # it reads through the hashing reader
    prev2: bytes | None = None  # None: before the file's first line (a blank)
    prev: bytes | None = None
    first = True
    offset = 0  # where ``prev`` begins
    for n, (line, _) in enumerate(bounded_lines(stream.readline)):  # ``prev`` is line n
        f.text_lines = n + 1
        if prev is not None and line.startswith(b"Table '"):
            found = _place(prev2, prev, line, first)
            if found is not None:
                yield Mark(offset, n, *found)
        if prev is not None:
            first = False
            offset += len(prev)
        prev2, prev = prev, line


def _place(prev2: bytes | None, prev: bytes, line: bytes, first: bool) -> tuple[Place, bool] | None:
    """The place of the run whose Table line is ``line``, and whether it
    begins with a header, when ``prev`` (the line before it) begins a run:
    after a blank line or the file's start, or as a header."""
    head = _text(prev, first_line=first)
    header = looks_like_header(head.lstrip("\ufeff").rstrip(" \t"))
    starts = prev2 is None or _blank(prev2) or header
    if starts and not _blank(prev):
        return placement(head, _text(line, first_line=False)), header
    return None


def _text(line: bytes, *, first_line: bool) -> str:
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    text = line.decode("utf-8", "replace")
    return text[1:] if first_line and text.startswith("\ufeff") else text


def _blank(line: bytes) -> bool:
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    return not line.rstrip(b" \t")


def table_order(paths: Iterable[str]) -> TableOrder:
    """The order of the tables of a run's files (see :class:`Order`); a file
    that cannot be read gives nothing."""
    order = Order()
    for path in paths:
        try:
            cut(path, order=order)
        except OSError:
            continue
    return order.result()


# ------------------------------------------------------------ planning work


class Plan:
    """The units of work of a run, in input order: chunks of files, the
    unreadable ones as they are. Each file is cut as the iteration reaches
    it, so that the first chunks go to the workers at once; :meth:`order`
    cuts the rest (their chunks wait here) and gives the order of the run's
    tables, which the cross-hand checks need before the first hand is final.

    ``names`` renames files in the results (a temporary copy of standard
    input is ``-``). With several workers a file is cut into about 8 parts
    per worker (within ``smallest``, by default :data:`MIN_CHUNK_BYTES`, and
    :data:`MAX_TASK_BYTES`), so that the workers stay busy to the end and
    their results come back in small parts; the run's last file ends in
    parts a quarter that size (a part per worker's worth of bytes), since
    the run ends when its slowest worker does."""

    def __init__(
        self,
        inputs: Iterable[str | Unreadable],
        workers: int,
        names: dict[str, str] | None = None,
        smallest: int | None = None,
    ) -> None:
        items = list(inputs)
        self._target = CHUNK_BYTES
        if workers > 1:
            total = 0
            for item in items:
                if isinstance(item, str):
                    with contextlib.suppress(OSError):
                        total += os.path.getsize(item)
            least = MIN_CHUNK_BYTES if smallest is None else smallest
            self._target = max(least, min(MAX_TASK_BYTES, total // (workers * 8) + 1))
        self._workers = workers
        self._last = max((k for k, x in enumerate(items) if isinstance(x, str)), default=-1)
        self._items = iter(enumerate(items))
        self._names = names or {}
        self._ready: deque[Chunk | Unreadable] = deque()
        self._file: Iterator[Chunk | Unreadable] | None = None  # the file being cut
        self._order = Order()

    def __iter__(self) -> Iterator[Chunk | Unreadable]:
        while self._ready or self._more():
            yield self._ready.popleft()

    def _more(self) -> bool:
        """Cut a little more (the next chunk of the file being cut, or the next
        input): False when all is cut."""
        while True:
            if self._file is None:
                step = next(self._items, None)
                if step is None:
                    return False
                k, item = step
                if isinstance(item, Unreadable):
                    self._ready.append(item)
                    return True
                tail = self._target * self._workers if self._workers > 1 and k == self._last else 0
                self._file = self._chunks(item, tail)
            part = next(self._file, None)
            if part is not None:
                self._ready.append(part)
                return True
            self._file = None

    def _chunks(self, path: str, tail: int) -> Iterator[Chunk | Unreadable]:
        name = self._names.get(path)
        try:
            for part in _cut(path, self._target, tail, 0, self._order, False, []):
                yield part if name is None else replace(part, name=name)
        except OSError as error:
            yield Unreadable(name or path, reason(error))

    def order(self) -> TableOrder:
        """The order of the run's tables (cutting what is left to cut)."""
        while self._more():
            pass
        return self._order.result()


# ------------------------------------------------------------ reading a chunk


def _lines(path: str, long: list[int] | None = None) -> Iterator[bytes]:
    """The raw lines of a gzip file, each at most :data:`MAX_LINE` bytes
    (``long``: see :func:`bounded_lines`). The file is opened here, not when
    the lines are first read, so that a file that cannot be opened raises
    OSError rather than reading as cut short."""
    f = open(path, "rb")  # noqa: SIM115 - closed by the generator below

    def lines() -> Iterator[bytes]:
        import gzip  # only for a compressed file

        with f, gzip.GzipFile(fileobj=f) as z:
            for line, _ in bounded_lines(z.readline, 1, long):
                yield line

    return lines()


def _blocks(path: str, chunk: Chunk, long: list[int] | None = None) -> Iterator[bytes]:
    """The bytes of a plain chunk in blocks of whole lines (the last may
    have no line end), for :func:`hh.read.runs.split_blocks`; a line longer than
    :data:`MAX_LINE` is cut there, as :func:`bounded_lines` cuts it. Opened
    at the call, as :func:`_lines`."""
    f = open(path, "rb")  # noqa: SIM115 - closed by the generator below

    def blocks() -> Iterator[bytes]:
        with f:
            f.seek(chunk.start)
            left = -1 if chunk.end is None else chunk.end - chunk.start
            tail: list[bytes] = []  # a line begun in an earlier block
            held = 0  # its bytes
            line = chunk.first_line  # the number of the first line in ``tail``
            dropping = False  # reading the rest of a line too long, to its end
            while left != 0:
                data = f.read(RUN_BLOCK if left < 0 else min(RUN_BLOCK, left))
                if not data:
                    break
                if left > 0:
                    left -= len(data)
                end = data.find(b"\n")  # where the line begun in ``tail`` ends
                if dropping or held + (len(data) if end < 0 else end) > MAX_LINE:
                    if not dropping:  # too long: its beginning is kept
                        tail.append(data[: MAX_LINE - held])
                        held = MAX_LINE
                        if long is not None:
                            long.append(line)
                    dropping = end < 0
                    if dropping:
                        continue
                    data = data[end:]  # from the line end of the long line on
                cut = data.rfind(b"\n") + 1
                if cut == 0:  # no line end yet: a line longer than a block
                    tail.append(data)
                    held += len(data)
                    continue
                tail.append(data[:cut])
                block = b"".join(tail)
                yield block
                line += block.count(b"\n")
                tail = [data[cut:]]
                held = len(tail[0])
            last = b"".join(tail)
            if last:
                yield last

    return blocks()


def runs(chunk: Chunk, long: list[int] | None = None) -> Iterator[Run]:
    """The hands of a chunk, cut but not parsed (see :class:`hh.read.runs.Run`).
    A line longer than :data:`MAX_LINE` is cut there; its number is
    appended to ``long`` before the run that holds it is yielded."""
    name = chunk.path if chunk.name is None else chunk.name
    if is_ohh(chunk.path):  # its hands' text (hh.openformats.ohh_read), read whole
        from hh.openformats.ohh_read import text_lines

        return split_runs(lines_of_stream(text_lines(chunk.path)), name, 1)
    if chunk.start == 0 and chunk.end is None and is_compressed(chunk.path):
        return split_runs(lines_of_stream(_lines(chunk.path, long)), name, chunk.first_line)
    return split_blocks(_blocks(chunk.path, chunk, long), name, chunk.first_line)

