"""The per-(hand, player) counts: one DuckDB pass, kept in a cache.

Every statistic is a sum of per-hand counts (``cnt_x``, ``cnt_x_opp``), and
a hand's counts depend only on the hand: its text and the referee that
judged it. So, as PokerTracker does, they are computed once per hand and
kept (reports.cache): a report computes the hands it has not seen (or whose
``content_hash`` or ``hh_version`` changed: ``hh import --revalidate``
rewrites the verdicts) and reads the rest.

The computation is one SQL statement over ``actions``, ``seats`` and
``hands`` (the families' SQL, reports.players.stats): the actions are reduced per
hand and per (hand, player) by GROUP BY with FILTER clauses, never sorted
and never brought into Python; the card-judged counts
(reports.players.stats.cards) are joined on. What leaves DuckDB is one row per
player dealt in a hand.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import duckdb

from pipelines.tables import sql_type
from reports.cache import Cache
from reports.players.stats import FAMILIES
from reports.players.stats.actions import ACTION_COLUMNS, HAND_FACTS, acts
from reports.players.stats.base import BLIND, SPREAD
from reports.players.stats.cards import CARD_COLUMNS, card_counts

if TYPE_CHECKING:
    from pipelines.hooks import AfterImport

# the stakes as the header writes them: Chiribito its blind ("20"), Aces
# Straights and Flushes its bets ("1/2"), Calatone its spread ("5-50"); the
# players table has a row per player, game and stakes
STAKES = (f"CASE WHEN {BLIND} THEN h.forced::VARCHAR "
          f"WHEN {SPREAD} THEN h.small_bet || '-' || h.big_bet "
          "ELSE h.small_bet || '/' || h.big_bet END")  # fmt: skip

# the hand's columns (kept once per hand, in ``counts_hands``) and the seat's
# (in each row of ``counts``); the hand's come from _todo (reports.cache.HAND_COLUMNS)
# (name, SQL, type): a stored column keeps its stored type (pipelines.tables)
HAND_IDENTITY = tuple((name, f"h.{c}", sql_type("hands", c)) for name, c in (
    ("site", "site"), ("hand_id", "hand_id"), ("table_name", "table_name"),
    ("started_at", "started_at"), ("forced", "forced"), ("n_players", "players"),
    ("max_seats", "max_seats"), ("last_round", "last_round"), ("showdown", "showdown"),
))  # fmt: skip
SEAT_IDENTITY = (
    *((name, sql, sql_type(table, c)) for name, sql, table, c in (
        ("game", "h.game", "hands", "game"), ("player", "s.player", "seats", "player"),
        ("seat", "s.seat", "seats", "seat"), ("position", "s.position", "seats", "position"),
        ("won", "s.won", "seats", "won"))),
    ("stakes", STAKES, "VARCHAR"),
)  # fmt: skip
IDENTITY = HAND_IDENTITY[:2] + SEAT_IDENTITY[:1] + HAND_IDENTITY[2:] + SEAT_IDENTITY[1:]

FLAGS = tuple(c for f in FAMILIES for c in getattr(f, "ACTION_FLAGS", ()))
AFTER = tuple(c for f in FAMILIES for c in getattr(f, "AFTER", ()))
SEAT_COUNTS = tuple(c for f in FAMILIES for c in f.SEAT_COUNTS)
SEAT_VALUES = tuple(c for f in FAMILIES for c in getattr(f, "SEAT_VALUES", ()))

COUNT_TYPE = "USMALLINT"  # per hand and player, as read; sums widen to Int64 in polars

# How the counts leave the GROUP BY and are kept: every "any" flag is one
# bit of an INTEGER combined by bit_or, every "count" flag one byte of a
# BIGINT combined by sum (7 to a word); the card-judged counts are bytes of
# one more word. A few aggregates instead of thirty make the per-(hand,
# player) GROUP BY several times cheaper, and the cache keeps those words as
# they come (with the seat counts and AFTER as more bits of ``bits``): sixty
# small columns cost several times more to write than a few words, and
# reading one back (:func:`unpacked`) is a shift and a mask. A byte cannot
# overflow: no count exceeds the player's actions (or card-judged rows) in
# the hand, checked to be under 256.
_ANY = [name for name, _, how in FLAGS if how == "any"]
_COUNT = [name for name, _, how in FLAGS if how == "count"]
_CARD_COUNTS = [n for n, t in CARD_COLUMNS if t == COUNT_TYPE]
CARD_VALUES = tuple((n, t) for n, t in CARD_COLUMNS if t != COUNT_TYPE)
_PER_WORD = 7
_WORDS = [_COUNT[k : k + _PER_WORD] for k in range(0, len(_COUNT), _PER_WORD)]
assert len(_ANY) <= 31 and len(_CARD_COUNTS) <= _PER_WORD

# where each count is kept: a bit of ``bits`` ...
BITS = {n: i for i, n in enumerate(_ANY) if not n.startswith("_")}
BITS |= {n: 32 + i for i, (n, _) in enumerate((*SEAT_COUNTS, *AFTER))}
assert max(BITS.values()) < 63
# ... or a byte of a word ``bytes<k>``
BYTES = {n: (k, j) for k, word in enumerate(_WORDS) for j, n in enumerate(word)}
BYTES |= {n: (len(_WORDS), j) for j, n in enumerate(_CARD_COUNTS)}


def _word(names: list[str], cond: dict[str, str]) -> str:
    return " + ".join(f"(CASE WHEN {cond[n]} THEN {1 << (8 * j)} ELSE 0 END)"
                      for j, n in enumerate(names))  # fmt: skip


# every count column a per-hand row has, in order (name, SQL type)
COUNT_COLUMNS: tuple[tuple[str, str], ...] = (
    *((n, COUNT_TYPE) for n, _ in SEAT_COUNTS),
    *((n, COUNT_TYPE) for n, _, _ in FLAGS if not n.startswith("_")),
    *((n, COUNT_TYPE) for n, _ in AFTER),
    *((n, t) for n, t in CARD_COLUMNS),
)
# every column a per-hand row has, in order (name, SQL type)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("hk", "UBIGINT"),
    *((n, t) for n, _, t in IDENTITY),
    *((n, t) for n, _, t in SEAT_VALUES),
    *COUNT_COLUMNS,
)
NAMES = tuple(n for n, _ in COLUMNS)

# the cache's tables: one row per hand (its identity), one per player dealt in
HAND_TABLE = (("hk", "UBIGINT"), *((n, t) for n, _, t in HAND_IDENTITY))
SEAT_TABLE = (
    ("hk", "UBIGINT"),
    *((n, t) for n, _, t in SEAT_IDENTITY),
    *((n, t) for n, _, t in SEAT_VALUES),
    *CARD_VALUES,
    ("bits", "BIGINT"),
    *((f"bytes{k}", "BIGINT") for k in range(len(_WORDS) + 1)),
)


def unpacked(alias: str, cast: bool = True) -> dict[str, str]:
    """For each count, the SQL reading it from a cached row ``alias`` (as
    ``COUNT_TYPE``; without ``cast``, as the BIGINT a sum takes directly)."""
    to = f"::{COUNT_TYPE}" if cast else ""
    out = {n: f"(({alias}.bits >> {i}) & 1){to}" for n, i in BITS.items()}
    out |= {n: f"(({alias}.bytes{k} >> {8 * j}) & 255){to}" for n, (k, j) in BYTES.items()}
    return out


def _counts_sql(every_hand: bool) -> str:
    """The SELECT giving the cached rows (``SEAT_TABLE``) of the hands in
    ``_todo``: one GROUP BY over their actions per hand (the hand's facts),
    one per (hand, player) over the actions and the card-judged rows,
    joined to the seats."""
    cond = {name: c for name, c, _ in FLAGS}
    anys = " + ".join(f"(CASE WHEN {cond[n]} THEN {1 << i} ELSE 0 END)"
                      for i, n in enumerate(_ANY))  # fmt: skip
    terms = [f"{anys} AS anys", *(f"{_word(w, cond)} AS bytes{k}" for k, w in enumerate(_WORDS))]
    # _cards has one row per (hand, player): its counts packed as they are,
    # each checked to fit its byte
    card = " + ".join(f"(coalesce({n}, 0)::BIGINT << {8 * j})" for j, n in enumerate(_CARD_COUNTS))
    fits = " AND ".join(f"coalesce({n}, 0) < 256" for n in _CARD_COUNTS)
    card_terms = [f"CASE WHEN {fits} THEN {card} ELSE error('a player with 256 or more "
                  f"card-judged rows in one hand') END AS bytes{len(_WORDS)}",
                  *(f"{n}" for n, _ in CARD_VALUES)]  # fmt: skip
    words = [f"bytes{k}" for k in range(len(_WORDS) + 1)]
    aggs = ["count(seq) AS n_acts", "bit_or(anys) AS anys",
            *(f"sum({w})::BIGINT AS {w}" for w in words),
            *(f"sum({n})::BIGINT AS {n}" for n, _ in CARD_VALUES)]  # fmt: skip
    # the seat counts and AFTER, as bits over p (the player's row) and s, h
    flag = {n: f"((coalesce(p.anys, 0) >> {i}) & 1 > 0)" for i, n in enumerate(_ANY)}
    names = re.compile(r"\b(" + "|".join(map(re.escape, flag)) + r")\b")
    more = {n: f"coalesce(({expr}), FALSE)" for n, expr in SEAT_COUNTS}
    more |= {n: "(" + names.sub(lambda m: flag[m.group(1)], expr) + ")" for n, expr in AFTER}
    bits = " | ".join(["coalesce(p.anys, 0)::BIGINT",
                       *(f"(({v})::BIGINT << {BITS[n]})" for n, v in more.items())])  # fmt: skip
    out = ["h.hk"]
    out += [f"{expr}::{kind} AS {name}" for name, expr, kind in SEAT_IDENTITY]
    out += [f"({expr})::{kind} AS {name}" for name, expr, kind in SEAT_VALUES]
    out += [f"coalesce(p.{n}, 0)::{t} AS {n}" for n, t in CARD_VALUES]
    out.append(f"{bits} AS bits")
    out += [f"coalesce(p.{w}, 0) AS {w}" for w in words]
    too_many = "a player with 256 or more betting actions in one hand: "
    return f"""
WITH {acts(every_hand)},
{HAND_FACTS},
p AS (  -- his betting actions and his card-judged rows, one GROUP BY
    SELECT site, hand_id, player, {", ".join(aggs)}
    FROM (SELECT site, hand_id, player, seq, {", ".join(terms)}
          FROM (SELECT {ACTION_COLUMNS} FROM acts a
                LEFT JOIN hf ON hf.site = a.site AND hf.hand_id = a.hand_id)
          UNION ALL BY NAME
          SELECT t.site, t.hand_id, c.player, {", ".join(card_terms)}
          FROM _cards c JOIN _todo t ON t.hk = c.hk)
    GROUP BY site, hand_id, player)
SELECT {", ".join(out)}
FROM seats s JOIN _todo h ON h.site = s.site AND h.hand_id = s.hand_id
LEFT JOIN p ON p.site = s.site AND p.hand_id = s.hand_id AND p.player = s.player
WHERE NOT coalesce(s.sitting_out, FALSE)
  AND (p.n_acts IS NULL OR p.n_acts < 256 OR error('{too_many}' || s.hand_id))
"""


COUNTS_SQL = {every: _counts_sql(every) for every in (False, True)}
# any change of a definition changes the version: the cache is then rebuilt
VERSION = hashlib.sha256((COUNTS_SQL[False] + repr(SEAT_TABLE) + repr(HAND_TABLE)
                          + repr(BITS) + repr(BYTES)).encode()).hexdigest()[:16]


def fill(con: duckdb.DuckDBPyConnection, cache: Cache,
         progress: Callable[[str, int, int], None] | None = None,
         batch: int | None = None) -> int:  # fmt: skip
    """Compute and keep the counts of the wanted hands (``_want``, see
    :meth:`Cache.want`) that the cache lacks; return how many hands.
    ``progress(stage, done, total)`` hears of the start and of each batch.
    ``batch``: at most that many hands per statement (in order of their
    key, so each batch reads a narrow range of ``actions``): the memory a
    statement needs grows with its hands, and the import's connection has
    little (pipelines.importer.CHECK_MEMORY_LIMIT); None: all in one."""
    cache.ensure("counts", VERSION, SEAT_TABLE, HAND_TABLE)
    todo = cache.todo("counts")
    if not todo:
        return 0
    if progress:
        progress("per-hand counts", 0, todo)
    target = cache.table("counts")
    # every wanted hand in one statement: it reads all of actions, with no join to _todo
    every = not cache.filtered and todo == cache.wanted and (batch is None or todo <= batch)
    # in key order, so that each batch reads a narrow range of ``actions``
    for lo in cache.batches(batch, "site, hand_id"):
        card_counts(con)  # the temp table _cards, for the hands in _todo
        con.execute(f"INSERT INTO {target} {COUNTS_SQL[every]}")
        if progress and batch is not None and todo > batch:
            progress("per-hand counts", min(todo, lo + batch), todo)
    cache.done("counts", ", ".join(f"{expr} AS {n}" for n, expr, _ in HAND_IDENTITY))
    if progress:
        progress("per-hand counts", todo, todo)
    return todo


# the import hook computes the all-in equity of at most this many new all-in
# hands (a session holds a few dozen; 100 take about a second); more is left
# to the first report
IMPORT_EQUITY_LIMIT = 100
# hands per statement in the import hook: within the import's 256 MB
# (pipelines.importer.CHECK_MEMORY_LIMIT) whatever the size of the import
IMPORT_BATCH = 50_000


def after_import(con: duckdb.DuckDBPyConnection, cache: str | None = None,
                 stored: str | None = None) -> None:
    """A pipelines.hooks.AfterImport (named in its table ``AFTER_IMPORT``): the counts
    of the hands an import just wrote, computed into the database's cache
    file (reports.cache) so that a report never finds them missing, as
    PokerTracker fills its cache on import. Only hands the cache lacks are
    computed (a first import: all of them; later imports: the new ones); a
    cache file another process holds is left alone (the report computes
    what is missing). A lake's import gives ``cache``, the lake's own
    (``_reports.duckdb``). Their all-in equity too, when there are at most
    ``IMPORT_EQUITY_LIMIT`` new all-in hands (docs/statistics.md). For a
    database file, also each player's hands (reports.search.handlist), which
    ``hh serve``'s search by player reads. ``stored``: only those hands can be
    new (a watch's cycle), so the look for what the cache lacks reads them,
    not every stored hand; the keys of hands gone (a hand re-read whole)
    are then dropped by the next report that reads every hand."""
    from reports.cache import new_hands, path_of
    from reports.players.equity import fill_equity
    from reports.search.handlist import fill as fill_list

    database = cache is None  # a database file (not a lake): the cache beside it
    cache = path_of(con, cache)
    if cache is None:
        return  # an in-memory database: nothing to keep
    store = Cache(con, cache)
    try:
        if store.persistent:
            store.want(new_hands(stored), [])
            fill(con, store, batch=IMPORT_BATCH)
            fill_equity(con, store, limit=IMPORT_EQUITY_LIMIT)
            if database:
                fill_list(con, store)
    finally:
        store.close()
        con.execute("DROP TABLE IF EXISTS _want; DROP TABLE IF EXISTS _todo; "
                    "DROP TABLE IF EXISTS _cards")  # fmt: skip


if TYPE_CHECKING:  # mypy holds the hook to the contract it fills
    _hook: AfterImport = after_import
