"""``hh show HAND``: one disputed hand, explained (terminal, --json, --html).

Registered through the ``hh.commands`` entry point, so ``hh validate``
never loads it; the heavy imports (the parser, rich, duckdb) happen inside
the command.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import typer

from hh.cli_support import cannot_write, fail
from pipelines.dblock import DB_HELP, db_path


def register(app: typer.Typer) -> None:
    """Add ``hh show`` to the ``hh`` command line."""

    @app.command("show")
    def show(
        hand_id: str = typer.Argument(
            ..., metavar="HAND", help="The hand's id, as the log header writes it (# optional)."
        ),
        files: list[str] = typer.Argument(  # noqa: B008
            None, help="Files or folders to find it in (- reads stdin); none: the database."
        ),
        db: str | None = typer.Option(None, "--db", help=DB_HELP),
        site: str | None = typer.Option(None, "--site", help="The site, when ids collide."),
        as_json: bool = typer.Option(
            False, "--json", help="One JSON object per line of the hand, as a JSON list."
        ),
        html: bool = typer.Option(False, "--html", help="A self-contained HTML replayer page."),
        out: Path | None = typer.Option(  # noqa: B008
            None, "--out", help="Write to this file instead of standard output."
        ),
    ) -> None:
        """Explain one hand line by line: the referee's state after each
        line, the violations in words, the showdown and the pots; where the
        log's claim differs from the rules, both.

        Exit 0 if the hand is valid, 1 if it is not, 2 if it cannot be shown
        (not found, found twice, no database).
        """
        from reports.show.load import ShowError, from_db, from_files, judge

        # copied from a header ("Hand #CA-5-1-1:"): ids are letters, digits, _ and -
        hand_id = hand_id.strip().removeprefix("#").removesuffix(":")

        if as_json and html:
            fail("--json and --html: choose one")
        if files and db:
            fail("give files or --db, not both")
        try:
            if files:
                found = from_files(files, hand_id, site)
            else:
                found = from_db(db_path(db), hand_id, site)
        except ShowError as error:
            fail(error)
        judged = judge(found)
        try:
            sink = out.open("w", encoding="utf-8", newline="\n") if out else sys.stdout
        except OSError as error:
            cannot_write(out, error)
        try:
            _write(judged, sink, as_json, html, to_terminal=out is None and sink.isatty())
        finally:
            if out:
                sink.close()
            else:
                sink.flush()
        if not judged.verdict.valid:
            raise typer.Exit(1)


def _write(judged: object, sink: TextIO, as_json: bool, html: bool, to_terminal: bool) -> None:
    from reports.show.explain import explain, hand_meta
    from reports.show.load import Judged

    assert isinstance(judged, Judged)
    rows = explain(judged.hand, judged.verdict, judged.trace, judged.raw)
    meta = hand_meta(judged.hand, judged.verdict, judged.file)
    if as_json:
        import json

        body = ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows)
        sink.write(f"[\n{body}\n]\n")
    elif html:
        from reports.show.replayer import page

        sink.write(page(rows, meta))
    else:
        from rich.console import Console

        from reports.show.terminal import render

        console = Console(
            file=sink,
            highlight=False,
            markup=False,
            emoji=False,
            force_terminal=None if to_terminal else False,
            soft_wrap=not to_terminal,
        )
        render(rows, meta, console)
