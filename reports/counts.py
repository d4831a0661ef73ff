"""The per-(hand, player) counts: one DuckDB pass, kept in a cache.

Every statistic is a sum of per-hand counts (``cnt_x``, ``cnt_x_opp``), and
a hand's counts depend only on the hand: its text and the referee that
judged it. So, as PokerTracker does, they are computed once per hand and
kept (reports.cache): a report computes the hands it has not seen (or whose
``content_hash`` or ``hh_version`` changed: ``hh import --revalidate``
rewrites the verdicts) and reads the rest.

The computation is one SQL statement over ``actions``, ``seats`` and
``hands`` (the families' SQL, reports.stats): the actions are reduced per
hand and per (hand, player) by GROUP BY with FILTER clauses, never sorted
and never brought into Python; the card-judged counts
(reports.stats.cards) are joined on. What leaves DuckDB is one row per
player dealt in a hand.
"""

from __future__ import annotations

import hashlib

import duckdb

from reports.cache import Cache
from reports.stats import FAMILIES
from reports.stats.actions import ACTION_COLUMNS, HAND_FACTS
from reports.stats.cards import CARD_COLUMNS, card_counts

# the hand and seat columns each row carries (the groupings read them)
IDENTITY = (
    ("site", "h.site", "VARCHAR"), ("hand_id", "h.hand_id", "VARCHAR"),
    ("game", "h.game", "VARCHAR"), ("table_name", "h.table_name", "VARCHAR"),
    ("started_at", "h.started_at", "TIMESTAMP"), ("forced", "h.forced", "BIGINT"),
    ("n_players", "h.players", "SMALLINT"), ("max_seats", "h.max_seats", "SMALLINT"),
    ("last_round", "h.last_round", "SMALLINT"), ("showdown", "h.showdown", "BOOLEAN"),
    ("player", "s.player", "VARCHAR"), ("seat", "s.seat", "SMALLINT"),
    ("position", "s.position", "SMALLINT"), ("won", "s.won", "BIGINT"),
)  # fmt: skip

ACTION_COUNTS = tuple(c for f in FAMILIES for c in getattr(f, "ACTION_COUNTS", ()))
AFTER = tuple(c for f in FAMILIES for c in getattr(f, "AFTER", ()))
SEAT_COUNTS = tuple(c for f in FAMILIES for c in f.SEAT_COUNTS)
SEAT_VALUES = tuple(c for f in FAMILIES for c in getattr(f, "SEAT_VALUES", ()))

COUNT_TYPE = "USMALLINT"  # per hand and player; sums widen to Int64 in polars

# every column a counts row has, in order (name, SQL type)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("hk", "UBIGINT"),
    *((n, t) for n, _, t in IDENTITY),
    *((n, t) for n, _, t in SEAT_VALUES),
    *((n, COUNT_TYPE) for n, _ in SEAT_COUNTS),
    *((n, COUNT_TYPE) for n, _ in ACTION_COUNTS if not n.startswith("_")),
    *((n, COUNT_TYPE) for n, _ in AFTER),
    *((n, t) for n, t in CARD_COLUMNS),
)
NAMES = tuple(n for n, _ in COLUMNS)


def _counts_sql() -> str:
    """The SELECT giving every counts row of the hands in ``_todo``."""
    acts = ", ".join(f"{expr} AS {name}" for name, expr in ACTION_COUNTS)
    out = ["t.hk"]
    out += [f"{expr}::{kind} AS {name}" for name, expr, kind in IDENTITY]
    out += [f"({expr})::{kind} AS {name}" for name, expr, kind in SEAT_VALUES]
    out += [f"coalesce(({expr}), FALSE)::{COUNT_TYPE} AS {name}" for name, expr in SEAT_COUNTS]
    out += [f"coalesce(p.{name}, 0)::{COUNT_TYPE} AS {name}" for name, _ in ACTION_COUNTS
            if not name.startswith("_")]  # fmt: skip
    out += [f"coalesce(({expr}), FALSE)::{COUNT_TYPE} AS {name}" for name, expr in AFTER]
    out += [f"coalesce(c.{name}, 0)::{kind} AS {name}" for name, kind in CARD_COLUMNS]
    return f"""
WITH acts AS (
    SELECT x.site, x.hand_id, x.seq, x.round, x.player, x.kind FROM actions x
    {{semi}} WHERE x.round >= 0 AND x.kind <> 'uncalled'),
{HAND_FACTS},
hfb AS (SELECT hf.*, t.blind FROM hf JOIN _todo t USING (site, hand_id)),
p AS (
    SELECT site, hand_id, player, {acts}
    FROM (SELECT a.site, a.hand_id, {ACTION_COLUMNS.replace("hf.", "hf.")}
          FROM acts a LEFT JOIN hfb hf ON hf.site = a.site AND hf.hand_id = a.hand_id)
    GROUP BY site, hand_id, player)
SELECT {", ".join(out)}
FROM seats s JOIN _todo t ON t.site = s.site AND t.hand_id = s.hand_id
JOIN hands h ON h.site = s.site AND h.hand_id = s.hand_id
LEFT JOIN p ON p.site = s.site AND p.hand_id = s.hand_id AND p.player = s.player
LEFT JOIN _cards c ON c.hk = t.hk AND c.player = s.player
WHERE NOT coalesce(s.sitting_out, FALSE)
"""


COUNTS_SQL = _counts_sql()
# any change of a definition changes the version: the cache is then rebuilt
VERSION = hashlib.sha256((COUNTS_SQL + repr(COLUMNS)).encode()).hexdigest()[:16]


def fill(con: duckdb.DuckDBPyConnection, cache: Cache) -> int:
    """Compute and keep the counts of the wanted hands (``_want``, see
    :meth:`Cache.want`) that the cache lacks; return how many hands."""
    cache.ensure("counts", VERSION, COLUMNS)
    todo = cache.todo("counts")
    if not todo:
        return 0
    semi = "" if cache.all_wanted(todo) else (
        "SEMI JOIN _todo t ON t.site = x.site AND t.hand_id = x.hand_id")  # fmt: skip
    card_counts(con)  # the temp table _cards, for the hands in _todo
    target = cache.table("counts")
    con.execute(f"DELETE FROM {target} WHERE hk IN (SELECT hk FROM _todo)")
    con.execute(f"INSERT INTO {target} ({', '.join(NAMES)}) {COUNTS_SQL.format(semi=semi)}")
    cache.done("counts")
    return todo
