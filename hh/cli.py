"""The ``hh`` command line. Exit codes: 0 all good, 1 some hand failed, 2 usage."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from hh import __version__

if TYPE_CHECKING:  # hh.parse loads Lark: imported only by the commands that parse
    from hh.parse import Record
    from hh.validate import Verdict

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


# ---------------------------------------------------------------- parse

_SUFFIXES = (".txt", ".log", ".gz")


def _inputs(paths: list[str]) -> list[str]:
    """The files to read, in order: a folder gives its *.txt, *.log and *.gz
    files, recursively and sorted. A missing path is a usage error (exit 2),
    found before anything is printed."""
    files: list[str] = []
    for name in paths:
        if name == "-":
            files.append(name)
            continue
        path = Path(name)
        if path.is_dir():
            found = (p for p in path.rglob("*") if p.is_file() and p.name.endswith(_SUFFIXES))
            files.extend(str(p) for p in sorted(found))
        elif path.exists():
            files.append(name)
        else:
            typer.echo(f"hh: no such file or folder: {name}", err=True)
            raise typer.Exit(2)
    return files


def _records(files: list[str]) -> Iterator[Record]:
    from hh.parse import parse_file, parse_stream

    for name in files:
        if name == "-":
            yield from parse_stream(sys.stdin.buffer, file="-")
            continue
        try:
            yield from parse_file(name)
        except OSError as error:
            typer.echo(f"hh: cannot read {name}: {error.strerror or error}", err=True)
            raise typer.Exit(2) from None


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

    Exit 0 if every hand parsed, 1 if any did not, 2 if the command could
    not run.
    """
    from hh.serialize import to_jsonable

    failed = False
    out = sys.stdout
    for record in _records(_inputs(files)):
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
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        elif error is None:
            out.write(_summary(record) + "\n")
        else:
            where = record.file or "-"
            out.write(
                f"{where}:{error.line}:{error.column}: {error.message}\n"
                f"    {error.text}\n    {' ' * (error.column - 1)}^\n"
            )
    out.flush()
    if failed:
        raise typer.Exit(1)


# ------------------------------------------------------------- validate

_GAME_TITLES = (
    ("Chiribito No Limit", "chiribito"),
    ("Aces, Straights and Flushes Limit", "aces-straights-flushes"),
    ("Calatone Spread Limit", "calatone"),
)
_TABLE = re.compile(r"Table '([^']*)'")
_WHEN = re.compile(r" - ([0-9]{4}/[0-9]{2}/[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2})(?: (\S+))?$")


def _failed(record: Record) -> Verdict:
    """The verdict of a hand that did not parse: one PARSE_ERROR. Its game and
    table are read from the raw text where they can be, so that the failure
    breaks its table's chain of cross-hand checks."""
    from hh.validate import parse_failure

    error = record.error
    assert error is not None
    lines = record.raw.split("\n")
    game = next((g for title, g in _GAME_TITLES if title in lines[0]), None)
    table = _TABLE.match(lines[1]) if len(lines) > 1 else None
    when = _WHEN.search(lines[0])
    return parse_failure(
        record.file,
        record.line,
        record.hand_id,
        record.site,
        error.line,
        error.column,
        error.message,
        game=game,
        table=table.group(1) if table else None,
        when=f"{when.group(1)} {when.group(2)}" if when else None,
        zone=when.group(3) if when else None,
    )


def _quote(raw: str, first: int, line: int) -> str:
    lines = raw.split("\n")
    k = line - first
    return lines[k] if 0 <= k < len(lines) else ""


@app.command("validate")
def validate_command(
    files: list[str] = typer.Argument(  # noqa: B008
        ..., help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="One JSON object per hand and line (FORMAT.md, Validation results)."
    ),
) -> None:
    """Replay every hand through its game's rules and report what is wrong.

    Cross-hand checks (stacks carried over, dealer rotation, a hand id seen
    twice) compare the hands of one table across all the files given.
    Exit 0 if every hand is valid, 1 if any is not, 2 if the command could
    not run.
    """
    from hh.validate import cross_check, validate

    verdicts = []
    raws: list[str] = []
    for record in _records(_inputs(files)):
        if record.hand is None:
            verdicts.append(_failed(record))
        else:
            verdicts.append(validate(record.hand, record.file))
        if not as_json:
            raws.append(record.raw)
    verdicts = cross_check(verdicts)
    out = sys.stdout
    invalid = 0
    for k, v in enumerate(verdicts):
        invalid += not v.valid
        if as_json:
            out.write(json.dumps(v.to_json(), ensure_ascii=False) + "\n")
            continue
        where = v.file or "-"
        name = f"#{v.hand_id}" if v.hand_id else "(no header)"
        game = f" {v.game}" if v.game else ""
        if v.valid:
            out.write(f"{where}:{v.line}: {name}{game}: valid\n")
            continue
        count = len(v.violations)
        out.write(f"{where}:{v.line}: {name}{game}: INVALID, {count} violation"
                  f"{'s' if count != 1 else ''}\n")
        for x in v.violations:
            column = f"{x.column}:" if x.column is not None else ""
            out.write(f"  {where}:{x.line}:{column} {x.code}: {x.message}\n")
            text = _quote(raws[k], v.line, x.line)
            if text:
                out.write(f"      {text}\n")
                if x.column is not None:
                    out.write(f"      {' ' * (x.column - 1)}^\n")
    if not as_json:
        out.write(f"{len(verdicts)} hands: {len(verdicts) - invalid} valid, {invalid} invalid\n")
    out.flush()
    if invalid:
        raise typer.Exit(1)


# ------------------------------------------------------------- simulate


@app.command()
def simulate(
    game: str = typer.Option(
        ..., "--game", help="chiribito, aces-straights-flushes or calatone."
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
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    try:
        which = Game(game)
    except ValueError:
        names = ", ".join(g.value for g in Game)
        typer.echo(f"hh: unknown game {game!r}: expected one of {names}", err=True)
        raise typer.Exit(2) from None
    from hh.games import RULES

    rules = RULES[which]
    if view is not None:
        from hh.parse import piece_pattern

        if not re.fullmatch(piece_pattern("NAME"), view):
            typer.echo(
                f"hh: {view!r} cannot be a player's name: 1 to 32 characters, no : ( ) [ ] \" "
                f"and no space at either end",
                err=True,
            )
            raise typer.Exit(2)
    if players is not None and not rules.min_players <= players <= rules.max_players:
        typer.echo(
            f"hh: {which.label} is for {rules.min_players} to {rules.max_players} players, "
            f"not {players}",
            err=True,
        )
        raise typer.Exit(2)
    sim = Simulator(which, seed, players=players, tables=tables, view=view, deck=deck)
    sink = out.open("w", encoding="utf-8", newline="\n") if out else sys.stdout
    progress = hands >= 2000 and sys.stderr.isatty()
    try:
        with _progress(progress, hands) as step:
            for k, hand in enumerate(sim.hands(hands)):
                sink.write(("\n" if k else "") + write_hand(hand) + "\n")
                step()
    finally:
        if out:
            sink.close()
        else:
            sink.flush()


@contextmanager
def _progress(show: bool, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr for long runs at a terminal; nothing otherwise."""
    if not show:
        yield lambda: None
        return
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
    app()
