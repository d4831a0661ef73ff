"""The betting actions with the context a statistic needs, in SQL.

What a tracker's parser keeps in its head while reading a hand becomes
columns, computed by DuckDB in one pass over ``actions`` (betting only:
round >= 0, returned bets left out) without sorting them:

- per hand (``HAND_FACTS``, a GROUP BY over rounds 1 and 2): the order
  numbers (``seq``) of round 1's first four bets and raises (``a1`` ..
  ``a4``), its last aggressor (``pfa``), round 2's first two bets and
  raises (``b1``, ``b2``), the kind of ``b1`` and ``pfa``'s first action of
  round 2 (``pfa_first``). A c-bet (``cbet_seq``) is ``b1`` when it is a bet
  and ``pfa``'s first action of round 2.
- per action (``ACTION_COLUMNS``): how many bets and raises came before it
  in its round follows from those order numbers: ``aggr_before`` in round 1
  is how many of ``a1`` .. ``a4`` are before it, and the bet level it
  faced, ``lvl``, adds Chiribito's blind (the first bet of round 1; the
  stud games open round 1 unbet). In round 2, "no bet or raise before it"
  is ``seq <= b1`` and "exactly one" ``b1 < seq <= b2``.

Counting the earlier bets from four order numbers is exact for the levels
the statistics ask about (0 to 3 before the action; 4 means "4 or more").
"""

from __future__ import annotations

AGGR = "kind IN ('bet', 'raise')"


def acts(every_hand: bool) -> str:
    """The betting actions of the hands in ``_todo``, keyed by ``(site,
    hand_id)``. When ``_todo`` holds every hand of the database (a first
    report) the semi-join that picks them is left out: it would cost a join
    of every action on two strings and select them all."""
    pick = "" if every_hand else (
        "SEMI JOIN _todo t ON t.site = x.site AND t.hand_id = x.hand_id")  # fmt: skip
    return f"""
acts AS NOT MATERIALIZED (
    SELECT x.site, x.hand_id, x.player, x.seq, x.round, x.kind FROM actions x {pick}
    WHERE x.round >= 0 AND x.kind <> 'uncalled')
"""


# per hand, over the bets and raises of rounds 1 and 2
HAND_FACTS = f"""
hf0 AS (
    SELECT site, hand_id,
           min(seq, 4) FILTER (round = 0) AS r0,
           arg_max(player, seq) FILTER (round = 0) AS pfa,
           min(seq, 2) FILTER (round = 1) AS r1,
           arg_min(kind, seq) FILTER (round = 1) AS b1_kind
    FROM acts WHERE round <= 1 AND {AGGR} GROUP BY site, hand_id),
hf1 AS (  -- pfa's first action of round 2 needs pfa: a second, smaller pass
    SELECT a.site, a.hand_id, min(a.seq) AS pfa_first
    FROM acts a JOIN hf0 f ON f.site = a.site AND f.hand_id = a.hand_id AND f.pfa = a.player
    WHERE a.round = 1 GROUP BY a.site, a.hand_id),
hf AS (
    SELECT hf0.site, hf0.hand_id, r0[1] AS a1, r0[2] AS a2, r0[3] AS a3, r0[4] AS a4, pfa,
           r1[1] AS b1, r1[2] AS b2, pfa_first,
           CASE WHEN pfa_first = r1[1] AND b1_kind = 'bet' THEN r1[1] END AS cbet_seq,
           t.blind
    FROM hf0 JOIN _todo t ON t.site = hf0.site AND t.hand_id = hf0.hand_id
    LEFT JOIN hf1 ON hf1.site = hf0.site AND hf1.hand_id = hf0.hand_id)
"""

_before = " + ".join(f"coalesce(hf.a{i} < a.seq, FALSE)::INTEGER" for i in range(1, 5))
# columns of one action, given its hand's facts (hf, with the hand's blind)
ACTION_COLUMNS = f"""
a.site, a.hand_id, a.player, a.seq, a.round, a.kind, a.{AGGR} AS aggr,
{_before} + (a.round = 0 AND hf.blind)::INTEGER AS lvl,
hf.pfa, hf.b1, hf.b2, hf.pfa_first, hf.cbet_seq
"""
