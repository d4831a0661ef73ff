"""The catalogue of what a report shows: every column's header, what it
means and how its numbers are written. One home for the terminal
(reports.render.terminal), the HTML report (reports.render.html) and the pages of
``hh serve`` (:func:`catalogue`, read by their script), so all show the
same headers (``net/100``, ``W$SD``) with the same format, and no header
is a column's own name (``bb_per_100``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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


def _rate_keys(bounded: bool) -> frozenset[str]:
    from reports.players.stats import RATES as STAT_RATES

    return frozenset(r.key for r in STAT_RATES if r.bounded == bounded)


_BOUNDED, _UNBOUNDED = _rate_keys(True), _rate_keys(False)
# chip counts and other integers: thousands separated, no decimals (the all-in
# adjusted net too: an expectation of chips, written as whole chips as the net is)
INTEGERS = frozenset({"hands", "net", "allin_adjusted_net", "rake_paid", "sessions", "minutes",
                      "n_players",
                      "position", "round", "bets_raises", "calls", "folds", "violations",
                      "seat", "stack_start", "players", "total_pot", "n_violations",
                      "invalid", "import_run", "notes", "tags"})  # fmt: skip

# the other columns' headers and meanings (the players table's are above; a
# rate's meaning is its label in reports.players.stats)
_OTHERS: dict[str, tuple[str, str]] = {
    "position": ("position", "where he sat, in dealing order"),
    "n_players": ("table size", "players dealt in"),
    "session": ("session", "a run of his hands at one table, no gap over 30 minutes"),
    "start": ("start", "first hand of the session"), "minutes": ("minutes", "first to last hand"),
    "day": ("day", "the day the hands were played"), "round": ("round", "betting round"),
    "street": ("street", "the round's name in the hands (its marker)"),
    "bets_raises": ("bets+raises", "bets and raises in the round"),
    "calls": ("calls", "calls in the round"), "folds": ("folds", "folds in the round"),
    "rake_paid": ("rake", "rake paid"),
    "under_declared_cost": ("under-declared cost", "chips lost by declaring less than his best"),
    "started_at": ("time", "when the hand started"), "hand_id": ("hand", "the hand's id"),
    "site": ("site", "the site"), "table_name": ("table", "the table"),
    "players": ("players", "players dealt in"), "total_pot": ("pot", "total pot"),
    "valid": ("valid", "the referee found no violation"),
    "n_violations": ("violations", "violations the referee found"),
    "violations": ("violations", "violations the referee found"),
    "invalid": ("invalid", "hands with a violation"), "code": ("code", "violation code"),
    "message": ("what", "what the referee found"), "import_run": ("run", "import run"),
    "command": ("command", "the command that imported"), "finished_at": ("finished", "finished"),
    "first": ("first hand", "first hand"), "last": ("last hand", "last hand"),
    "seat": ("seat", "seat number"), "stack_start": ("stack", "stack at the hand's start"),
    "end": ("end", "last hand of the session"), "duration": ("duration", "first to last hand"),
    "hands_per_hour": ("hands/hour", "hands per hour"), "hero": ("you", "one of your names"),
}  # fmt: skip
_MEANING = {"player": "the player's name as stored", "game": "the game",
            "stakes": "small bet / big bet", "hands": "hands dealt in",
            "net": "chips won less chips put in", "bb_per_100": "big bets won per 100 hands",
            "net_per_100": "chips won per 100 hands",
            "allin_adjusted_net": "net with all-in pots counted at their equity",
            "af": "aggression factor: bets and raises per call"}  # fmt: skip


def _labels() -> dict[str, tuple[str, str]]:
    from reports.players.stats import RATES as STAT_RATES
    from reports.players.stats.aggression import ROUNDS

    out = dict(_OTHERS)
    for rate in STAT_RATES:
        out[rate.key] = (rate.label, rate.label)
    out |= {c: (h, _MEANING.get(c, out.get(c, (h, h))[1])) for c, h in PLAYER_COLUMNS}
    for r in ROUNDS:
        out[f"af_r{r + 1}"] = (f"AF round {r + 1}", f"aggression factor in round {r + 1}")
        out[f"afq_r{r + 1}"] = (f"AFq round {r + 1}", f"aggression frequency in round {r + 1}")
    return out


LABELS: dict[str, tuple[str, str]] = _labels()


def label(column: str) -> str:
    """The header a table shows for ``column`` (never the column's own
    name, except for names that read as words: ``player``, ``game``)."""
    found = LABELS.get(column)
    return found[0] if found else column.replace("_", " ")


def headed(columns: Sequence[str]) -> list[tuple[str, str]]:
    """``(column, header)`` for each of ``columns``."""
    return [(c, label(c)) for c in columns]


# the HUD (``hh serve``'s /live): these statistics for every player, then
# the game's own (the rates limited to his game); each coloured by its band:
# below the first figure "low", above the second "high" (in percent; AF as
# is), greyed below the sample size (opportunities, ``hh serve --sample``)
HUD = ("vpip", "pfr", "three_bet", "af", "cbet", "fold_to_cbet", "wtsd", "wsd")
BANDS: dict[str, tuple[float, float]] = {
    "vpip": (20, 40), "pfr": (10, 25), "three_bet": (4, 12), "af": (1, 3), "cbet": (45, 75),
    "fold_to_cbet": (35, 60), "wtsd": (25, 40), "wsd": (45, 55),
}  # fmt: skip
SAMPLE = 25


def hud_stats(game: str) -> list[str]:
    """The HUD's statistics for a player of ``game``: :data:`HUD`, then the
    game's own (La Perla, joker-made, under-declared ...)."""
    from reports.players.stats import RATES as STAT_RATES

    return [*HUD, *(r.key for r in STAT_RATES if r.games is not None and game in r.games)]


def catalogue() -> dict[str, object]:
    """What the pages of ``hh serve`` need to head and write a column the
    way the terminal and the HTML report do: each column's header, meaning
    and number format, the rates with their count columns, and the hands
    below which a per-100 rate is not shown."""
    from hh.model import Game
    from reports.players.stats import RATES as STAT_RATES

    return {
        "labels": {c: h for c, (h, _) in LABELS.items()},
        "meanings": {c: m for c, (_, m) in LABELS.items()},
        "formats": {c: number_format(c) for c in LABELS},
        "rates": [r.key for r in STAT_RATES],
        "per_100": list(PER_100),
        "min_hands_per_100": MIN_HANDS_PER_100,
        "bands": BANDS,
        "players_table": [c for c, _ in PLAYER_COLUMNS],
        # each game's name as a player reads it (hh.model.Game.label)
        "games": {g.value: g.label for g in Game},
    }


def number_format(column: str) -> str:
    """How a column's numbers are written: ``pct`` (100 × x, one decimal),
    ``ratio`` (two decimals), ``int`` (thousands separated) or ``1``
    (one decimal, thousands separated)."""
    if column in PERCENT or column.startswith("afq_r") or column in _BOUNDED:
        return "pct"
    if column in RATIOS or column.startswith("af_r") or column in _UNBOUNDED:
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
    import polars as pl

    few = pl.col("hands") < MIN_HANDS_PER_100
    return df.with_columns(pl.when(few).then(None).otherwise(pl.col(c)).alias(c)
                           for c in PER_100 if c in df.columns)  # fmt: skip
