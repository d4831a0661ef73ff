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
held on round r are those of the seat's ``down_cards`` and ``up_cards``
the import stored as dealt by then (``down_rounds``, ``up_rounds``: the
round each card was dealt in, as the hand was played) and, in Chiribito,
the common cards dealt by then (``hands.board``, ``board_rounds``). Hands
imported before those columns existed (schema version 1) have no rows.

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

KIND = "standing"
COLUMNS = (("hk", "UBIGINT"), ("player", "VARCHAR"), ("round", "SMALLINT"),
           ("standing", "BIGINT"))  # fmt: skip
VERSION = "1"

# the dealt-in seats of the cache's _todo hands, with the round each card was
# dealt in and the last round each player was in
_SEATS = """
SELECT t.hk, h.game, h.house_rules, h.board, h.board_rounds, s.player, s.down_cards,
       s.down_rounds, s.up_cards, s.up_rounds,
       least(coalesce(s.folded_round, h.last_round), h.last_round) AS last
FROM _todo t JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id
JOIN seats s ON s.site = t.site AND s.hand_id = t.hand_id
WHERE s.dealt_in AND h.last_round >= 0
"""


def held(cards: Sequence[str], rounds: Sequence[int | None], rnd: int) -> list[str]:
    """The cards dealt by round ``rnd``, in the order they were dealt."""
    return [c for c, r in zip(cards, rounds, strict=True) if r is not None and r <= rnd]


@cache
def _evaluator(game: str, house: tuple[str, ...]) -> Any:
    return evaluator_for(game, house)


def rows(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """The standing rows (:data:`COLUMNS`) of the cache's ``_todo`` hands
    (hh.reports.cache: ``Cache.todo``), read from ``hands`` and ``seats``.
    Built column by column: the import runs it on every hand."""
    columns = {r[0] for r in con.execute("DESCRIBE SELECT * FROM hands").fetchall()}
    hks: list[int] = []
    players: list[str] = []
    rounds: list[int] = []
    values: list[int] = []
    if "board_rounds" not in columns:  # schema version 1: the rounds are not stored
        return _frame(hks, players, rounds, values)
    seats = con.sql(_SEATS).to_arrow_table()  # columns to Python lists at once, in C
    for (hk, game, house, board, board_at, player, down, down_at, up, up_at,
         last) in zip(*(seats.column(k).to_pylist() for k in range(seats.num_columns)),
                      strict=True):  # fmt: skip
        if down_at is None and up_at is None:
            continue  # no cards dealt, or imported before the rounds were stored
        ev = _evaluator(game, tuple(house or ()))
        for rnd in range(int(last) + 1):
            own = held(down or (), down_at or (), rnd) + held(up or (), up_at or (), rnd)
            if not own or "??" in own:
                continue
            try:
                v = standing(game, ev, own, held(board or (), board_at or (), rnd))
            except ValueError:  # cards an invalid hand holds
                continue
            hks.append(hk)
            players.append(player)
            rounds.append(rnd)
            values.append(v)
    return _frame(hks, players, rounds, values)


def _frame(hks: list[int], players: list[str], rounds: list[int],
           values: list[int]) -> pl.DataFrame:  # fmt: skip
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


__all__ = ["COLUMNS", "KIND", "VERSION", "fill", "held", "rows"]
