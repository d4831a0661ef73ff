"""Reports in the terminal: rich tables.

Every string from a log (names, tables, sites, messages) goes in as a
``rich.text.Text`` (never parsed as markup) with control characters made
visible, so a name cannot restyle or move the terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import polars as pl
from rich.console import Console
from rich.table import Table
from rich.text import Text

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

PLAYER_COLUMNS = (
    ("player", "player"), ("game", "game"), ("hands", "hands"), ("net", "net"),
    ("net_per_100", "net/100"), ("allin_adjusted_net", "adj net"), ("vpip", "VPIP"),
    ("pfr", "PFR"), ("three_bet", "3B"), ("af", "AF"), ("afq", "AFq"), ("cbet", "CB"),
    ("fold_to_cbet", "FCB"), ("wtsd", "WTSD"), ("wsd", "W$SD"), ("wwsr2", "WWSR2"),
)  # fmt: skip


def safe(text: object) -> Text:
    """Untrusted text as a rich Text: no markup, control characters shown
    as their code (``\\x1b``)."""
    s = "" if text is None else str(text)
    return Text(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", s))


def _cell(column: str, value: object, rates: set[str]) -> Text:
    if value is None:
        return Text("-", style="dim")
    if column in rates and isinstance(value, float):
        return Text(f"{100 * value:.1f}" if column != "af" else f"{value:.2f}")
    if isinstance(value, float):
        return Text(f"{value:,.1f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return Text(f"{value:,}")
    return safe(value)


def table(df: pl.DataFrame, columns: Sequence[tuple[str, str]], title: str,
          rates: set[str]) -> Table:  # fmt: skip
    """A rich table of ``columns`` (name, header) of ``df``; rates in percent."""
    t = Table(title=title, title_justify="left")
    present = [(c, h) for c, h in columns if c in df.columns]
    for c, h in present:
        t.add_column(h, justify="left" if df.schema[c] == pl.String else "right")
    for row in df.select([c for c, _ in present]).iter_rows():
        t.add_row(*(_cell(c, v, rates) for (c, _), v in zip(present, row, strict=True)))
    return t


def show(console: Console, df: pl.DataFrame, columns: Sequence[tuple[str, str]], title: str,
         rates: set[str]) -> None:  # fmt: skip
    console.print(table(df, columns, title, rates))
