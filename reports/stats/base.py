"""What every statistic is made of: a count and its opportunities.

PokerTracker caches, per player and hand, ``cnt_x`` (he did it) and
``cnt_x_opp`` (he could have); a rate is their ratio over any set of hands.
Keeping the two apart, instead of a rate, is what lets one per-hand frame
answer every grouping (by player, position, table size, session, day) with a
sum, and what lets the tests check that a count never exceeds its
opportunities.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

ACTING = ("check", "fold", "call", "bet", "raise")
AGGRESSIVE = ("bet", "raise")
VOLUNTARY = ("call", "bet", "raise")

CHIRIBITO = "chiribito"
ACES = "aces-straights-flushes"
CALATONE = "calatone"

# the last betting round of each game (docs/schema.md counts rounds from 0)
LAST_ROUND = {CHIRIBITO: 5, ACES: 3, CALATONE: 5}


@dataclass(frozen=True)
class Rate:
    """A rate shown to users: ``cnt_<key>`` over ``cnt_<key>_opp``.

    ``games`` limits it to some games (its value is null elsewhere);
    ``bounded`` is False for ratios that are not fractions (``af``).
    """

    key: str
    label: str
    games: tuple[str, ...] | None = None
    bounded: bool = True

    @property
    def n(self) -> str:
        return f"cnt_{self.key}"

    @property
    def opp(self) -> str:
        return f"cnt_{self.key}_opp"


def flag(name: str, condition: pl.Expr) -> pl.Expr:
    """A per-hand 0/1 count column from a boolean (null counts as 0)."""
    return condition.fill_null(False).cast(pl.Int64).alias(name)


def combine(acts: pl.LazyFrame, flags: tuple[tuple[str, pl.Expr, str], ...],
            after: tuple[pl.Expr, ...] = ()) -> pl.LazyFrame:  # fmt: skip
    """Per (hand, player) (key ``pk``): each flag computed on every action as a 0/1
    column first (one vectorised pass), then combined by a plain ``max``
    ("any") or ``sum`` per group, the aggregation polars does fastest."""
    cols = [cond.fill_null(False).cast(pl.Int32).alias(name) for name, cond, _ in flags]
    aggs = [pl.col(name).max() if how == "any" else pl.col(name).sum() for name, _, how in flags]
    out = acts.select("pk", *cols).group_by("pk").agg(aggs)
    if after:
        out = out.with_columns(after)
    temps = [name for name, _, _ in flags if name.startswith("_")]
    return out.drop(temps).with_columns(pl.exclude("pk").cast(pl.Int64))
