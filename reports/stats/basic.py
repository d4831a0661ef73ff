"""hands, net, net_per_100, rake_paid: straight from the seat rows, which
carry the referee's verdict (``net`` = won - put in; a returned uncalled bet
is neither put in nor won)."""

from __future__ import annotations

from hh.reports.stats.base import Rate

RATES: tuple[Rate, ...] = ()

SEAT_COUNTS: tuple[tuple[str, str], ...] = ()

SEAT_VALUES = (
    ("hands", "1", "INTEGER"),
    ("net", "s.net", "BIGINT"),
    ("rake_paid", "s.rake_paid", "BIGINT"),
)
