"""``hh export``: hands as Open Hand History or PHH (docs/formats.md),
from files or from the database. Registered on the ``hh`` app through the
``hh.commands`` entry point. The hands are judged again by the referee, as
``hh show`` does: the pots and payouts written are the referee's.

Exit codes: 0 every hand exported, 1 some run of text could not be (it does
not parse: said on standard error), 2 the command could not run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import typer

from hh.cli_support import cannot_write, fail, find, say, writing

if TYPE_CHECKING:
    from hh.openformats.export import Exporter, Format, Sink

from reports.cli import (
    _DB,
    _GAME,
    _SINCE,
    _SITE,
    _TABLE,
    _UNTIL,
    HAND_CODE,
    HAND_INVALID,
    HAND_MIN_POT,
    HAND_PLAYER,
    _with_progress,
)

_COMMAND = "hh export"


def export_command(
    files: list[str] = typer.Argument(None, help="Files or folders of hand histories (.gz, "  # noqa: B008
                                      ".ohh allowed); - reads stdin. Or --db."),
    fmt: str = typer.Option(..., "--format", help="ohh (Open Hand History, JSON) or phh "
                            "(PokerKit's TOML)."),
    db: Path = _DB,
    out: Path = typer.Option(None, "--out", help="Write into this folder (created): OHH one "  # noqa: B008
                             ".ohh file per input (export.ohh from --db), PHH one .phh file "
                             "per hand. Default: standard output (OHH a JSON object a line, "
                             "PHH .phhs sections)."),
    game: list[str] = _GAME, player: list[str] = HAND_PLAYER, site: list[str] = _SITE,
    table: list[str] = _TABLE, since: str = _SINCE, until: str = _UNTIL,
    code: list[str] = HAND_CODE, invalid: bool = HAND_INVALID, min_pot: int = HAND_MIN_POT,
) -> None:  # fmt: skip
    """Write hands in an open format: Open Hand History or PHH (docs/formats.md).

    From files (every hand, judged by the referee) or from the database
    (--db, with the filters of `hh hands`). A run of text that does not
    parse is left out and said on standard error (exit 1).
    """
    from hh.openformats.export import FORMATS

    if fmt not in FORMATS:
        fail(f"--format {fmt!r}: expected ohh or phh", _COMMAND)
    filtered = bool(game or player or site or table or since or until or code or invalid
                    or min_pot)  # fmt: skip
    if files and db is not None:
        fail("give files or --db, not both", _COMMAND)
    if files and filtered:
        fail("--game, --player, --site, --table, --since, --until, --code, --invalid and "
             "--min-pot choose hands of the database: use them with --db (or import the files "
             "first)", _COMMAND)  # fmt: skip
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            cannot_write(out, error, _COMMAND)
    with writing() as stream:
        exporter = _exporter(fmt, out, stream, cross_hand=bool(files))
        def run(progress: Callable[[str, int, int | None], None]) -> None:
            if files:
                exporter.progress = lambda n: progress("judging", n, None)
                _from_files(exporter, files)
            else:
                _from_db(exporter, progress, db, game, player, site, table, since, until,
                         code, invalid, min_pot)  # fmt: skip
            exporter.close()  # (from files: the hands are written now, cross-hand checked)

        try:
            _with_progress(run, note="")
        except OSError as error:
            cannot_write(out or "standard output", error, _COMMAND)
    done = exporter.done
    for line in done.skipped:
        say(line, _COMMAND)
    written = f"{done.files} file" + ("" if done.files == 1 else "s")
    where = f" into {out} ({written})" if out is not None else ""
    say(f"{done.hands} hands exported as {fmt}{where}"
        + (f"; {len(done.skipped)} left out" if done.skipped else ""), _COMMAND)  # fmt: skip
    if done.skipped:
        raise typer.Exit(1)


def _exporter(fmt: str, out: Path | None, stream: Sink, cross_hand: bool) -> Exporter:
    from hh.openformats.export import Exporter

    return Exporter(cast("Format", fmt), None if out is None else str(out), stream,
                    cross_hand=cross_hand)  # fmt: skip


def _stem(path: str) -> str:
    name = os.path.basename(path)
    for suffix in (".gz", ".txt", ".log", ".ohh"):
        name = name.removesuffix(suffix)
    return name or "hands"


def _from_files(exporter: Exporter, files: list[str]) -> None:
    from hh.parse import parse_chunk, parse_stream
    from hh.read.cut import Chunk
    from hh.read.files import Unreadable

    for item in find(files):
        if isinstance(item, Unreadable):
            exporter.done.skipped.append(f"{item.path}: cannot read it: {item.reason}")
            continue
        if item == "-":
            exporter.group("stdin")
            exporter.records(parse_stream(sys.stdin.buffer, file="-"))
            continue
        try:
            found = parse_chunk(Chunk(item))  # opened now
        except OSError as error:
            exporter.done.skipped.append(f"{item}: cannot read it: {error.strerror or error}")
            continue
        exporter.group(_stem(item))
        exporter.records(found)


def _from_db(exporter: Exporter, progress: Callable[[str, int, int | None], None],
             db: Path | None, game: list[str], player: list[str],
             site: list[str], table: list[str], since: str | None, until: str | None,
             code: list[str], invalid: bool, min_pot: int) -> None:  # fmt: skip
    from hh.parse import parse_run
    from hh.read.runs import Run
    from reports.cli import _connect, _filters, _players_named, hand_query
    from reports.search.hands import find_hands, hand_texts
    from reports.show.load import stored_cross

    filters = _filters(game, player, site, table, since, until, 0, False, [])
    con, _ = _connect(db, None, filters, None, True)
    filters = _players_named(con, filters)
    found, _total = find_hands(con, filters, hand_query(con, code, invalid, min_pot))
    exporter.group("export")
    exporter.progress = lambda n: progress("exporting", n, found.height)
    for raw, line, file in hand_texts(con, found):  # (as hh import --revalidate reads them)
        record = parse_run(Run(file, line, raw.split("\n"), []))
        hand = record.hand
        cross = () if hand is None else stored_cross(con, hand.header.site or "",
                                                      hand.header.hand_id)  # fmt: skip
        exporter.record(record, cross)


def register(app: typer.Typer) -> None:
    """Add ``hh export`` to the ``hh`` app (the ``hh.commands`` entry point)."""
    app.command("export")(export_command)
