"""Text into runs: decoded lines, and the runs of non-blank lines that
may each be a hand (FORMAT.md, Settled details: a hand is a run of
non-blank lines that begins with a header; a header inside a run starts a
new one). Knows nothing of the lines' meaning: parsing a run is
:mod:`hh.parse`'s job.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Iterator
from typing import Final

# How a hand's header line begins: what cuts a run before a header that
# follows no blank line. (The header's whole shape is the grammar's.)
LOOKS_LIKE_HEADER = re.compile(r"(?:\S+ )?Hand #")


def looks_like_header(line: str) -> bool:
    """Whether a line begins a hand (FORMAT.md: a header inside a run starts
    a new hand). Cheap: used to cut files at hand boundaries."""
    return LOOKS_LIKE_HEADER.match(line) is not None


class Corrupt:
    """Marks the point where a compressed stream could not be read further."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def lines_of_text(text: str) -> Iterator[tuple[str, int | None]]:
    text = text.removeprefix("\ufeff")
    if text.endswith("\n"):
        text = text[:-1]
    for line in text.split("\n"):
        yield line.removesuffix("\r"), None


def decode_line(b: bytes, first: bool) -> tuple[str, int | None]:
    """One raw line (line end included or not) as text without its line end,
    and the column of its first undecodable byte or None. ``first``: the
    stream's first line, whose byte-order mark is not text."""
    if b.endswith(b"\n"):
        b = b[:-1]
    if b.endswith(b"\r"):
        b = b[:-1]
    try:
        text = b.decode("utf-8")
        bad = None
    except UnicodeDecodeError as e:
        text = b.decode("utf-8", "replace")
        bad = len(b[: e.start].decode("utf-8", "replace")) + 1
    if first and text.startswith("\ufeff"):
        text = text[1:]
        if bad is not None:
            bad -= 1
    return text, bad


def lines_of_stream(stream: Iterable[bytes]) -> Iterator[tuple[str, int | None] | Corrupt]:
    """Decode line by line, so memory stays flat and a bad byte spoils only
    its own line. Yields (text without line end, column of the first bad
    byte or None)."""
    first = True
    try:
        for b in stream:
            yield decode_line(b, first)
            first = False
    except (EOFError, OSError, zlib.error) as e:
        yield Corrupt(unreadable(e))


def unreadable(e: BaseException) -> str:
    return f"the file cannot be read to its end ({type(e).__name__}: {e})"


class Run:
    """One hand's lines as cut from the input, not parsed yet.

    Cutting is cheap and parsing is not, so they are apart: the import
    hashes a run's text to skip a hand it already holds without parsing it,
    and parallel workers cut a big file at hand boundaries.

    A plain class with ``__slots__`` and its own ``__init__``, not a
    dataclass: compiled by mypyc, a dataclass keeps the ``__init__`` that
    :mod:`dataclasses` writes at import, interpreted, and a frozen one sets
    each field through ``object.__setattr__`` (docs/performance.md).
    """

    __slots__ = ("bad", "corrupt", "file", "lines", "start")

    def __init__(
        self,
        file: str | None,
        start: int,
        lines: list[str],
        bad: list[tuple[int, int]],
        corrupt: str | None = None,
    ) -> None:
        self.file: Final = file
        self.start: Final = start  # line number of the first line
        self.lines: Final = lines  # text without line ends
        self.bad: Final = bad  # (line, column) of undecodable bytes
        self.corrupt: Final = corrupt  # the stream could not be read past this run

    def _fields(self) -> tuple[object, ...]:
        return (self.file, self.start, self.lines, self.bad, self.corrupt)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return "Run(file={!r}, start={!r}, lines={!r}, bad={!r}, corrupt={!r})".format(
            *self._fields()
        )

    @property
    def raw(self) -> str:
        return "\n".join(self.lines)


def split_runs(
    source: Iterable[tuple[str, int | None] | Corrupt], file: str | None, first_line: int = 1
) -> Iterator[Run]:
    """Cut decoded lines into hands (FORMAT.md, Settled details). A stream
    that breaks ends with a run of no lines carrying the reason."""
    cut = _Cutter(file, first_line)
    for item in source:
        if isinstance(item, Corrupt):
            yield from cut.corrupt(item.message)
            return
        done = cut.line(item[0], item[1])
        if done is not None:
            yield done
    last = cut.end()
    if last is not None:
        yield last


# Where to look, in a whole block of text, for the lines that end a run
# (blank: spaces and tabs, and one CR, at most) or begin one (a header):
# two literal searches, each far cheaper than one regex tried at every line.
_MAYBE_BLANK = re.compile(r"\n(?=[ \t\r\n]|\Z)")
_INDENTED = re.compile(r"\n[ \t\r]")  # a line that may be blank but not empty


def split_blocks(blocks: Iterable[bytes], file: str | None, first_line: int = 1) -> Iterator[Run]:
    """The runs :func:`split_runs` cuts from ``lines_of_stream``, the same
    runs with the same line numbers, from blocks of whole lines (each ends
    with a line end, but perhaps the last).

    Why: cutting line by line costs a Python step per line (decode, strip,
    look for a header), about a tenth of judging a hand. A block that
    decodes and holds no byte-order mark is cut by one regex over its text
    and split into lines by ``str.split``; any other block is read line by
    line as before, so that a bad byte still spoils only its own line."""
    cut = _Cutter(file, first_line)
    first = True
    try:
        for block in blocks:
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                text = "\ufeff"  # read line by line, below
            if "\ufeff" in text:
                lines = block.split(b"\n")
                if block.endswith(b"\n"):
                    lines.pop()
                for b in lines:
                    done = cut.line(*decode_line(b, first))
                    first = False
                    if done is not None:
                        yield done
                continue
            first = False
            yield from cut.block(text[:-1] if text.endswith("\n") else text)
    except (EOFError, OSError, zlib.error) as e:
        yield from cut.corrupt(unreadable(e))
        return
    last = cut.end()
    if last is not None:
        yield last


class _Cutter:
    """The state of cutting lines into runs: the run so far, its first line
    and undecodable bytes, and the number of the last line read."""

    __slots__ = ("bad", "file", "n", "run", "start")

    def __init__(self, file: str | None, first_line: int) -> None:
        self.file = file
        self.n = first_line - 1
        self.run: list[str] = []
        self.bad: list[tuple[int, int]] = []
        self.start = 0

    def _done(self) -> Run:
        done = Run(self.file, self.start, self.run, self.bad)
        self.run, self.bad = [], []
        return done

    def line(self, text: str, column: int | None) -> Run | None:
        """Read one line; returns the run it ends, if any."""
        self.n += 1
        done = None
        if text.startswith("\ufeff") and LOOKS_LIKE_HEADER.match(text, 1):
            # a byte-order mark before a header (files joined with cat): not text
            text = text[1:]
            if column is not None:
                column -= 1
        stripped = text.rstrip(" \t")
        if not stripped:
            return self._done() if self.run else None
        if self.run and LOOKS_LIKE_HEADER.match(stripped):
            done = self._done()
        if not self.run:
            self.start = self.n
        self.run.append(text)
        if column is not None:
            self.bad.append((self.n, column))
        return done

    def block(self, text: str) -> list[Run]:
        """Read whole lines of decoded text holding no byte-order mark (no
        line end after the last line); returns the runs they end."""
        lines = text.split("\n")
        if "\r" in text:
            lines = [x.removesuffix("\r") for x in lines]
        # (where the line begins, whether it is blank): blank lines end a
        # run, headers begin one
        marks = [(0, True)] if not lines[0].rstrip(" \t") else []
        if _INDENTED.search(text) is not None:
            marks.extend((m.start() + 1, True) for m in _MAYBE_BLANK.finditer(text))
        else:  # the usual text: only "\n\n" (or a last "\n") begins a blank line
            # (str.find, not the regex: a literal search reads several
            # characters a step, a pattern is tried at every line end)
            at = text.find("\n\n")
            while at >= 0:
                marks.append((at + 1, True))
                at = text.find("\n\n", at + 1)
            if text.endswith("\n"):
                marks.append((len(text), True))
        seen = -1
        at = text.find("Hand #")
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            if start != seen and LOOKS_LIKE_HEADER.match(text, start):
                marks.append((start, False))
                seen = start
            at = text.find("Hand #", at + 6)
        marks.sort()
        out: list[Run] = []
        base = self.n + 1  # the number of lines[0]
        begin = 0  # lines[begin:] are in the current run
        at = pos = 0  # lines[at] begins at text[pos]
        for p, blank in marks:
            at += text.count("\n", pos, p)
            pos = p
            if blank:
                if lines[at].rstrip(" \t"):
                    continue  # not blank after all
                if self.run or begin < at:
                    self._extend(lines, begin, at, base)
                    out.append(self._done())
                begin = at + 1
            elif self.run or begin < at:  # a header begins the next run
                self._extend(lines, begin, at, base)
                out.append(self._done())
                begin = at
        if begin < len(lines):
            self._extend(lines, begin, len(lines), base)
        self.n += len(lines)
        return out

    def _extend(self, lines: list[str], begin: int, end: int, base: int) -> None:
        if not self.run:
            self.start = base + begin
        self.run.extend(lines[begin:end])

    def end(self) -> Run | None:
        """The run the input ended in, if any."""
        return self._done() if self.run else None

    def corrupt(self, message: str) -> list[Run]:
        """The input broke: the run so far, and a run of no lines saying why."""
        out = [self._done()] if self.run else []
        out.append(Run(self.file, self.n + 1, [], [], message))
        return out
