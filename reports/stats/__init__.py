"""Player statistics, one module per family; see docs/statistics.md.

Each family contributes polars expressions: ``ACTION_FLAGS`` (name,
condition on one action, "any" or "sum") are combined over one player's
betting actions in one hand (the enriched actions of
:mod:`reports.stats.actions`; ``ROUND_TWO_FLAGS`` over round 2 only,
``AFTER`` derived from them), ``SEAT_COUNTS`` are computed on his seat row
(joined with the hand). Both produce per-hand
``cnt_x`` / ``cnt_x_opp`` columns; :func:`reports.stats.table.aggregate`
sums them over any grouping and divides.
"""

from reports.stats import aggression, basic, continuation, games, preflop, showdown
from reports.stats.base import Rate

FAMILIES = (basic, preflop, aggression, continuation, showdown, games)

RATES: tuple[Rate, ...] = tuple(rate for family in FAMILIES for rate in family.RATES)

__all__ = ["FAMILIES", "RATES", "Rate"]
