"""Each seat's standing on each round it was in: how good its cards were
then (``hh.collusion.standing``, the one measure the simulator's colluders
and the integrity report share), computed once per hand and kept in the
reports' cache (reports.cache, kind ``standing``), so that the integrity
report judges who was ahead at a fold or an all-in call with a join, not a
loop. The first integrity report on a database computes them for every
hand (:func:`fill`); from then on the import computes them where it judges
the hands (reports.players.imported: ``derive``).

A row per (hand, player, round) for every round from the first to the one
the player folded on (or the hand's last round), of every player dealt in
whose cards held by then are all known. A player with a ``??`` among them
has no row that round: a decision that needs it is not judged. The cards
held on round r are those of the seat's ``down_cards`` and ``up_cards``
the import stored as dealt by then (``down_rounds``, ``up_rounds``: the
round each card was dealt in, as the hand was played) and, in Chiribito,
the common cards dealt by then (``hands.board``, ``board_rounds``). Hands
imported before those columns existed (schema version 1) have no rows.

Hands the cache lacks (imported before a first integrity report, a lake,
an import whose hook did not run) are computed by the report that needs
them (:func:`fill`), with the same code, :data:`BATCH` hands at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from hh.collusion import HandCards, seats_standings
from hh.evaluate import evaluator_for
from pipelines.tables import columns_of

if TYPE_CHECKING:
    import duckdb

    from reports.cache import Cache

KIND = "standing"
COLUMNS = (("hk", "UBIGINT"), ("player", "VARCHAR"), ("round", "SMALLINT"),
           ("standing", "BIGINT"))  # fmt: skip
VERSION = "1"

# What :func:`rows_of` reads: each table's stored columns (checked against
# pipelines.tables), ``_ord`` numbering the hands.
HAND_COLUMNS = columns_of("hands", "_ord", "game", "house_rules", "board", "board_rounds",
                          "last_round", batch=True)
SEAT_COLUMNS = columns_of("seats", "_ord", "player", "dealt_in", "down_cards", "down_rounds",
                          "up_cards", "up_rounds", "folded_round", batch=True)
_SCHEMA = pa.schema([("_ord", pa.int32()), ("player", pa.string()), ("round", pa.int16()),
                     ("standing", pa.int64())])  # fmt: skip


@cache
def _evaluator(game: str, house: tuple[str, ...]) -> Any:
    return evaluator_for(game, house)


def rows_of(hands: pa.Table, seats: pa.Table) -> pa.Table:
    """The standing rows (``_ord``, player, round, standing) of a batch of
    stored rows: every dealt-in seat, every round from the first to the one
    it folded on (or the hand's last), whose cards held by then are all known
    (``hh.collusion.standings``). The tables have at least the columns
    :data:`HAND_COLUMNS` and :data:`SEAT_COLUMNS` name."""
    of_hand: dict[int, HandCards] = {}
    for h in hands.select(list(HAND_COLUMNS)).to_pylist():
        if h["last_round"] >= 0:
            of_hand[h["_ord"]] = (h["game"], _evaluator(h["game"], tuple(h["house_rules"] or ())),
                                  h["board"] or [], h["board_rounds"] or [], h["last_round"])
    dealt = seats.filter(pc.fill_null(seats.column("dealt_in"), False))

    def column(name: str) -> list[Any]:
        values: list[Any] = dealt.column(name).to_pylist()
        return values

    ords, players, rounds, values = seats_standings(
        of_hand, ords=column("_ord"), players=column("player"), downs=column("down_cards"),
        down_rounds=column("down_rounds"), ups=column("up_cards"), up_rounds=column("up_rounds"),
        folded=column("folded_round"))  # fmt: skip
    return pa.table([ords, players, rounds, values], schema=_SCHEMA)


def rows(con: duckdb.DuckDBPyConnection, todo: str) -> pa.Table:
    """The standing rows (:data:`COLUMNS`) of the hands of the temporary
    table ``todo`` (``hk``, ``site``, ``hand_id``: reports.cache's
    ``Cache.todo``), read from ``hands`` and ``seats``."""
    columns = {r[0] for r in con.execute("DESCRIBE SELECT * FROM hands").fetchall()}
    if "board_rounds" not in columns:  # schema version 1: the rounds are not stored
        return pa.table([[], [], [], []], schema=pa.schema(
            [("hk", pa.uint64()), *list(_SCHEMA)[1:]]))  # fmt: skip
    hand_cols = ", ".join(f"h.{c}" for c in HAND_COLUMNS if c != "_ord")
    seat_cols = ", ".join(f"s.{c}" for c in SEAT_COLUMNS if c != "_ord")
    con.execute("CREATE OR REPLACE TEMP TABLE _st AS SELECT (row_number() OVER ())::INTEGER "
                f"AS _ord, t.hk, t.site, t.hand_id, {hand_cols} FROM {todo} t "
                "JOIN hands h ON h.site = t.site AND h.hand_id = t.hand_id")  # fmt: skip
    try:
        hands = con.sql("SELECT * FROM _st").to_arrow_table()
        seats = con.sql(f"SELECT t._ord, {seat_cols} FROM _st t JOIN seats s "
                        "ON s.site = t.site AND s.hand_id = t.hand_id").to_arrow_table()
    finally:
        con.execute("DROP TABLE IF EXISTS _st")
    found = rows_of(hands, seats)
    at = pc.index_in(found.column("_ord"), value_set=hands.column("_ord").combine_chunks())
    return found.set_column(0, "hk", hands.column("hk").take(at))


# hands whose seats a report's fill holds in memory at once (as Python
# values, for hh.collusion): its memory does not grow with the database
BATCH = 50_000


def fill(con: duckdb.DuckDBPyConnection, store: Cache, batch: int = BATCH,
         progress: Callable[[str, int, int], None] | None = None) -> int:  # fmt: skip
    """Compute and keep the standings of the wanted hands the cache lacks
    (``store.want`` first), ``batch`` hands at a time; returns how many
    hands were computed. ``progress(stage, done, total)`` hears of the
    start and of each batch."""
    store.ensure(KIND, VERSION, COLUMNS)
    todo = store.todo(KIND)
    if not todo:
        return 0
    target = store.table(KIND)
    con.execute(f"DELETE FROM {target} WHERE hk IN (SELECT hk FROM _todo)")
    for lo in store.batches(batch, "site, hand_id"):
        if progress:
            progress("standings", lo, todo)
        found = rows(con, "_todo")  # noqa: F841 (read by the SQL below)
        con.execute(f"INSERT INTO {target} SELECT hk, player, round, standing FROM found")
    if progress:
        progress("standings", todo, todo)
    store.done(KIND)
    return todo


__all__ = ["BATCH", "COLUMNS", "KIND", "VERSION", "fill", "rows", "rows_of"]
