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
the lake (``pipelines.lake.cross_check``) share :func:`find`.

The chain of a table (same site, same table name) is its hands and its
unparseable runs (``rejects`` of kind ``parse`` whose table could be read),
ordered by ``started_at`` (UTC where the zone is known, as
``hh.read.places.instant`` orders them; a date that is not one first), then by
file and line: the order ``hh validate`` gives the same files named in
sorted order. A run that did not parse, or a hand the referee could not
judge (INTERNAL_ERROR), breaks the chain where it stands.

A (site, id) seen twice does not reach this: the writer keeps the first and
puts any other text under the same key in ``rejects`` as a conflict (an
exact copy is a duplicate, stored once).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from hh.crosshand import Chains, Summary
from hh.verdict import SeatStack
from pipelines.dbhealth import rollback

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

# The chains' tables in groups of about _GROUP_HANDS hands (a table is never
# split): group g's tables all come after group g - 1's in the feed's order.
_GROUPS = """
CREATE OR REPLACE TEMP TABLE _group AS
    SELECT site, table_name,
           ((sum(n) OVER (ORDER BY site, table_name ROWS UNBOUNDED PRECEDING) - 1)
               // {bound})::INTEGER AS g
    FROM (SELECT site, table_name, count(*) AS n FROM _chain GROUP BY ALL)
"""

# Each chain of one group of tables in its order, every judged hand followed
# by its seats in seat-line order (a name seated twice: the later line
# counts, as in hh validate): one sorted stream of plain rows (``seat`` NULL
# on a hand's own row). DuckDB's sort needs memory that grows with the rows
# sorted (beyond the checks' limit for a large import), so the chains are
# read a group of tables at a time: the memory grows with the largest
# table, not with the import.
_FEED = """
SELECT site, table_name, hand_id, file, line, judged, game, table_line, dealer_seat, anchor,
       seat, player, stack_start, stack_end, seat_line, dealt_in, top_up
FROM (
    SELECT c.*, NULL::SMALLINT AS seat, NULL AS player, NULL::BIGINT AS stack_start,
           NULL::BIGINT AS stack_end, NULL::INTEGER AS seat_line, NULL::BOOLEAN AS dealt_in,
           NULL::BIGINT AS top_up
    FROM _chain c SEMI JOIN _group p
        ON p.site = c.site AND p.table_name = c.table_name AND p.g = $g
    UNION ALL
    SELECT c.*, s.seat, s.player, s.stack_start, s.stack_end, s.line, s.dealt_in, s.top_up
    FROM _chain c SEMI JOIN _group p
        ON p.site = c.site AND p.table_name = c.table_name AND p.g = $g
    JOIN seats s ON c.judged AND s.site = c.site AND s.hand_id = c.hand_id
)
ORDER BY site, table_name, started_at ASC NULLS FIRST, file, line, seat_line ASC NULLS FIRST
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
# Hands per group of tables read at once (see _FEED)
_GROUP_HANDS = 20_000


def _summaries(reader: Any, broken: set[tuple[str, str]]) -> Iterator[Summary]:
    """The stored hands (and unparseable runs) of the feed, as the cross-hand
    checks read them, each judged hand with the seat rows that follow it.
    Their place in the chain is the row's place in the feed, so ``instant``
    is not needed (0); an anchor whose own comparison failed breaks the
    chain, as it did."""
    hand: list[Any] | None = None
    stacks: list[tuple[Any, ...]] = []
    dealt_in: list[str] = []
    topped: list[tuple[str, int]] = []
    for batch in reader:
        for row in zip(*(c.to_pylist() for c in batch.columns), strict=True):
            if row[14] is not None:  # a seat line of the hand before
                seat, player, start, end, seat_line, dealt, top_up = row[10:]
                stacks.append((seat, player, start, end, seat_line))
                if dealt:
                    dealt_in.append(player)
                if top_up is not None:
                    topped.append((player, top_up))
                continue
            if hand is not None:
                yield _summary(hand, stacks, dealt_in, topped, broken)
                stacks, dealt_in, topped = [], [], []
            hand = list(row[:10])
    if hand is not None:
        yield _summary(hand, stacks, dealt_in, topped, broken)


def _summary(hand: list[Any], stacks: list[tuple[Any, ...]], dealt_in: list[str],
             topped: list[tuple[str, int]], broken: set[tuple[str, str]]) -> Summary:  # fmt: skip
    site, table, hand_id, file, line, judged, game, table_line, dealer, anchor = hand
    if anchor and (site, hand_id) in broken:
        judged = False
    seats = tuple([SeatStack(*seat) for seat in stacks])
    return Summary(file, line, hand_id, site, table, 0, game, bool(judged), table_line or 0,
                   dealer, seats, tuple(dealt_in), tuple(topped))  # fmt: skip


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
    con.execute(_GROUPS.format(bound=_GROUP_HANDS))
    groups = con.execute("SELECT coalesce(max(g) + 1, 0) FROM _group").fetchall()[0][0]
    readers = (con.sql(_FEED, params={"g": g}).to_arrow_reader(_BATCH) for g in range(groups))
    for hand in _summaries(itertools.chain.from_iterable(readers), broken):
        for v in chains.add((hand.site, hand.table), hand, hand.judged):
            found["site"].append(hand.site)
            found["hand_id"].append(hand.hand_id)
            found["code"].append(v.code)
            found["line"].append(v.line)
            found["message"].append(v.message)
    con.execute("DROP TABLE _group")
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
