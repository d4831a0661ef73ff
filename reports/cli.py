"""``hh report players|player|violations``: registered on the ``hh`` app
through the ``hh.commands`` entry point. Heavy imports (polars, DuckDB,
plotly) happen inside the commands, so ``hh --help`` stays quick.

Exit codes: 0 done, 2 the report could not be made (no database, bad
option, unknown column), with a message saying what and where.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

if TYPE_CHECKING:
    import polars as pl
    from hh.reports.db import Filters

T = TypeVar("T")

report = typer.Typer(help="Player statistics and the referee's findings, from the database.",
                     no_args_is_help=True)  # fmt: skip

_DB = typer.Option(None, "--db", help="The database (default: $HH_DB or hands.duckdb).")
_LAKE = typer.Option(None, "--lake", help="Read this lake (hh import --engine dask) instead "
                     "of a database; --game, --since and --until prune its partitions.")
_CACHE = typer.Option(None, "--cache", help="The per-hand cache file (default: beside the "
                      "database, <db>.reports.duckdb, or the lake's _reports.duckdb).")
_NO_CACHE = typer.Option(False, "--no-cache", help="Keep no cache: compute every hand.")
_NO_EQUITY = typer.Option(False, "--no-equity-fill", help="Do not compute the all-in equity "
                          "of hands not cached yet (minutes after a big first import): their "
                          "allin_adjusted_net is their net, and the report says how many.")
_GAME = typer.Option([], "--game", help="Only this game (repeatable).")
_PLAYER = typer.Option([], "--player", help="Only this player (repeatable).")
_SITE = typer.Option([], "--site", help="Only this site (repeatable; '' for none).")
_TABLE = typer.Option([], "--table", help="Only this table (repeatable).")
_SINCE = typer.Option(None, "--since", help="Hands from this time (YYYY-MM-DD[ HH:MM:SS]).")
_UNTIL = typer.Option(None, "--until", help="Hands before this time.")
_MIN = typer.Option(0, "--min-hands", help="Leave out rows with fewer hands.")
_VALID = typer.Option(False, "--valid-only", help="Only hands the referee found valid.")
_POS = typer.Option([], "--position", help="Dealing position (1 = first dealt; repeatable).")
_FMT = typer.Option("table", "--format", help="table, csv, json, parquet or html.")
_OUT = typer.Option(None, "--out", help="Write to this file (default: standard output).")
_SORT = typer.Option(None, "--sort", help="Sort by this column (default: hands).")


def _fail(message: str) -> None:
    typer.echo(f"hh report: {message}", err=True)
    raise typer.Exit(2)


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
    from hh.reports.db import GAMES, Filters

    for g in game:
        if g not in GAMES:
            _fail(f"--game {g!r}: expected one of {', '.join(GAMES)}")
    return Filters(games=tuple(game), players=tuple(player), sites=tuple(site),
                   tables=tuple(table), since=_time(since, "--since"),
                   until=_time(until, "--until"), valid_only=valid_only,
                   positions=tuple(position), min_hands=min_hands)  # fmt: skip


def _connect(db: Path | None, lake: str | None = None, filters: Filters | None = None,
             cache: Path | None = None, no_cache: bool = False) -> tuple[Any, str | None]:
    """The connection (a database file, or a lake's views) and the cache
    file to use (None: in memory)."""
    from hh.pipelines.lake import derived_path
    from hh.reports.cache import default_path
    from hh.reports.db import ReportError, connect, connect_lake, default_db

    if db is not None and lake is not None:
        _fail("--db and --lake: give one of them")
    try:
        if lake is not None:
            con = connect_lake(lake, filters)
            where = derived_path(lake)
        else:
            path = db or default_db()
            con = connect(path)
            where = default_path(path)
    except ReportError as error:
        _fail(str(error))
    if no_cache:
        return con, None
    return con, str(cache) if cache is not None else where


def _check_format(fmt: str) -> None:
    from hh.reports.files import FORMATS

    if fmt not in FORMATS:
        _fail(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")


def _emit(text: str | None, out: Path | None) -> None:
    if text is None:
        return
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, "utf-8")


def _write_frame(df: pl.DataFrame, fmt: str, out: Path | None) -> None:
    from hh.reports.files import write

    try:
        _emit(write(df, fmt, out), None)
    except (ValueError, OSError) as error:
        _fail(str(error))


def _html(table: pl.DataFrame, rows: Any, con: Any, filters: Filters, title: str,
          out: Path | None) -> None:  # fmt: skip
    from hh.reports.html import render, report_data
    from hh.reports.violations import violations

    found = violations(con, filters)["by_code"]
    _emit(render(report_data(table, rows, found, title)), out)


def _with_progress(call: Callable[[Any], T]) -> T:
    """``call(progress)`` with a progress bar on the terminal (standard error)
    while hands not cached yet have their all-in equity computed."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), transient=True,
                   console=Console(stderr=True), disable=not sys.stderr.isatty())  # fmt: skip
    with bar:
        tasks: dict[str, Any] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(f"{stage} (hands not cached yet)", total=total)
            bar.update(tasks[stage], completed=done)

        return call(progress)


def _say_missing_equity(con: Any, store: Any) -> None:
    """On standard error: how many hands had no all-in equity cached (their
    adjusted net is their net), when the report was told not to compute it."""
    from hh.reports.equity import missing

    n = missing(con, store)
    if n:
        typer.echo(f"hh report: {n:,} hands are not checked for all-in equity yet: an "
                   "all-in among them counts at its net in allin_adjusted_net (run without "
                   "--no-equity-fill to compute it)", err=True)  # fmt: skip


def _rows(con: Any, filters: Filters, cache: Any) -> pl.LazyFrame:
    """The per-hand rows (hh.reports.players.hand_rows), with progress."""
    from hh.reports.db import ReportError
    from hh.reports.players import hand_rows

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
    """One row per player and game."""
    _check_format(fmt)
    filters = _filters(game, player, site, table, since, until, min_hands, valid_only, position)
    con, cache_path = _connect(db, lake, filters, cache, no_cache)
    from hh.reports.cache import Cache
    from hh.reports.db import ReportError
    from hh.reports.players import players

    store = Cache(con, cache_path)
    equity = None if no_equity_fill else True
    try:
        df = _with_progress(lambda p: players(con, filters, sort, cache=store, progress=p,
                                              equity=equity))  # fmt: skip
    except KeyError:
        _fail(f"--sort {sort!r}: no such column")
    except ReportError as error:
        _fail(str(error))
    if no_equity_fill:
        _say_missing_equity(con, store)
    if fmt == "table":
        from hh.reports.terminal import PLAYER_COLUMNS, show
        from rich.console import Console

        rates = {"vpip", "pfr", "three_bet", "af", "afq", "cbet", "fold_to_cbet", "wtsd",
                 "wsd", "wwsr2"}  # fmt: skip
        show(Console(), df, PLAYER_COLUMNS, f"Players ({df.height} rows)", rates)
    elif fmt == "html":
        from hh.reports.html import players_page

        _emit(players_page(con, filters, store, table=df, equity=equity), out)
    else:
        _write_frame(df.drop([c for c in df.columns if c.startswith(("cnt_", "agg_"))]), fmt,
                     out)  # fmt: skip


@report.command("player")
def player_command(
    name: str = typer.Argument(..., help="The player, exactly as in the logs."),
    db: Path = _DB, lake: str = _LAKE, cache: Path = _CACHE, no_cache: bool = _NO_CACHE,
    game: list[str] = _GAME, site: list[str] = _SITE, table: list[str] = _TABLE,
    since: str = _SINCE, until: str = _UNTIL, valid_only: bool = _VALID,
    position: list[int] = _POS, fmt: str = _FMT, out: Path = _OUT,
) -> None:  # fmt: skip
    """One player in depth: per position, round, table size, session, day."""
    _check_format(fmt)
    filters = _filters(game, [name], site, table, since, until, 0, valid_only, position)
    con, cache_path = _connect(db, lake, filters, cache, no_cache)
    import polars as pl
    from hh.reports.player import in_depth
    from hh.reports.stats.table import players_table, select_players
    from rich.console import Console

    rows = _rows(con, filters, cache_path)
    mine = select_players(rows, filters).cache()
    sections = in_depth(mine)
    if sections["overall"].is_empty():
        _fail(f"no hands of player {name!r} in {db or 'the database'} with these filters")
    if fmt == "table":
        from hh.reports.terminal import PLAYER_COLUMNS, show

        console = Console()
        rates = {"vpip", "pfr", "three_bet", "af", "afq", "cbet", "fold_to_cbet", "wtsd", "wsd",
                 "wwsr2"}  # fmt: skip
        for key, df in sections.items():
            group = [c for c in df.columns[:3] if c not in ("player", "game")]
            cols = [(c, c) for c in group] + list(PLAYER_COLUMNS[1:])
            if key == "by_round":
                cols = [(c, c) for c in df.columns if c != "player"]
            show(console, df, cols, key.replace("_", " "), rates | {"afq"})
    elif fmt == "html":
        _html(players_table(rows, filters), mine, con, filters, f"hh report: {name}", out)
    elif fmt == "json":
        import json

        from hh.reports.files import to_json

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
    until: str = _UNTIL, fmt: str = _FMT, out: Path = _OUT,
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
    import polars as pl
    from hh.reports.violations import violations

    found = violations(con, filters)
    if pages is not None:
        from hh.reports.violations import write_violation_pages

        found["by_hand"] = write_violation_pages(con, filters, pages)
        typer.echo(f"{found['by_hand'].height} hand pages written: open "
                   f"{pages / 'index.html'}", err=True)
    if fmt == "table":
        from hh.reports.terminal import show
        from rich.console import Console

        console = Console()
        for key in ("by_code", "by_table", "by_player", "by_hand"):
            if key not in found:
                continue
            df = found[key]
            show(console, df, [(c, c) for c in df.columns], key.replace("_", " "), set())
    elif fmt == "json":
        import json

        from hh.reports.files import to_json

        text = {k: json.loads(to_json(v)) for k, v in found.items()}
        _emit(json.dumps(text, ensure_ascii=False, indent=1) + "\n", out)
    else:
        long = pl.concat([v.with_columns(pl.lit(k).alias("section"))
                          for k, v in found.items() if k != "hands"], how="diagonal")
        _write_frame(long, fmt, out)


@report.command("integrity")
def integrity_command(
    db: Path = _DB, lake: str = _LAKE, game: list[str] = _GAME, player: list[str] = _PLAYER,
    site: list[str] = _SITE, table: list[str] = _TABLE, since: str = _SINCE,
    until: str = _UNTIL, min_hands: int = _MIN, valid_only: bool = _VALID, fmt: str = _FMT,
    out: Path = _OUT,
) -> None:  # fmt: skip
    """Pairs who may play together against the table (docs/integrity.md)."""
    from hh.reports.integrity_cli import run

    _check_format(fmt)
    filters = _filters(game, player, site, table, since, until, min_hands, valid_only, [])
    con, _ = _connect(db, lake, filters, None, True)
    run(con, filters, fmt, out, _fail, _emit)


def register(app: typer.Typer) -> None:
    """Add ``hh report`` to the ``hh`` app (the ``hh.commands`` entry point)."""
    app.add_typer(report, name="report")
