"""Finding hands: ONE search for ``hh hands`` (and ``hh export``) and for
``hh serve``'s ``/api/hands``; and what did not parse (``hh report
rejects``). Plain SQL over ``hands``, ``seats``, ``actions``,
``violations``, ``notes`` and ``rejects`` (docs/schema.md).

A search is a :class:`HandQuery`: each front end only fills it (the CLI from
its options, reports.cli; the web from a request's parameters,
reports.web.data, 400 for a bad value) and asks :func:`count` and
:func:`page`. Values are checked by the functions here (:func:`cards`,
:func:`action`), which raise :class:`SearchError`; each front end says the
message with its own name for the option. Every value reaches SQL as a
parameter.

Two shapes exist for speed (measured: docs/performance.md, "Hand search"):
a page newest first is looked for in windows of time ending at the newest
hand before the whole table (:data:`WINDOWS`), and a search by one player
alone reads his hands from the list of each player's hands
(reports.search.handlist) when the caller has it (:func:`listed_page`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

import duckdb
import polars as pl

from pipelines.tables import columns_of
from reports.db import Filters, frame

# the orders a list of hands can take (``hh hands --sort``, ``/api/hands?sort=``)
NEWEST = "h.started_at DESC NULLS LAST, h.site DESC, h.hand_id DESC"
SORTS = {"time": "h.started_at, h.site, h.hand_id",
         "pot": "h.total_pot DESC, h.started_at, h.site, h.hand_id",
         "-pot": "h.total_pot, h.started_at, h.site, h.hand_id",
         "-time": NEWEST}  # fmt: skip
ACTIONS = ("check", "fold", "call", "bet", "raise")
_CARD = re.compile(r"[0-9A-Z?][a-z?]")

# the fields of a hand in a page: the web's, and the CLI's (its violation
# codes, where it was read)
FIELDS = ", ".join(f"h.{c}" for c in columns_of(
    "hands", "site", "hand_id", "game", "table_name", "started_at", "players", "total_pot",
    "valid", "n_violations"))
CLI_FIELDS = ("h.site, h.hand_id, h.started_at, h.game, h.table_name, h.players, h.total_pot, "
              "h.valid, (SELECT string_agg(DISTINCT v.code, ' ' ORDER BY v.code) "
              "FROM violations v WHERE v.site = h.site AND v.hand_id = h.hand_id "
              "AND NOT coalesce(v.unchecked, FALSE)) AS codes, h.file, h.line")  # fmt: skip


class SearchError(ValueError):
    """A value a search cannot use; the message says why (the caller names
    the option)."""


@dataclass(frozen=True)
class HandQuery:
    """Every criterion of a hand search (all of them must hold), its order
    and its page. The seat criteria (``players``, ``cards``, ``action``,
    ``street``, ``min_won``, ``max_won``) hold for one same seat: with
    players named, one of theirs; else any seat."""

    id_prefix: str = ""  # the hand id starts with it
    players: tuple[str, ...] | None = None  # stored names (reports.db.match_names); (): nobody
    cards: tuple[str, ...] = ()  # his down cards include these (:func:`cards`: ``A?``, ``?o``)
    action: str = ""  # he did this (:data:`ACTIONS`) ...
    street: str = ""  # ... or anything, on this betting round (``COMMON 3``, any case)
    min_won: int | None = None  # his net in the hand, at least
    max_won: int | None = None  # ... at most
    tag: str = ""  # the hand has this tag (pipelines.notes)
    tables: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    games: tuple[str, ...] = ()  # hh.model.Game values
    since: datetime | None = None
    until: datetime | None = None  # (excluded)
    codes: tuple[str, ...] = ()  # a violation with one of these codes (checked ones)
    invalid: bool = False  # the referee found the hand invalid
    min_pot: int | None = None  # a total pot of at least this many chips
    max_pot: int | None = None
    sort: str = "time"  # a key of :data:`SORTS`
    page: int = 1  # from 1, ``limit`` hands a page
    limit: int | None = 50  # None: every hand (one page)

    @property
    def player_only(self) -> bool:
        """The search is one stored name's hands, nothing else."""
        return self.players is not None and len(self.players) == 1 and self == HandQuery(
            players=self.players, sort=self.sort, page=self.page, limit=self.limit)

    @property
    def filtered(self) -> bool:
        return self.where()[0] != "TRUE"

    @property
    def criteria(self) -> HandQuery:
        """The search without its order and page (what its count depends on)."""
        return HandQuery(**{f.name: getattr(self, f.name) for f in fields(self)
                            if f.name not in ("sort", "page", "limit")})  # fmt: skip

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on ``hands h`` and its parameters."""
        parts: list[str] = []
        params: list[Any] = []
        if self.id_prefix:
            parts.append("starts_with(h.hand_id, ?)")
            params.append(self.id_prefix)
        for column, values in (("h.game", self.games), ("h.site", self.sites),
                               ("h.table_name", self.tables)):  # fmt: skip
            if values:
                parts.append(f"{column} IN ({_marks(values)})")
                params += values
        seat, seat_params = self._seat()
        if seat:
            parts.append("EXISTS (SELECT 1 FROM seats s WHERE s.site = h.site "
                         f"AND s.hand_id = h.hand_id AND {' AND '.join(seat)})")  # fmt: skip
            params += seat_params
        if self.codes:
            parts.append("EXISTS (SELECT 1 FROM violations v WHERE v.site = h.site "
                         f"AND v.hand_id = h.hand_id AND v.code IN ({_marks(self.codes)}) "
                         "AND NOT coalesce(v.unchecked, FALSE))")  # fmt: skip
            params += self.codes
        if self.tag:
            from pipelines.notes import TAGGED

            parts.append(TAGGED)
            params.append(self.tag.strip())
        for cond, value in (("h.started_at >= ?", self.since), ("h.started_at < ?", self.until),
                            ("h.total_pot >= ?", self.min_pot),
                            ("h.total_pot <= ?", self.max_pot)):  # fmt: skip
            if value is not None:
                parts.append(cond)
                params.append(value)
        if self.invalid:
            parts.append("NOT h.valid")
        return " AND ".join(parts) or "TRUE", params

    def _seat(self) -> tuple[list[str], list[Any]]:
        """The conditions on one seat ``s`` of the hand, and their parameters."""
        seat: list[str] = []
        params: list[Any] = []
        if self.players is not None:
            seat.append(f"s.player IN ({_marks(self.players) or 'NULL'})")
            params += self.players
        wanted: dict[str, int] = {}
        for card in self.cards:
            pattern = card.replace("?", "_")
            wanted[pattern] = wanted.get(pattern, 0) + 1
        for pattern, times in wanted.items():  # (``A? A?``: two aces)
            seat.append("len(list_filter(s.down_cards, lambda c: c LIKE ?)) >= ?")
            params += [pattern, times]
        for op, amount in ((">=", self.min_won), ("<=", self.max_won)):
            if amount is not None:
                seat.append(f"s.net {op} ?")
                params.append(amount)
        if self.action or self.street:
            act = ["a.site = h.site", "a.hand_id = h.hand_id", "a.player = s.player"]
            if self.action:
                act.append("a.kind = ?")
                params.append(self.action)
            if self.street:
                act.append("upper(a.street) = upper(?)")
                params.append(self.street.strip())
            seat.append(f"EXISTS (SELECT 1 FROM actions a WHERE {' AND '.join(act)})")
        return seat, params


def _marks(values: tuple[Any, ...]) -> str:
    return ", ".join("?" * len(values))


def cards(text: str) -> tuple[str, ...]:
    """Hole cards as a search writes them (``A? 7?``: a rank and a suit,
    ``?`` for any; commas or spaces between), each as stored (rank upper
    case, suit lower case), or SearchError."""
    out = []
    for token in text.replace(",", " ").split():
        card = token[:1].upper() + token[1:].lower()
        if len(token) != 2 or _CARD.fullmatch(card) is None:
            raise SearchError(f"{token!r} is not a card: write a rank and a suit, ? for any "
                              "(A? 7?, ?o, Ts)")  # fmt: skip
        out.append(card)
    if not out:
        raise SearchError("no card (A? 7?)")
    return tuple(out)


def action(text: str) -> str:
    """An action a search names (any case), or SearchError."""
    if text.lower() not in ACTIONS:
        raise SearchError(f"expected one of {', '.join(ACTIONS)}")
    return text.lower()


def sort(text: str) -> str:
    """An order a search names, or SearchError."""
    if text not in SORTS:
        raise SearchError(f"expected one of {', '.join(SORTS)}")
    return text


def count(con: duckdb.DuckDBPyConnection, q: HandQuery, listed: str | None = None) -> int:
    """How many hands the search finds. One player's alone: from his seats
    (every seat stored is a seat of a stored hand), or from ``listed``, the
    table of each player's hands (reports.search.handlist)."""
    if q.player_only and listed is not None:
        return int(con.execute(f"SELECT count(*) FROM {listed} WHERE player = ?",
                               list(q.players or ())).fetchall()[0][0])  # fmt: skip
    if q.player_only:
        return int(con.execute("SELECT count(*) FROM (SELECT DISTINCT site, hand_id FROM seats "
                               "WHERE player = ?)", list(q.players or ())).fetchall()[0][0])
    where, params = q.where()
    return int(con.execute(f"SELECT count(*) FROM hands h WHERE {where}", params
                           ).fetchall()[0][0])  # fmt: skip


# The windows of time, ending at the newest hand stored, that a page newest
# first is looked for in, one after the other, before the whole table.
WINDOWS = (timedelta(days=1), timedelta(days=16), timedelta(days=256))


def page(con: duckdb.DuckDBPyConnection, q: HandQuery, listed: str | None = None,
         fields: str = FIELDS) -> Any:  # fmt: skip
    """One page of the search in its order, ``fields`` of each hand (an
    Arrow table). Newest first (sort ``-time``): a search by one player
    alone with ``listed`` (the table of each player's hands,
    reports.search.handlist) reads the page's hands from his rows there
    (:func:`listed_page`); otherwise the page is looked for among the hands
    of the last day stored, then of wider windows (:data:`WINDOWS`), then
    of the whole table. A window that fills the page gives the page of the
    whole search, since every hand outside it is older or has no time, and
    those sort after it. Why: a player's search would otherwise join his
    seats with every hand stored to keep only the newest few."""
    newest_first = q.sort == "-time"
    if newest_first and q.player_only and listed is not None:
        found = listed_page(con, q, listed, fields)
        if found is not None:
            return found
    where, params = q.where()
    order = SORTS[q.sort]
    if q.limit is None:
        cut, cut_params = "", []
    else:
        cut, cut_params = " LIMIT ? OFFSET ?", [q.limit, (q.page - 1) * q.limit]

    def picked(cond: str, values: list[Any]) -> Any:
        return con.sql(f"SELECT {fields} FROM (SELECT h.* FROM hands h WHERE {cond} "
                       f"ORDER BY {order}{cut}) h ORDER BY {order}",
                       params=[*values, *cut_params]).to_arrow_table()  # fmt: skip

    if newest_first and q.limit is not None and where != "TRUE":
        newest = con.execute("SELECT max(started_at) FROM hands").fetchall()[0][0]
        if newest is not None:
            for window in WINDOWS:
                window_page = picked(f"h.started_at >= ? AND {where}",
                                     [newest - window, *params])  # fmt: skip
                if window_page.num_rows == q.limit:
                    return window_page
    return picked(where, params)


def listed_page(con: duckdb.DuckDBPyConnection, q: HandQuery, listed: str,
                fields: str = FIELDS) -> Any:  # fmt: skip
    """A page of one player's hands, newest first: its keys from his rows
    of ``listed`` (contiguous: DuckDB reads no other player's row groups),
    then those hands' fields, looked for only between the page's oldest and
    newest times (the hands are stored about in time order, so DuckDB's zone
    maps skip the rest of the table). None when a hand listed is not stored
    (the data changed since the list was made): the caller searches the
    hands."""
    cut = [] if q.limit is None else [q.limit, (q.page - 1) * q.limit]
    keys = con.execute(f"SELECT site, hand_id, started_at FROM {listed} WHERE player = ? "
                       "ORDER BY started_at DESC NULLS LAST, site DESC, hand_id DESC"
                       + (" LIMIT ? OFFSET ?" if cut else ""), [*(q.players or ()), *cut]
                       ).fetchall()  # fmt: skip
    times = [t for _, _, t in keys if t is not None]
    when = []
    if times:
        when.append("h.started_at BETWEEN ? AND ?")
    if len(times) < len(keys):
        when.append("h.started_at IS NULL")
    found = con.sql(
        f"SELECT {fields} FROM hands h SEMI JOIN (SELECT unnest(?::VARCHAR[]) AS site, "
        "unnest(?::VARCHAR[]) AS hand_id) k ON k.site = h.site AND k.hand_id = h.hand_id "
        f"WHERE {' OR '.join(when) or 'FALSE'} ORDER BY {NEWEST}",
        params=[[k[0] for k in keys], [k[1] for k in keys],
                *([min(times), max(times)] if times else [])]).to_arrow_table()  # fmt: skip
    return found if found.num_rows == len(keys) else None


def find_hands(con: duckdb.DuckDBPyConnection, q: HandQuery) -> tuple[pl.DataFrame, int]:
    """The CLI's page of the search (:data:`CLI_FIELDS`) as a frame, and
    how many hands it finds in all."""
    got = pl.from_arrow(page(con, q, fields=CLI_FIELDS))
    assert isinstance(got, pl.DataFrame)
    return got, count(con, q)


def rejects(con: duckdb.DuckDBPyConnection, filters: Filters) -> pl.DataFrame:
    """What did not parse (and conflicts: same id, other text), one row per
    distinct run of text and error: where it was first read, how many
    copies were stored, its error. Filters on game, site, table and time
    apply where the header could be read."""
    tables = {r[0] for r in con.sql("SELECT table_name FROM information_schema.tables")
              .fetchall()}  # fmt: skip
    if "rejects" not in tables:
        return pl.DataFrame(schema={"kind": pl.String, "file": pl.String, "line": pl.Int32,
                                    "hand_id": pl.String, "error": pl.String,
                                    "copies": pl.Int64})  # fmt: skip
    cond, params = filters.where()
    cols = {r[0] for r in con.sql("SELECT column_name FROM information_schema.columns "
                                  "WHERE table_name = 'rejects'").fetchall()}  # fmt: skip
    # the hand filters name hands' columns; rejects have them when the header was read
    for column in ("game", "table_name", "started_at", "site"):
        if f"h.{column}" in cond and column not in cols:
            cond = cond.replace(f"h.{column}", "NULL")
    return frame(con, f"""
        SELECT kind, min(file) AS file, min(line) AS line, any_value(site) AS site,
               any_value(hand_id) AS hand_id, error, count(*) AS copies
        FROM rejects h WHERE {cond}
        GROUP BY kind, error, raw_text
        ORDER BY file, line, kind, error, raw_text""", params)  # fmt: skip


def hand_texts(con: duckdb.DuckDBPyConnection, found: pl.DataFrame, batch: int = 1000
               ) -> Iterator[tuple[str, int, str | None]]:  # fmt: skip
    """The stored text of the hands of ``found`` (a frame with ``site`` and
    ``hand_id``, as :func:`find_hands` gives), in its order: (raw text,
    first line, file), read ``batch`` hands at a time."""
    keys = found.select("site", "hand_id").with_row_index("k").to_arrow()
    con.register("_hand_keys", keys)
    try:
        cursor = con.execute(
            "SELECT t.raw_text, h.line, h.file FROM _hand_keys k "
            "JOIN hands h ON h.site = k.site AND h.hand_id = k.hand_id "
            "JOIN hand_text t ON t.site = k.site AND t.hand_id = k.hand_id ORDER BY k.k")
        while rows := cursor.fetchmany(batch):
            for raw, line, file in rows:
                yield raw, line or 1, file
    finally:
        con.unregister("_hand_keys")
