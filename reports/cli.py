"""``hh report players|player|violations``: registered on the ``hh`` app
through the ``hh.commands`` entry point. Heavy imports (polars, DuckDB,
plotly) happen inside the commands, so ``hh --help`` stays quick.

Exit codes: 0 done, 2 the report could not be made (no database, bad
option, unknown column), with a message saying what and where.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer

from hh.cli_support import SPEAKERS, cannot_write, fail
from hh.helptext import App
from pipelines.dblock import DB_HELP, db_path

if TYPE_CHECKING:
    import polars as pl
    from rich.console import Console

    from reports.db import Filters
    from reports.search.hands import HandQuery

T = TypeVar("T")

report = App(help="Player statistics and the referee's findings, from the database.",
                     no_args_is_help=True)  # fmt: skip

_DB = typer.Option(None, "--db", help=DB_HELP)
_LAKE = typer.Option(None, "--lake", help="Read this lake (hh import --engine dask) instead "
                     "of a database; --game, --since and --until prune its partitions.")
_CACHE = typer.Option(None, "--cache", help="The per-hand cache file (default: beside the "
                      "database, <db>.reports.duckdb, or the lake's _reports.duckdb).")
_NO_CACHE = typer.Option(False, "--no-cache", help="Keep no cache: compute every hand.")
_NO_EQUITY = typer.Option(False, "--no-equity-fill", help="Do not compute the all-in equity "
                          "of hands not cached yet (minutes after a big first import): their "
                          "allin_adjusted_net is their net, and the report says how many.")
_GAME = typer.Option([], "--game", help="Only this game (repeatable): chiribito (ch), "
                     "aces-straights-flushes (aces, asf) or calatone (ca, cal).")
_PLAYER = typer.Option([], "--player", help="Only this player (repeatable).")
_SITE = typer.Option([], "--site", help="Only this site (repeatable; '' for none).")
_TABLE = typer.Option([], "--table", help="Only this table (repeatable).")
_SINCE = typer.Option(None, "--since", help="Hands from this time (YYYY-MM-DD[ HH:MM:SS]).")
_UNTIL = typer.Option(None, "--until", help="Hands before this time.")
_MIN = typer.Option(0, "--min-hands", help="Leave out rows with fewer hands.")
_VALID = typer.Option(False, "--valid-only", help="Only hands the referee found valid.")
_POS = typer.Option([], "--position", help="Dealing position (1 = first dealt; repeatable).")
_FMT = typer.Option("table", "--format", help="table, csv, json, parquet or html.")
_FMT_VIOLATIONS = typer.Option("table", "--format", help="table, csv, json or parquet (for "
                               "pages, --pages DIR).")
_OUT = typer.Option(None, "--out", help="Write to this file (default: standard output).")
_SORT = typer.Option(None, "--sort", help="Sort by this column, named as the table heads it "
                     "(VPIP, W$SD, net/100) or as in --format json; highest first, a leading "
                     "- for lowest first (--sort=-VPIP). Default: hands.")


def _fail(message: str) -> NoReturn:
    fail(message, "hh report")


def _time(value: str | None, option: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value.replace("/", "-"))
    except ValueError:
        _fail(f"{option} {value!r}: expected a date YYYY-MM-DD or YYYY-MM-DD HH:MM:SS")
    return None


def _filters(game: list[str], player: list[str], site: list[str], table: list[str],
             since: str | None, until: str | None, min_hands: int, valid_only: bool,
             position: list[int]) -> Filters:  # fmt: skip
    from hh.games.names import game_named, unknown_game
    from reports.db import Filters

    games = []
    for g in game:
        which = game_named(g)
        if which is None:
            _fail(unknown_game(g))
        games.append(str(which))
    return Filters(games=tuple(games), players=tuple(player), sites=tuple(site),
                   tables=tuple(table), since=_time(since, "--since"),
                   until=_time(until, "--until"), valid_only=valid_only,
                   positions=tuple(position), min_hands=min_hands)  # fmt: skip


def _connect(db: Path | None, lake: str | None = None, filters: Filters | None = None,
             cache: Path | None = None, no_cache: bool = False) -> tuple[Any, str | None]:
    """The connection (a database file, or a lake's views) and the cache
    file to use (None: in memory)."""
    from pipelines.lake import derived_path
    from reports.cache import default_path
    from reports.db import ReportError, connect, connect_lake

    if db is not None and lake is not None:
        _fail("--db and --lake: give one of them")
    try:
        if lake is not None:
            con = connect_lake(lake, filters)
            where = derived_path(lake)
        else:
            path = db_path(None if db is None else str(db))
            con = connect(path)
            where = default_path(path)
    except ReportError as error:
        _fail(str(error))
    if no_cache:
        return con, None
    return con, str(cache) if cache is not None else where


def _players_named(con: Any, filters: Filters) -> Filters:
    """The filters with each player as stored (reports.db.player_names:
    any case, any Unicode normalisation); a name matching nobody fails,
    naming the nearest."""
    import dataclasses

    from reports.db import ReportError, player_names

    try:
        return dataclasses.replace(filters, players=player_names(con, filters.players))
    except ReportError as error:
        _fail(str(error))
        raise


def _check_format(fmt: str) -> None:
    from reports.render.files import FORMATS

    if fmt not in FORMATS:
        _fail(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")


def _emit(text: str | None, out: Path | None) -> None:
    if text is None:
        return
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, "utf-8")
    except OSError as error:
        cannot_write(out, error, "hh report")


@contextmanager
def _console(out: Path | None) -> Iterator[Console]:
    """The rich console a table goes to: the terminal, or the file ``out``
    (then at its natural width, no colour)."""
    from rich.console import Console

    if out is None:
        yield Console()
        return
    try:
        sink = out.open("w", encoding="utf-8", newline="\n")
    except OSError as error:
        cannot_write(out, error, "hh report")
    with sink:
        yield Console(file=sink, color_system=None, force_terminal=False)


def _write_frame(df: pl.DataFrame, fmt: str, out: Path | None) -> None:
    from reports.render.files import write

    try:
        _emit(write(df, fmt, out), None)
    except OSError as error:
        cannot_write(out, error, "hh report")
    except ValueError as error:
        _fail(str(error))


def _html(table: pl.DataFrame, rows: Any, con: Any, filters: Filters, title: str,
          out: Path | None, sections: dict[str, pl.DataFrame]) -> None:  # fmt: skip
    """The player page: what the terminal shows (his sections), his lines."""
    from reports.render.html import render, report_data
    from reports.violations import violations

    found = violations(con, filters)["by_code"]
    _emit(render(report_data(table, rows, found, title, sections)), out)


def _with_progress(call: Callable[[Any], T], note: str = " (hands not cached yet)") -> T:
    """``call(progress)`` with a progress bar on the terminal (standard error)
    while a report computes what the cache lacks (``progress(stage, done,
    total)``: a bar per stage, such as the all-in equity or the integrity
    report's standings and facts; ``note`` follows the stage's name)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), transient=True,
                   console=Console(stderr=True), disable=not sys.stderr.isatty())  # fmt: skip
    with bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(f"{stage}{note}", total=total)
            bar.update(tasks[stage], completed=done)

        return call(progress)


def _say_missing_equity(con: Any, store: Any) -> None:
    """On standard error: how many hands had no all-in equity cached (their
    adjusted net is their net), when the report was told not to compute it."""
    from reports.players.equity import missing

    n = missing(con, store)
    if n:
        typer.echo(f"hh report: {n:,} hands are not checked for all-in equity yet: an "
                   "all-in among them counts at its net in allin_adjusted_net (run without "
                   "--no-equity-fill to compute it)", err=True)  # fmt: skip


def _rows(con: Any, filters: Filters, cache: Any) -> pl.LazyFrame:
    """The per-hand rows (reports.players.report.hand_rows), with progress."""
    from reports.db import ReportError
    from reports.players.report import hand_rows

    try:
        return _with_progress(lambda p: hand_rows(con, filters, cache=cache, progress=p)).cache()
    except ReportError as error:
        _fail(str(error))
        raise


@report.command("players")
def players_command(
    db: Path = _DB, lake: str = _LAKE, cache: Path = _CACHE, no_cache: bool = _NO_CACHE,
    game: list[str] = _GAME, player: list[str] = _PLAYER, site: list[str] = _SITE,
    table: list[str] = _TABLE, since: str = _SINCE, until: str = _UNTIL, min_hands: int = _MIN,
    valid_only: bool = _VALID, position: list[int] = _POS, fmt: str = _FMT, out: Path = _OUT,
    sort: str = _SORT, no_equity_fill: bool = _NO_EQUITY,
) -> None:  # fmt: skip
    """One row per player, game and stakes: win rates (bb/100), VPIP, PFR, AF, WTSD, W$SD ..."""
    _check_format(fmt)
    filters = _filters(game, player, site, table, since, until, min_hands, valid_only, position)
    con, cache_path = _connect(db, lake, filters, cache, no_cache)
    filters = _players_named(con, filters)
    from reports.cache import Cache
    from reports.db import ReportError
    from reports.players.report import players

    store = Cache(con, cache_path)
    equity = None if no_equity_fill else True
    try:
        df = _with_progress(lambda p: players(con, filters, sort, cache=store, progress=p,
                                              equity=equity))  # fmt: skip
    except KeyError as error:  # reports.render.columns.UnknownColumn
        _fail(str(error))
    except ReportError as error:
        _fail(str(error))
    if no_equity_fill:
        _say_missing_equity(con, store)
    if fmt == "table":
        from reports.render.columns import PLAYER_COLUMNS
        from reports.render.terminal import RATES, show

        with _console(out) as console:
            show(console, df, PLAYER_COLUMNS, f"Players ({df.height} rows)", RATES)
    elif fmt == "html":
        from reports.render.html import players_page

        _emit(players_page(con, filters, store, table=df, equity=equity), out)
    else:
        _write_frame(df.drop([c for c in df.columns if c.startswith(("cnt_", "agg_"))]), fmt,
                     out)  # fmt: skip


@report.command("player")
def player_command(
    name: str = typer.Argument(..., help="The player (any case; the nearest names are "
                               "suggested when none matches)."),
    db: Path = _DB, lake: str = _LAKE, cache: Path = _CACHE, no_cache: bool = _NO_CACHE,
    game: list[str] = _GAME, site: list[str] = _SITE, table: list[str] = _TABLE,
    since: str = _SINCE, until: str = _UNTIL, valid_only: bool = _VALID,
    position: list[int] = _POS, fmt: str = _FMT, out: Path = _OUT,
) -> None:  # fmt: skip
    """One player in depth: per position, round, table size, session, day."""
    _check_format(fmt)
    filters = _filters(game, [name], site, table, since, until, 0, valid_only, position)
    con, cache_path = _connect(db, lake, filters, cache, no_cache)
    filters = _players_named(con, filters)
    import polars as pl

    from reports.players.depth import in_depth
    from reports.players.stats.table import players_table, select_players

    rows = _rows(con, filters, cache_path)
    mine = select_players(rows, filters).cache()
    sections = in_depth(mine)
    if sections["overall"].is_empty():
        _fail(f"no hands of player {name!r} in {db or 'the database'} with these filters")
    if fmt == "table":
        from reports.players.depth import section_columns
        from reports.render.terminal import RATES, show

        with _console(out) as console:
            for key, df in sections.items():
                show(console, df, section_columns(key, df.columns), key.replace("_", " "), RATES)
    elif fmt == "html":
        _html(players_table(rows, filters), mine, con, filters, f"hh report: {name}", out,
              sections)
    elif fmt == "json":
        import json

        from reports.render.files import to_json

        text = "{" + ",".join(f"{json.dumps(k)}:{to_json(v)}" for k, v in sections.items()) + "}"
        _emit(json.dumps(json.loads(text), ensure_ascii=False, indent=1) + "\n", out)
    else:
        long = pl.concat([df.with_columns(pl.lit(k).alias("section")).drop(
            [c for c in df.columns if c.startswith(("cnt_", "agg_"))]).with_columns(
            pl.all().cast(pl.String)) for k, df in sections.items()], how="diagonal")
        _write_frame(long, fmt, out)


@report.command("violations")
def violations_command(
    db: Path = _DB, lake: str = _LAKE, game: list[str] = _GAME, player: list[str] = _PLAYER,
    site: list[str] = _SITE, table: list[str] = _TABLE, since: str = _SINCE,
    until: str = _UNTIL, fmt: str = _FMT_VIOLATIONS, out: Path = _OUT,
    pages: Path = typer.Option(  # noqa: B008
        None, "--pages", help="Also write a replayer page for each invalid hand into this "
        "folder, with an index.html that links them."),
) -> None:  # fmt: skip
    """What the referee found: by code, by table, by player."""
    _check_format(fmt)
    if fmt == "html":
        _fail("--format html is for `hh report players` and `player`; here use json, or "
              "--pages DIR for a replayer page per invalid hand")
    filters = _filters(game, player, site, table, since, until, 0, False, [])
    con, _ = _connect(db, lake, filters, None, True)
    filters = _players_named(con, filters)
    import polars as pl

    from reports.violations import violations

    found = violations(con, filters)
    if pages is not None:
        from reports.violations import write_violation_pages

        found["by_hand"] = write_violation_pages(con, filters, pages)
        typer.echo(f"{found['by_hand'].height} hand pages written: open "
                   f"{pages / 'index.html'}", err=True)
    if fmt == "table":
        from reports.render.terminal import show

        with _console(out) as console:
            for key in ("by_code", "by_table", "by_player", "by_hand"):
                if key not in found:
                    continue
                df = found[key]
                show(console, df, [(c, c) for c in df.columns], key.replace("_", " "), set())
    elif fmt == "json":
        import json

        from reports.render.files import to_json

        text = {k: json.loads(to_json(v)) for k, v in found.items()}
        _emit(json.dumps(text, ensure_ascii=False, indent=1) + "\n", out)
    else:
        long = pl.concat([v.with_columns(pl.lit(k).alias("section"))
                          for k, v in found.items() if k != "hands"], how="diagonal")
        _write_frame(long, fmt, out)


_DATA_FMT = typer.Option("table", "--format", help="table, csv or json.")


@report.command("rejects")
def rejects_command(
    db: Path = _DB, lake: str = _LAKE, game: list[str] = _GAME, site: list[str] = _SITE,
    table: list[str] = _TABLE, since: str = _SINCE, until: str = _UNTIL,
    fmt: str = _DATA_FMT, out: Path = _OUT,
) -> None:  # fmt: skip
    """What did not parse, with its error (and conflicts: an id seen with
    another text): one row per distinct text and error, with where it was
    first read and how many copies were stored."""
    _check_data_format(fmt)
    filters = _filters(game, [], site, table, since, until, 0, False, [])
    con, _ = _connect(db, lake, filters, None, True)
    from reports.search.hands import rejects

    found = rejects(con, filters)
    _data(found, fmt, out, f"Rejects ({found.height})")


def _check_data_format(fmt: str) -> None:
    if fmt not in ("table", "csv", "json"):
        _fail(f"--format {fmt!r}: expected one of table, csv, json")


def _data(df: pl.DataFrame, fmt: str, out: Path | None, title: str) -> None:
    """A plain frame as a table, CSV or JSON (every string escaped on a terminal)."""
    if fmt == "table":
        from reports.render.terminal import show

        with _console(out) as console:
            show(console, df, [(c, c) for c in df.columns], title, set())
    else:
        _write_frame(df, fmt, out)


# ``hh hands``' own filters (``hh export`` takes them too)
HAND_PLAYER = typer.Option([], "--player", help="Hands this player was dealt in (repeatable; "
                           "any case).")
HAND_CODE = typer.Option([], "--code", help="Hands with a violation of this code (repeatable), "
                         "e.g. OUT_OF_TURN.")
HAND_INVALID = typer.Option(False, "--invalid", help="Only hands the referee found invalid.")
HAND_MIN_POT = typer.Option(0, "--min-pot", min=0, help="Only pots of at least this many chips.")


def hand_query(con: Any, code: list[str], invalid: bool, min_pot: int, sort: str = "time",
               limit: int | None = None) -> HandQuery:  # fmt: skip
    """``hh hands``' query: a code no hand of the database has is a usage
    error that lists the codes it has."""
    from reports.search.hands import HandQuery

    query = HandQuery(codes=tuple(c.upper() for c in code), invalid=invalid, min_pot=min_pot,
                      sort=sort, limit=limit)  # fmt: skip
    if query.codes:
        stored = {r[0] for r in con.sql("SELECT DISTINCT code FROM violations").fetchall()}
        unknown = [c for c in query.codes if c not in stored]
        if unknown:
            _fail(f"--code {', '.join(unknown)}: no such violation in the database; the codes "
                  f"found are {', '.join(sorted(stored)) or 'none'} (FORMAT.md lists them all)")
    return query


def hands_command(
    db: Path = _DB, lake: str = _LAKE, game: list[str] = _GAME,
    player: list[str] = HAND_PLAYER,
    site: list[str] = _SITE, table: list[str] = _TABLE, since: str = _SINCE,
    until: str = _UNTIL,
    code: list[str] = HAND_CODE,
    invalid: bool = HAND_INVALID,
    min_pot: int = HAND_MIN_POT,
    sort: str = typer.Option("time", "--sort", help="time (oldest first) or pot (biggest "
                             "first); a leading - reverses."),
    limit: int = typer.Option(50, "--limit", min=0, help="List at most this many (0: all)."),
    fmt: str = _DATA_FMT, out: Path = _OUT,
) -> None:  # fmt: skip
    """Find hands: their ids, for `hh show ID`."""
    from reports.search.hands import HAND_SORTS, find_hands

    _check_data_format(fmt)
    if sort not in HAND_SORTS:
        _fail(f"--sort {sort!r}: expected one of {', '.join(HAND_SORTS)}")
    filters = _filters(game, player, site, table, since, until, 0, False, [])
    con, _ = _connect(db, lake, filters, None, True)
    filters = _players_named(con, filters)
    query = hand_query(con, code, invalid, min_pot, sort, limit or None)
    found, total = find_hands(con, filters, query)
    if fmt != "table":
        _write_frame(found, fmt, out)
        return
    import polars as pl

    from hh.games.names import SHORT
    shown = found.select(
        "site", pl.col("hand_id").alias("hand"), pl.col("started_at").alias("time"),
        pl.col("game").replace_strict({str(g): s for g, s in SHORT.items()},
                                      default=pl.col("game")),
        pl.col("table_name").alias("table"), "players", pl.col("total_pot").alias("pot"),
        pl.col("codes").fill_null(""),
    )  # fmt: skip
    if shown["site"].eq("").all() or shown["site"].n_unique() == 1:
        shown = shown.drop("site")
    _data(shown, "table", out, f"Hands ({found.height:,} of {total:,})")
    where = f" --db {db}" if db else ""
    more = (f"; {total - found.height:,} more: --limit 0 lists all" if total > found.height
            else "")  # fmt: skip
    if found.height:
        typer.echo(f"open one: hh show {found['hand_id'][0]}{where}{more}", err=True)
    else:
        typer.echo("no hand matches", err=True)


@report.command("integrity")
def integrity_command(
    db: Path = _DB, lake: str = _LAKE, game: list[str] = _GAME, player: list[str] = _PLAYER,
    site: list[str] = _SITE, table: list[str] = _TABLE, since: str = _SINCE,
    until: str = _UNTIL, min_hands: int = _MIN, valid_only: bool = _VALID, fmt: str = _FMT,
    out: Path = _OUT, cache: Path = _CACHE, no_cache: bool = _NO_CACHE,
) -> None:  # fmt: skip
    """Pairs who may play together against the table (docs/integrity.md)."""
    from reports.integrity.cli import run

    _check_format(fmt)
    filters = _filters(game, player, site, table, since, until, min_hands, valid_only, [])
    con, cache_path = _connect(db, lake, filters, cache, no_cache)
    run(con, filters, fmt, out, _fail, _emit, cache_path, _with_progress)


def register(app: typer.Typer) -> None:
    """Add ``hh report`` and ``hh hands`` to the ``hh`` app (the
    ``hh.commands`` entry point)."""

    from reports import notes_cli

    app.add_typer(report, name="report")
    app.command("hands")(hands_command)
    SPEAKERS["report"] = SPEAKERS["hands"] = "hh report"
    notes_cli.register(app)
