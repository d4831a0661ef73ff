"""``hh import --engine dask ... --lake DIR`` and ``hh lake load DIR --db FILE``.

``hh lake`` is named in hh/cli.py's table of commands (``COMMANDS``); the
Dask and lake modules are imported inside the commands, so other commands
do not pay for them.
"""

from __future__ import annotations

import os
from typing import Any

import typer

from hh.cli_support import fail, say, shown
from hh.helptext import App

lake_app = App(help="The Delta Lake written by `hh import --engine dask`.",
                       no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add ``hh lake ...`` to the hh command line."""
    app.add_typer(lake_app, name="lake")


def dask_import(
    files: list[str], lake: str | None, scheduler: str | None, workers: int, show: bool
) -> dict[str, Any]:
    """The summary of a Dask import into the lake (the keys of ``--json``,
    plus ``_errors``: the chunks left to do, which make the exit status 2)."""
    from pipelines.cluster import run_import
    from pipelines.importer import ImportFailure

    if not lake:
        raise ImportFailure("--engine dask writes a lake: give --lake DIR (or s3://...)")
    if "-" in files:
        raise ImportFailure("--engine dask cannot read standard input: give files")
    summary = run_import(files, lake, scheduler=scheduler, workers=workers or None,
                         progress=show).to_json()
    left = summary.pop("left")
    errors = summary.pop("errors") + [
        f"not imported (run the same command again): {x}" for x in left]
    if errors:
        summary["_errors"] = errors
        for e in errors:
            say(e)
    return summary


@lake_app.command("load")
def load_command(
    lake: str = typer.Argument(..., help="The lake: a folder or a URL (s3://...)."),
    db: str = typer.Option(..., "--db", help="A new DuckDB file to fill."),
) -> None:
    """Load a lake into a DuckDB file: the same tables a direct import gives."""
    from pipelines.lake import Lake, LakeError, load

    try:
        Lake(lake).require()
        rows = load(lake, db)
    except LakeError as e:
        fail(e)
    for table, n in rows.items():
        typer.echo(f"{table:<18}{n:>12,}")
    typer.echo(f"loaded into {shown(os.path.abspath(db))}")


@lake_app.command("optimize")
def optimize_command(
    lake: str = typer.Argument(..., help="The lake: a folder or a URL (s3://...)."),
    retention_hours: int = typer.Option(
        None, "--retention-hours",
        help="Vacuum files unused for this long (default: the tables' setting, a week). "
        "0 removes every file no commit names: run it when no import is writing."),
) -> None:
    """Compact the lake's small files and vacuum the files no table uses any
    more: those replaced by the compaction and those of attempts that never
    committed (a killed worker or client)."""
    from pipelines.lake import Lake, NoLake, optimize

    try:
        Lake(lake).require()
    except NoLake as e:
        fail(e)
    done = optimize(lake, retention_hours)
    typer.echo(f"{'table':<18}{'compacted':>10}{'into':>8}{'vacuumed':>10}")
    for table, n in done.items():
        typer.echo(f"{table:<18}{n['removed']:>10,}{n['added']:>8,}{n['vacuumed']:>10,}")
