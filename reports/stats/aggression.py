"""Aggression: af = (bets + raises) / calls and afq = (bets + raises) /
(bets + raises + calls + folds), over rounds 2 and later and per round.

Stored as counts: ``cnt_af`` = ``cnt_afq`` = bets + raises, ``cnt_af_opp``
= calls, ``cnt_afq_opp`` = bets + raises + calls + folds (checks count in
neither, as in PokerTracker). ``af`` is a ratio, not a fraction: it may
exceed 1. Per round r (2..6 in the statistics' words, 1..5 in the schema's
round numbers): ``agg_r<r>_aggr``, ``_calls``, ``_folds``.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import Rate

RATES = (
    Rate("af", "AF", bounded=False),
    Rate("afq", "AFq"),
)

ROUNDS = (1, 2, 3, 4, 5)  # schema round numbers after round 1

_later = pl.col("round") >= 1
_kind = pl.col("kind")
_aggr = _kind.is_in(("bet", "raise"))
_calls = _kind == "call"
_folds = _kind == "fold"


ACTION_FLAGS = (
    ("cnt_af", _later & _aggr, "sum"),
    ("cnt_af_opp", _later & _calls, "sum"),
    ("cnt_afq", _later & _aggr, "sum"),
    ("cnt_afq_opp", _later & (_aggr | _calls | _folds), "sum"),
    *(
        (f"agg_r{r}_{name}", (pl.col("round") == r) & cond, "sum")
        for r in ROUNDS
        for name, cond in (("aggr", _aggr), ("calls", _calls), ("folds", _folds))
    ),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
