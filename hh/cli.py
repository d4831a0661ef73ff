"""The ``hh`` command line. Exit codes: 0 all good, 1 some hand failed, 2 usage."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

import typer

from hh import __version__

if TYPE_CHECKING:  # hh.parse loads Lark: imported only by the commands that parse
    from hh.model import Game
    from hh.parse import Record
    from hh.sources import Unreadable
    from hh.validate import Violation

app = typer.Typer(
    help="Hand histories of Chiribito, Aces Straights and Flushes, and Calatone.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from hh import build

        typer.echo(f"hh {__version__} ({build()})")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Parse, validate and simulate hand histories."""


# ---------------------------------------------------------------- input and output


def _fail(message: str) -> NoReturn:
    """A command that cannot run: the reason on stderr, exit 2."""
    typer.echo(f"hh: {message}", err=True)
    raise typer.Exit(2)


def _find(paths: list[str]) -> list[str | Unreadable]:
    """The inputs of a run (see :func:`hh.sources.find_inputs`); a missing
    path is a usage error (exit 2), found before anything is printed."""
    from hh.sources import MissingPath, find_inputs

    try:
        found = find_inputs(paths)
    except MissingPath as missing:
        _fail(f"no such file or folder: {missing}")
    if "-" in found and sys.stdin is None:
        _fail("cannot read standard input: it is closed")
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


@contextmanager
def _writing(stream: TextIO | None = None, name: str = "standard output") -> Iterator[TextIO]:
    """Write to ``stream`` (standard output by default). A reader that went
    away (``hh validate ... | head``) ends the command quietly with 141, the
    status of a command killed by SIGPIPE, as ``cat`` or ``grep`` give; any
    other write error (a full disk, a closed output) is ``hh: cannot write
    NAME: reason``, exit 2."""
    out = sys.stdout if stream is None else stream
    if out is None:
        _fail(f"cannot write {name}: it is closed")
    try:
        yield out
        out.flush()
    except BrokenPipeError:
        _silence(out)
        raise typer.Exit(141) from None
    except OSError as error:
        _silence(out)
        _fail(f"cannot write {name}: {error.strerror or error}")


@contextmanager
def _stdin_copied(
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
            _fail(f"cannot read standard input: {error.strerror or error}")
        yield [copy.name if x == "-" else x for x in inputs], {copy.name: "-"}


# ---------------------------------------------------------------- parse


def _records(inputs: list[str | Unreadable]) -> Iterator[Record]:
    from hh.parse import ParseError, Record, parse_file, parse_stream
    from hh.sources import Unreadable

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


@app.command()
def parse(
    files: list[str] = typer.Argument(  # noqa: B008
        ..., help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line: the model, or the error."
    ),
) -> None:
    """Read hand histories and report each hand: parsed, or where and why not.

    Exit 0 if every hand parsed, 1 if any did not (or a file could not be
    read), 2 if the command could not run.
    """
    from hh.output import dumps, quote, safe
    from hh.serialize import to_jsonable

    failed = False
    inputs = _find(files)
    with _writing() as out:
        for record in _records(inputs):
            error = record.error
            failed = failed or error is not None
            if as_json:
                if error is None:
                    obj = {"file": record.file, "line": record.line}
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
    if failed:
        raise typer.Exit(1)


# ------------------------------------------------------------- validate


@app.command("validate")
def validate_command(
    files: list[str] = typer.Argument(  # noqa: B008
        ..., help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line (FORMAT.md, Validation results)."
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Processes judging hands in parallel (default: the cores). Output is the same.",
    ),
) -> None:
    """Replay every hand through its game's rules and report what is wrong.

    Cross-hand checks (stacks carried over, dealer rotation, a hand id seen
    twice) compare the hands of one table across all the files given.
    Each hand is printed as soon as its checks are final: at once for a
    table whose hands come in time order. Exit 0 if every hand is valid, 1
    if any is not (or a file could not be read), 2 if the command could not
    run.
    """
    from hh.crosshand import CrossChecker
    from hh.output import Rendered, finish
    from hh.parallel import WorkerDied, default_workers, judged
    from hh.sources import plan, table_order

    n = default_workers() if workers is None else workers
    total = invalid = 0
    with _stdin_copied(_find(files)) as (inputs, names), _writing() as out:

        def emit(final: list[tuple[object, list[Violation]]]) -> None:
            nonlocal total, invalid
            for item, extra in final:
                text, valid = finish(cast(Rendered, item), extra, as_json)
                out.write(text)
                total += 1
                invalid += not valid

        work = plan(inputs, n, names)
        hands = judged(work, as_json, n)  # the workers start now, while the scan runs
        try:
            order = table_order(work)  # which tables must wait for their last hand
            checker = CrossChecker(order.disordered, expected=order.hands)
            for summary, rendered in hands:
                emit(checker.add(summary, rendered))
            emit(checker.finish())
        except WorkerDied as error:
            out.flush()
            _fail(str(error))
        finally:
            hands.close()  # stops the workers, should the output fail
        if not as_json:
            out.write(f"{total} hands: {total - invalid} valid, {invalid} invalid\n")
    if invalid:
        raise typer.Exit(1)


# ------------------------------------------------------------- simulate

# The names a user may type for each game (any case), the first the canonical one.
_GAME_NAMES = {
    "chiribito": ("chiribito", "ch"),
    "aces-straights-flushes": (
        "aces-straights-flushes",
        "aces",
        "asf",
        "aces-straights-and-flushes",
        "aces-straights",
    ),
    "calatone": ("calatone", "ca", "cal"),
}


def _game(name: str) -> Game:
    from hh.model import Game

    typed = name.strip().lower().replace("_", "-").replace(" ", "-")
    for game, names in _GAME_NAMES.items():
        if typed in names:
            return Game(game)
    valid = "; ".join(f"{names[0]} (or {', '.join(names[1:3])})" for names in _GAME_NAMES.values())
    _fail(f"unknown game {name!r}: the games are {valid}")


@app.command()
def simulate(
    game: str = typer.Option(
        ...,
        "--game",
        help="chiribito (ch), aces-straights-flushes (aces, asf) or calatone (ca).",
    ),
    hands: int = typer.Option(100, "--hands", min=0, help="Hands in all, dealt round-robin."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same bytes."),
    players: int | None = typer.Option(
        None, "--players", help="Players per table (within the game's limits); varied if unset."
    ),
    tables: int = typer.Option(1, "--tables", min=1, help="Tables played side by side."),
    view: str | None = typer.Option(
        None, "--view", help="Write the log NAME sees: others' down cards are ??, no Deck line."
    ),
    out: Path | None = typer.Option(  # noqa: B008
        None, "--out", help="Write to this file instead of standard output."
    ),
    deck: bool = typer.Option(
        True, "--deck/--no-deck", help="Write each hand's Deck, salt and shuffle commitment."
    ),
) -> None:
    """Play sessions with bots and write them as hand histories."""
    from hh.simulate import Simulator
    from hh.write import write_hand

    which = _game(game)
    from hh.games import RULES

    rules = RULES[which]
    if view is not None:
        from hh.parse import piece_pattern

        if not re.fullmatch(piece_pattern("NAME"), view):
            _fail(
                f"{view!r} cannot be a player's name: 1 to 32 characters, no : ( ) [ ] \" "
                f"and no space at either end"
            )
    if players is not None and not rules.min_players <= players <= rules.max_players:
        _fail(
            f"{which.label} is for {rules.min_players} to {rules.max_players} players, "
            f"not {players}"
        )
    sim = Simulator(which, seed, players=players, tables=tables, view=view, deck=deck)
    sink: TextIO | None = None
    if out is not None:
        try:
            sink = out.open("w", encoding="utf-8", newline="\n")
        except OSError as error:
            _fail(f"cannot write {out}: {error.strerror or error}")
    progress = hands >= 2000 and sys.stderr is not None and sys.stderr.isatty()
    name = str(out) if out else "standard output"
    try:
        with _writing(sink, name) as stream, _progress(progress, hands) as step:
            for k, hand in enumerate(sim.hands(hands)):
                stream.write(("\n" if k else "") + write_hand(hand) + "\n")
                step()
        if sink is not None:
            try:
                sink.close()
            except OSError as error:
                _fail(f"cannot write {name}: {error.strerror or error}")
    finally:
        if sink is not None and not sink.closed:
            with suppress(OSError):
                sink.close()


@contextmanager
def _progress(show: bool, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for long runs at a terminal; nothing otherwise."""
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        yield lambda: bar.advance(task)


# ------------------------------------------------------------- plugins
#
# The referee's commands live here; the layers built on it (the import into
# DuckDB, reports, hh show) register their own commands through the
# "hh.commands" entry point group, each ``module:register`` taking the typer
# app. hh/ so never imports the layers above it, and ``hh validate`` does not
# pay for loading them.

_CORE = frozenset({"parse", "validate", "simulate"})


def load_plugins(target: typer.Typer = app) -> None:
    """Let every installed ``hh.commands`` entry point add its commands."""
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group="hh.commands"), key=lambda e: e.name):
        ep.load()(target)


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0] not in _CORE:
        load_plugins()
    elif (code := _quick(args)) is not None:
        sys.exit(code)
    app()


def _quick(args: list[str]) -> int | None:
    """Run ``hh validate`` or ``hh parse`` directly when the arguments are
    plain (files, ``--json``, ``--workers N``), and None otherwise (help,
    a usage error, anything else), for typer to handle as always.

    Why: building typer's parameters imports pydantic, ~0.1 s of the 0.3 s
    that a one-hand ``hh validate`` may take. The options read here are the
    commands' own; a test checks both paths give the same output."""
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
            validate_command(files, as_json=as_json, workers=workers)
        else:
            parse(files, as_json=as_json)
    except typer.Exit as done:
        return done.exit_code
    except KeyboardInterrupt:
        return 130
    return 0
