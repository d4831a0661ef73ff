"""Finding the files of a run, and what kind of file each is: folders give
their hand files (``*.txt``, ``*.log``, ``*.gz``, ``*.ohh``), recursively and
sorted; what cannot be read is a result (:class:`Unreadable`), not a gap.
Whether a file is gzip is decided by its magic bytes (:func:`gzipped`),
whatever its name.
"""

from __future__ import annotations

import errno
import os
import zlib
from collections.abc import Iterable
from typing import BinaryIO, NamedTuple

SUFFIXES = (".txt", ".log", ".gz", ".ohh")

# ------------------------------------------------------------ finding the files


class Unreadable(NamedTuple):
    """A file or folder of the run that cannot be read: a result of its own
    (the other files are still judged), never a crash or a silent gap."""

    path: str
    reason: str


class MissingPath(Exception):
    """A path named on the command line does not exist (a usage error)."""


def find_inputs(paths: Iterable[str]) -> list[str | Unreadable]:
    """The files to read, in order: a folder gives its ``*.txt``, ``*.log``,
    ``*.gz`` and ``*.ohh`` files, recursively, sorted by path; ``-`` is standard input.

    Inside folders, what cannot be read is reported in its place, not
    skipped: a sub-folder that cannot be listed, a broken symbolic link
    (dangling or looping, whatever its name: it may have pointed to a folder
    of hands). A linked folder is followed once; a link back to a folder
    being read is reported as a loop. Raises :class:`MissingPath` for a
    path given that does not exist."""
    out: list[str | Unreadable] = []
    for name in paths:
        if name == "-":
            out.append(name)
        elif os.path.isdir(name):
            found: list[tuple[tuple[str, ...], str | Unreadable]] = []
            _walk(name, found, set())
            found.sort(key=lambda item: item[0])
            out.extend(item for _, item in found)
        elif os.path.lexists(name) and not os.path.exists(name):
            out.append(Unreadable(name, _broken_link(name)))
        elif os.path.exists(name):
            out.append(name)
        else:
            raise MissingPath(name)
    return out


def _parts(path: str) -> tuple[str, ...]:
    return tuple(p for p in path.split(os.sep) if p)


def _walk(
    folder: str,
    found: list[tuple[tuple[str, ...], str | Unreadable]],
    seen: set[tuple[int, int]],
) -> None:
    try:
        st = os.stat(folder)
        if (st.st_dev, st.st_ino) in seen:
            found.append((_parts(folder), Unreadable(folder, "a link back to a folder being read")))
            return
        seen = seen | {(st.st_dev, st.st_ino)}
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError as error:
        found.append((_parts(folder), Unreadable(folder, reason(error))))
        return
    for entry in entries:
        path = os.path.join(folder, entry.name)
        try:
            is_dir = entry.is_dir()
            is_file = not is_dir and entry.is_file()
        except OSError as error:  # a link that loops, on some systems
            why = _broken_link(path) if entry.is_symlink() else reason(error)
            found.append((_parts(path), Unreadable(path, why)))
            continue
        if is_dir:
            _walk(path, found, seen)
        elif is_file:
            if entry.name.endswith(SUFFIXES):
                found.append((_parts(path), path))
        elif entry.is_symlink():
            found.append((_parts(path), Unreadable(path, _broken_link(path))))


def _broken_link(path: str) -> str:
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link that loops"
        target = os.readlink(path)
        return f"a broken symbolic link (to {target}, {reason(error).lower()})"
    return "not a file"


def reason(error: OSError) -> str:
    """What went wrong, as the system says it ("Permission denied")."""
    return error.strerror or str(error)


# ------------------------------------------------------------ gzip

GZIP_MAGIC = b"\x1f\x8b"  # how a compressed file begins, whatever its name


def is_compressed(path: str) -> bool:
    """Whether the file is gzip (see :func:`gzipped`)."""
    with open(path, "rb") as f:
        return gzipped(f)


# Open Hand History, by name: read as the text of its hands
# (:mod:`hh.openformats.ohh_read`), whole, as a gzip file is
OHH_SUFFIXES = (".ohh", ".ohh.gz")


def is_ohh(path: str) -> bool:
    """Whether the file is Open Hand History: by its name, ``*.ohh`` (or
    ``*.ohh.gz``, compressed)."""
    return path.lower().endswith(OHH_SUFFIXES)


def read_whole(path: str) -> bool:
    """Whether the file is read whole, never from a byte offset: gzip, or OHH."""
    return is_ohh(path) or is_compressed(path)


def gzipped(f: BinaryIO) -> bool:
    """Whether the file open at its start is gzip, by its first bytes (the
    magic number), not its name: a ``.gz`` that is text is read as the text
    it is. The file is left at its start."""
    compressed = f.read(2) == GZIP_MAGIC
    f.seek(0)
    return compressed


# How much of a file's text says whether it is text at all: a NUL byte in it
# makes a file no text (a hand history is UTF-8, FORMAT.md; the odds that 8 KiB
# of random bytes hold no NUL are about one in ten million).
TEXT_PROBE = 8 * 1024


def not_text(path: str) -> str | None:
    """Why the file is no text (a NUL byte at byte N of its first
    :data:`TEXT_PROBE` bytes, of its text for a gzip), or None. A file that
    cannot be read raises OSError; a gzip that breaks in its first bytes is
    left to the reader, which says so."""
    import gzip

    with open(path, "rb") as f:
        head = f.read(TEXT_PROBE)
        if head.startswith(GZIP_MAGIC):
            f.seek(0)
            try:
                with gzip.open(f) as z:
                    head = z.read(TEXT_PROBE)
            except (EOFError, OSError, zlib.error):
                return None
    at = head.find(b"\0")
    return None if at < 0 else f"a NUL byte at byte {at + 1:,}: binary data, not text"
