"""Where hands come from: the files of a run, and big files cut into parts.

Both ``hh validate --workers`` and the import spread work over processes;
the unit of work is a :class:`Chunk`, a byte range of one file that begins
at a hand's first line and ends where the next chunk begins. A big plain
file is cut into several chunks so that one 2 GB log still uses every core;
a compressed file cannot be entered in the middle, so it is one chunk.

Cutting reads the file once, block by block, counting line ends so that each
chunk knows the line number it starts at: hands parsed from a chunk carry the
same line numbers as hands parsed from the whole file.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from hh.parse import Record, Run, lines_of_stream, looks_like_header, parse_run, split_runs

SUFFIXES = (".txt", ".log", ".gz")
CHUNK_BYTES = 16 * 1024 * 1024
_BLOCK = 8 * 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class Chunk:
    """Bytes ``[start, end)`` of ``path`` (``end`` None: to the end of the
    file), whose first line is line ``first_line`` of the file."""

    path: str
    start: int = 0
    end: int | None = None
    first_line: int = 1


def is_compressed(path: str) -> bool:
    """By the suffix or the gzip magic bytes, as ``parse_file`` decides."""
    if path.endswith(".gz"):
        return True
    with open(path, "rb") as f:
        return f.read(2) == _GZIP_MAGIC


def chunks(path: str, target: int = CHUNK_BYTES) -> list[Chunk]:
    """Cut a file into chunks of about ``target`` bytes at hand boundaries
    (a line that begins a hand). Small and compressed files are one chunk."""
    size = os.path.getsize(path)
    if size <= target or is_compressed(path):
        return [Chunk(path)]
    with open(path, "rb") as f:
        offsets = [0]
        while offsets[-1] + target < size:
            at = _next_hand(f, offsets[-1] + target)
            if at is None:
                break
            offsets.append(at)
        out = []
        line = 1
        for k, start in enumerate(offsets):
            end = offsets[k + 1] if k + 1 < len(offsets) else None
            out.append(Chunk(path, start, end, line))
            if end is not None:
                line += _count_lines(f, start, end)
    return out


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


def _lines(path: str, chunk: Chunk) -> Iterator[bytes]:
    """The raw lines of a chunk (a gzip file: all its lines)."""
    with open(path, "rb") as f:
        if chunk.start == 0 and chunk.end is None and is_compressed(path):
            with gzip.GzipFile(fileobj=f) as z:
                yield from z
            return
        f.seek(chunk.start)
        left = None if chunk.end is None else chunk.end - chunk.start
        for line in f:
            if left is not None:
                if left <= 0:
                    return
                left -= len(line)
            yield line


def runs(chunk: Chunk) -> Iterator[Run]:
    """The hands of a chunk, cut but not parsed (see :class:`hh.parse.Run`)."""
    return split_runs(lines_of_stream(_lines(chunk.path, chunk)), chunk.path, chunk.first_line)


def records(chunk: Chunk) -> Iterator[Record]:
    """The hands of a chunk, parsed: the same records, with the same line
    numbers, as :func:`hh.parse.parse_file` gives for that part of the file."""
    for run in runs(chunk):
        yield parse_run(run)
