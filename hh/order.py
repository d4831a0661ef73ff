"""The scan that tells which tables of a run come out of time order.

FORMAT.md orders each table's hands by time; the streaming cross-hand checks
(:class:`hh.crosshand.CrossChecker`) judge every other table's hands as they
come and hold only the tables this scan names until their last hand. It
reads the files without parsing them: only the two lines around each
``Table '`` line are decoded.

Why a module of its own, importing nothing heavier than :mod:`hh.places`:
``hh validate`` with two workers or more starts the scan in a process of its
own (:class:`Scan`) before it imports the parser and the rules, so that the
scan runs on the core that idles during those imports instead of taking
the main process's time while the workers judge (docs/performance.md,
sixth pass).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from typing import BinaryIO, NamedTuple

from hh.inputs import GZIP_MAGIC
from hh.places import Place, TableKey, looks_like_header, placement

_BLOCK = 1024 * 1024  # read a block at a time: memory stays flat whatever the file's size
# Below this much input the scan is run in place: it takes ~3.5 ms a MB, and
# starting a process costs about a millisecond.
AHEAD_MIN_BYTES = 1024 * 1024


def scan_tables(path: str) -> Iterator[Place]:
    """The place (site, table, time) of every run of lines in the file whose
    second line is a Table line, in file order, without parsing: the hands
    are cut as :func:`hh.parse.split_runs` cuts them (a run begins after a
    blank line or at a header), but only the two lines around each
    ``Table '`` line are decoded. ``hh validate`` reads it first to know
    which tables come out of time order (FORMAT.md orders each table's
    hands by time), so that all the others can be judged as they stream.
    A file that cannot be read (or read to its end) gives what was read."""
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError:
        return
    with f:
        try:
            compressed = path.endswith(".gz") or f.read(2) == GZIP_MAGIC
            f.seek(0)
            if not compressed:
                yield from _scan_plain(f)
                return
            import gzip  # only for a compressed file

            stream: BinaryIO = gzip.GzipFile(fileobj=f)  # type: ignore[assignment]
            prev2: bytes | None = None  # None: before the file's first line (a blank)
            prev: bytes | None = None
            first = True
            for line in stream:
                if prev is not None and line.startswith(b"Table '"):
                    place = _place(prev2, prev, line, first)
                    if place is not None:
                        yield place
                if prev is not None:
                    first = False
                prev2, prev = prev, line
        except (EOFError, OSError, zlib.error):
            return


# a literal search ("^" in multiline mode is tried at every byte, 8x slower)
_TABLE_LINE = re.compile(rb"\nTable '")


def _scan_plain(f: BinaryIO) -> Iterator[Place]:
    """:func:`scan_tables` over a plain file, a block at a time: the regex
    engine finds the Table lines, and only the lines around them are looked
    at (a Python loop over every line cost a tenth of a whole ``hh
    validate`` on two cores). Each block ends at a line end and is searched
    after the last two lines of the one before, the context a Table line
    at its start needs; memory stays at a block whatever the file's size."""
    tail = b""  # the last two lines before the block
    offset = 0  # where ``tail`` begins in the file
    while True:
        block = f.read(_BLOCK)
        if not block:
            return
        if not block.endswith(b"\n"):
            block += f.readline()
        data = tail + block
        for m in _TABLE_LINE.finditer(data, max(len(tail) - 1, 0)):
            at = m.start() + 1  # the file's first line is never found: no line before it
            start = data.rfind(b"\n", 0, at - 1) + 1
            first = offset == 0 and start == 0
            prev2 = None if start == 0 else data[data.rfind(b"\n", 0, start - 1) + 1 : start]
            end = data.find(b"\n", at)
            line = data[at : len(data) if end < 0 else end + 1]
            place = _place(prev2, data[start:at], line, first)
            if place is not None:
                yield place
        last = data.rfind(b"\n", 0, len(data) - 1)  # the end of the line before the last
        cut = 0 if last < 0 else data.rfind(b"\n", 0, last) + 1
        offset += cut
        tail = data[cut:]


def _place(prev2: bytes | None, prev: bytes, line: bytes, first: bool) -> Place | None:
    """The place of the run whose Table line is ``line``, when ``prev`` (the
    line before it) begins a run: after a blank line or the file's start, or
    as a header."""
    head = _text(prev, first_line=first)
    starts = prev2 is None or _blank(prev2) or looks_like_header(head.rstrip(" \t"))
    if starts and not _blank(prev):
        return placement(head, _text(line, first_line=False))
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


class TableOrder(NamedTuple):
    """What the scan of a run found: the tables whose hands do not come in
    time order, each with its number of hands, and the number of hands with
    a table line in all (to size the cross-hand checker's id table once)."""

    disordered: dict[TableKey, int]
    hands: int


def table_order(paths: Iterable[str]) -> TableOrder:
    """Scan the files of a run (see :func:`scan_tables`) for the order of their
    tables' hands (see :class:`hh.crosshand.CrossChecker`)."""
    last: dict[TableKey, int] = {}
    count: dict[TableKey, int] = {}
    out: set[TableKey] = set()
    hands = 0
    for path in paths:
        for place in scan_tables(path):
            if place.table is None:
                continue
            hands += 1
            key = (place.site, place.table)
            when = place.instant
            count[key] = count.get(key, 0) + 1
            if when < last.get(key, when):
                out.add(key)
            last[key] = max(when, last.get(key, when))
    return TableOrder({key: count[key] for key in out}, hands)


def disordered_tables(paths: Iterable[str]) -> dict[TableKey, int]:
    """The tables whose hands do not come in time order over the files of a
    run, each with its number of hands."""
    return table_order(paths).disordered


class Scan:
    """:func:`table_order` over a run's files, started at once and read when
    needed (:meth:`result`).

    With ``ahead`` (``hh validate`` with two workers or more) and input worth
    it, the scan runs in a forked process while the caller goes on importing
    and starting its workers; on two cores it so takes ~25 ms of the core
    that waits for those imports instead of the main process's time once
    the workers judge (the rate of two workers against one, interleaved:
    see docs/performance.md, sixth pass). The result comes back marshalled
    down a pipe. Whatever happens to that process (killed, out of memory),
    :meth:`result` is the same: it scans in place when no whole answer came.
    ``--workers 1`` scans in place: one process, as asked."""

    def __init__(self, paths: list[str], ahead: bool) -> None:
        self._paths = paths
        self._order: TableOrder | None = None
        self._pid = 0
        self._fd = -1
        if ahead and hasattr(os, "fork") and _size(paths) >= AHEAD_MIN_BYTES:
            with contextlib.suppress(OSError):  # no process or pipe to be had: in place
                self._start()

    def _start(self) -> None:
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            raise
        if pid == 0:  # the scan's process: never returns
            code = 70
            try:
                os.close(read)
                import signal

                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the main process stops it
                order = table_order(self._paths)
                data = memoryview(marshal.dumps((order.disordered, order.hands)))
                while data:
                    data = data[os.write(write, data) :]
                code = 0
            except BaseException:
                pass
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._fd = pid, read

    @property
    def pid(self) -> int:
        """The scan's process while it is to be read, else 0 (scanned in
        place, or read)."""
        return self._pid

    def result(self) -> TableOrder:
        """The order of the run's tables (waiting for the scan's process, if
        one runs)."""
        if self._order is None:
            self._order = self._received() if self._pid else None
            if self._order is None:
                self._order = table_order(self._paths)
        return self._order

    def _received(self) -> TableOrder | None:
        parts: list[bytes] = []
        try:
            while part := os.read(self._fd, 1 << 16):
                parts.append(part)
        except OSError:
            self.close()
            return None
        if self._reap(kill=False) != 0:  # the pipe ended: the process is ending
            return None
        try:
            disordered, hands = marshal.loads(b"".join(parts))
        except (EOFError, ValueError, TypeError):
            return None
        return TableOrder(disordered, hands)

    def close(self) -> None:
        """Stop the scan's process if it still runs (the run ended early) and
        reap it."""
        self._reap(kill=True)

    def _reap(self, kill: bool) -> int:
        """Close the pipe and wait for the scan's process: its exit code."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if not self._pid:
            return -1
        pid, self._pid = self._pid, 0
        if kill:
            import signal

            with contextlib.suppress(OSError):  # already ended: a zombie ignores it
                os.kill(pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:  # reaped by someone else: its answer cannot be trusted
            return -1
        return os.waitstatus_to_exitcode(status)

    def __enter__(self) -> Scan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _size(paths: list[str]) -> int:
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total
