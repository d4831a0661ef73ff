"""The columns a report shows and how each number is written: one home for
the terminal (hh.reports.terminal) and the HTML report (hh.reports.html), so
both show the same headers (``net/100``, ``W$SD``) with the same format."""

from __future__ import annotations

# (column, header) of the players table, in order
PLAYER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("player", "player"), ("game", "game"), ("hands", "hands"), ("net", "net"),
    ("net_per_100", "net/100"), ("allin_adjusted_net", "adj net"), ("vpip", "VPIP"),
    ("pfr", "PFR"), ("three_bet", "3B"), ("af", "AF"), ("afq", "AFq"), ("cbet", "CB"),
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
