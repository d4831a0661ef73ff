"""The reports' all-in equity, computed where the import judges the hands:
the ``hh.derive`` entry point.

A report needs, for an all-in hand, each contender's expected share
(reports.players.equity), kept in the reports' cache beside the database
(reports.cache). It depends on the hand alone and costs milliseconds of
Python a hand, so the import computes it in its worker processes, from the
batch of rows it has just built, with the code a report runs over the same
rows read from the database (Arrow tables: the workers load neither DuckDB
nor polars): :func:`derive`, whose rows carry the hand's number in the
batch, beside each hand's site, id and content hash. The writer's process,
after committing a group, stores them in the cache file under the stored
hand's key (``hk``, reports.cache): :func:`keep`. Every report after an
import then finds every all-in hand computed, however many there are.

The same way, each seat's standing on each round it was in
(reports.integrity.standings: the integrity report's "who was ahead") is
computed here and kept in the cache, for a database whose cache holds
them already (an integrity report ran on it: :func:`wants`), as the
integrity report's own facts are (reports.integrity.facts): a
database nobody reads with ``hh report integrity`` does not pay for them,
and its first integrity report computes them for every hand
(docs/decisions.md).

The per-hand counts (reports.players.counts) are not computed here: they are
one SQL statement whose cost is mostly fixed per statement, so a statement
per batch cost about twice the CPU of one statement over the new hands
after the import (reports.players.counts.after_import), and the import's
workers already keep every core busy (docs/decisions.md).

Only the hands the writer stored are kept: not a conflict (the same id with
other text); a duplicate has the key of the hand stored, and is kept once.
Should the import stop between a commit and :func:`keep`, or the cache file
be held by another process, the hook after the import
(reports.players.counts.after_import) or the next report computes what is
missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from reports.integrity import standings
from reports.players import equity

# what keep() finds a batch's hand by in the database, to give its rows the cache key
_KEY = ["site", "hand_id", "content_hash"]


def _first_copies(tables: Mapping[str, pa.Table]) -> dict[str, pa.Table]:
    """The batch's tables with only the first copy of a hand it holds twice
    (same site and id): the writer stores no other."""
    hands = tables["hands"]
    if (pc.count_distinct(hands["site"]).as_py() == 1
            and pc.count_distinct(hands["hand_id"]).as_py() == hands.num_rows):  # fmt: skip
        return dict(tables)
    first: dict[tuple[str, str], int] = {}
    for site, hid, k in zip(hands["site"].to_pylist(), hands["hand_id"].to_pylist(),
                            hands["_ord"].to_pylist(), strict=True):  # fmt: skip
        first.setdefault((site, hid), k)
    keep = pa.array(list(first.values()), pa.int32())
    return {t: tab.filter(pc.is_in(tab["_ord"], value_set=keep)) for t, tab in tables.items()}


def wants(con: Any) -> frozenset[str]:
    """What :func:`derive` computes for the database ``con`` has open: the
    all-in equity (every report of players reads it), and the seats'
    standings when its cache holds them already; nothing for an in-memory
    database, which keeps nothing (:func:`keep`)."""
    from reports.cache import Cache, path_of

    path = path_of(con)
    if path is None:
        return frozenset()
    store = Cache(con, path)
    try:
        return frozenset({"equity"} | ({standings.KIND} if store.holds(standings.KIND) else set()))
    finally:
        store.close()


def derive(tables: Mapping[str, pa.Table], wants: frozenset[str]) -> dict[str, pa.Table]:
    """The cache rows of a batch's hands, of the kinds ``wants`` names:
    ``equity`` (reports.players.equity) and ``standing`` (reports.integrity.standings),
    each row with its hand's ``_ord``; and ``hands``, every hand computed
    with its key (``_ord`` and :data:`_KEY`). A hand the batch holds twice
    counts once, as its first copy."""
    if not tables["hands"].num_rows or not wants:
        return {}
    batch = _first_copies(tables)
    hands = batch["hands"]
    out = {"hands": hands.select(["_ord", *_KEY])}
    if "equity" in wants:
        out["equity"] = equity.of_batch(batch)
    if standings.KIND in wants:
        out[standings.KIND] = standings.rows_of(hands, batch["seats"])
    return out


def keep(con: Any, derived: Sequence[Mapping[str, pa.Table]]) -> None:
    """Store what :func:`derive` gave for a group of batches just committed
    into the cache file of ``con``'s database, under each stored hand's key
    (``hk``); the hands it already holds are left as they are, and rows of a
    hand the writer did not store (a conflict: the same id with other text)
    are dropped. An in-memory database, or a cache file another process
    holds, keeps nothing (the next report computes)."""
    parts = [d for d in derived if d]
    if not parts:
        return
    from reports.cache import Cache, path_of

    path = path_of(con)
    if path is None:
        return
    store = Cache(con, path)
    try:
        if not store.persistent:
            return
        con.register("d_hands", _numbered(parts, "hands"))
        try:  # the keys of the hands the writer stored, from the first batch holding each
            con.execute(
                "CREATE OR REPLACE TEMP TABLE d_stored AS "
                "SELECT hash(h.content_hash, h.hh_version, h.site, h.hand_id) AS hk, d.* "
                "FROM d_hands d JOIN hands h ON h.site = d.site AND h.hand_id = d.hand_id "
                "AND h.content_hash = d.content_hash "
                "QUALIFY row_number() OVER (PARTITION BY d.site, d.hand_id ORDER BY d._part) = 1"
            )
        finally:
            con.unregister("d_hands")
        try:
            for kind, (version, columns) in {
                "equity": (equity.VERSION, equity.EQUITY_COLUMNS),
                standings.KIND: (standings.VERSION, standings.COLUMNS),
            }.items():
                if not all(kind in p for p in parts):  # (one run: the same kinds)
                    continue
                store.ensure(kind, version, columns)
                _append(con, store, parts, kind)
        finally:
            con.execute("DROP TABLE IF EXISTS d_stored")
    finally:
        store.close()


def _numbered(parts: Sequence[Mapping[str, pa.Table]], table: str) -> pa.Table:
    """One table of several batches, each row with its batch's number."""
    return pa.concat_tables(
        p[table].append_column("_part", pa.array([k] * p[table].num_rows, pa.int32()))
        for k, p in enumerate(parts)
    )


def _append(con: Any, store: Any, parts: Sequence[Mapping[str, pa.Table]], kind: str) -> None:
    """Append the rows of ``kind`` (the equity, or the seats' standings) of
    several batches for the hands of ``d_stored`` the cache lacks, each from
    the first batch that holds it."""
    con.register("d_rows", _numbered(parts, kind))
    try:
        con.execute("BEGIN TRANSACTION")
        con.execute(f"CREATE OR REPLACE TEMP TABLE d_new AS SELECT * FROM d_stored "
                    f"WHERE hk NOT IN (SELECT hk FROM {store.table(kind + '_hands')})")  # fmt: skip
        con.execute(f"INSERT INTO {store.table(kind)} SELECT n.hk, r.* EXCLUDE (_ord, _part) "
                    "FROM d_rows r JOIN d_new n ON r._part = n._part AND r._ord = n._ord")
        con.execute(f"INSERT INTO {store.table(kind + '_hands')} SELECT hk FROM d_new")
        con.execute("DROP TABLE d_new")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.unregister("d_rows")
