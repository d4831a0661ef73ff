"""Reports in the terminal: rich tables.

Every string from a log (names, tables, sites, messages) goes in as a
``rich.text.Text`` (never parsed as markup) with control characters made
visible, so a name cannot restyle or move the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet

import polars as pl
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from hh.output import safe as escape
from reports.render.columns import PERCENT, RATIOS, for_display, number_format

# the columns shown in percent, or as a ratio (``af``)
RATES = PERCENT | RATIOS


def safe(text: object) -> Text:
    """Untrusted text as a rich Text: no markup, control characters shown
    as their code (``\\x1b``, :func:`hh.output.safe`)."""
    return Text(escape("" if text is None else str(text)))


def _cell(column: str, value: object, rates: AbstractSet[str]) -> Text:
    if value is None:
        return Text("-", style="dim")
    if column in rates and isinstance(value, float):
        return Text(f"{100 * value:.1f}" if column != "af" else f"{value:.2f}")
    if isinstance(value, float):  # as the pages write it (one catalogue of formats)
        return Text(f"{value:,.0f}" if number_format(column) == "int" else f"{value:,.1f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return Text(f"{value:,}")
    return safe(value)


def table(df: pl.DataFrame, columns: Sequence[tuple[str, str]], title: str,
          rates: AbstractSet[str]) -> Table:  # fmt: skip
    """A rich table of ``columns`` (name, header) of ``df``; rates in percent."""
    t = Table(title=title, title_justify="left")
    present = [(c, h) for c, h in columns if c in df.columns]
    for c, h in present:
        t.add_column(h, justify="left" if df.schema[c] == pl.String else "right")
    for row in df.select([c for c, _ in present]).iter_rows():
        t.add_row(*(_cell(c, v, rates) for (c, _), v in zip(present, row, strict=True)))
    return t


# on a narrow terminal, after the game's name is shortened, the columns left
# out first: the chip rates and the rarer statistics, so that VPIP, PFR, AF
# and the showdown rates stay
DROP_FIRST = ("net_per_100", "allin_adjusted_net", "wwsr2", "fold_to_cbet", "cbet",
              "three_bet", "afq", "stakes")  # fmt: skip


def _fits(console: Console, t: Table) -> bool:
    wide = console.options.update_width(10_000)
    return Measurement.get(console, wide, t).maximum <= console.width


def short_games(df: pl.DataFrame) -> pl.DataFrame:
    """The games by their short names (``ch``, ``asf``, ``cal``)."""
    from hh.games.names import SHORT

    if "game" not in df.columns:
        return df
    names = {str(g): s for g, s in SHORT.items()}
    return df.with_columns(pl.col("game").replace(names))


def show(console: Console, df: pl.DataFrame, columns: Sequence[tuple[str, str]], title: str,
         rates: AbstractSet[str]) -> None:  # fmt: skip
    """Print the table whole. Into a pipe or a file it is printed at its
    natural width (nothing cut). On a terminal too narrow for every column,
    the games are shortened (``ch``, ``asf``, ``cal``) first, then columns
    are left out (``DROP_FIRST``, then the last ones) and a note says how
    to see them, rather than squeezing every cell to an ellipsis."""
    df = for_display(df)
    present = [(c, h) for c, h in columns if c in df.columns]
    if not console.is_terminal:
        wide = Console(file=console.file, width=10_000, color_system=None)
        wide.print(table(df, present, title, rates), crop=False)
        return
    shown = list(present)
    if not _fits(console, table(df, shown, title, rates)):
        df = short_games(df)
    drop = [c for c in DROP_FIRST if c in dict(shown)]
    while len(shown) > 3 and not _fits(console, table(df, shown, title, rates)):
        victim = drop.pop(0) if drop else shown[-1][0]
        shown = [(c, h) for c, h in shown if c != victim]
    console.print(table(df, shown, title, rates))
    hidden = [h for c, h in present if (c, h) not in shown]
    if hidden:
        console.print(
            Text(f"{len(hidden)} columns left out to fit the terminal ({', '.join(hidden)}): "
                 "widen it, or use --format csv or json", style="dim")
        )
