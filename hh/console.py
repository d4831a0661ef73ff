"""The work of ``hh parse`` and ``hh validate``, and the ``hh`` entry point,
without typer.

Why apart from :mod:`hh.cli`: importing typer (and building its
parameters) costs about a third of a one-hand ``hh validate``, and is paid
again, serially, before a parallel run's workers start. Plain invocations
of these two commands (files, ``--json``, ``--workers N``) are read here
and run at once; anything else (help, a usage error, every other command)
goes to typer in :mod:`hh.cli`, whose ``parse`` and ``validate`` call the
same functions. Exit codes: 0 all good, 1 some hand failed, 2 usage, 141
the reader went away.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

if TYPE_CHECKING:
    from hh.inputs import Unreadable
    from hh.parse import Record
    from hh.validate import Violation


class Stop(Exception):
    """End the command with this exit status (its message already shown)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def main() -> None:
    """The ``hh`` command."""
    args = sys.argv[1:]
    if args and (code := quick(args)) is not None:
        _exit(code)
    from hh.cli import main as typed

    typed()


def _exit(code: int) -> NoReturn:
    """End the process at once with ``code``, the output flushed.

    Why not ``sys.exit``: the interpreter's shutdown (a full collection,
    every module torn down) took ~30 ms after the last line of a
    4,000-hand run, 11% of the main process's CPU in a two-worker run under
    ``perf``, and nothing is left to do by then: the workers have been
    stopped and the output written. A flush that fails here gives 120, the
    status Python itself gives when it cannot flush standard output at exit."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


# ---------------------------------------------------------------- input and output


def fail(message: str) -> NoReturn:
    """A command that cannot run: the reason on stderr, exit 2."""
    if sys.stderr is not None:
        print(f"hh: {message}", file=sys.stderr)
    raise Stop(2)


def find(paths: list[str]) -> list[str | Unreadable]:
    """The inputs of a run (see :func:`hh.inputs.find_inputs`); a missing
    path is a usage error (exit 2), found before anything is printed."""
    from hh.inputs import MissingPath, find_inputs

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


class Output:
    """What a command writes to. Its write errors are told apart from every
    other error of the command: an OSError raised while judging (a file gone
    missing, no file descriptors left) is not "cannot write standard
    output", and the output stays open for the message."""

    __slots__ = ("_stream",)

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> None:
        try:
            self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _WriteFailed(error) from None

    def flush(self) -> None:
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
        raise Stop(141) from None
    except _WriteFailed as failed:
        _silence(out)
        error = failed.args[0]
        fail(f"cannot write {name}: {error.strerror or error}")
    except OSError as error:
        with contextlib.suppress(OSError):
            out.flush()  # what was judged before it stays written
        where = f": {error.filename}" if error.filename else ""
        fail(f"{error.strerror or error}{where}")


@contextmanager
def stdin_copied(
    inputs: list[str | Unreadable],
) -> Iterator[tuple[list[str | Unreadable], dict[str, str]]]:
    """Standard input copied to a temporary file, so that it can be scanned
    for the order of its tables and cut for the workers like any file; its
    results still name it ``-``."""
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


# ---------------------------------------------------------------- parse


def _records(inputs: list[str | Unreadable]) -> Iterator[Record]:
    from hh.inputs import Unreadable
    from hh.parse import ParseError, Record, parse_file, parse_stream

    def failure(path: str, reason: str) -> Record:
        message = f"cannot read this {'folder' if os.path.isdir(path) else 'file'}: {reason}"
        return Record(path, 1, "", None, ParseError(message, 1, 1, ""), None, None)

    for name in inputs:
        if isinstance(name, Unreadable):
            yield failure(name.path, name.reason)
        elif name == "-":
            yield from parse_stream(sys.stdin.buffer, file="-")
        else:
            try:
                yield from parse_file(name)
            except OSError as error:
                yield failure(name, error.strerror or str(error))


def _summary(record: Record) -> str:
    hand = record.hand
    assert hand is not None
    header = hand.header
    streets = sum(1 for s in hand.sections if s.marker.street != "SHOWDOWN")
    where = f"{record.file or '-'}:{record.line}"
    site = f"{header.site} " if header.site else ""
    return (
        f"{where}: {site}#{header.hand_id} {header.game.value} {header.date} {header.time}, "
        f"{len(hand.seats)} seats, {streets} streets, total pot {hand.summary.total.total}"
    )


def parse_files(files: list[str], as_json: bool) -> int:
    """``hh parse``: the exit status (0 every hand parsed, 1 not)."""
    from hh.output import dumps, quote, safe
    from hh.serialize import to_jsonable

    failed = False
    inputs = find(files)
    with writing() as out:
        for record in _records(inputs):
            error = record.error
            failed = failed or error is not None
            if as_json:
                if error is None:
                    obj: dict[str, object] = {"file": record.file, "line": record.line}
                    obj.update(to_jsonable(record.hand))
                    obj.pop("type", None)
                else:
                    obj = {
                        "file": record.file,
                        "line": record.line,
                        "hand_id": record.hand_id,
                        "error": {
                            "line": error.line,
                            "column": error.column,
                            "message": error.message,
                        },
                    }
                out.write(dumps(obj) + "\n")
            elif error is None:
                out.write(safe(_summary(record)) + "\n")
            else:
                where = safe(record.file or "-")
                out.write(f"{where}:{error.line}:{error.column}: {safe(error.message)}\n")
                out.write(quote(error.text, error.column, indent=4))
    return 1 if failed else 0


# ---------------------------------------------------------------- validate


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def validate_files(
    files: list[str], as_json: bool, workers: int | None, errors_only: bool = False
) -> int:
    """``hh validate``: the exit status (0 every hand valid, 1 not).
    ``errors_only``: print only the invalid hands (and the closing line).

    The scan for the order of tables starts before the parser and the rules
    are imported (see :class:`hh.order.Scan`); it is needed only once the
    first hands are judged."""
    from hh.order import Scan

    n = default_workers() if workers is None else workers
    total = invalid = 0
    with (
        stdin_copied(find(files)) as (inputs, names),
        Scan([x for x in inputs if isinstance(x, str)], ahead=n > 1) as scan,
        writing() as out,
    ):
        from hh.crosshand import CrossChecker
        from hh.output import Rendered, finish
        from hh.parallel import WorkerDied, judged
        from hh.sources import plan

        def emit(final: list[tuple[object, list[Violation]]]) -> None:
            nonlocal total, invalid
            for item, extra in final:
                text, valid = finish(cast(Rendered, item), extra, as_json)
                if not (errors_only and valid):
                    out.write(text)
                total += 1
                invalid += not valid

        work = plan(inputs, n, names)
        hands = judged(work, as_json, n)  # the workers start now
        try:
            first = next(hands, None)  # judged while the scan ends
            order = scan.result()  # which tables must wait for their last hand
            checker = CrossChecker(order.disordered, expected=order.hands)
            if first is not None:
                emit(checker.add(*first))
                for summary, rendered in hands:
                    emit(checker.add(summary, rendered))
            emit(checker.finish())
        except WorkerDied as error:
            out.flush()
            fail(str(error))
        finally:
            hands.close()  # stops the workers, should the output fail
        if not as_json:
            noun = "hand" if total == 1 else "hands"
            out.write(f"{total} {noun}: {total - invalid} valid, {invalid} invalid\n")
    return 1 if invalid else 0


def quick(args: list[str]) -> int | None:
    """Run ``hh validate`` or ``hh parse`` directly when the arguments are
    plain (files, ``--json``, ``--workers N``), and None otherwise (help,
    a usage error, anything else), for typer to handle as always.

    Why: see the module's docstring (start-up without typer). The options
    read here are the commands' own; a test checks both paths give the same
    output."""
    command, rest = args[0], args[1:]
    if command not in ("validate", "parse"):
        return None
    files: list[str] = []
    as_json = False
    workers: int | None = None
    options = True
    k = 0
    while k < len(rest):
        word = rest[k]
        k += 1
        if not options or word == "-" or not word.startswith("-"):
            files.append(word)
        elif word == "--":
            options = False
        elif word == "--json":
            as_json = True
        elif command == "validate" and (word == "--workers" or word.startswith("--workers=")):
            value = word.partition("=")[2] if "=" in word else rest[k] if k < len(rest) else ""
            k += "=" not in word
            if not value.isdigit() or int(value) < 1:
                return None
            workers = int(value)
        else:
            return None
    if not files:
        return None
    try:
        if command == "validate":
            return validate_files(files, as_json, workers)
        return parse_files(files, as_json)
    except Stop as done:
        return done.code
    except KeyboardInterrupt:
        return 130
