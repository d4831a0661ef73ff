"""Game-specific statistics.

Chiribito: La Perla (Sota and 7 of one suit as hole cards) dealt, and won
when dealt (collected chips); blinds won per 100 hands (net in blinds of
that hand). Calatone: hands that ended because every player checked a round
(a showdown before 7th street: ``last_round < 5``), and how often he won
them when he was in. The evaluator-based ones (Aces, Straights and Flushes
joker-made hands, Calatone under-declarations) need cards judged by
``hh.evaluate`` and live in :mod:`reports.stats.cards`.
"""

from __future__ import annotations

import polars as pl

from reports.stats.base import CALATONE, CHIRIBITO, LAST_ROUND, Rate, flag

RATES = (
    Rate("la_perla", "La Perla dealt", games=(CHIRIBITO,)),
    Rate("la_perla_won", "La Perla won", games=(CHIRIBITO,)),
    Rate("checked_round_won", "won all-checked", games=(CALATONE,)),
    Rate("joker_made", "joker-made", games=("aces-straights-flushes",)),
    Rate("joker_made_won", "joker-made won", games=("aces-straights-flushes",)),
    Rate("under_declared", "under-declared", games=(CALATONE,)),
)

_game = pl.col("game")
_down = pl.col("down_cards")
_perla = pl.any_horizontal(
    *(_down.list.contains(f"S{s}") & _down.list.contains(f"7{s}") for s in "oceb")
)
_chiri = _game == CHIRIBITO
_checked_end = (
    (_game == CALATONE) & pl.col("showdown") & (pl.col("last_round") < LAST_ROUND[CALATONE])
)
_sd = pl.col("went_to_showdown").fill_null(False)

SEAT_COUNTS = (
    flag("cnt_la_perla_opp", _chiri),
    flag("cnt_la_perla", _chiri & _perla),
    flag("cnt_la_perla_won_opp", _chiri & _perla),
    flag("cnt_la_perla_won", _chiri & _perla & (pl.col("won") > 0)),
    pl.when(_chiri).then(pl.col("net") / pl.col("forced")).alias("blinds_won"),
    flag("cnt_checked_round_won_opp", _checked_end & _sd),
    flag("cnt_checked_round_won", _checked_end & _sd & (pl.col("won") > 0)),
)
