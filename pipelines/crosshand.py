"""Cross-hand checks in SQL, over what is stored, for the tables an import
touched: STACK_CARRYOVER and DEALER_ROTATION between consecutive hands of
one table, as ``hh.validate.cross_check`` does in Python (FORMAT.md,
"Cross-hand checks"), with the same messages, so that a table whose hands
arrive in several files on several days is checked as one chain.

The chain of a table (same site, same table name) is its hands and its
unparseable runs (``rejects`` of kind ``parse`` whose table could be read),
ordered by ``started_at`` (UTC where the zone is known, as
``hh.validate._instant``; a date that is not one first), then by file and
line: the order ``hh validate`` gives the same files named in sorted order.
A run that did not parse, or a hand the referee could not judge
(INTERNAL_ERROR), breaks the chain where it stands.

A (site, id) seen twice does not reach this: the writer keeps the first and
puts any other text under the same key in ``rejects`` as a conflict (an
exact copy is a duplicate, stored once).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from hh.games import RULES

_CHAIN = """
CREATE OR REPLACE TEMP TABLE _touched AS SELECT DISTINCT site, table_name FROM dirty_tables;
CREATE OR REPLACE TEMP TABLE _chain AS
WITH chain AS (
    SELECT h.site, h.table_name, h.hand_id, h.started_at, h.file, h.line, h.judged,
           h.dealer_seat, h.table_line, h.game
    FROM hands h SEMI JOIN _touched t ON h.site = t.site AND h.table_name = t.table_name
    UNION ALL
    SELECT coalesce(r.site, ''), r.table_name, r.hand_id, r.started_at, r.file, r.line, false,
           NULL, NULL, r.game
    FROM rejects r SEMI JOIN _touched t
        ON coalesce(r.site, '') = t.site AND r.table_name = t.table_name
    WHERE r.kind = 'parse'
)
SELECT *,
       lag(hand_id) OVER w AS prev_id,
       lag(judged) OVER w AS prev_judged,
       lag(dealer_seat) OVER w AS prev_dealer
FROM chain
WINDOW w AS (PARTITION BY site, table_name ORDER BY started_at ASC NULLS FIRST, file, line);
"""

_FOUND = """
CREATE OR REPLACE TEMP TABLE _found AS
WITH pairs AS (SELECT * FROM _chain WHERE judged AND prev_judged),
prev_ends AS (
    -- a name seated twice: the later seat line counts, as a dict keeps the last
    SELECT s.site, s.hand_id, s.player, arg_max(s.stack_end, s.line) AS stack_end
    FROM seats s SEMI JOIN pairs p ON s.site = p.site AND s.hand_id = p.prev_id
    GROUP BY ALL
),
stacks AS (
    SELECT p.site, p.hand_id, 'STACK_CARRYOVER' AS code, s.line,
           s.player || ' starts with ' || s.stack_start
               || ', but ended the previous hand #' || p.prev_id || ' with ' || e.stack_end
               || CASE WHEN s.top_up IS NULL THEN ''
                       ELSE ' plus the top-up of ' || s.top_up END AS message
    FROM pairs p
    JOIN seats s ON s.site = p.site AND s.hand_id = p.hand_id
    JOIN prev_ends e ON e.site = p.site AND e.hand_id = p.prev_id AND e.player = s.player
    WHERE s.stack_start <> e.stack_end + coalesce(s.top_up, 0)
),
wants AS (
    SELECT p.site, p.hand_id, p.table_line, p.dealer_seat, p.prev_dealer, p.prev_id, g.way,
           CASE WHEN g.step > 0
                THEN coalesce(min(s.seat) FILTER (WHERE s.seat > p.prev_dealer), min(s.seat))
                ELSE coalesce(max(s.seat) FILTER (WHERE s.seat < p.prev_dealer), max(s.seat))
           END AS want
    FROM pairs p
    JOIN _games g ON g.game = p.game
    JOIN seats s ON s.site = p.site AND s.hand_id = p.hand_id AND s.dealt_in
    WHERE p.dealer_seat IS NOT NULL AND p.prev_dealer IS NOT NULL
    GROUP BY p.site, p.hand_id, p.table_line, p.dealer_seat, p.prev_dealer, p.prev_id, g.way,
             g.step
),
dealers AS (
    SELECT site, hand_id, 'DEALER_ROTATION' AS code, table_line AS line,
           'the dealer is seat #' || dealer_seat || ', but after seat #' || prev_dealer
               || ' in hand #' || prev_id || ' the deal passes ' || way || ' to seat #'
               || want AS message
    FROM wants WHERE dealer_seat <> want
)
SELECT * FROM stacks UNION ALL SELECT * FROM dealers;
"""

_STORE = """
DELETE FROM cross_violations c USING _chain h
    WHERE c.site = h.site AND c.hand_id = h.hand_id AND h.judged;
INSERT INTO cross_violations SELECT site, hand_id, code, line, message FROM _found
    ORDER BY site, hand_id, line;
UPDATE hands SET n_violations = hands.n_hand_violations + coalesce(c.n, 0),
                 valid = hands.n_hand_violations + coalesce(c.n, 0) = 0
FROM (
    SELECT h.site, h.hand_id, x.n FROM _chain h
    LEFT JOIN (SELECT site, hand_id, count(*) AS n FROM _found GROUP BY ALL) x
        ON x.site = h.site AND x.hand_id = h.hand_id
) c
WHERE hands.site = c.site AND hands.hand_id = c.hand_id
  AND hands.n_violations <> hands.n_hand_violations + coalesce(c.n, 0);
DELETE FROM dirty_tables;
DROP TABLE _found;
DROP TABLE _chain;
DROP TABLE _touched;
"""


def _games() -> pa.Table:
    """Each game's direction of the deal between hands, from its rules."""
    games = list(RULES)
    steps = [RULES[g].deal_passes for g in games]
    return pa.table(
        {
            "game": [g.value for g in games],
            "step": steps,
            "way": ["clockwise" if s > 0 else "to the right" for s in steps],
        }
    )


def check(con: Any, *, in_transaction: bool = False) -> int:
    """Recompute the cross-hand violations of every table noted dirty, in
    one transaction (or in the caller's); return how many were found."""
    con.register("_games", _games())
    try:
        if not in_transaction:
            con.execute("BEGIN TRANSACTION")
        try:
            con.execute(_CHAIN)
            con.execute(_FOUND)
            found = con.execute("SELECT count(*) FROM _found").fetchall()
            con.execute(_STORE)
            if not in_transaction:
                con.execute("COMMIT")
        except BaseException:
            if not in_transaction:
                con.execute("ROLLBACK")
            raise
    finally:
        con.unregister("_games")
    return int(found[0][0]) if found else 0
