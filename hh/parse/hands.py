"""Runs of lines into records: the hand when it parses, else the first
error in the file's words. The fast path reads a well-formed hand
(:mod:`hh.parse.fast`); anything else is parsed by Lark over the same
grammar (:mod:`hh.parse.lark`), which decides what the error is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import Final

from hh.model import Hand
from hh.parse.fast import parse_fast
from hh.parse.lines import HandSyntaxError, ParseError
from hh.read.cut import Chunk, runs
from hh.read.files import gzipped, is_ohh
from hh.read.runs import (
    LOOKS_LIKE_HEADER,
    Corrupt,
    Run,
    lines_of_stream,
    lines_of_text,
    split_runs,
)

# Best effort for a header that did not parse, to name the hand in reports.
HEADER_ID = re.compile(r"(?:(\S+) )?Hand #([A-Za-z0-9_-]+)")


class Record:
    """One hand of a file, or one run of lines that could not be a hand.
    A plain class, not a dataclass, for the reason :class:`hh.read.runs.Run`
    gives."""

    __slots__ = ("error", "file", "hand", "hand_id", "line", "raw", "site")

    def __init__(
        self,
        file: str | None,
        line: int,
        raw: str,
        hand: Hand | None,
        error: ParseError | None,
        hand_id: str | None,
        site: str | None,
    ) -> None:
        self.file: Final = file
        self.line: Final = line  # the hand's first line in the file
        # the hand's text as in the file (lines joined with "\n", CR stripped)
        self.raw: Final = raw
        self.hand: Final = hand
        self.error: Final = error
        # best effort even on error (None when no header could be read)
        self.hand_id: Final = hand_id
        self.site: Final = site

    def _fields(self) -> tuple[object, ...]:
        return (self.file, self.line, self.raw, self.hand, self.error, self.hand_id, self.site)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        return (
            "Record(file={!r}, line={!r}, raw={!r}, hand={!r}, error={!r}, hand_id={!r}, "
            "site={!r})".format(*self._fields())
        )


def trailing_blanks(run: list[str]) -> bool:
    """Whether a line of the run ends with a space, tab or CR: each line's
    last character (three substring searches of the whole text read every
    character, five times the work; a regex for a set of characters tries
    every one)."""
    return any(line[-1:] in (" ", "\t", "\r") for line in run)


def strip_line(text: str) -> str:
    return text.rstrip(" \t\r")


def _parse_lines(lines: list[str], first: int, raw: list[str] | None = None) -> Hand:
    """Parse one hand given as right-stripped, non-blank lines."""
    hand = parse_fast(lines, first)
    if hand is not None:
        return hand
    for i, line in enumerate(lines):
        cr = line.find("\r")
        if cr >= 0:
            raise HandSyntaxError(
                ParseError(
                    "a carriage return (CR) inside a line: this file uses CR line ends (or has "
                    "a stray CR), but lines end with LF or CRLF (FORMAT.md)",
                    first + i,
                    cr + 1,
                    (raw or lines)[i],
                )
            )
    from hh.parse.lark import parse_lines

    return parse_lines(lines, first, raw)


def parse_hand(text: str, *, first_line: int = 1) -> Hand:
    """Parse the text of one hand; raises :class:`HandSyntaxError`.

    Leading and trailing blank lines are allowed (line numbers count them);
    a blank line inside the hand is an error, since blank lines separate
    hands.
    """
    text = text.removeprefix("\ufeff")
    raw = [x.removesuffix("\r") for x in text.split("\n")]
    lines = [strip_line(x) for x in raw]
    start = 0
    while start < len(lines) and not lines[start].strip(" \t"):
        start += 1
    end = len(lines)
    while end > start and not lines[end - 1].strip(" \t"):
        end -= 1
    for i in range(start, end):
        if not lines[i].strip(" \t"):
            raise HandSyntaxError(
                ParseError(
                    "a blank line inside the hand: blank lines separate hands",
                    first_line + i,
                    1,
                    raw[i],
                )
            )
    if start == end:
        raise HandSyntaxError(ParseError("no hand: the text is blank", first_line, 1, ""))
    if lines[start].startswith("\ufeff"):  # a byte-order mark before the header
        lines[start] = lines[start][1:]
        raw[start] = raw[start][1:]
    return _parse_lines(lines[start:end], first_line + start, raw[start:end])


def parse_run(run: Run) -> Record:
    """Parse one run into a record: a hand, or the reason it is not one."""
    if run.corrupt is not None:
        n = run.start
        return Record(run.file, n, "", None, ParseError(run.corrupt, n, 1, ""), None, None)
    return _record(run.lines, run.start, run.bad, run.file)


def _records(
    source: Iterable[tuple[str, int | None] | Corrupt], file: str | None, first_line: int = 1
) -> Iterator[Record]:
    for run in split_runs(source, file, first_line):
        yield parse_run(run)


def _record(run: list[str], start: int, bad: list[tuple[int, int]], file: str | None) -> Record:
    raw = "\n".join(run)
    # right-stripped lines: most logs have no trailing blanks, and one search
    # of the whole text is cheaper than a strip per line
    lines = [strip_line(x) for x in run] if trailing_blanks(run) else run
    if not LOOKS_LIKE_HEADER.match(lines[0]):
        if bad and bad[0][0] == start:  # an undecodable first line: say that, not "no header"
            return Record(file, start, raw, None, _decode_error(run, start, bad), None, None)
        error = ParseError(
            "lines outside a hand: a hand begins with a header line "
            "('[<site> ]Hand #<id>: <game> ... - <date> <time>')",
            start,
            1,
            run[0],
        )
        return Record(file, start, raw, None, error, None, None)
    try:
        hand = _parse_lines(lines, start, run)
    except HandSyntaxError as e:
        error = e.error
        if bad and bad[0][0] <= error.line:
            error = _decode_error(run, start, bad)
        head = HEADER_ID.match(lines[0])  # best effort, to name the hand in reports
        if head is None:
            return Record(file, start, raw, None, error, None, None)
        return Record(file, start, raw, None, error, head.group(2), head.group(1))
    if bad:  # replacement characters happened to parse, but the bytes were not UTF-8
        return Record(
            file,
            start,
            raw,
            None,
            _decode_error(run, start, bad),
            hand.header.hand_id,
            hand.header.site,
        )
    return Record(file, start, raw, hand, None, hand.header.hand_id, hand.header.site)


def _decode_error(run: list[str], start: int, bad: list[tuple[int, int]]) -> ParseError:
    line, column = bad[0]
    return ParseError(
        "invalid UTF-8: this byte does not decode (the file must be UTF-8)",
        line,
        column,
        run[line - start],
    )


def parse_text(text: str, *, file: str | None = None) -> Iterator[Record]:
    """Parse a whole text of hands separated by blank lines."""
    return _records(lines_of_text(text), file)


def parse_stream(
    stream: Iterable[bytes], *, file: str | None = None, first_line: int = 1
) -> Iterator[Record]:
    """Parse hands from a binary stream (e.g. stdin), line by line.
    ``first_line``: the line number of the stream's first line, for a part
    of a file read from a byte offset."""
    return _records(lines_of_stream(stream), file, first_line)


def parse_file(path: str | os.PathLike[str]) -> Iterator[Record]:
    """Parse a file, plain or gzip-compressed (by its magic bytes:
    :func:`hh.read.files.gzipped`), streaming. A file that
    cannot be opened raises OSError."""
    name = os.fspath(path)
    if is_ohh(name):  # Open Hand History: the text of its hands (hh.openformats.ohh_read)
        from hh.openformats.ohh_read import text_lines

        return parse_stream(text_lines(name), file=name)
    f = open(name, "rb")  # noqa: SIM115 - closed by the generator below

    def records() -> Iterator[Record]:
        with f:
            if gzipped(f):
                import gzip  # only for a compressed file

                with gzip.GzipFile(fileobj=f) as z:
                    yield from parse_stream(z, file=name)
            else:
                yield from parse_stream(f, file=name)

    return records()


def parse_chunk(chunk: Chunk) -> Iterator[Record]:
    """The hands of a chunk (:func:`hh.read.cut.runs`), parsed: the same
    records, with the same line numbers, as :func:`parse_file` gives for
    that part of the file. A file that cannot be opened raises OSError
    here, at the call."""
    return _parsed(runs(chunk))  # opened now; parsed as the caller reads


def _parsed(found: Iterator[Run]) -> Iterator[Record]:
    """Each run parsed as it is read. A generator function, not a generator
    expression: compiled by mypyc, the expression returned above was
    evaluated at once, and the whole chunk's hands were held before the
    first was judged."""
    for run in found:
        yield parse_run(run)
