"""Showdown: wtsd, wsd, wwsr2, from the seat rows.

"Saw round 2": the hand reached round 2's marker (``last_round >= 1``) and
he had not folded before it (``folded_round`` null or >= 1). wtsd: of
those, he had not folded at ``*** SHOWDOWN ***``. wsd: of his showdowns,
he collected chips from a pot (``won > 0``; an uncalled bet returned is not
``won``). wwsr2: collected chips, among hands where he saw round 2.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import Rate, flag

RATES = (
    Rate("wtsd", "WTSD"),
    Rate("wsd", "W$SD"),
    Rate("wwsr2", "WWSR2"),
)

_saw2 = (pl.col("last_round") >= 1) & (
    pl.col("folded_round").is_null() | (pl.col("folded_round") >= 1)
)
_sd = pl.col("went_to_showdown").fill_null(False)
_won = pl.col("won") > 0

SEAT_COUNTS = (
    flag("cnt_wtsd_opp", _saw2),
    flag("cnt_wtsd", _saw2 & _sd),
    flag("cnt_wsd_opp", _sd),
    flag("cnt_wsd", _sd & _won),
    flag("cnt_wwsr2_opp", _saw2),
    flag("cnt_wwsr2", _saw2 & _won),
)
