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


def _count(condition: pl.Expr, name: str) -> pl.Expr:
    return condition.sum().cast(pl.Int64).alias(name)


ACTION_COUNTS = (
    _count(_later & _aggr, "cnt_af"),
    _count(_later & _calls, "cnt_af_opp"),
    _count(_later & _aggr, "cnt_afq"),
    _count(_later & (_aggr | _calls | _folds), "cnt_afq_opp"),
    *(
        _count((pl.col("round") == r) & cond, f"agg_r{r}_{name}")
        for r in ROUNDS
        for name, cond in (("aggr", _aggr), ("calls", _calls), ("folds", _folds))
    ),
)

SEAT_COUNTS: tuple[pl.Expr, ...] = ()
