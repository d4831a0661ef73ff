"""The ``hh`` command line. Exit codes: 0 all good, 1 some hand failed, 2 usage."""

from __future__ import annotations

import typer

from hh import __version__

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


def main() -> None:
    app()
