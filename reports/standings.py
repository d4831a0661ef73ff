"""Each seat's standing on each round it was in: how good its cards were
then (``hh.collusion.standing``, the one measure the simulator's colluders
and the integrity report share), computed once per hand where the import
judges the hands (hh.reports.imported: ``derive``) and kept in the reports'
cache (hh.reports.cache, kind ``standing``), so that the integrity report
judges who was ahead at a fold or an all-in call with a join, not a loop.

A row per (hand, player, round) for every round from the first to the one
the player folded on (or the hand's last round), of every player dealt in
whose cards held by then are all known. A player with a ``??`` among them
has no row that round: a decision that needs it is not judged. The cards
held on round r are the seat's ``down_cards`` and ``up_cards`` as the
game's streets deal them by then (so many down and up cards per street)
and, in Chiribito, the common cards dealt by then (``hands.board``).

Hands the cache lacks (imported before this table existed, a lake, an
import whose hook did not run) are computed by the first report that needs
them (:func:`fill`), with the same code.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import duckdb
import polars as pl
from hh.reports.cache import Cache

from hh.collusion import standing
from hh.evaluate import evaluator_for
from hh.games import RULES
from hh.model import Game

KIND = "standing"
COLUMNS = (("hk", "UBIGINT"), ("player", "VARCHAR"), ("round", "SMALLINT"),
           ("standing", "BIGINT"))  # fmt: skip
VERSION = "1"

# the dealt-in seats of the cache's _todo hands, with the last round each was in
# (hands before version 2 of the schema have no board: their Chiribito seats no row)
_SEATS = """
SELECT t.hk, h.game, h.house_rules, {board} AS board, s.player, s.down_cards, s.up_cards,
       least(coalesce(s.folded_round, h.last_round), h.last_round) AS last
FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
JOIN seats s ON s.site = t.site AND s.hand_id = t.hand_id
WHERE s.dealt_in AND h.last_round >= 0
"""


@cache
def _counts(game: str, rnd: int) -> tuple[int, int, int]:
    """Down, up and common cards dealt by round ``rnd`` (the game's streets)."""
    streets = RULES[Game(game)].streets[: rnd + 1]
    return (sum(s.down for s in streets), sum(s.up for s in streets),
            sum(s.board for s in streets))  # fmt: skip


def cards_at(game: str, rnd: int, down: Sequence[str], up: Sequence[str],
             board: Sequence[str]) -> tuple[list[str], list[str]]:  # fmt: skip
    """A player's own cards and the common cards on round ``rnd``, from the
    cards dealt him in the hand (the game's streets say how many by then)."""
    nd, nu, nb = _counts(game, rnd)
    d = min(nd, len(down))
    own = [*down[:d], *up[: nd + nu - d]]
    return own, list(board[:nb])


@cache
def _evaluator(game: str, house: tuple[str, ...]) -> Any:
    return evaluator_for(game, house)


def seat_standing(game: str, house: tuple[str, ...], rnd: int, board: Sequence[str],
                  down: Sequence[str], up: Sequence[str]) -> int | None:  # fmt: skip
    """A player's standing on round ``rnd``, None when a card he held then
    is ``??`` or the cards are not a hand of the game."""
    if not down and not up:
        return None
    own, common = cards_at(game, rnd, down, up, board)
    if "??" in own:
        return None
    try:
        return standing(game, _evaluator(game, house), own, common)
    except ValueError:
        return None


def rows(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """The standing rows (:data:`COLUMNS`) of the cache's ``_todo`` hands
    (hh.reports.cache: ``Cache.todo``), read from ``hands`` and ``seats``.
    Built column by column: the import runs it on every hand."""
    columns = {r[0] for r in con.execute("DESCRIBE SELECT * FROM hands").fetchall()}
    sql = _SEATS.format(board="h.board" if "board" in columns else "NULL::VARCHAR[]")
    hks: list[int] = []
    players: list[str] = []
    rounds: list[int] = []
    values: list[int] = []
    seats = con.sql(sql).to_arrow_table()  # columns to Python lists at once, in C
    for hk, game, house, board, player, down, up, last in zip(
            *(seats.column(k).to_pylist() for k in range(seats.num_columns)),
            strict=True):  # fmt: skip
        if board is None and game == Game.CHIRIBITO:
            continue  # its common cards are not stored: not judged
        if not down and not up:
            continue
        house_t = tuple(house or ())
        for rnd in range(int(last) + 1):
            v = seat_standing(game, house_t, rnd, board or (), down or (), up or ())
            if v is not None:
                hks.append(hk)
                players.append(player)
                rounds.append(rnd)
                values.append(v)
    return pl.DataFrame({"hk": pl.Series(hks, dtype=pl.UInt64),
                         "player": pl.Series(players, dtype=pl.String),
                         "round": pl.Series(rounds, dtype=pl.Int16),
                         "standing": pl.Series(values, dtype=pl.Int64)})  # fmt: skip


def fill(con: duckdb.DuckDBPyConnection, store: Cache) -> int:
    """Compute and keep the standings of the wanted hands the cache lacks
    (``store.want`` first); returns how many hands were computed."""
    store.ensure(KIND, VERSION, COLUMNS)
    todo = store.todo(KIND)
    if not todo:
        return 0
    df = rows(con)  # noqa: F841 (read by the SQL below)
    target = store.table(KIND)
    con.execute(f"DELETE FROM {target} WHERE hk IN (SELECT hk FROM _todo)")
    con.execute(f"INSERT INTO {target} SELECT hk, player, round, standing FROM df")
    store.done(KIND)
    return todo


__all__ = ["COLUMNS", "KIND", "VERSION", "cards_at", "fill", "rows", "seat_standing"]
