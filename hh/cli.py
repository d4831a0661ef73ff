"""The ``hh`` command line. Exit codes: 0 all good, 1 some hand failed, 2 usage."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from hh import __version__

if TYPE_CHECKING:  # hh.parse loads Lark: imported only by the commands that parse
    from hh.parse import Record

app = typer.Typer(
    help="Hand histories of Chiribito, Aces Straights and Flushes, and Calatone.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hh {__version__}")
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


def main() -> None:
    app()
