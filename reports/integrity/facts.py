"""The integrity report's per-hand facts, computed once per hand in SQL and
kept in the reports' cache (reports.cache), so that a report over a
million hands reads a few compact rows per hand instead of joining every
action with every opponent still in.

Everything here depends on the hand alone (its stored rows and the seats'
standings, reports.integrity.standings), never on the report's filters or on the
other hands: the population's null models are the report's
(reports.integrity.signals). Three kinds, written together:

- ``integrity_seats`` (hk, player, dealt): the players dealt in (overlap's
  hands per table and player), and any other name the hand's facts hold
  (``dealt`` false: an invalid hand's actor or winner), so that the report
  numbers every name it meets.
- ``integrity_pairs``: one row per hand and pair of names ``a < b`` that
  shared anything in it: ``together`` (pairs of their dealt-in seats);
  soft play's decisions of each one while the other was still in, as
  counts per cell (:data:`CELLS`: heads-up or not, facing a bet or not,
  round 0, 1, 2 or 3 and later) packed four to a BIGINT (``n_ab0`` ..
  ``n_ab3``: a's actions with b in, ``k_ab*``: his bets and raises among
  them; ``n_ba*``, ``k_ba*`` the other way), ``checks_ab``/``checks_ba``
  (heads-up checks), ``passive`` (every heads-up action between them a
  check or a call; NULL: never heads-up); the chips that went from a's
  contributions to b's winnings (``chips_ab``; NULL: no pot between them),
  a's chips to anyone in the hand (``out_a``) and whether b took the most
  of them (``top_ab``, ties each); ``lost_a``: a lost his whole stack (per
  pair of their seats, as ``together``), ``took_ab``: and b took the most.
- ``integrity_events`` (hk, x, y, signal, stratum, judged, hit): each
  decision the card-judged signals count: a fold facing y's bet or raise
  (``fold_ahead``: stratum round x 2 + multiway, hit: ahead of everyone
  still in), a fold with y and someone more still in (``card_share``:
  stratum by opponents in, y's bet and y's opening of the round; hit: y the
  only one ahead of him), a call of y's all-in (``allin_call_behind``:
  stratum the round; hit: behind y), each decision facing y's bet or raise
  (``fold_to``: a fold, call or raise; stratum the round (3: later), the
  bet's size against the pot (:data:`SIZE_CLASSES`) and whether someone
  more is in; hit: a fold; judged always: no card needed). ``judged``:
  every standing needed is known.

The counts per cell are packed so that the report sums the words of up to
:data:`BLOCK` hands of a pair (soft play's clustered variance) without one
field spilling into the next: no player makes :data:`MAX_CELL` or more
decisions with one opponent in one hand (an error otherwise, as the
players report's counts are for 256).

The import's after-import hook (:func:`after_import`) computes them
over the new hands, after its deriver (reports.players.imported) kept their standings;
hands the cache lacks (imported before, a lake, a cache another process
held) are computed by the first report (:func:`fill`), with the same SQL.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import duckdb

from reports.cache import Cache
from reports.integrity import standings

if TYPE_CHECKING:
    from pipelines.hooks import AfterImport

SEATS, PAIRS, EVENTS = "integrity_seats", "integrity_pairs", "integrity_events"
KINDS = (SEATS, PAIRS, EVENTS)
BLOCK = 20  # a pair's consecutive hands together per cluster of soft play's variance
CELLS = 16  # heads-up (8) + facing a bet (1) + 2 x round (0, 1, 2, 3 and later)
PER_WORD = 4  # 16-bit fields per BIGINT
WORDS = CELLS // PER_WORD
MAX_CELL = (1 << 15) // BLOCK  # a block's sum stays under 2^15: no field spills
FOLD_AHEAD, CARD_SHARE, ALLIN_CALL, FOLD_TO = 0, 1, 2, 3  # integrity_events.signal
# fold_to's bet sizes: what x must add over the pot before his decision (the bet
# in it), under a quarter, a third, a half, at least a half; 4: the bettor all-in
SIZE_CLASSES = 5

_DIRS = ("ab", "ba")
SOFT_COLUMNS = tuple(f"{c}_{d}{w}" for d in _DIRS for c in "nk" for w in range(WORDS))
# the rows of each hand carry its number ``n`` (dense, kept in
# ``integrity_pairs_hands``) and each name its integer (``integrity_players``,
# numbered as names first appear): the report joins them on small integers
SEAT_COLUMNS = (("hk", "UBIGINT"), ("n", "INTEGER"), ("player", "INTEGER"), ("dealt", "BOOLEAN"))
PAIR_COLUMNS = (
    ("hk", "UBIGINT"), ("n", "INTEGER"), ("a", "INTEGER"), ("b", "INTEGER"),
    ("together", "INTEGER"), ("soft", "BOOLEAN"), ("seq", "INTEGER"),
    *((c, "BIGINT") for c in SOFT_COLUMNS),
    ("checks_ab", "INTEGER"), ("checks_ba", "INTEGER"), ("passive", "BOOLEAN"),
    ("chips_ab", "DOUBLE"), ("chips_ba", "DOUBLE"), ("out_a", "DOUBLE"), ("out_b", "DOUBLE"),
    ("top_ab", "BOOLEAN"), ("top_ba", "BOOLEAN"), ("lost_a", "INTEGER"), ("lost_b", "INTEGER"),
    ("took_ab", "INTEGER"), ("took_ba", "INTEGER"),
)  # fmt: skip
EVENT_COLUMNS = (("hk", "UBIGINT"), ("n", "INTEGER"), ("x", "INTEGER"), ("y", "INTEGER"),
                 ("signal", "UTINYINT"), ("stratum", "SMALLINT"), ("judged", "BOOLEAN"),
                 ("hit", "BOOLEAN"))  # fmt: skip
HAND_COLUMNS = (("hk", "UBIGINT"), ("n", "INTEGER"), ("game", "VARCHAR"))  # integrity_pairs_hands
PLAYERS = "integrity_players"  # (player VARCHAR, p INTEGER): never renumbered
SEQ = "integrity_seq"  # (game, a, b, next): each pair's next ``seq``

# The hands of _todo: their betting actions, each with the bet or raise it
# answers (the latest one before it in its round; a bet or raise names
# itself: not used), the seats dealt in, and who is still in at each action:
# everyone dealt in who has not folded before it (one row per action and
# opponent still in; ``capped``: no bet can go into y, all-in before, or x
# can only call or fold).
_PREPARE = """
CREATE OR REPLACE TEMP TABLE _iact AS
SELECT t.hk, a.seq, a.round, a.player, a.kind, a.all_in, a.to_call_before, a.stack_before,
       a.pot_before,
       last_value(CASE WHEN a.kind IN ('bet', 'raise') THEN a.player END IGNORE NULLS)
           OVER w AS bettor,
       last_value(CASE WHEN a.kind IN ('bet', 'raise') THEN a.all_in END IGNORE NULLS)
           OVER w AS bettor_all_in,
       last_value(CASE WHEN a.kind IN ('bet', 'raise') THEN a.player END IGNORE NULLS)
           OVER before AS faced,
       last_value(CASE WHEN a.kind IN ('bet', 'raise') THEN a.all_in END IGNORE NULLS)
           OVER before AS faced_all_in
FROM actions a JOIN _todo t ON t.site = a.site AND t.hand_id = a.hand_id
WHERE a.round >= 0 AND a.kind IN ('check', 'bet', 'call', 'raise', 'fold')
WINDOW w AS (PARTITION BY t.hk, a.round ORDER BY a.seq),
       before AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING);

CREATE OR REPLACE TEMP TABLE _iseat AS
SELECT t.hk, s.player, s.put_in, s.stack_end,
       coalesce(s.stack_end = 0 AND s.put_in > 0, false) AS bust
FROM seats s JOIN _todo t ON t.site = s.site AND t.hand_id = s.hand_id WHERE s.dealt_in;

CREATE OR REPLACE TEMP TABLE _ilive AS
WITH allin AS (
    SELECT t.hk, a.player, min(a.seq) AS aseq
    FROM actions a JOIN _todo t ON t.site = a.site AND t.hand_id = a.hand_id
    WHERE a.all_in GROUP BY ALL),
fold AS (SELECT hk, player, min(seq) AS fseq FROM _iact WHERE kind = 'fold' GROUP BY ALL),
l AS (
    SELECT a.hk, a.seq, a.round, a.player AS x, a.kind, a.to_call_before, a.bettor,
           s.player AS y,
           coalesce(ai.aseq < a.seq, false) OR a.to_call_before >= a.stack_before AS capped
    FROM _iact a JOIN _iseat s ON s.hk = a.hk AND s.player <> a.player
    LEFT JOIN fold f ON f.hk = s.hk AND f.player = s.player
    LEFT JOIN allin ai ON ai.hk = s.hk AND ai.player = s.player
    WHERE f.fseq IS NULL OR f.fseq > a.seq)
SELECT l.*, count(*) OVER (PARTITION BY l.hk, l.seq) AS opponents FROM l;

-- chips that went from one player's contributions to another's winnings,
-- per pot: each pot takes from every player what he put in between the
-- previous pot's level and its own (its level: the least any of its
-- eligible players put in), and pays its winners their shares; a
-- contributor's chips go to each winner pro rata
CREATE OR REPLACE TEMP TABLE _iflow AS
WITH pot AS (
    SELECT t.hk, p.pot_index, p.eligible, p.winners, p.shares
    FROM pots p JOIN _todo t ON t.site = p.site AND t.hand_id = p.hand_id),
lvl AS (
    SELECT pot.hk, pot.pot_index, min(s.put_in) AS level
    FROM (SELECT hk, pot_index, unnest(eligible) AS player FROM pot) pot
    JOIN _iseat s ON s.hk = pot.hk AND s.player = pot.player GROUP BY ALL),
lv AS (
    SELECT hk, pot_index, level,
           coalesce(lag(level) OVER (PARTITION BY hk ORDER BY pot_index), 0) AS below
    FROM lvl),
contrib AS (
    SELECT lv.hk, lv.pot_index, s.player,
           greatest(0, least(s.put_in, lv.level) - least(s.put_in, lv.below)) AS c
    FROM lv JOIN _iseat s ON s.hk = lv.hk),
win AS (SELECT hk, pot_index, unnest(winners) AS w, unnest(shares) AS share FROM pot),
paid AS (SELECT hk, pot_index, sum(share) AS paid FROM win GROUP BY ALL),
f AS (
    SELECT c.hk, c.player AS x, w.w AS y, sum(c.c * w.share / paid.paid) AS chips
    FROM contrib c JOIN win w ON w.hk = c.hk AND w.pot_index = c.pot_index
    JOIN paid ON paid.hk = c.hk AND paid.pot_index = c.pot_index
    WHERE c.c > 0 AND c.player <> w.w AND paid.paid > 0
    GROUP BY ALL)
SELECT *, sum(chips) OVER (PARTITION BY hk, x) AS out,
       chips = max(chips) OVER (PARTITION BY hk, x) AS top
FROM f;
"""

# the names the batch's facts hold that the cache has not numbered yet
_NAMES = """
INSERT INTO {players}
SELECT player, ((SELECT coalesce(max(p), -1) FROM {players})
                + row_number() OVER (ORDER BY player))::INTEGER
FROM (SELECT DISTINCT player FROM (
          SELECT player FROM _iseat UNION ALL SELECT player FROM _iact
          UNION ALL SELECT y FROM _iflow) n
      WHERE player IS NOT NULL AND player NOT IN (SELECT player FROM {players}))
"""

_CLEAN = ("DROP TABLE IF EXISTS _iact; DROP TABLE IF EXISTS _iseat; DROP TABLE IF EXISTS _ilive; "
          "DROP TABLE IF EXISTS _iflow")  # fmt: skip


def _word(c: str, w: int) -> str:
    """Word ``w`` of a player's decisions (``c`` = n) or bets and raises
    (k) with one opponent in, per cell (``cell`` of ``_ilive``'s rows):
    each row adds 1 to its cell's 16-bit field."""
    cond = f"cell // {PER_WORD} = {w}" + (" AND kind IN ('bet', 'raise')" if c == "k" else "")
    return (f"coalesce(sum(1::BIGINT << (16 * (cell % {PER_WORD}))) FILTER (WHERE {cond}), 0)"
            f"::BIGINT AS {c}{w}")


def _oriented(expr: str, d: str) -> str:
    """``expr`` of a directed row (x, y) as the pair's direction ``d``."""
    return f"CASE WHEN x {'<' if d == 'ab' else '>'} y THEN {expr} END"


_WORD_SUMS = ", ".join(_word(c, w) for c in "nk" for w in range(WORDS))
_SOFT_OUT = ", ".join(f"coalesce(s{d}.{c}{w}, 0) AS {c}_{d}{w}" for d in _DIRS for c in "nk"
                      for w in range(WORDS))  # fmt: skip

# one row per hand and pair (a < b): the union of what they shared (a player
# took the most of the other's chips in every pair of their seats, or none:
# took = lost x top)
PAIRS_SQL = f"""
WITH soft AS (  -- soft play: each one's decisions while the other is in, per cell
    SELECT hk, x, y, {_WORD_SUMS},
           count(*) FILTER (WHERE kind = 'check' AND opponents = 1)::INTEGER AS checks,
           CASE WHEN count(*) >= {MAX_CELL} THEN error('a player with {MAX_CELL} or more '
               || 'decisions with one opponent in one hand') END AS too_many
    FROM (SELECT hk, x, y, kind, opponents,
                 (opponents = 1)::INT * 8 + (to_call_before > 0)::INT + 2 * least(round, 3)
                     AS cell
          FROM _ilive WHERE kind <> 'fold' AND NOT capped)
    GROUP BY hk, x, y),
src AS (
    SELECT hk, least(x, y) AS a, greatest(x, y) AS b, true AS soft,
           {_oriented("checks", "ab")} AS checks_ab, {_oriented("checks", "ba")} AS checks_ba,
           too_many
    FROM soft
    UNION ALL BY NAME
    SELECT hk, least(x, y) AS a, greatest(x, y) AS b,
           bool_and(kind = 'check' OR kind = 'call') AS passive
    FROM _ilive WHERE opponents = 1 GROUP BY ALL
    UNION ALL BY NAME
    SELECT hk, least(x, y) AS a, greatest(x, y) AS b,
           {_oriented("chips", "ab")} AS chips_ab, {_oriented("chips", "ba")} AS chips_ba,
           {_oriented("out", "ab")} AS out_a, {_oriented("out", "ba")} AS out_b,
           {_oriented("top", "ab")} AS top_ab, {_oriented("top", "ba")} AS top_ba
    FROM _iflow
    UNION ALL BY NAME
    SELECT s.hk, s.player AS a, o.player AS b, 1 AS together,
           s.bust::INTEGER AS lost_a, o.bust::INTEGER AS lost_b
    FROM _iseat s JOIN _iseat o ON o.hk = s.hk AND s.player < o.player),
p AS (
    SELECT hk, a, b, coalesce(sum(together), 0)::INTEGER AS together,
           coalesce(bool_or(soft), false) AS soft,
           coalesce(any_value(checks_ab), 0)::INTEGER AS checks_ab,
           coalesce(any_value(checks_ba), 0)::INTEGER AS checks_ba,
           bool_and(passive) AS passive, any_value(chips_ab) AS chips_ab,
           any_value(chips_ba) AS chips_ba, any_value(out_a) AS out_a,
           any_value(out_b) AS out_b, bool_or(top_ab) AS top_ab, bool_or(top_ba) AS top_ba,
           coalesce(sum(lost_a), 0)::INTEGER AS lost_a, coalesce(sum(lost_b), 0)::INTEGER AS lost_b,
           (coalesce(sum(lost_a), 0) * coalesce(bool_or(top_ab), false)::INT)::INTEGER
               AS took_ab,
           (coalesce(sum(lost_b), 0) * coalesce(bool_or(top_ba), false)::INT)::INTEGER
               AS took_ba
    FROM src GROUP BY hk, a, b HAVING count(too_many) = 0)
SELECT p.hk, p.a, p.b, p.together, p.soft, {_SOFT_OUT}, p.* EXCLUDE (hk, a, b, together, soft)
FROM p LEFT JOIN soft sab ON sab.hk = p.hk AND sab.x = p.a AND sab.y = p.b
LEFT JOIN soft sba ON sba.hk = p.hk AND sba.x = p.b AND sba.y = p.a
"""


# the card-judged decisions: who was ahead is each seat's standing on the
# decision's round as the import stored it (reports.integrity.standings); a
# decision where one of the players has none (a ``??`` card) is not judged
EVENTS_SQL = f"""
WITH stand AS (SELECT s.* FROM {{standing}} s SEMI JOIN _todo t ON t.hk = s.hk),
o AS (SELECT hk, round, arg_min(player, seq) AS opener FROM _iact GROUP BY ALL),
foldin AS (  -- each fold, with each opponent still in
    SELECT l.hk, l.seq, l.round, l.x, l.y, l.to_call_before > 0 AS facing, l.bettor,
           l.opponents, coalesce(l.y = l.bettor, false) AS y_bet, l.y = o.opener AS y_opened,
           sx.standing AS mine, sy.standing AS theirs
    FROM _ilive l JOIN o USING (hk, round)
    LEFT JOIN stand sx ON sx.hk = l.hk AND sx.player = l.x AND sx.round = l.round
    LEFT JOIN stand sy ON sy.hk = l.hk AND sy.player = l.y AND sy.round = l.round
    WHERE l.kind = 'fold'),
folds AS (  -- one row per fold: judged when every standing is known; the one ahead of him
    SELECT hk, seq, any_value(round) AS round, any_value(x) AS x,
           any_value(facing) AS facing, any_value(bettor) AS bettor, count(*) AS n_in,
           bool_and(mine IS NOT NULL AND theirs IS NOT NULL) AS judged,
           any_value(mine) > max(theirs) AS ahead,
           count(*) FILTER (WHERE theirs > mine) AS above,
           any_value(y) FILTER (WHERE theirs > mine) AS one
    FROM foldin GROUP BY hk, seq)
SELECT hk, x, bettor AS y, {FOLD_AHEAD}::UTINYINT AS signal,
       (round * 2 + (n_in >= 2)::INT)::SMALLINT AS stratum, judged,
       coalesce(ahead, false) AS hit
FROM folds WHERE facing AND bettor IS NOT NULL
UNION ALL
SELECT l.hk, l.x, l.y, {CARD_SHARE}::UTINYINT,
       ((least(d.n_in, 4) - 2) * 6 + l.y_bet::INT * 3 + coalesce(l.y_opened::INT, 2))::SMALLINT,
       d.judged, coalesce(d.above = 1 AND d.one = l.y, false)
FROM foldin l JOIN folds d USING (hk, seq) WHERE d.n_in >= 2
UNION ALL
SELECT a.hk, a.player, a.bettor, {ALLIN_CALL}::UTINYINT, a.round::SMALLINT,
       sx.standing IS NOT NULL AND sy.standing IS NOT NULL,
       coalesce(sx.standing < sy.standing, false)
FROM _iact a
LEFT JOIN stand sx ON sx.hk = a.hk AND sx.player = a.player AND sx.round = a.round
LEFT JOIN stand sy ON sy.hk = a.hk AND sy.player = a.bettor AND sy.round = a.round
WHERE a.to_call_before > 0 AND a.kind = 'call' AND a.bettor_all_in
UNION ALL
SELECT a.hk, a.player, a.faced, {FOLD_TO}::UTINYINT,
       (least(a.round, 3) * {2 * SIZE_CLASSES}
        + 2 * CASE WHEN a.faced_all_in THEN 4
                   WHEN 4 * a.to_call_before < a.pot_before THEN 0
                   WHEN 3 * a.to_call_before < a.pot_before THEN 1
                   WHEN 2 * a.to_call_before < a.pot_before THEN 2 ELSE 3 END
        + (n.opponents >= 2)::INT)::SMALLINT,
       true, a.kind = 'fold'
FROM _iact a JOIN (SELECT hk, seq, any_value(opponents) AS opponents FROM _ilive GROUP BY ALL) n
    ON n.hk = a.hk AND n.seq = a.seq
WHERE a.to_call_before > 0 AND a.faced IS NOT NULL AND a.faced <> a.player
  AND a.kind IN ('fold', 'call', 'raise')
"""

# the players dealt in, and any other name the hand's facts hold (an invalid
# hand's actor or winner who was not dealt in)
SEATS_SQL = """
SELECT hk, player, true AS dealt FROM _iseat
UNION ALL
SELECT DISTINCT hk, player, false FROM (
    SELECT hk, player FROM _iact UNION ALL SELECT hk, y FROM _iflow) n
WHERE player IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM _iseat s WHERE s.hk = n.hk AND s.player = n.player)
"""

# any change of a definition (or of the standings') empties the kinds
VERSION = hashlib.sha256((_PREPARE + PAIRS_SQL + EVENTS_SQL + SEATS_SQL + repr(PAIR_COLUMNS)
                          + repr(EVENT_COLUMNS) + repr(SEAT_COLUMNS) + standings.VERSION).encode()
                         ).hexdigest()[:16]  # fmt: skip


def fill(con: duckdb.DuckDBPyConnection, store: Cache, batch: int | None = None,
         standings_kept: bool = False,
         progress: Callable[[str, int, int], None] | None = None) -> int:  # fmt: skip
    """Compute and keep the facts of the wanted hands (``store.want``
    first) the cache lacks; returns how many hands. Their standings must be
    in the cache (``standings.fill`` first); ``standings_kept``: only the
    hands whose standings the cache holds are computed (the import's hook:
    the others are left to the report). ``batch``: at most that many hands
    per statement (the import's connection has little memory). One
    transaction: the three kinds, the hands' and the names' numbers and the
    pairs' ``seq`` always agree.

    The hands are numbered (``n``) in the order they are stored, as the
    report numbers them, and each soft-play row of a pair gets the next
    ``seq`` of the pair in its game: the report then finds each pair's
    blocks of consecutive hands without sorting (reports.integrity.signals
    checks that the orders agree). When rows of hands no longer in the
    database go, the ``seq`` are numbered again. ``progress(stage, done,
    total)`` hears of the start and of each batch."""
    for kind, columns in ((SEATS, SEAT_COLUMNS), (PAIRS, PAIR_COLUMNS),
                          (EVENTS, EVENT_COLUMNS)):  # fmt: skip
        store.ensure(kind, VERSION, columns, HAND_COLUMNS if kind == PAIRS else HAND_COLUMNS[:1])
    players, seqs = store.table(PLAYERS), store.table(SEQ)
    pairs, pairs_hands = store.table(PAIRS), store.table(PAIRS + "_hands")
    con.execute(f"CREATE TABLE IF NOT EXISTS {players} (player VARCHAR, p INTEGER)")
    con.execute(f"CREATE TABLE IF NOT EXISTS {seqs} (game VARCHAR, a INTEGER, b INTEGER, "
                "next INTEGER)")  # fmt: skip
    todo = store.todo(PAIRS)
    if standings_kept and todo:
        con.execute(f"DELETE FROM _todo WHERE hk NOT IN "
                    f"(SELECT hk FROM {store.table(standings.KIND + '_hands')})")  # fmt: skip
        todo = int(con.execute("SELECT count(*) FROM _todo").fetchall()[0][0])
    if not todo:
        return 0
    events = EVENTS_SQL.format(standing=store.table(standings.KIND))
    con.execute("BEGIN TRANSACTION")
    try:
        # numbered in the order of _want: the order the hands are stored in
        con.execute(f"""
            CREATE OR REPLACE TEMP TABLE _todo AS
            SELECT t.*, ((SELECT coalesce(max(n), 0) FROM {pairs_hands})
                         + row_number() OVER (ORDER BY w.rowid))::INTEGER AS n
            FROM _todo t JOIN _want w ON w.hk = t.hk""")  # fmt: skip
        for kind in KINDS:
            con.execute(f"DELETE FROM {store.table(kind)} WHERE hk IN (SELECT hk FROM _todo)")
        con.execute(f"CREATE OR REPLACE TEMP TABLE _seq AS SELECT * FROM {seqs} "
                    f"WHERE EXISTS (SELECT 1 FROM {pairs_hands})")  # fmt: skip
        for lo in store.batches(batch, "n"):
            if progress:
                progress("integrity facts", lo, todo)
            con.execute(_PREPARE)
            con.execute(_NAMES.format(players=players))
            for kind, sql, names in ((SEATS, SEATS_SQL, ("player",)),
                                     (EVENTS, events, "xy")):  # fmt: skip
                coded = ", ".join(f"p{c}.p AS {c}" for c in names)
                joins = " ".join(f"JOIN {players} p{c} ON p{c}.player = r.{c}" for c in names)
                con.execute(f"INSERT INTO {store.table(kind)} SELECT r.hk, t.n, {coded}, "
                            f"r.* EXCLUDE (hk, {', '.join(names)}) FROM ({sql}) r "
                            f"JOIN _todo t ON t.hk = r.hk {joins}")  # fmt: skip
            con.execute(_PAIRS_CODED.format(players=players))
            con.execute(f"INSERT INTO {pairs} SELECT * EXCLUDE (game) FROM _ipairs")
            con.execute("""
                CREATE OR REPLACE TEMP TABLE _seq AS
                SELECT game, a, b, max(next)::INTEGER AS next FROM (
                    SELECT * FROM _seq UNION ALL
                    SELECT game, a, b, max(seq) + 1 FROM _ipairs WHERE soft GROUP BY ALL)
                GROUP BY ALL""")
        gone = 0 if store.filtered else int(con.execute(
            f"SELECT count(*) FROM {pairs} WHERE soft AND hk NOT IN (SELECT hk FROM _want)"
        ).fetchall()[0][0])  # fmt: skip
        for kind in KINDS:
            store.done(kind, "h.n, h.game" if kind == PAIRS else "")
        if gone:
            _renumber(con, pairs, pairs_hands)
        con.execute(f"DELETE FROM {seqs}; INSERT INTO {seqs} SELECT * FROM _seq")
        con.execute("COMMIT")
        if progress:
            progress("integrity facts", todo, todo)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.execute(_CLEAN + "; DROP TABLE IF EXISTS _todo_all; DROP TABLE IF EXISTS _ipairs; "
                    "DROP TABLE IF EXISTS _seq")  # fmt: skip
    return todo


# the batch's pair rows with the names' numbers and each soft-play row's seq
_PAIRS_CODED = f"""
CREATE OR REPLACE TEMP TABLE _ipairs AS
SELECT r.hk, t.n, pa.p AS a, pb.p AS b, r.together, r.soft,
       CASE WHEN r.soft THEN (coalesce(s.next, 0) - 1 + row_number() OVER (
           PARTITION BY t.game, pa.p, pb.p, r.soft ORDER BY t.n))::INTEGER END AS seq,
       r.* EXCLUDE (hk, a, b, together, soft), t.game
FROM ({PAIRS_SQL}) r JOIN _todo t ON t.hk = r.hk
JOIN {{players}} pa ON pa.player = r.a JOIN {{players}} pb ON pb.player = r.b
LEFT JOIN _seq s ON s.game = t.game AND s.a = pa.p AND s.b = pb.p
"""


def _renumber(con: duckdb.DuckDBPyConnection, pairs: str, pairs_hands: str) -> None:
    """Every pair's soft-play rows numbered again in the order of their
    hands (``seq`` 0, 1, ...), and the pairs' next numbers (``_seq``)."""
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE _renum AS
        SELECT p.n, p.a, p.b, h.game,
               (row_number() OVER (PARTITION BY h.game, p.a, p.b ORDER BY p.n) - 1)::INTEGER
                   AS seq
        FROM {pairs} p JOIN {pairs_hands} h ON h.n = p.n WHERE p.soft""")  # fmt: skip
    con.execute(f"UPDATE {pairs} SET seq = r.seq FROM _renum r "
                f"WHERE {pairs}.n = r.n AND {pairs}.a = r.a AND {pairs}.b = r.b")  # fmt: skip
    con.execute("CREATE OR REPLACE TEMP TABLE _seq AS SELECT game, a, b, "
                "(max(seq) + 1)::INTEGER AS next FROM _renum GROUP BY ALL")  # fmt: skip
    con.execute("DROP TABLE _renum")


# hands per statement, in the import hook (within the import's
# pipelines.importer.CHECK_MEMORY_LIMIT whatever the size of the import)
# and in a report's first fill (DuckDB's memory does not grow with the database)
BATCH = 50_000

# DuckDB's memory while a report computes what the cache lacks (the seats'
# standings and these facts, BATCH hands per statement): a report's
# connection has DuckDB's default limit, 80% of the RAM, up to which DuckDB
# keeps the blocks it has read, so a first report over a million hands held
# gigabytes. The statements fit in far less: the import's hook runs them in
# its 256 MB.
FILL_MEMORY_LIMIT = "1GB"


@contextmanager
def fill_memory(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """DuckDB's memory limit at :data:`FILL_MEMORY_LIMIT` while the block
    runs, then DuckDB's default again (a report's connection sets none of
    its own: reports.db.connect)."""
    con.execute(f"SET memory_limit = '{FILL_MEMORY_LIMIT}'")
    try:
        yield
    finally:
        con.execute("RESET memory_limit")


def after_import(con: duckdb.DuckDBPyConnection, cache: str | None = None,
                 stored: str | None = None) -> None:
    """A pipelines.hooks.AfterImport (named in its table ``AFTER_IMPORT``): the
    facts of the hands an import just wrote, computed into the database's
    cache file, so that a report finds them there, for a database whose
    cache already holds them (an integrity report ran on it): keeping them
    costs an import about a fifth more CPU, which a database nobody reads
    with ``hh report integrity`` should not pay; the first report computes
    them all (docs/decisions.md). Only hands whose standings the
    import's deriver kept (reports.players.imported) are computed; a cache file
    another process holds is left alone (the report computes what is
    missing). ``stored``: only those hands can be new (a watch's cycle)."""
    from reports.cache import new_hands, path_of

    cache = path_of(con, cache)
    if cache is None:
        return  # an in-memory database: nothing to keep
    store = Cache(con, cache)
    try:
        if store.persistent and store.holds(standings.KIND) and store.holds(SEATS):
            store.want(new_hands(stored), [])
            fill(con, store, batch=BATCH, standings_kept=True)
    finally:
        store.close()
        con.execute("DROP TABLE IF EXISTS _want; DROP TABLE IF EXISTS _todo")


__all__ = ["BATCH", "BLOCK", "CELLS", "EVENTS", "FILL_MEMORY_LIMIT", "KINDS", "PAIRS", "PLAYERS",
           "SEATS", "SEQ", "VERSION", "after_import", "fill", "fill_memory"]


if TYPE_CHECKING:  # mypy holds the hook to the contract it fills
    _hook: AfterImport = after_import
