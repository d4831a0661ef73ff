"""The columns a report shows and how each number is written: one home for
the terminal (hh.reports.terminal) and the HTML report (hh.reports.html), so
both show the same headers (``net/100``, ``W$SD``) with the same format."""

from __future__ import annotations

import polars as pl

# (column, header) of the players table, in order
PLAYER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("player", "player"), ("game", "game"), ("stakes", "stakes"), ("hands", "hands"),
    ("net", "net"), ("bb_per_100", "bb/100"), ("net_per_100", "net/100"),
    ("allin_adjusted_net", "adj net"), ("vpip", "VPIP"), ("pfr", "PFR"), ("three_bet", "3B"),
    ("af", "AF"), ("afq", "AFq"), ("cbet", "CB"),
    ("fold_to_cbet", "FCB"), ("wtsd", "WTSD"), ("wsd", "W$SD"), ("wwsr2", "WWSR2"),
)  # fmt: skip

# fractions shown in percent with one decimal (``af`` is a ratio: two decimals)
PERCENT = frozenset({"vpip", "pfr", "three_bet", "afq", "cbet", "fold_to_cbet", "wtsd", "wsd",
                     "wwsr2"})  # fmt: skip
RATIOS = frozenset({"af"})
# chip counts and other integers: thousands separated, no decimals
INTEGERS = frozenset({"hands", "net", "rake_paid", "sessions", "minutes", "n_players",
                      "position", "round", "bets_raises", "calls", "folds", "violations"})


def number_format(column: str) -> str:
    """How a column's numbers are written: ``pct`` (100 × x, one decimal),
    ``ratio`` (two decimals), ``int`` (thousands separated) or ``1``
    (one decimal, thousands separated)."""
    if column in PERCENT:
        return "pct"
    if column in RATIOS:
        return "ratio"
    if column in INTEGERS:
        return "int"
    return "1"


class UnknownColumn(KeyError):
    """``--sort`` named no column: the message lists the valid ones."""

    def __init__(self, name: str, valid: list[str]) -> None:
        super().__init__(name)
        self.name, self.valid = name, valid

    def __str__(self) -> str:
        return (f"--sort {self.name!r}: no such column; the columns are "
                f"{', '.join(self.valid)} (a leading - reverses the order)")  # fmt: skip


def sort_order(name: str | None, columns: list[str],
               shown: tuple[tuple[str, str], ...] = PLAYER_COLUMNS,
               ) -> tuple[str, bool]:  # fmt: skip
    """The column ``--sort NAME`` means and whether it sorts descending.

    NAME is a header the table shows (``VPIP``, ``W$SD``, ``net/100``, any
    case) or a column's own name (``wsd``, as in --format json). Numbers sort
    highest first and names A to Z; a leading ``-`` reverses that (``-VPIP``:
    lowest first). None: hands, most first."""
    if not name:
        return "hands", True
    reverse = name.startswith("-")
    key = name[1:] if reverse else name
    by_header = {h.lower(): c for c, h in shown} | {c.lower(): c for c in columns}
    column = by_header.get(key.strip().lower())
    if column is None or column not in columns:
        valid = [h for c, h in shown if c in columns]
        raise UnknownColumn(name, valid)
    descending = column not in ("player", "game", "stakes")
    return column, descending != reverse


# Win rates per 100 hands say little over a few hands (one hand lost for 10
# big bets would read -1,000 bb/100): the terminal and the HTML report show
# them from this many hands on, and "-" below; csv, json and parquet keep
# every figure, with its hands beside it (docs/statistics.md).
MIN_HANDS_PER_100 = 20
PER_100 = ("net_per_100", "bb_per_100")


def for_display(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` as a table shows it: the per-100 rates of rows with fewer
    than MIN_HANDS_PER_100 hands left out (null)."""
    if "hands" not in df.columns:
        return df
    few = pl.col("hands") < MIN_HANDS_PER_100
    return df.with_columns(pl.when(few).then(None).otherwise(pl.col(c)).alias(c)
                           for c in PER_100 if c in df.columns)  # fmt: skip
