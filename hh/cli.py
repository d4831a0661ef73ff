"""The ``hh`` command line (typer). Exit codes: 0 all good, 1 some hand
failed, 2 the command could not run, 141 the reader went away.

The parser, the rules and the pool are imported inside the commands that
need them; the layers above the referee (the import, reports, ``hh show``)
add their commands through the one table :data:`COMMANDS`, each loaded only
when it is the command asked for (all of them for the help).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

import typer

from hh import __version__
from hh.cli_support import (
    SPEAKERS,
    cannot_write,
    explained,
    fail,
    find,
    say,
    stdin_copied,
    writing,
)
from hh.helptext import App

if TYPE_CHECKING:
    from hh.collusion import Collusion
    from hh.model import Game
    from hh.parse import Record
    from hh.read.files import Unreadable
    from hh.validate import Violation

app = App(
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


# ---------------------------------------------------------------- parse

_FILES_HELP = "Files or folders of hand histories (.gz allowed); - reads stdin."


@app.command()
def parse(
    files: list[str] = typer.Argument(..., help=_FILES_HELP),  # noqa: B008
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line: the model, or the error."
    ),
) -> None:
    """Read hand histories and report each hand: parsed, or where and why not.

    Exit 0 if every hand parsed, 1 if any did not (or a file could not be
    read), 2 if the command could not run.
    """
    _exit(_interruptible(parse_files, files, as_json))


def _records(inputs: list[str | Unreadable]) -> Iterator[Record]:
    from hh.parse import ParseError, Record, parse_file, parse_stream
    from hh.read.files import Unreadable

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
    """``hh parse``'s work: the exit status (0 every hand parsed, 1 not)."""
    from hh.output import dumps, quote, safe
    from hh.serialize import to_jsonable

    failed = False
    inputs = find(files)
    with writing() as out:
        for record in _records(inputs):
            error = record.error
            failed = failed or error is not None
            if as_json:
                obj: dict[str, object]
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
    return 1 if failed else 0


# ------------------------------------------------------------- validate


@app.command("validate")
def validate_command(
    files: list[str] = typer.Argument(..., help=_FILES_HELP),  # noqa: B008
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line (FORMAT.md, Validation results)."
    ),
    workers: int = typer.Option(
        0,
        "--workers",
        min=0,
        show_default=False,
        help="Processes judging hands in parallel (default, or 0: the cores). "
        "Output is the same.",
    ),
    errors_only: bool = typer.Option(
        False, "--errors-only", "-q", help="Print only the invalid hands and the closing line."
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
    # ``is True``: called from Python without it, the default is typer's OptionInfo
    _exit(_interruptible(validate_files, files, as_json, workers, errors_only is True))


def validate_files(
    files: list[str], as_json: bool, workers: int = 0, errors_only: bool = False
) -> int:
    """``hh validate``'s work: the exit status (0 every hand valid, 1 not).
    ``errors_only``: print only the invalid hands (and the closing line).

    The files are cut as the workers take their chunks; the order of the
    run's tables (which must wait for their last hand) is needed only once
    the first hands are judged, and cutting the rest meanwhile gives it."""
    from hh.crosshand import CrossChecker
    from hh.output import Rendered, finish
    from hh.parallel import WorkerDied, judged
    from hh.pool import default_workers
    from hh.read.cut import Plan

    n = workers or default_workers()
    total = invalid = 0
    with stdin_copied(find(files)) as (inputs, names), writing() as out:

        def emit(final: list[tuple[object, list[Violation]]]) -> None:
            nonlocal total, invalid
            for item, extra in final:
                text, valid = finish(cast(Rendered, item), extra, as_json)
                if not (errors_only and valid):
                    out.write(text)
                total += 1
                invalid += not valid

        work = Plan(inputs, n, names)
        hands = None
        try:
            # the workers start now (one may die before the first tasks are sent)
            hands = judged(work, as_json, n)
            order = work.order()  # cut to the end while they judge the first chunks
            checker = CrossChecker(order.disordered, expected=order.hands)
            # progress where the results are not on the screen (written to a file, a pipe)
            show = _at_terminal(sys.stderr) and not _at_terminal(sys.stdout)
            with _progress(show and order.hands >= 2000, order.hands, "validating") as step:
                for summary, rendered in hands:
                    emit(checker.add(summary, rendered))
                    step()
            emit(checker.finish())
        except WorkerDied as error:
            out.flush()
            fail(str(error))
        finally:
            if hands is not None:
                hands.close()  # stops the workers, should the output fail
        if not as_json:
            noun = "hand" if total == 1 else "hands"
            out.write(f"{total} {noun}: {total - invalid} valid, {invalid} invalid\n")
    return 1 if invalid else 0


def _interruptible(work: Callable[..., int], *args: object) -> int:
    """A command's work; Ctrl-C ends it with 130, as a shell reports it,
    without a traceback."""
    try:
        return work(*args)
    except KeyboardInterrupt:
        return 130


def _exit(code: int) -> None:
    if code:
        raise typer.Exit(code)


# ------------------------------------------------------------- simulate

def _game(name: str) -> Game:
    from hh.games.names import game_named, unknown_game

    game = game_named(name)
    if game is None:
        fail(unknown_game(name))
    return game


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
    colluders: list[str] = typer.Option(  # noqa: B008
        [], "--colluders", help="A colluding pair \"A,B\", seated at every table (repeatable, "
        "or \"A,B;C,D\")."
    ),
    collusion: list[str] = typer.Option(  # noqa: B008
        [], "--collusion", help="How the pairs cooperate: soft-play, chip-dump (the first "
        "loses chips to the second), card-share, dump-fold (the first folds to the second's "
        "bets whatever he holds) or friends (honest, always together); one for all pairs or "
        "one per pair."
    ),
    collusion_rate: float = typer.Option(
        1.0, "--collusion-rate", help="The share of the hands the pairs collude in (0 to 1]."
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
            fail(
                f"{view!r} cannot be a player's name: 1 to 32 characters, no : ( ) [ ] \" "
                f"and no space at either end"
            )
    if players is not None and not rules.min_players <= players <= rules.max_players:
        fail(
            f"{which.label} is for {rules.min_players} to {rules.max_players} players, "
            f"not {players}"
        )
    if not 0.0 < collusion_rate <= 1.0:
        fail(f"--collusion-rate {collusion_rate}: expected more than 0, at most 1")
    pairs = tuple(replace(c, rate=collusion_rate)
                  for c in _collusions(colluders, collusion, rules.max_players, view))
    sim = Simulator(which, seed, players=players, tables=tables, view=view, deck=deck,
                    colluders=pairs)  # fmt: skip
    sink: TextIO | None = None
    if out is not None:
        try:
            sink = out.open("w", encoding="utf-8", newline="\n")
        except OSError as error:
            cannot_write(out, error)
    progress = hands >= 2000 and _at_terminal(sys.stderr)
    name = str(out) if out else "standard output"
    try:
        with writing(sink, name) as stream, _progress(progress, hands, "simulating") as step:
            for k, hand in enumerate(sim.hands(hands)):
                stream.write(("\n" if k else "") + write_hand(hand) + "\n")
                step()
        if sink is not None:
            try:
                sink.close()
            except OSError as error:
                cannot_write(name, error)
    finally:
        if sink is not None and not sink.closed:
            with suppress(OSError):
                sink.close()


def _collusions(colluders: list[str], modes: list[str], max_players: int, view: str | None
                ) -> tuple[Collusion, ...]:  # fmt: skip
    """The ``--colluders``/``--collusion`` pairs, checked (names, modes, seats)."""
    from hh.collusion import MODES, Collusion
    from hh.parse import piece_pattern

    texts = [t for value in colluders for t in value.split(";") if t.strip()]
    if not texts:
        if modes:
            fail("--collusion needs --colluders \"A,B\"")
        return ()
    if not modes:
        fail(f"--colluders needs --collusion ({', '.join(MODES)})")
    if len(modes) not in (1, len(texts)):
        fail(f"--collusion: give one mode for all pairs or one per pair ({len(texts)}), "
              f"not {len(modes)}")  # fmt: skip
    pairs = []
    seen: set[str] = set()
    for k, text in enumerate(texts):
        names = [n.strip() for n in text.split(",")]
        mode = modes[0] if len(modes) == 1 else modes[k]
        if len(names) != 2 or names[0] == names[1]:
            fail(f"--colluders {text!r}: expected two different names \"A,B\"")
        for name in names:
            if not re.fullmatch(piece_pattern("NAME"), name):
                fail(f"--colluders: {name!r} cannot be a player's name: 1 to 32 characters, "
                      f"no : ( ) [ ] \" and no space at either end")  # fmt: skip
            if name == view:
                fail(f"--colluders: {name!r} is the --view player")
        if mode not in MODES:
            fail(f"--collusion {mode!r}: expected one of {', '.join(MODES)}")
        seen.update(names)
        pairs.append(Collusion(names[0], names[1], mode))
    if len(seen) + (view is not None) >= max_players:
        fail(f"--colluders: {len(seen)} colluders leave no seat for anyone else "
              f"(at most {max_players} players)")  # fmt: skip
    return tuple(pairs)


@contextmanager
def _progress(show: bool, total: int, what: str) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr, one step a hand, for long runs at a
    terminal; nothing otherwise."""
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=total)
        done = 0

        def step() -> None:  # the bar is told every 256 hands: it redraws 10 times a second
            nonlocal done
            done += 1
            if not done % 256:
                bar.update(task, completed=done)

        yield step


def _at_terminal(stream: TextIO | None) -> bool:
    return stream is not None and stream.isatty()


# ------------------------------------------------------------ commands
#
# Every command of ``hh``, in one table. The referee's own (parse, validate,
# simulate) are defined above; the layers built on it (the import into DuckDB
# or the lake, reports, hh show, hh serve, hh export) add theirs through the
# ``module:function`` named here, which takes the typer app and adds that one
# command. The names are strings, loaded with importlib only when the command
# is asked for (or all of them for ``hh --help``): hh/ so never imports the
# layers above it, and ``hh validate`` loads none of them. No entry point:
# a command is found here by grep (docs/architecture.md, docs/decisions.md).

CORE = ("parse", "validate", "simulate")

COMMANDS: dict[str, str] = {
    "import": "pipelines.cli:register",
    "report": "reports.cli:register",
    "hands": "reports.cli:register_hands",
    "show": "reports.show.cli:register",
    "export": "reports.export_cli:register",
    "serve": "reports.web.cli:register",
    "note": "reports.notes_cli:register",
    "tag": "reports.notes_cli:register_tag",
    "review": "reports.notes_cli:register_review",
    "db": "pipelines.cli:register_db",
    "lake": "pipelines.lake_cli:register",
}

# The extra of pyproject.toml that installs each optional dependency.
_EXTRAS = {
    "duckdb": "import",
    "pyarrow": "import",
    "watchfiles": "import",
    "polars": "report",
    "plotly": "report",
    "dask": "lake",
    "distributed": "lake",
}


def registrar(name: str) -> Callable[[typer.Typer], object]:
    """The function that adds the command ``name`` of :data:`COMMANDS` to
    a typer app, imported from its module."""
    from importlib import import_module

    module, _, function = COMMANDS[name].partition(":")
    found: object = getattr(import_module(module), function)
    if not callable(found):
        raise TypeError(f"hh {name}: {COMMANDS[name]} is not a function")
    return found


def add_commands(target: typer.Typer = app, names: Iterable[str] = COMMANDS) -> None:
    """Add the commands ``names`` of :data:`COMMANDS` (all of them unless
    told) to ``target``."""
    for name in names:
        registrar(name)(target)


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The message for a command whose optional dependency is not installed
    (None when the missing module is none of them: a bug, shown as such)."""
    top = (error.name or "").partition(".")[0]
    extra = _EXTRAS.get(top)
    if extra is None:
        return None
    command = " ".join(a for a in sys.argv[1:2] if not a.startswith("-")) or "this command"
    return f"hh {command} needs {top}, which is not installed: pip install 'hh[{extra}]'"


def main() -> None:
    """The ``hh`` command."""
    args = sys.argv[1:]
    try:
        if args and args[0] in COMMANDS:
            add_commands(names=(args[0],))  # only the command asked for
        elif not args or args[0] not in CORE:
            add_commands()  # the help (or a mistyped name) lists every command
        app()
    except ModuleNotFoundError as error:
        message = missing_extra(error)
        if message is None:
            raise
        say(message)
        sys.exit(2)
    except Exception as error:  # a damaged database met mid-command: its one line
        message = explained(error)
        if message is None:
            raise
        say(message, SPEAKERS.get(args[0], "hh") if args else "hh")
        sys.exit(2)


