"""``hh import`` and ``hh db``: the commands, named in hh/cli.py's table of
commands (``COMMANDS``). DuckDB, polars and pyarrow are imported inside the
command, so that ``hh validate`` starts as fast without them."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer

from hh.cli_support import fail, say, shown
from pipelines.dblock import DB_HELP, db_path

KEYS = ("files", "hands", "imported", "duplicates", "replaced", "invalid", "rejected",
        "conflicts", "seconds")


def register(app: typer.Typer) -> None:
    """Add ``hh import`` to the hh command line (hh.cli.COMMANDS; ``hh
    lake`` is pipelines.lake_cli's)."""
    app.command("import")(import_command)


def register_db(app: typer.Typer) -> None:
    """Add ``hh db check`` to the hh command line (hh.cli.COMMANDS)."""
    from hh.helptext import App

    dbs = App(help="The database file: `hh db check` reads all of it for damage.",
              no_args_is_help=True)
    dbs.command("check")(check_command)
    app.add_typer(dbs, name="db")


def check_command(
    db: str = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """Read every block of every table of the database (DuckDB checks each
    block's checksum) and hash every hand's stored text again against its
    content hash, whatever the stamp beside the file says: exit 0 when it
    is sound, else the line every command says of it and exit 2."""
    from pipelines.database import open_db
    from pipelines.dbhealth import check
    from pipelines.dblock import DatabaseUnusable

    path = db_path(db)
    if not os.path.exists(path):
        fail(f"no database at {path} (run `hh import` first, or pass --db FILE)")
    say(f"reading every block of {path}")
    try:
        con = open_db(path, read_only=True)
        try:
            health = check(con, path, force=True)
        finally:
            con.close()
    except DatabaseUnusable as error:
        fail(error)
    assert health is not None
    sys.stdout.write(
        f"the database {shown(path)} is sound: {health.tables} tables, {health.rows:,} rows "
        f"read, every block's checksum verified; {health.hands:,} hands' texts match their "
        "content hashes\n")


def import_command(
    paths: list[str] = typer.Argument(  # noqa: B008
        None, help="Files or folders of hand histories (.gz allowed); - reads stdin."
    ),
    db: str = typer.Option(
        None, "--db", help=DB_HELP
    ),
    workers: int = typer.Option(
        0, "--workers", min=0, show_default=False,
        help="Processes that parse and validate (default, or 0: the cores).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as one JSON object."),
    watch: bool = typer.Option(
        False, "--watch", help="Keep importing what is appended to the files until Ctrl-C."
    ),
    revalidate: bool = typer.Option(
        False, "--revalidate", help="Re-run the referee on every stored hand, in one transaction."
    ),
    quiet: float = typer.Option(
        2.0, "--quiet", help="--watch: seconds without change after which a last hand is complete."
    ),
    engine: str = typer.Option(
        "local", "--engine", help="local (DuckDB) or dask (a Delta lake, docs/scale.md)."
    ),
    scheduler: str = typer.Option(
        None, "--scheduler", help="--engine dask: a Dask scheduler (else a LocalCluster)."
    ),
    lake: str = typer.Option(None, "--lake", help="--engine dask: the lake (folder or URL)."),
) -> None:
    """Import hand histories into DuckDB: parsed, refereed, queryable.

    Every hand lands in `hands` (with its seats, actions, pots, violations
    and raw text) or in `rejects`; importing the same files again adds
    nothing. Exit 0 if nothing was rejected or invalid, 1 otherwise, 2 if
    the command could not run.
    """
    from hh.pool import default_workers
    from hh.read.files import SUFFIXES
    from pipelines.importer import ImportFailure, find_files

    path = db_path(db)
    n = workers or default_workers()
    try:
        if revalidate:
            if paths:
                raise ImportFailure("--revalidate takes no paths: it re-judges what is stored")
            summary = _revalidate(path, n)
        else:
            if not paths:
                raise ImportFailure("nothing to import: give files, folders or -")
            problems: list[str] = []  # what cannot be read: said, exit 2, the rest imported
            files = find_files(paths, problems)
            if not files:
                if problems:
                    raise ImportFailure("\nhh: ".join(problems))
                raise ImportFailure(
                    f"no hand-history files in {', '.join(paths)}: hh import reads "
                    f"{', '.join('*' + s for s in SUFFIXES)} files (folders recursively)")
            if engine not in ("local", "dask"):
                raise ImportFailure(f"--engine is local or dask, not {engine!r}")
            if lake is not None and engine != "dask":
                raise ImportFailure("--lake is for --engine dask (a Parquet lake); a local "
                                    "import writes the DuckDB file of --db")
            if engine == "dask":
                from pipelines.lake_cli import dask_import

                for problem in problems:
                    say(problem)
                summary = dask_import(files, lake, scheduler, workers, sys.stderr.isatty())
                if problems:
                    summary["_errors"] = problems
            elif watch:
                if "-" in files:
                    raise ImportFailure("--watch cannot watch standard input")
                for problem in problems:  # once: the watch goes on without them
                    say(problem)
                summary = _watch(path, paths, n, quiet, as_json)
            else:
                summary = _import(path, files, n, as_json, problems)
    except ImportFailure as e:
        fail(e)
    except Exception as e:  # a full disk, an I/O error: one line, not a traceback
        from pipelines.dbhealth import failure

        message = failure(e, path) if engine == "local" else None
        if message is None:
            raise
        fail(message)
    _report(summary, as_json, "revalidated" if revalidate else "imported")
    errors = summary.pop("_errors", None)
    if errors:
        raise typer.Exit(2)
    if summary.get("rejected") or summary.get("invalid") or summary.get("conflicts"):
        raise typer.Exit(1)


def _import(
    db: str, files: list[str], workers: int, as_json: bool, problems: list[str]
) -> dict[str, Any]:
    from pipelines.importer import Importer, closed, connect, timed

    clock = timed()
    con = connect(db)
    importer = Importer(con, workers)
    importer.errors.extend(problems)
    try:
        total = sum(os.path.getsize(f) for f in files if f != "-" and os.path.exists(f))
        with _progress("importing", len(files)) as step:

            def moved(done: int, files_done: int, hands: int) -> None:
                step(done, total, hands, files_done)

            importer.import_files(files, progress=None if step is None else moved)
        importer.release()
        summary: dict[str, Any] = importer.finish()
        summary["seconds"] = clock()
        importer.record(summary)
    except BaseException:
        importer.close()
        con.close()
        raise
    importer.close()
    closed(con, db)
    for note in importer.notes:
        say(note)
    for e in importer.errors:
        say(e)
    if importer.errors:
        summary["_errors"] = importer.errors
    return summary


def _watch(db: str, paths: list[str], workers: int, quiet: float, as_json: bool) -> dict[str, Any]:
    from pipelines.watch import watch

    return watch(db, paths, workers, quiet, say=lambda s: typer.echo(shown(s), err=True))


def _revalidate(db: str, workers: int) -> dict[str, Any]:
    from pipelines.importer import closed, connect, timed
    from pipelines.revalidate import revalidate

    clock = timed()
    con = connect(db)
    try:
        with _progress("revalidating") as step:
            summary = revalidate(
                con, workers, None if step is None else lambda done, total: step(done, total, done)
            )
    except BaseException:
        con.close()
        raise
    closed(con, db)
    summary["seconds"] = clock()
    return summary


def _report(summary: dict[str, Any], as_json: bool, done: str = "imported") -> None:
    """The summary: JSON (the same keys whatever the run), or lines whose
    third says what the run did (``imported``, ``revalidated``)."""
    shown = {k: summary[k] for k in KEYS if k in summary}
    if as_json:
        sys.stdout.write(json.dumps(shown) + "\n")
        return
    s = shown
    lines = [
        f"files      {s.get('files', 0):>10,}",
        f"hands      {s.get('hands', 0):>10,}",
        f"{done:<11}{s.get('imported', 0):>10,}  ({s.get('invalid', 0):,} invalid: "
        f"violations stored)",
        f"duplicates {s.get('duplicates', 0):>10,}  (already stored, skipped)",
        *(
            [f"replaced   {s['replaced']:>10,}  (a last hand that grew: judged again whole)"]
            if s.get("replaced") else []
        ),
        f"rejected   {s.get('rejected', 0):>10,}  (did not parse: raw text in rejects)",
        f"conflicts  {s.get('conflicts', 0):>10,}  (same id, other text: kept in rejects)",
        f"seconds    {s.get('seconds', 0):>10.2f}",
    ]
    sys.stdout.write("\n".join(lines) + "\n")


@contextmanager
def _progress(what: str, files: int | None = None) -> Iterator[Any]:
    """A rich progress bar on a terminal, nothing otherwise: ``step(done,
    total, hands, files_done)`` moves it (the import counts bytes read, the
    revalidation hands judged), with hands, hands/s and the time left."""
    if not sys.stderr.isatty():
        yield None
        return
    import time

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    start = time.perf_counter()
    columns = [TextColumn(what), BarColumn()]
    if files is not None:
        columns.append(TextColumn("{task.fields[files]}/{task.fields[of]} files"))
    bar = Progress(
        *columns,
        TextColumn("{task.fields[hands]:,} hands"),
        TextColumn("{task.fields[rate]:,.0f} hands/s"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(what, total=1, files=0, of=files, hands=0, rate=0)

        def step(done: int, total: int, hands: int, files_done: int = 0) -> None:
            rate = hands / max(time.perf_counter() - start, 1e-6)
            bar.update(task, completed=done, total=max(total, 1), files=files_done, hands=hands,
                       rate=rate)  # fmt: skip

        yield step
