"""Player statistics, one module per family; see docs/statistics.md.

Each family contributes SQL, run by DuckDB in one pass (reports.players.counts):
``ACTION_FLAGS`` (name, condition on one of a player's betting actions in a
hand, with the context columns of :mod:`reports.players.stats.actions`, and "any":
he did it at least once, or "count": how many times), ``AFTER`` (derived
from those), ``SEAT_COUNTS`` (conditions on his seat row ``s``
joined with the hand ``h``) and ``SEAT_VALUES`` (amounts). They produce the
per-hand ``cnt_x`` / ``cnt_x_opp`` columns, cached per hand;
:func:`reports.players.stats.table.aggregate` (polars) sums them over any grouping
and divides.
"""

from reports.players.stats import aggression, basic, continuation, games, preflop, showdown
from reports.players.stats.base import Rate

FAMILIES = (basic, preflop, aggression, continuation, showdown, games)

RATES: tuple[Rate, ...] = tuple(rate for family in FAMILIES for rate in family.RATES)

__all__ = ["FAMILIES", "RATES", "Rate"]
