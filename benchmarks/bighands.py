"""A realistic database of many hands for the report benchmarks.

Simulated sessions of the three games (``hh.simulate``) are imported by the
real import (``pipelines.importer``): every table, every column, realistic
action sequences (~12 betting actions a hand), cards, all-in hands and their
text. That base is then repeated under new hand ids (``<id>~<k>``, table
names ``<table>~<k mod 25>``, times shifted a day per copy) up to the
number of hands wanted, in SQL, so a million hands cost seconds rather than
the import's hours. Player names are kept: they are also inside the hand
text, which the all-in equity and the declarations read.

``lake(db, folder)`` writes the same hands as a lake (its Delta tables,
partitioned by game and day), the shape the Dask import writes.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import duckdb

from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands

CHILD_TABLES = ("hand_text", "seats", "actions", "pots", "hand_violations", "cross_violations")


def base(folder: Path, per_game: int, seed: int = 100) -> str:
    """Simulate ``per_game`` hands of each game, import them (one worker)
    into ``folder/base.duckdb``; return its path."""
    from pipelines.importer import Importer, connect

    files = []
    for k, game in enumerate(Game):
        hands = Simulator(game, seed=seed + k, tables=6).hands(per_game)
        path = folder / f"{game.value}.txt"
        path.write_text(write_hands(hands), encoding="utf-8")
        files.append(str(path))
    db = str(folder / "base.duckdb")
    if os.path.exists(db):
        os.remove(db)
    con = connect(db)
    imp = Importer(con, 1)
    imp.import_files(files)
    imp.finish()
    imp.close()
    con.close()
    return db


def grow(base_db: str, db: str, target: int) -> int:
    """Copy ``base_db`` into ``db`` with its hands repeated up to ``target``
    hands (every table); return the number of hands."""
    from pipelines import schema

    con = duckdb.connect(db)
    schema.ensure(con)
    con.execute(f"ATTACH '{base_db}' AS b (READ_ONLY)")
    n = con.execute("SELECT count(*) FROM b.hands").fetchone()[0]
    copies = max(1, -(-target // n))
    con.execute(f"CREATE TEMP TABLE k AS SELECT range AS k FROM range({copies})")
    con.execute(f"""
        INSERT INTO hands SELECT h.* REPLACE (
            h.hand_id || '~' || k.k AS hand_id, h.table_name || '~' || (k.k % 25) AS table_name,
            h.started_at + INTERVAL (k.k) DAY AS started_at)
        FROM (SELECT * FROM b.hands ORDER BY game, started_at) h, k
        QUALIFY row_number() OVER () <= {target}""")  # fmt: skip
    con.execute("CREATE TEMP TABLE ids AS SELECT site, hand_id, "
                "split_part(hand_id, '~', 1) AS base_id FROM hands")  # fmt: skip
    for table in CHILD_TABLES:
        cols = [r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "AND table_catalog = current_database() ORDER BY ordinal_position", [table],
        ).fetchall()]  # fmt: skip
        select = ", ".join("i.hand_id" if c == "hand_id" else f"t.{c}" for c in cols)
        con.execute(
            f"INSERT INTO {table} SELECT {select} FROM b.{table} t "
            "JOIN ids i ON i.site = t.site AND i.base_id = t.hand_id ORDER BY i.hand_id"
        )
    con.execute("DETACH b")
    total = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    con.execute("CHECKPOINT")
    con.close()
    return int(total)


# DuckDB's name of each Arrow type of the lake's tables
DUCK_TYPES = {"string": "VARCHAR", "int16": "SMALLINT", "int32": "INTEGER", "int64": "BIGINT",
              "bool": "BOOLEAN", "list<item: string>": "VARCHAR[]",
              "list<item: int64>": "BIGINT[]", "list<item: int16>": "SMALLINT[]",
              "list<item: list<item: string>>": "VARCHAR[][]",
              "timestamp[us]": "TIMESTAMP",
              "date32[day]": "DATE"}


def lake(db: str, folder: str) -> None:
    """The hands of ``db`` as a lake at ``folder``: its Delta tables, one
    commit per table (partitioned by game and day, as the Dask import
    writes them)."""
    from deltalake import write_deltalake

    from pipelines.lake import CROSS, TABLES, Lake, _schema

    Lake(folder).create()
    con = duckdb.connect(db, read_only=True)
    for table in (*TABLES, CROSS):
        have = {r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
            [table]).fetchall()}
        own = table in ("hands", "rejects")  # the others take their hand's game and day
        h = "t" if own else "h"
        from_hand = {"game": f"{h}.game", "date": f"{h}.started_at::DATE", "_ord": "0",
                     "_task": "'bench'", "table_name": f"{h}.table_name"}
        exprs = {f.name: f't."{f.name}"' if f.name in have else from_hand.get(f.name, "NULL")
                 for f in _schema(table)}
        cols = ", ".join(f'({exprs[f.name]})::{DUCK_TYPES[str(f.type)]} AS "{f.name}"'
                         for f in _schema(table))
        src = (f"SELECT {cols} FROM {table} t" if own else
               f"SELECT {cols} FROM {table} t JOIN hands h USING (site, hand_id)")
        if not con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]:
            continue
        write_deltalake(f"{folder}/{table}", con.sql(src).to_arrow_reader(200_000),
                        mode="append")
    con.close()


if __name__ == "__main__":
    # python -m benchmarks.bighands FOLDER N [PER_GAME]: keep a database to profile
    where = Path(sys.argv[1])
    where.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    b = str(where / "base.duckdb")
    if not os.path.exists(b):
        b = base(where, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    print(f"base: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    t = time.perf_counter()
    print(grow(b, str(where / "big.duckdb"), int(sys.argv[2])),
          f"hands in {time.perf_counter() - t:.1f} s")
