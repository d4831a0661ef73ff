"""Cross-hand checks over what is stored, for the tables an import touched:
STACK_CARRYOVER and DEALER_ROTATION between consecutive hands of one table,
so that a table whose hands arrive in several files on several days is
checked as one chain.

The checks themselves are ``hh validate``'s (:class:`hh.crosshand.Chains`,
FORMAT.md "Cross-hand checks"): DuckDB only puts the stored hands of the
touched tables in each table's order, with the stored fields the checks
read (the dealer seat, the seats' start and end stacks, top-ups, who was
dealt in), and this module feeds them through the same Python code, as
:class:`hh.crosshand.Summary` records. The database (:func:`check`) and
the lake (``hh.pipelines.lake.cross_check``) share :func:`find`.

The chain of a table (same site, same table name) is its hands and its
unparseable runs (``rejects`` of kind ``parse`` whose table could be read),
ordered by ``started_at`` (UTC where the zone is known, as
``hh.sources.instant`` orders them; a date that is not one first), then by
file and line: the order ``hh validate`` gives the same files named in
sorted order. A run that did not parse, or a hand the referee could not
judge (INTERNAL_ERROR), breaks the chain where it stands.

A (site, id) seen twice does not reach this: the writer keeps the first and
puts any other text under the same key in ``rejects`` as a conflict (an
exact copy is a duplicate, stored once).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pyarrow as pa
from hh.pipelines.dbhealth import rollback

from hh.crosshand import Chains, Summary

# The touched tables' chains, in a temp table that the store (or the lake's
# pass) reads after the checks. A table noted with the instant its new rows
# begin (``since``) is read from there on, with the one element before them
# as its ``anchor``: the checks pair each hand with the one before it, so the
# pairs before the anchor are as they were. A table noted without one (a row
# with no instant, which the chain puts first; the lake) is read whole.
_CHAIN = """
CREATE OR REPLACE TEMP TABLE _touched AS
    SELECT site, table_name, CASE WHEN count(since) = count(*) THEN min(since) END AS since
    FROM dirty_tables GROUP BY ALL;
CREATE OR REPLACE TEMP TABLE _all AS
    SELECT h.site, h.table_name, h.hand_id, h.started_at, h.file, h.line, h.judged,
           h.dealer_seat, h.table_line, h.game, t.since
    FROM hands h JOIN _touched t ON h.site = t.site AND h.table_name = t.table_name
    UNION ALL
    SELECT coalesce(r.site, ''), r.table_name, r.hand_id, r.started_at, r.file, r.line, false,
           NULL, NULL, r.game, t.since
    FROM rejects r JOIN _touched t
        ON coalesce(r.site, '') = t.site AND r.table_name = t.table_name
    WHERE r.kind = 'parse';
CREATE OR REPLACE TEMP TABLE _chain AS
    SELECT * EXCLUDE (since), false AS anchor FROM _all
    WHERE since IS NULL OR started_at >= since
    UNION ALL BY NAME
    SELECT * EXCLUDE (since), true AS anchor FROM _all
    WHERE since IS NOT NULL AND (started_at IS NULL OR started_at < since)
    QUALIFY row_number() OVER (PARTITION BY site, table_name
        ORDER BY started_at DESC NULLS LAST, file DESC NULLS FIRST, line DESC NULLS FIRST) = 1;
DROP TABLE _all;
"""

# Anchors whose own comparison failed (an INTERNAL_ERROR of the checks): as
# in a pass over the whole chain, the hand after one is compared with nothing.
_BROKEN = """
SELECT c.site, c.hand_id FROM _chain c
SEMI JOIN cross_violations v ON v.site = c.site AND v.hand_id = c.hand_id
    AND v.code = 'INTERNAL_ERROR'
WHERE c.anchor
"""

# Each chain in its order, every judged hand with its seats in seat-line
# order (a name seated twice: the later line counts, as in hh validate).
_FEED = """
SELECT c.site, c.table_name, c.hand_id, c.file, c.line, c.judged, c.game, c.table_line,
       c.dealer_seat, c.anchor, s.seat, s.player, s.stack_start, s.stack_end, s.lines,
       s.dealt_in, s.topped, s.top_up
FROM _chain c
LEFT JOIN (
    SELECT s.site, s.hand_id,
           list(s.seat ORDER BY s.line) AS seat, list(s.player ORDER BY s.line) AS player,
           list(s.stack_start ORDER BY s.line) AS stack_start,
           list(s.stack_end ORDER BY s.line) AS stack_end, list(s.line ORDER BY s.line) AS lines,
           list(s.player ORDER BY s.line) FILTER (WHERE s.dealt_in) AS dealt_in,
           list(s.player ORDER BY s.line) FILTER (WHERE s.top_up IS NOT NULL) AS topped,
           list(s.top_up ORDER BY s.line) FILTER (WHERE s.top_up IS NOT NULL) AS top_up
    FROM seats s SEMI JOIN _chain c ON c.judged AND s.site = c.site AND s.hand_id = c.hand_id
    GROUP BY ALL
) s ON c.judged AND s.site = c.site AND s.hand_id = c.hand_id
ORDER BY c.site, c.table_name, c.started_at ASC NULLS FIRST, c.file, c.line
"""

_FOUND_SCHEMA = pa.schema(
    [
        ("site", pa.string()),
        ("hand_id", pa.string()),
        ("code", pa.string()),
        ("line", pa.int32()),
        ("message", pa.string()),
    ]
)

_STORE = """
DELETE FROM cross_violations c USING _chain h
    WHERE c.site = h.site AND c.hand_id = h.hand_id AND h.judged AND NOT h.anchor;
INSERT INTO cross_violations SELECT site, hand_id, code, line, message FROM _found
    ORDER BY site, hand_id, line;
UPDATE hands SET n_violations = hands.n_hand_violations + coalesce(c.n, 0),
                 valid = hands.n_hand_violations + coalesce(c.n, 0) = 0
FROM (
    SELECT h.site, h.hand_id, x.n FROM _chain h
    LEFT JOIN (SELECT site, hand_id, count(*) AS n FROM _found GROUP BY ALL) x
        ON x.site = h.site AND x.hand_id = h.hand_id
    WHERE NOT h.anchor
) c
WHERE hands.site = c.site AND hands.hand_id = c.hand_id
  AND hands.n_violations <> hands.n_hand_violations + coalesce(c.n, 0);
DELETE FROM dirty_tables;
DROP TABLE _found;
DROP TABLE _chain;
DROP TABLE _touched;
"""

# Rows fetched from DuckDB at a time: a chain is read as a stream.
_BATCH = 10_000


def _summaries(batch: pa.RecordBatch, broken: set[tuple[str, str]]) -> Iterator[Summary]:
    """The stored hands (and unparseable runs) of a batch of the feed, as the
    cross-hand checks read them, column by column. Their place in the chain
    is the row's place in the feed, so ``instant`` is not needed (0); an
    anchor whose own comparison failed breaks the chain, as it did."""
    col = {name: batch.column(name).to_pylist() for name in batch.schema.names}
    none: list[Any] = []
    for (site, table, hand_id, file, line, judged, game, table_line, dealer, anchor, seat,
         player, start, end, lines, dealt_in, topped, top_up) in zip(
            col["site"], col["table_name"], col["hand_id"], col["file"], col["line"],
            col["judged"], col["game"], col["table_line"], col["dealer_seat"], col["anchor"],
            col["seat"], col["player"], col["stack_start"], col["stack_end"], col["lines"],
            col["dealt_in"], col["topped"], col["top_up"], strict=True):  # fmt: skip
        if anchor and (site, hand_id) in broken:
            judged = False
        stacks = tuple(zip(seat or none, player or none, start or none, end or none,
                           lines or none, strict=True))  # fmt: skip
        yield Summary.unpack((file, line, hand_id, site, table, 0, game, bool(judged),
                              table_line or 0, dealer, stacks, tuple(dealt_in or ()),
                              tuple(zip(topped or none, top_up or none, strict=True))))  # fmt: skip


def find(con: Any) -> int:
    """Run the cross-hand checks over the chains of the tables noted in
    ``dirty_tables`` (site, table_name, since: see ``_CHAIN``): leaves the
    temp tables ``_chain`` (the chains' hands and runs read, ``judged``
    False for those that break a chain, ``anchor`` for the element before
    a table's new rows, whose own checks stand as stored) and ``_found``
    (site, hand_id, code, line, message); returns how many were found."""
    con.execute(_CHAIN)
    anchors = con.execute("SELECT count(*) FROM _chain WHERE anchor").fetchall()[0][0]
    broken = set(con.execute(_BROKEN).fetchall()) if anchors else set()
    chains = Chains()
    found: dict[str, list[Any]] = {name: [] for name in _FOUND_SCHEMA.names}
    reader = con.sql(_FEED).to_arrow_reader(_BATCH)
    for batch in reader:
        for hand in _summaries(batch, broken):
            for v in chains.add((hand.site, hand.table), hand, hand.judged):
                found["site"].append(hand.site)
                found["hand_id"].append(hand.hand_id)
                found["code"].append(v.code)
                found["line"].append(v.line)
                found["message"].append(v.message)
    con.register("_found_rows", pa.table(found, schema=_FOUND_SCHEMA))
    try:
        con.execute("CREATE OR REPLACE TEMP TABLE _found AS SELECT * FROM _found_rows")
    finally:
        con.unregister("_found_rows")
    return len(found["code"])


def check(con: Any, *, in_transaction: bool = False) -> int:
    """Recompute the cross-hand violations of every table noted dirty, in
    one transaction (or in the caller's); return how many were found."""
    if not in_transaction:
        con.execute("BEGIN TRANSACTION")
    try:
        n = find(con)
        con.execute(_STORE)
        if not in_transaction:
            con.execute("COMMIT")
    except BaseException:
        if not in_transaction:
            rollback(con)
        raise
    return n
