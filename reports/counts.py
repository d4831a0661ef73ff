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
import re
from collections.abc import Callable

import duckdb

from reports.cache import Cache
from reports.stats import FAMILIES
from reports.stats.actions import ACTION_COLUMNS, ACTS, HAND_FACTS
from reports.stats.cards import CARD_COLUMNS, card_counts

# the hand and seat columns each row carries (the groupings read them); the
# hand's come from _todo (reports.cache.HAND_COLUMNS), h here
IDENTITY = (
    ("site", "h.site", "VARCHAR"), ("hand_id", "h.hand_id", "VARCHAR"),
    ("game", "h.game", "VARCHAR"), ("table_name", "h.table_name", "VARCHAR"),
    ("started_at", "h.started_at", "TIMESTAMP"), ("forced", "h.forced", "BIGINT"),
    ("n_players", "h.players", "SMALLINT"), ("max_seats", "h.max_seats", "SMALLINT"),
    ("last_round", "h.last_round", "SMALLINT"), ("showdown", "h.showdown", "BOOLEAN"),
    ("player", "s.player", "VARCHAR"), ("seat", "s.seat", "SMALLINT"),
    ("position", "s.position", "SMALLINT"), ("won", "s.won", "BIGINT"),
)  # fmt: skip

FLAGS = tuple(c for f in FAMILIES for c in getattr(f, "ACTION_FLAGS", ()))
AFTER = tuple(c for f in FAMILIES for c in getattr(f, "AFTER", ()))
SEAT_COUNTS = tuple(c for f in FAMILIES for c in f.SEAT_COUNTS)
SEAT_VALUES = tuple(c for f in FAMILIES for c in getattr(f, "SEAT_VALUES", ()))

COUNT_TYPE = "USMALLINT"  # per hand and player; sums widen to Int64 in polars

# How the action flags leave the GROUP BY: every "any" flag is one bit of an
# INTEGER combined by bit_or, every "count" flag one byte of a HUGEINT
# combined by sum (15 to a HUGEINT). Two or three aggregates instead of
# thirty make the per-(hand, player) GROUP BY and the join after it several
# times cheaper; a byte cannot overflow because no count exceeds the
# player's actions in the hand, checked to be under 256.
_ANY = [name for name, _, how in FLAGS if how == "any"]
_COUNT = [name for name, _, how in FLAGS if how == "count"]
_PER_SUM = 15
assert len(_ANY) <= 31


def _packed() -> tuple[list[str], list[str], dict[str, str]]:
    """The terms of one action, the aggregates over one player's actions
    (and card-judged rows) in a hand, and for each flag the SQL that unpacks
    it from them (on the aggregate row ``p``)."""
    cond = {name: c for name, c, _ in FLAGS}
    terms = ["1 AS is_act"]
    aggs = ["count(is_act) AS n_acts"]
    bits = " + ".join(f"(CASE WHEN {cond[n]} THEN {1 << i} ELSE 0 END)"
                      for i, n in enumerate(_ANY))  # fmt: skip
    terms.append(f"{bits} AS anys")
    aggs.append("bit_or(anys) AS anys")
    unpack = {n: f"((p.anys >> {i}) & 1)" for i, n in enumerate(_ANY)}
    for k in range(0, len(_COUNT), _PER_SUM):
        part = _COUNT[k : k + _PER_SUM]
        packed = " + ".join(f"(CASE WHEN {cond[n]} THEN {1 << (8 * j)}::HUGEINT ELSE 0 END)"
                            for j, n in enumerate(part))  # fmt: skip
        terms.append(f"{packed} AS counts{k}")
        aggs.append(f"sum(counts{k}) AS counts{k}")
        unpack |= {n: f"((p.counts{k} >> {8 * j}) & 255)" for j, n in enumerate(part)}
    aggs += [f"sum({n}) AS {n}" for n, _ in CARD_COLUMNS]
    return terms, aggs, unpack


# every column a counts row has, in order (name, SQL type)
COLUMNS: tuple[tuple[str, str], ...] = (
    ("hk", "UBIGINT"),
    *((n, t) for n, _, t in IDENTITY),
    *((n, t) for n, _, t in SEAT_VALUES),
    *((n, COUNT_TYPE) for n, _ in SEAT_COUNTS),
    *((n, COUNT_TYPE) for n, _, _ in FLAGS if not n.startswith("_")),
    *((n, COUNT_TYPE) for n, _ in AFTER),
    *((n, t) for n, t in CARD_COLUMNS),
)
NAMES = tuple(n for n, _ in COLUMNS)


def _counts_sql() -> str:
    """The SELECT giving every counts row of the hands in ``_todo``."""
    terms, aggs, unpack = _packed()
    flag = {n: f"coalesce({u}, 0)" for n, u in unpack.items()}
    # AFTER's SQL names flags: each becomes the condition "that flag is set"
    names = re.compile(r"\b(" + "|".join(map(re.escape, flag)) + r")\b")
    after = {n: names.sub(lambda m: f"({flag[m.group(1)]} > 0)", expr) for n, expr in AFTER}
    out = ["h.hk"]
    out += [f"{expr}::{kind} AS {name}" for name, expr, kind in IDENTITY]
    out += [f"({expr})::{kind} AS {name}" for name, expr, kind in SEAT_VALUES]
    out += [f"coalesce(({expr}), FALSE)::{COUNT_TYPE} AS {name}" for name, expr in SEAT_COUNTS]
    out += [f"{flag[n]}::{COUNT_TYPE} AS {n}" for n, _, _ in FLAGS if not n.startswith("_")]
    out += [f"({after[n]})::{COUNT_TYPE} AS {n}" for n, _ in AFTER]
    out += [f"coalesce(p.{name}, 0)::{kind} AS {name}" for name, kind in CARD_COLUMNS]
    return f"""
WITH {ACTS},
{HAND_FACTS},
p AS (  -- his actions and his card-judged counts, one GROUP BY (no join)
    SELECT hk, player, {", ".join(aggs)}
    FROM (SELECT hk, player, {", ".join(terms)}
          FROM (SELECT {ACTION_COLUMNS} FROM acts a LEFT JOIN hf ON hf.hk = a.hk)
          UNION ALL BY NAME SELECT * FROM _cards)
    GROUP BY hk, player)
SELECT {", ".join(out)}
FROM seats s JOIN _todo h ON h.site = s.site AND h.hand_id = s.hand_id
LEFT JOIN p ON p.hk = h.hk AND p.player = s.player
WHERE NOT coalesce(s.sitting_out, FALSE)
  AND (p.n_acts IS NULL OR p.n_acts < 256
       OR error('a player with 256 or more betting actions in one hand: ' || s.hand_id))
"""


COUNTS_SQL = _counts_sql()
# any change of a definition changes the version: the cache is then rebuilt
VERSION = hashlib.sha256((COUNTS_SQL + repr(COLUMNS)).encode()).hexdigest()[:16]


def fill(con: duckdb.DuckDBPyConnection, cache: Cache,
         progress: Callable[[str, int, int], None] | None = None) -> int:  # fmt: skip
    """Compute and keep the counts of the wanted hands (``_want``, see
    :meth:`Cache.want`) that the cache lacks; return how many hands.
    ``progress(stage, done, total)`` hears of the start and the end."""
    cache.ensure("counts", VERSION, COLUMNS)
    todo = cache.todo("counts")
    if not todo:
        return 0
    if progress:
        progress("per-hand counts", 0, todo)
    card_counts(con)  # the temp table _cards, for the hands in _todo
    target = cache.table("counts")
    con.execute(f"INSERT INTO {target} ({', '.join(NAMES)}) {COUNTS_SQL}")
    cache.done("counts")
    if progress:
        progress("per-hand counts", todo, todo)
    return todo
