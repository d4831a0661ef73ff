"""hands, net, net_per_100, rake_paid: straight from the seat rows, which
carry the referee's verdict (``net`` = won - put in; a returned uncalled bet
is neither put in nor won). ``bb_won``: his net in that hand's big blind
unit, the players' win rate ``bb_per_100`` (Chiribito: its blind; the limit
games: the big bet, Calatone's being its maximum bet)."""

from __future__ import annotations

from reports.players.stats.base import BLIND, Rate

RATES: tuple[Rate, ...] = ()

SEAT_COUNTS: tuple[tuple[str, str], ...] = ()

SEAT_VALUES = (
    ("hands", "1", "INTEGER"),
    ("net", "s.net", "BIGINT"),
    ("rake_paid", "s.rake_paid", "BIGINT"),
    ("bb_won", f"s.net / nullif(CASE WHEN {BLIND} THEN h.forced "
               "ELSE h.big_bet END, 0)", "DOUBLE"),
)
