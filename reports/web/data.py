"""What the pages and the JSON API of ``hh serve`` show, as plain JSON-able
data, from an open connection (reports.web.source).

The statistics are the reports' own: :func:`reports.players.report.players` for
the players list (exactly ``hh report players --format json``),
:func:`reports.players.depth.in_depth` for a player's page,
:func:`reports.render.html.cumulative` for the net over hands,
:func:`reports.violations.violations` for the findings; a hand is
explained by ``hh show``'s code (reports.show.load, reports.show.explain).
Every value a request brings reaches SQL as a parameter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from hh.games.names import game_named, unknown_game
from pipelines.tables import columns_of
from reports.db import Filters

MAX_PAGE = 100_000  # a page number past this is refused (400)
MAX_PER = 500  # rows per page at most
SEARCH_KEYS = ("id", "player", "table", "site", "game", "since", "until", "code", "invalid",
               "min_pot", "max_pot", "tag", "cards", "action", "street", "min_won", "max_won",
               "page", "per")  # fmt: skip
ACTIONS = ("check", "fold", "call", "bet", "raise")
CARD = re.compile(r"[0-9A-Za-z?][a-z?]")
FILTER_KEYS = ("game", "player", "site", "table", "since", "until", "min_hands", "valid_only",
               "position", "sort", "no_equity_fill")  # fmt: skip


class BadRequest(Exception):
    """A query parameter that cannot be used: the message says which (400)."""


class NotFound(Exception):
    """No such hand, player or table (404)."""


# ---------------------------------------------------------------- params


def _time(value: str, key: str) -> datetime:
    try:
        return datetime.fromisoformat(value.replace("/", "-"))
    except ValueError:
        raise BadRequest(f"{key}={value!r}: expected a date YYYY-MM-DD or "
                         "YYYY-MM-DD HH:MM:SS") from None  # fmt: skip


def _int(value: str, key: str, low: int = 0, high: int = 2**62) -> int:
    try:
        n = int(value)
    except ValueError:
        raise BadRequest(f"{key}={value!r}: expected a whole number") from None
    if not low <= n <= high:
        raise BadRequest(f"{key}={n}: expected a number from {low} to {high:,}")
    return n


def _flag(value: str, key: str) -> bool:
    if value.lower() in ("", "1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise BadRequest(f"{key}={value!r}: expected true or false")


def _unknown(query: Mapping[str, Sequence[str]], known: Sequence[str]) -> None:
    extra = sorted(set(query) - set(known) - {"token"})
    if extra:
        raise BadRequest(f"unknown parameter {extra[0]!r}: expected one of {', '.join(known)}")


def _last(query: Mapping[str, Sequence[str]], key: str) -> str | None:
    values = query.get(key) or []
    return values[-1] if values else None


@dataclass(frozen=True)
class Query:
    """The players report's options, read from query parameters named as
    ``hh report players``'s options (``min_hands`` for ``--min-hands``)."""

    filters: Filters
    sort: str | None = None
    equity: bool | None = True


def report_query(query: Mapping[str, Sequence[str]]) -> Query:
    """The report's filters from a request's parameters (repeatable ones as
    repeated keys: ``?game=a&game=b``)."""
    _unknown(query, FILTER_KEYS)
    games = tuple(_game(g) for g in query.get("game", []))
    since, until = _last(query, "since"), _last(query, "until")
    min_hands, valid, sort = (_last(query, k) for k in ("min_hands", "valid_only", "sort"))
    no_fill = _last(query, "no_equity_fill")
    filters = Filters(
        games=games, players=tuple(query.get("player", [])), sites=tuple(query.get("site", [])),
        tables=tuple(query.get("table", [])),
        since=_time(since, "since") if since else None,
        until=_time(until, "until") if until else None,
        valid_only=_flag(valid, "valid_only") if valid is not None else False,
        positions=tuple(_int(p, "position", 1, 64) for p in query.get("position", [])),
        min_hands=_int(min_hands, "min_hands") if min_hands else 0,
    )  # fmt: skip
    equity = None if no_fill is not None and _flag(no_fill, "no_equity_fill") else True
    return Query(filters, sort or None, equity)


# --------------------------------------------------------------- players


def players_list(con: Any, q: Query, cache: str | None) -> list[dict[str, Any]]:
    """Exactly the list ``hh report players --format json`` prints for the
    same filters (its frame less the ``cnt_``/``agg_`` columns)."""
    from reports.players.report import players
    from reports.render.files import to_records

    try:
        df = players(con, q.filters, q.sort, cache=cache, equity=q.equity)
    except KeyError:
        raise BadRequest(f"sort={q.sort!r}: no such column") from None
    return to_records(df.drop([c for c in df.columns if c.startswith(("cnt_", "agg_"))]))


def series(con: Any, q: Query, pairs: list[tuple[str, str]], cache: str | None
           ) -> list[dict[str, Any]]:  # fmt: skip
    """Cumulative net and all-in adjusted net over hands of these (player,
    game) pairs: the chart of the players page, for the players picked."""
    from reports.players.report import hand_rows
    from reports.render.html import SERIES_COLUMNS, cumulative

    if not pairs:
        return []
    names = sorted({p for p, _ in pairs})
    rows = hand_rows(con, q.filters, cache=cache, only=names, equity=q.equity,
                     columns=SERIES_COLUMNS)  # fmt: skip
    return cumulative(rows, pairs)


def stored_names(index: dict[str, list[str]], typed: str) -> tuple[str, ...]:
    """The stored names ``typed`` means (reports.db.match_names: any case,
    then any accents), from the names' index; none: NotFound naming the
    nearest."""
    from reports.db import ReportError, match_names

    try:
        return match_names(index, [typed])
    except ReportError as error:
        raise NotFound(str(error)) from None


def player_detail(con: Any, names: tuple[str, ...], q: Query, cache: str | None
                  ) -> dict[str, Any]:  # fmt: skip
    """A player's page (``names``: his stored spellings,
    :func:`stored_names`): ``hh report player NAME`` (its sections, each
    with the columns it shows), his net over hands, his violations by code
    and his last hands."""
    import polars as pl

    from reports.players.depth import in_depth, section_columns
    from reports.players.report import hand_rows
    from reports.players.stats.table import select_players
    from reports.render.files import to_records
    from reports.render.html import cumulative
    from reports.violations import violations

    filters = replace(q.filters, players=names, min_hands=0)
    rows = hand_rows(con, filters, cache=cache, only=list(names), equity=q.equity)
    mine = select_players(rows, filters).cache()
    sections = in_depth(mine)
    if sections["overall"].is_empty():
        raise NotFound(f"no hands of player {names[0]!r} with these filters")
    pairs = sections["overall"].select("player", "game").unique(maintain_order=True).rows()
    found = violations(con, filters)["by_player"]
    hands, total = search(con, {"player": [names[0]], "per": ["50"]}, lambda _: names)
    out = {k: {"columns": [c for c, _ in section_columns(k, v.columns)],
               "rows": to_records(v.drop([c for c in v.columns
                                          if c.startswith(("cnt_", "agg_"))]))}
           for k, v in sections.items()}  # fmt: skip
    return {
        "player": names[0],
        "names": list(names),
        "sections": out,
        "series": cumulative(mine, [(p, g) for p, g in pairs]),
        "violations": to_records(found.filter(pl.col("player").is_in(names))),
        "hands": with_tags(con, hands),
        "hands_total": total,
        "notes": read_notes(con, "player", [("", n) for n in names]),
    }


# -------------------------------------------------------------- sessions

SESSION_COLUMNS = ("hk", "site", "player", "game", "stakes", "table_name", "started_at",
                   "hands", "net", "allin_adjusted_net", "bb_won")  # fmt: skip
MAX_SESSIONS = 300  # the newest shown (the hero's first)


def sessions(con: Any, q: Query, cache: str | None, heroes: Sequence[str]
             ) -> list[dict[str, Any]]:  # fmt: skip
    """Every player's sessions (reports.players.depth.with_sessions: his hands
    at one table with no gap over 30 minutes), per game and stakes: start,
    end, minutes, hands, hands per hour, net, all-in adjusted net, bb/100;
    the ``heroes``' first, then the newest, at most MAX_SESSIONS."""
    import polars as pl

    from reports.players.depth import with_sessions
    from reports.players.report import hand_rows
    from reports.players.stats.table import select_players
    from reports.render.files import to_records

    filters = replace(q.filters, min_hands=0)
    rows = select_players(hand_rows(con, filters, cache=cache, equity=q.equity,
                                    only=list(filters.players) or None,
                                    columns=SESSION_COLUMNS), filters)  # fmt: skip
    keys = ("player", "game", "stakes", "site", "table_name", "session")
    df = (with_sessions(rows).group_by(keys).agg(
        start=pl.col("started_at").min(), end=pl.col("started_at").max(),
        hands=pl.col("hands").sum(), net=pl.col("net").sum(),
        allin_adjusted_net=pl.col("allin_adjusted_net").cast(pl.Decimal(38, 9)).sum()
        .cast(pl.Float64),
        bb_per_100=pl.when(pl.col("bb_won").count() > 0).then(
            pl.col("bb_won").cast(pl.Decimal(38, 9)).sum().cast(pl.Float64) * 100
            / pl.col("bb_won").count()),
    ).with_columns(
        minutes=((pl.col("end") - pl.col("start")).dt.total_seconds() // 60).cast(pl.Int64),
        hero=pl.col("player").is_in(list(heroes)),
    ).with_columns(
        hands_per_hour=pl.when(pl.col("minutes") > 0).then(
            pl.col("hands") * 60 / pl.col("minutes")),
    ).sort(["hero", "start", "player"], descending=[True, True, False], nulls_last=True)
        .head(MAX_SESSIONS).collect())  # fmt: skip
    return to_records(df)


def found_heroes(con: Any) -> list[str]:
    """The players whose own cards a hero-view log shows (``Dealt to X``
    with only X's cards known: hands.hero_view): in at least 80% of his
    hero-view hands, and in 3 at least. Any other player's are seen only at
    a showdown."""
    rows = con.execute(
        "SELECT s.player FROM seats s JOIN hands h USING (site, hand_id) WHERE h.hero_view "
        "GROUP BY s.player HAVING count(*) FILTER (WHERE len(s.down_cards) > 0 "
        "AND NOT list_contains(s.down_cards, '??')) >= greatest(3, 0.8 * count(*)) "
        "ORDER BY count(*) DESC, s.player").fetchall()  # fmt: skip
    return [str(r[0]) for r in rows]


# ---------------------------------------------------------------- notes


def read_notes(con: Any, subject: str, keys: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The notes and tags of these players or hands (pipelines.notes);
    none from a lake (it keeps none)."""
    from pipelines.notes import read

    try:
        return read(con, subject, keys)
    except Exception:  # a lake's views: no notes table
        return []


def with_tags(con: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands ``rows`` each with its ``tags`` (a list, maybe empty)."""
    found = read_notes(con, "hand", [(r["site"], r["hand_id"]) for r in rows])
    tags: dict[tuple[str, str], list[str]] = {}
    for n in found:
        if n["kind"] == "tag":
            tags.setdefault((n["site"], n["target"]), []).append(n["text"])
    return [{**r, "tags": tags.get((r["site"], r["hand_id"]), [])} for r in rows]


# ---------------------------------------------------------------- hands


def _rows(con: Any, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    from reports.render.files import _plain

    cur = con.execute(sql, list(params))
    names = [d[0] for d in cur.description]
    return [{k: _plain(v) for k, v in zip(names, row, strict=True)} for row in cur.fetchall()]


def _game(name: str) -> str:
    """The game a parameter names (any of the names the CLI takes), or 400."""
    game = game_named(name)
    if game is None:
        raise BadRequest(unknown_game(name, "game="))
    return game.value


HAND_FIELDS = ", ".join(f"h.{c}" for c in columns_of(
    "hands", "site", "hand_id", "game", "table_name", "started_at", "players", "total_pot",
    "valid", "n_violations"))


@dataclass(frozen=True)
class Search:
    """A hand search read from a request's parameters: its filter (SQL over
    ``hands h``, every value a parameter) and the page asked for."""

    where: str
    params: tuple[Any, ...]
    page: int
    per: int
    player_only: bool = False  # the filter is one player's hands, nothing else

    @property
    def filtered(self) -> bool:
        return self.where != "TRUE"


Names = Callable[[str], tuple[str, ...]]


def parse_search(query: Mapping[str, Sequence[str]], names: Names | None = None) -> Search:
    """The search of ``id`` (a prefix of the hand id), ``player`` (any case
    and accents: the stored names ``names(typed)`` gives), ``cards`` (his
    down cards, wildcards: ``A? 7?``), ``action`` (he checked, folded,
    called, bet or raised) and ``street`` (on it: ``COMMON 3``),
    ``min_won``/``max_won`` (his net in the hand; without a player: any
    seat's, the same seat for every one of these), ``tag``, ``table``,
    ``site``, ``game``, ``since``/``until``, ``code`` (a violation),
    ``invalid``, ``min_pot``/``max_pot``, ``page`` (from 1) and ``per``;
    400 for a value that cannot be used."""
    _unknown(query, SEARCH_KEYS)
    parts: list[str] = []
    params: list[Any] = []
    value = {k: _last(query, k) for k in SEARCH_KEYS}
    if value["game"]:
        value["game"] = _game(value["game"])
    if value["id"]:
        parts.append("starts_with(h.hand_id, ?)")
        params.append(value["id"])
    for key, column in (("table", "h.table_name"), ("site", "h.site"), ("game", "h.game")):
        if value[key] is not None and value[key] != "":
            parts.append(f"{column} = ?")
            params.append(value[key])
    found: tuple[str, ...] = ()
    seat: list[str] = []  # conditions on one seat: the player's when one is named
    seat_params: list[Any] = []
    if value["player"]:
        found = names(value["player"]) if names is not None else (value["player"],)
        seat.append(f"s.player IN ({', '.join('?' * len(found)) or 'NULL'})")
        seat_params += found
    if value["cards"]:
        for pattern, times in _card_patterns(value["cards"]).items():
            seat.append("len(list_filter(s.down_cards, lambda c: c LIKE ?)) >= ?")
            seat_params += [pattern, times]
    for key, op in (("min_won", ">="), ("max_won", "<=")):
        amount = value[key]
        if amount:
            seat.append(f"s.net {op} ?")
            seat_params.append(_int(amount, key, -(2**62)))
    if value["action"] or value["street"]:
        act = ["a.site = h.site", "a.hand_id = h.hand_id", "a.player = s.player"]
        if value["action"]:
            if value["action"].lower() not in ACTIONS:
                raise BadRequest(f"action={value['action']!r}: expected one of "
                                 f"{', '.join(ACTIONS)}")  # fmt: skip
            act.append("a.kind = ?")
            seat_params.append(value["action"].lower())
        if value["street"]:
            act.append("upper(a.street) = upper(?)")
            seat_params.append(value["street"].strip())
        seat.append(f"EXISTS (SELECT 1 FROM actions a WHERE {' AND '.join(act)})")
    if seat:
        parts.append("EXISTS (SELECT 1 FROM seats s WHERE s.site = h.site "
                     f"AND s.hand_id = h.hand_id AND {' AND '.join(seat)})")  # fmt: skip
        params += seat_params
    if value["code"]:
        parts.append("EXISTS (SELECT 1 FROM violations v WHERE v.site = h.site "
                     "AND v.hand_id = h.hand_id AND v.code = ? "
                     "AND NOT coalesce(v.unchecked, FALSE))")  # fmt: skip
        params.append(value["code"])
    if value["tag"]:
        from pipelines.notes import TAGGED

        parts.append(TAGGED)
        params.append(value["tag"].strip())
    if value["since"]:
        parts.append("h.started_at >= ?")
        params.append(_time(value["since"], "since"))
    if value["until"]:
        parts.append("h.started_at < ?")
        params.append(_time(value["until"], "until"))
    if value["invalid"] is not None and _flag(value["invalid"], "invalid"):
        parts.append("NOT h.valid")
    if value["min_pot"]:
        parts.append("h.total_pot >= ?")
        params.append(_int(value["min_pot"], "min_pot"))
    if value["max_pot"]:
        parts.append("h.total_pot <= ?")
        params.append(_int(value["max_pot"], "max_pot"))
    page = _int(value["page"], "page", 1, MAX_PAGE) if value["page"] else 1
    per = _int(value["per"], "per", 1, MAX_PER) if value["per"] else 50
    player_only = len(found) == 1 and len(parts) == 1 and len(seat) == 1
    return Search(" AND ".join(parts) or "TRUE", tuple(params), page, per, player_only)


def _card_patterns(text: str) -> dict[str, int]:
    """Hole cards as a search writes them (``A? 7?``: a rank and a suit,
    ``?`` for any): each as a LIKE pattern with how many of his down cards
    must match it (``A? A?``: two aces), or 400."""
    out: dict[str, int] = {}
    for token in text.replace(",", " ").split():
        if CARD.fullmatch(token[:1].upper() + token[1:].lower()) is None or len(token) != 2:
            raise BadRequest(f"cards={text!r}: {token!r} is not a card: write a rank and a "
                             "suit, ? for any (A? 7?, ?o, Ts)")  # fmt: skip
        pattern = (token[:1].upper() + token[1:].lower()).replace("?", "_")
        out[pattern] = out.get(pattern, 0) + 1
    if not out:
        raise BadRequest(f"cards={text!r}: no card (A? 7?)")
    return out


NEWEST = "ORDER BY h.started_at DESC NULLS LAST, h.site DESC, h.hand_id DESC"


def past_end(s: Search, total: int) -> None:
    """404 for a page past the search's last."""
    if s.page > 1 and (s.page - 1) * s.per >= total:
        raise NotFound(f"page={s.page}: there are {max(1, -(-total // s.per))} pages of "
                       f"{s.per} hands ({total:,} hands)")  # fmt: skip


def search(con: Any, query: Mapping[str, Sequence[str]], names: Names | None = None
           ) -> tuple[list[dict[str, Any]], int]:  # fmt: skip
    """Hands matching the search (:func:`parse_search`), newest first, one
    page: (rows, total)."""
    s = parse_search(query, names)
    total = count(con, s)
    past_end(s, total)
    return page(con, s), total


def count(con: Any, s: Search, listed: str | None = None) -> int:
    """The number of hands the search's filter matches; one player's, from
    his seats alone (every seat stored is a seat of a stored hand), or from
    ``listed``, the table of each player's hands (reports.search.handlist)."""
    if s.player_only and listed is not None:
        return int(con.execute(f"SELECT count(*) FROM {listed} WHERE player = ?",
                               list(s.params)).fetchall()[0][0])  # fmt: skip
    if s.player_only:
        return int(con.execute("SELECT count(*) FROM (SELECT DISTINCT site, hand_id FROM seats "
                               "WHERE player = ?)", list(s.params)).fetchall()[0][0])
    return int(con.execute(f"SELECT count(*) FROM hands h WHERE {s.where}", list(s.params)
                           ).fetchall()[0][0])  # fmt: skip


# The windows of time, ending at the newest hand stored, that a page is
# looked for in, one after the other, before the whole table.
WINDOWS = (timedelta(days=1), timedelta(days=16), timedelta(days=256))


def page(con: Any, s: Search, listed: str | None = None) -> list[dict[str, Any]]:
    """One page of the search, newest first, by ``ORDER BY ... LIMIT``.
    A search by one player alone with ``listed`` (the table of each
    player's hands, reports.search.handlist) reads the page's hands from his
    rows there (:func:`listed_page`). Otherwise the newest hands are
    searched first: a page is looked for among the hands of the last day
    stored, then of wider windows (:data:`WINDOWS`), then of the whole
    table. A window that fills the page gives the page of the whole search,
    since every hand outside it is older or has no time, and those sort
    after it. Why: a player's search would otherwise join his seats with
    every hand stored to keep only the newest few."""
    if s.player_only and listed is not None:
        rows = listed_page(con, s, listed)
        if rows is not None:
            return rows
    order = [s.per, (s.page - 1) * s.per]
    newest = con.execute("SELECT max(started_at) FROM hands").fetchall()[0][0] \
        if s.filtered else None  # (no filter: a top-N over the hands alone)
    if newest is not None:
        for window in WINDOWS:
            rows = _rows(con, f"SELECT {HAND_FIELDS} FROM hands h WHERE h.started_at >= ? "
                         f"AND {s.where} {NEWEST} LIMIT ? OFFSET ?",
                         [newest - window, *s.params, *order])  # fmt: skip
            if len(rows) == s.per:
                return rows
    return _rows(con, f"SELECT {HAND_FIELDS} FROM hands h WHERE {s.where} {NEWEST} "
                 "LIMIT ? OFFSET ?", [*s.params, *order])  # fmt: skip


def listed_page(con: Any, s: Search, listed: str) -> list[dict[str, Any]] | None:
    """A page of one player's hands: its keys from his rows of ``listed``
    (contiguous: DuckDB reads no other player's row groups), then those
    hands' fields, looked for only between the page's oldest and newest
    times (the hands are stored about in time order, so DuckDB's zone maps
    skip the rest of the table). None when a hand listed is not stored (the
    data changed since the list was made): the caller searches the hands."""
    keys = con.execute(f"SELECT site, hand_id, started_at FROM {listed} WHERE player = ? "
                       "ORDER BY started_at DESC NULLS LAST, site DESC, hand_id DESC "
                       "LIMIT ? OFFSET ?", [*s.params, s.per, (s.page - 1) * s.per]
                       ).fetchall()  # fmt: skip
    if not keys:
        return []
    times = [t for _, _, t in keys if t is not None]
    when = []
    if times:
        when.append("h.started_at BETWEEN ? AND ?")
    if len(times) < len(keys):
        when.append("h.started_at IS NULL")
    rows = _rows(con, f"SELECT {HAND_FIELDS} FROM hands h SEMI JOIN (SELECT "
                 "unnest(?::VARCHAR[]) AS site, unnest(?::VARCHAR[]) AS hand_id) k "
                 f"ON k.site = h.site AND k.hand_id = h.hand_id WHERE {' OR '.join(when)} "
                 f"{NEWEST}", [[k[0] for k in keys], [k[1] for k in keys],
                               *([min(times), max(times)] if times else [])])  # fmt: skip
    return rows if len(rows) == len(keys) else None


def hand(con: Any, site: str, hand_id: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``hh show``'s explanation of a stored hand: (rows, meta)."""
    from reports.show.explain import explain, hand_meta
    from reports.show.load import ShowError, from_con, judge

    try:
        found = from_con(con, hand_id, site or None, "the database")
    except ShowError as error:
        raise NotFound(str(error)) from None
    j = judge(found)
    return explain(j.hand, j.verdict, j.trace, j.raw), hand_meta(j.hand, j.verdict, j.file)


# -------------------------------------------------------------- overview


def overview(con: Any) -> dict[str, Any]:
    """Hands per game, the last hands imported, the newest violations and
    the last imports."""
    games = _rows(con, "SELECT game, count(*) AS hands, count(*) FILTER (NOT valid) AS invalid, "
                  "max(started_at) AS last FROM hands GROUP BY game ORDER BY game", [])
    last = _rows(con, f"SELECT {HAND_FIELDS} FROM hands h "
                 "ORDER BY h.import_run DESC, h.file DESC, h.line DESC LIMIT 20", [])
    found = _rows(con, "SELECT v.site, v.hand_id, v.code, v.message, h.table_name, h.game "
                  "FROM violations v JOIN hands h ON h.site = v.site AND h.hand_id = v.hand_id "
                  "WHERE NOT coalesce(v.unchecked, FALSE) "
                  "ORDER BY h.import_run DESC, h.file DESC, h.line DESC, v.line DESC "
                  "LIMIT 20", [])  # fmt: skip
    rejected = int(con.execute("SELECT count(*) FROM rejects").fetchall()[0][0])
    try:
        imports = _rows(con, "SELECT import_run, started_at, finished_at, command, summary "
                        "FROM imports ORDER BY import_run DESC LIMIT 5", [])  # fmt: skip
    except Exception:  # a lake has no imports table
        imports = []
    return {"games": games, "last_hands": last, "violations": found, "rejected": rejected,
            "imports": imports}  # fmt: skip


# ---------------------------------------------------------------- tables


def tables(con: Any) -> list[dict[str, Any]]:
    """Every table: its hands, invalid hands, first and last hand."""
    return _rows(con, "SELECT site, table_name, game, count(*) AS hands, "
                 "count(*) FILTER (NOT valid) AS invalid, min(started_at) AS first, "
                 "max(started_at) AS last FROM hands GROUP BY ALL "
                 "ORDER BY last DESC NULLS LAST, site, table_name", [])  # fmt: skip


def table_detail(con: Any, site: str, name: str) -> dict[str, Any]:
    """A table: its hands in time order (the last ``LIMIT``), the stacks of
    its players over those hands, its sessions (runs without a gap of more
    than reports.players.depth.SESSION_GAP) and its cross-hand findings."""
    from reports.players.depth import SESSION_GAP

    order = "ORDER BY h.started_at NULLS FIRST, h.file, h.line"
    shown = ("SELECT h.site, h.hand_id FROM hands h WHERE h.site = ? AND h.table_name = ? "
             f"ORDER BY h.started_at DESC NULLS LAST, h.file DESC, h.line DESC LIMIT {LIMIT}")
    hands = _rows(con, f"SELECT {HAND_FIELDS} FROM hands h SEMI JOIN ({shown}) k "
                  f"ON k.site = h.site AND k.hand_id = h.hand_id {order}", [site, name])
    if not hands:
        raise NotFound(f"no table {name!r}" + (f" of site {site!r}" if site else ""))
    first = hands[0]
    stacks = _rows(con, "SELECT s.player, h.hand_id, h.started_at, s.stack_start FROM seats s "
                   "JOIN hands h ON h.site = s.site AND h.hand_id = s.hand_id "
                   f"SEMI JOIN ({shown}) k ON k.site = h.site AND k.hand_id = h.hand_id "
                   f"{order}, s.seat", [site, name])  # fmt: skip
    by_player: dict[str, dict[str, list[Any]]] = {}
    for r in stacks:
        line = by_player.setdefault(r["player"], {"hand": [], "time": [], "stack": []})
        line["hand"].append(r["hand_id"])
        line["time"].append(r["started_at"])
        line["stack"].append(r["stack_start"])
    cross = _rows(con, "SELECT v.hand_id, v.code, v.line, v.message FROM violations v "
                  "JOIN hands h ON h.site = v.site AND h.hand_id = v.hand_id "
                  "WHERE h.site = ? AND h.table_name = ? AND v.source = 'cross' "
                  f"AND NOT coalesce(v.unchecked, FALSE) {order}, v.line",
                  [site, name])  # fmt: skip
    sessions: list[dict[str, Any]] = []
    for h in hands:
        t = h["started_at"] and datetime.fromisoformat(h["started_at"])
        s = sessions[-1] if sessions else None
        if s is None or t is None or s["_t"] is None or t - s["_t"] > SESSION_GAP:
            s = {"first": h["started_at"], "last": h["started_at"], "hands": 0, "_t": t}
            sessions.append(s)
        s["last"], s["hands"], s["_t"] = h["started_at"], s["hands"] + 1, t
    for s in sessions:
        del s["_t"]
    return {"site": site, "table": name, "game": first["game"], "hands": hands,
            "stacks": [{"player": p, **v} for p, v in by_player.items()],
            "cross": cross, "sessions": sessions, "limit": LIMIT}  # fmt: skip


LIMIT = 500  # a table's hands shown at most (its last ones)


# ------------------------------------------------------------------ live


# a watched table is active when its last hand was imported (by the watch:
# wall-clock time) this recently, and finished (it leaves the HUD) when
# longer ago than a session's gap (reports.players.depth.SESSION_GAP): the poker
# client stopped writing it. The hands' own times are not used: a log's
# clock is the site's, and an old file watched anew is being played now.
ACTIVE = timedelta(minutes=10)


def live(con: Any, folders: Sequence[str], stats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each table whose hands come from a watched folder and that is
    not finished: the players seated in its last hand, each with his hands
    and the HUD's statistics of his game (reports.render.columns.hud_stats) at
    the table's stakes, each with its count and opportunities (``stats``:
    the players list over all hands, a row per player, game and stakes).
    Active tables first, then by name (:data:`ACTIVE`); a finished table is
    left out."""
    import os

    from reports.players.counts import STAKES
    from reports.players.depth import SESSION_GAP
    from reports.render.columns import hud_stats

    if not folders:
        return []
    prefixes = [os.path.join(os.path.abspath(f), "") for f in folders]
    cond = " OR ".join("starts_with(h.file, ?)" for _ in prefixes)
    last = _rows(con, "SELECT site, table_name, game, stakes, hand_id, started_at, "
                 "(SELECT epoch(now()::TIMESTAMP) - epoch(max(i.started_at)) FROM imports i "
                 "WHERE i.import_run = h.import_run) AS age FROM ("
                 f"SELECT h.*, {STAKES} AS stakes, row_number() OVER ("
                 "PARTITION BY h.site, h.table_name "
                 "ORDER BY h.started_at DESC NULLS LAST, h.file DESC, h.line DESC) AS k "
                 f"FROM hands h WHERE {cond}) h WHERE k = 1", prefixes)  # fmt: skip
    kept = []
    for t in last:
        age = timedelta(seconds=t.pop("age") or 0)
        if age > SESSION_GAP:
            continue
        t["active"] = age <= ACTIVE
        kept.append(t)
    kept.sort(key=lambda t: (not t["active"], t["table_name"].casefold(), t["site"]))
    by = {(r["player"], r["game"], r["stakes"]): r for r in stats}
    out = []
    for t in kept:
        seated = _rows(con, "SELECT seat, player, stack_start, sitting_out FROM seats "
                       "WHERE site = ? AND hand_id = ? ORDER BY seat",
                       [t["site"], t["hand_id"]])  # fmt: skip
        keys = hud_stats(t["game"])
        for s in seated:
            row = by.get((s["player"], t["game"], t["stakes"]), {})
            s["hands"] = row.get("hands") or 0
            s["stats"] = {k: {"value": row.get(k), "n": row.get(f"{k}_n") or 0,
                              "opp": row.get(f"{k}_opp") or 0} for k in keys}  # fmt: skip
        notes = read_notes(con, "player", [("", s["player"]) for s in seated])
        for s in seated:
            s["notes"] = [n for n in notes if n["target"] == s["player"]]
        out.append({**t, "stats": keys, "seated": seated})
    return out
