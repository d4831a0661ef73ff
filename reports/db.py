"""From the DuckDB file of docs/schema.md to polars frames, filtered.

DuckDB does what it is best at (scanning, filtering on the hands, reducing
the actions to per-hand counts: reports.players.counts) and hands the result over as
Arrow; polars computes the rates and the groupings. Nothing here loops over
rows in Python.

A hand's key ``(site, hand_id)`` becomes one integer ``hk`` (reports.cache),
because joining and grouping millions of rows on two strings costs several
times more than on one ``UInt64``; the tests compare against a SQL oracle
keyed on the strings.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

if TYPE_CHECKING:
    import polars as pl


class ReportError(Exception):
    """A report that cannot be made (no database, wrong schema): exit 2."""


def connect(path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open the database read-only, so that a report never blocks or alters
    an import running beside it."""
    p = Path(path)
    if not p.exists():
        raise ReportError(f"no database at {p} (run `hh import` first, or pass --db FILE)")
    from pipelines.database import open_db
    from pipelines.dblock import DatabaseUnusable

    try:  # waits while an import writes it (pipelines.dblock)
        con: duckdb.DuckDBPyConnection = open_db(str(p), read_only=True)
    except DatabaseUnusable as error:
        raise ReportError(str(error)) from None
    con.execute("SET enable_progress_bar = false")  # the report draws its own
    missing = {"hands", "seats", "actions", "pots"} - {
        row[0] for row in con.sql("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if missing:
        con.close()
        raise ReportError(
            f"{p} is not an hh database: tables {', '.join(sorted(missing))} are missing "
            "(expected the tables of docs/schema.md)"
        )
    return con


def connect_lake(url: str, filters: Filters | None = None) -> duckdb.DuckDBPyConnection:
    """A connection whose views are the database's tables over a lake's
    Delta tables (``pipelines.lake.connect``), the partitions of other games and
    days pruned: a report runs on it exactly as on a database file (the
    filters' exact conditions still apply in SQL)."""
    import datetime as dt

    from pipelines.lake import LakeError, NoLake
    from pipelines.lake import connect as lake_connect

    f = filters or Filters()
    since = f.since.date() if f.since else None
    # ``until`` excludes its instant; the lake's date bound includes its day
    until = (f.until - dt.timedelta(microseconds=1)).date() if f.until else None
    try:
        con: duckdb.DuckDBPyConnection = lake_connect(
            url, games=f.games or None, since=since, until=until
        )
    except NoLake as error:
        raise ReportError(str(error)) from None
    except (LakeError, duckdb.Error, OSError) as error:
        raise ReportError(f"cannot read the lake at {url}: {error}") from error
    con.execute("SET enable_progress_bar = false")
    return con


@dataclass(frozen=True)
class Filters:
    """What the command line narrows a report to. Hand filters (game, site,
    table, time, validity) are applied in DuckDB; player and position
    filters apply to a player's rows after the per-hand flags are computed,
    since his opponents' actions still matter (a fold to a c-bet needs the
    c-bet)."""

    games: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    valid_only: bool = False
    positions: tuple[int, ...] = ()
    min_hands: int = 0

    def where(self) -> tuple[str, list[object]]:
        """The SQL condition on ``hands`` (alias h) and its parameters."""
        parts: list[str] = []
        params: list[object] = []
        for column, values in (("game", self.games), ("site", self.sites),
                               ("table_name", self.tables)):  # fmt: skip
            if values:
                parts.append(f"h.{column} IN ({', '.join('?' * len(values))})")
                params.extend(values)
        if self.since is not None:
            parts.append("h.started_at >= ?")
            params.append(self.since)
        if self.until is not None:
            parts.append("h.started_at < ?")
            params.append(self.until)
        if self.valid_only:
            parts.append("h.valid")
        return (" AND ".join(parts) or "TRUE"), params


def frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None
          ) -> pl.DataFrame:  # fmt: skip
    """Run a query and take its result as a polars frame through Arrow
    (polars is imported here, when a frame is made: an import, which loads
    this module for its hooks, holds it only once they need one)."""
    import polars as pl

    frame = pl.from_arrow(con.sql(sql, params=params or None).to_arrow_table())
    assert isinstance(frame, pl.DataFrame)  # (a table gives a frame; a column, a Series)
    return frame


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _plain(name: str) -> str:
    """Folded and without accents: what the suggestions compare."""
    return "".join(c for c in unicodedata.normalize("NFKD", name.casefold())
                   if not unicodedata.combining(c))  # fmt: skip


def name_index(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Every stored name by its folded form (:func:`match_names` reads it)."""
    stored = [r[0] for r in con.sql("SELECT DISTINCT player FROM seats "
                                    "WHERE player IS NOT NULL").fetchall()]  # fmt: skip
    by_key: dict[str, list[str]] = {}
    for name in stored:
        by_key.setdefault(_folded(name), []).append(name)
    return by_key


def match_names(by_key: dict[str, list[str]], typed: Sequence[str]) -> tuple[str, ...]:
    """The stored names the user means by ``typed`` (:func:`player_names`),
    from :func:`name_index`."""
    out: list[str] = []
    plain: dict[str, list[str]] | None = None
    for name in typed:
        found = by_key.get(_folded(name))
        if found is None:  # then without accents: "Maria" finds "María"
            if plain is None:
                plain = {}
                for k in by_key:
                    plain.setdefault(_plain(k), []).append(k)
            found = [n for k in plain.get(_plain(name), []) for n in by_key[k]] or None
        if found is None:
            assert plain is not None
            near = difflib.get_close_matches(_plain(name), list(plain), n=5, cutoff=0.6)
            hint = ("; nearest: " + ", ".join(repr(n) for k in near for p in plain[k]
                                              for n in by_key[p]) if near else "")  # fmt: skip
            raise ReportError(f"no player {name!r} in the database{hint}")
        out += [n for n in sorted(found) if n not in out]
    return tuple(out)


def player_names(con: duckdb.DuckDBPyConnection, typed: Sequence[str]) -> tuple[str, ...]:
    """The stored names the user means by ``typed``: matched as a person
    types them, ignoring case and Unicode normalisation (a decomposed
    ``María`` from a macOS keyboard is ``María``), then, when that finds
    none, accents too (``maria`` finds ``María``); every stored spelling
    that matches is kept. A name that matches none raises ReportError
    naming the nearest ones."""
    if not typed:
        return ()
    return match_names(name_index(con), typed)
