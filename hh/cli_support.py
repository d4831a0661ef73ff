"""What the ``hh`` commands share: failing with a message (exit 2), writing
the output (a reader gone is 141, any other write error one line), the
inputs of a run, standard input copied to a file, the default workers.

Exit codes, as scripts rely on them: 0 all good, 1 some hand failed, 2 the
command could not run, 141 the reader went away (``hh validate ... | head``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn, Protocol, TextIO

import typer

from hh.read.files import MissingPath, Unreadable, find_inputs


class Explainer(Protocol):
    """A layer's reading of an error no command caught (a database found
    damaged while a report reads it): the one line for users, or None when
    it is not one of its errors (then it is a bug, and its traceback is
    wanted)."""

    def __call__(self, error: BaseException) -> str | None: ...


# Registered by the layers that meet such errors (pipelines.dbhealth);
# asked by hh.cli.main, which then fails with the line, exit 2.
EXPLAINERS: list[Explainer] = []
# The name a command says its messages under when it is not "hh" (each
# command group sets its own: ``SPEAKERS["report"] = "hh report"``).
SPEAKERS: dict[str, str] = {}


def explained(error: BaseException) -> str | None:
    """The first line an :class:`Explainer` gives for ``error``, or None."""
    for explain in EXPLAINERS:
        line = explain(error)
        if line is not None:
            return line
    return None


def shown(text: object) -> str:
    """Untrusted text (paths, names, a hook's error) as every command shows
    it on a terminal: each line escaped by :func:`hh.output.safe`, the line
    ends kept."""
    from hh.output import safe  # the referee's output: loaded when there is something to say

    return "\n".join(safe(line) for line in str(text).split("\n"))


def say(message: object, command: str = "hh") -> None:
    """``command: message`` on stderr, escaped (:func:`shown`)."""
    if sys.stderr is not None:
        print(f"{command}: {shown(message)}", file=sys.stderr)


def fail(message: object, command: str = "hh") -> NoReturn:
    """A command that cannot run: the reason on stderr (:func:`say`), exit 2."""
    say(message, command)
    raise typer.Exit(2)


def cannot_write(name: object, error: OSError, command: str = "hh") -> NoReturn:
    """A file the command cannot write (a missing folder, a full disk), said
    alike by every command: ``cannot write NAME: reason``, exit 2."""
    fail(f"cannot write {name}: {error.strerror or error}", command)


def find(paths: list[str]) -> list[str | Unreadable]:
    """The inputs of a run (see :func:`hh.read.files.find_inputs`); a missing
    path is a usage error (exit 2), found before anything is printed."""
    try:
        found = find_inputs(paths)
    except MissingPath as missing:
        fail(f"no such file or folder: {missing}")
    if "-" in found and sys.stdin is None:
        fail("cannot read standard input: it is closed")
    return found


def _silence(stream: TextIO) -> None:
    """After a failed write, point the stream's descriptor at /dev/null, so
    that the flush at exit does not fail again with a traceback."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


class _WriteFailed(Exception):
    """A write to the command's output failed: ``args[0]`` is the OSError."""


def _terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, OSError, ValueError):  # a closed or a stand-in stream
        return False


class Output:
    """What a command writes to. Its write errors are told apart from every
    other error of the command: an OSError raised while judging (a file gone
    missing, no file descriptors left) is not "cannot write standard
    output", and the output stays open for the message.

    Texts for a file or a pipe are gathered and written :attr:`BLOCK`
    characters at a time: a command writes a line or so per hand, and a
    stream without a buffer of its own (``PYTHONUNBUFFERED``, set in many
    containers) would otherwise cost a system call for each. A terminal
    gets each text at once, as the hands are judged."""

    __slots__ = ("_block", "_pending", "_size", "_stream")

    BLOCK = 1 << 16

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._block = 0 if _terminal(stream) else self.BLOCK
        self._pending: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._pending.append(text)
        self._size += len(text)
        if self._size >= self._block:
            self._drain()

    def _drain(self) -> None:
        if not self._pending:
            return
        text = "".join(self._pending)
        self._pending.clear()
        self._size = 0
        try:
            self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _WriteFailed(error) from None

    def flush(self) -> None:
        """Write what is gathered, and flush the stream."""
        self._drain()
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _WriteFailed(error) from None


@contextmanager
def writing(stream: TextIO | None = None, name: str = "standard output") -> Iterator[Output]:
    """Write to ``stream`` (standard output by default). A reader that went
    away (``hh validate ... | head``) ends the command quietly with 141, the
    status of a command killed by SIGPIPE, as ``cat`` or ``grep`` give; any
    other write error (a full disk, a closed output) is ``hh: cannot write
    NAME: reason``, exit 2. Any other OSError of the command is ``hh:
    reason: file``, exit 2, without a traceback."""
    out = sys.stdout if stream is None else stream
    if out is None:
        fail(f"cannot write {name}: it is closed")
    output = Output(out)
    try:
        yield output
        output.flush()
    except BrokenPipeError:
        _silence(out)
        raise typer.Exit(141) from None
    except _WriteFailed as failed:
        _silence(out)
        cannot_write(name, failed.args[0])
    except OSError as error:
        with contextlib.suppress(OSError, _WriteFailed):
            output.flush()  # what was judged before it stays written
        where = f": {error.filename}" if error.filename else ""
        fail(f"{error.strerror or error}{where}")
    except BaseException:  # an exit, an interrupt: what was written stays
        with contextlib.suppress(OSError, _WriteFailed):
            output.flush()
        raise


@contextmanager
def stdin_copied(
    inputs: list[str | Unreadable],
) -> Iterator[tuple[list[str | Unreadable], dict[str, str]]]:
    """Standard input copied to a temporary file, so that it can be cut for
    the workers (and its tables' order found) like any file; its results
    still name it ``-``."""
    if "-" not in inputs:
        yield inputs, {}
        return
    import shutil
    import tempfile

    with tempfile.NamedTemporaryFile(prefix="hh-stdin-", suffix=".txt") as copy:
        try:
            shutil.copyfileobj(sys.stdin.buffer, copy)
            copy.flush()
        except OSError as error:
            fail(f"cannot read standard input: {error.strerror or error}")
        yield [copy.name if x == "-" else x for x in inputs], {copy.name: "-"}
