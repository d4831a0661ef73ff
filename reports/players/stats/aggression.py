"""Aggression: af = (bets + raises) / calls and afq = (bets + raises) /
(bets + raises + calls + folds), over rounds 2 and later and per round.

Stored as counts: ``cnt_af`` = ``cnt_afq`` = bets + raises, ``cnt_af_opp``
= calls, ``cnt_afq_opp`` = bets + raises + calls + folds (checks count in
neither, as in PokerTracker). ``af`` is a ratio, not a fraction: it may
exceed 1. Per round r (2..6 in the statistics' words, 1..5 in the schema's
round numbers): ``agg_r<r>_aggr``, ``_calls``, ``_folds``.
"""

from __future__ import annotations

from reports.players.stats.base import Rate

RATES = (
    Rate("af", "AF", bounded=False),
    Rate("afq", "AFq"),
)

ROUNDS = (1, 2, 3, 4, 5)  # schema round numbers after round 1

_CALL = "kind = 'call'"
_FOLD = "kind = 'fold'"

ACTION_FLAGS = (
    ("cnt_af", "round >= 1 AND aggr", "count"),
    ("cnt_af_opp", f"round >= 1 AND {_CALL}", "count"),
    ("cnt_afq", "round >= 1 AND aggr", "count"),
    ("cnt_afq_opp", f"round >= 1 AND (aggr OR {_CALL} OR {_FOLD})", "count"),
    *(
        (f"agg_r{r}_{name}", f"round = {r} AND {cond}", "count")
        for r in ROUNDS
        for name, cond in (("aggr", "aggr"), ("calls", _CALL), ("folds", _FOLD))
    ),
)

SEAT_COUNTS: tuple[tuple[str, str], ...] = ()
