"""The Dask import into the lake, against the local DuckDB import of the same
files measured in the same run; and a players query over many hands from a
DuckDB file and from the lake.

Import: simulated sessions of the three games, one file per game and table
group. The local import (``pipelines.importer``, a process pool and the one
DuckDB writer) runs with 2 workers; the Dask import runs on a LocalCluster
of 1 and of 2 single-threaded worker processes started beforehand (cluster
start-up is not counted; it is a few seconds, paid once per session).

Players: the imported hands are repeated under new ids up to ``PLAYER_HANDS``
hands, into a DuckDB file and into a lake (one part per table and game, with
a manifest entry, as the Dask import writes them), and the same aggregate
query (per player: hands, net, showdowns) is timed on both. When the reports
package is installed its players report is what should be timed here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.rows import PeakMemory, Row, seconds
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands

HANDS = 6_000  # per game
PLAYER_HANDS = 1_000_000

PLAYERS_SQL = """
SELECT s.player, count(*) AS hands, sum(s.net) AS net,
       count(*) FILTER (WHERE s.went_to_showdown) AS showdowns,
       count(*) FILTER (WHERE s.folded_round = 0) AS folded_round_1
FROM seats s JOIN hands h USING (site, hand_id)
WHERE s.dealt_in
GROUP BY s.player ORDER BY s.player
"""


def _inputs(folder: Path, per_game: int) -> list[str]:
    files = []
    for k, game in enumerate(Game):
        hands = list(Simulator(game, seed=100 + k, tables=4).hands(per_game))
        path = folder / f"{game.value}.txt"
        path.write_text(write_hands(hands), encoding="utf-8")
        files.append(str(path))
    return files


def _local(files: list[str], db: str, workers: int) -> float:
    from pipelines.importer import Importer, connect

    con = connect(db)
    imp = Importer(con, workers)
    start = time.perf_counter()
    imp.import_files(files)
    imp.finish()
    took = time.perf_counter() - start
    imp.close()
    con.close()
    return took


def _dask(files: list[str], url: str, workers: int, chunk_bytes: int) -> tuple[float, float, int]:
    from distributed import Client

    from pipelines.cluster import local_cluster, run_import

    with local_cluster(workers) as cluster, Client(cluster) as client:
        with PeakMemory() as peak:
            start = time.perf_counter()
            got = run_import(files, url, client=client, chunk_bytes=chunk_bytes)
            took = time.perf_counter() - start
        assert not got.left, got.left
        return took, peak.mb, got.imported


def _grow(db: str, lake_dir: str, target: int) -> int:
    """Repeat the database's hands under new ids up to ``target`` hands, in
    ``db`` and as a lake; return the hands in each."""
    import duckdb

    from pipelines.lake import MANIFEST

    con = duckdb.connect(db)
    n = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    copies = max(1, -(-target // n))
    for table in ("hands", "seats"):
        con.execute(f"CREATE TEMP TABLE base_{table} AS SELECT * FROM {table}")
        con.execute(f"DELETE FROM {table}")
        con.execute(
            f"INSERT INTO {table} SELECT b.* REPLACE (b.hand_id || '~' || k AS hand_id) "
            f"FROM base_{table} b, range({copies}) r(k)"
        )
    total = con.execute("SELECT count(*) FROM hands").fetchone()[0]
    parts = []
    for table in ("hands", "seats"):  # what the players query reads
        for game in (g.value for g in Game):
            rel = f"{table}/game={game}/date=2026-01-01/part-bench.parquet"
            os.makedirs(os.path.dirname(os.path.join(lake_dir, rel)), exist_ok=True)
            con.execute(
                f"COPY (SELECT t.* FROM {table} t JOIN (SELECT site, hand_id FROM hands "
                f"WHERE game = '{game}') h USING (site, hand_id)) TO "
                f"'{os.path.join(lake_dir, rel)}' (FORMAT parquet, COMPRESSION zstd)"
            )
            parts.append({"table": table, "path": rel, "rows": 0})
    con.close()
    os.makedirs(os.path.join(lake_dir, MANIFEST, "keys"), exist_ok=True)
    entry = {"entry": "bench", "run": 1, "committed_at": dt.datetime.now(dt.UTC).isoformat(),
             "chunk": {"path": "bench", "start": 0, "end": None, "first_line": 1},
             "input": {"size": 0, "mtime_ns": 0}, "counts": {"hands": total},
             "parts": parts, "keys": f"{MANIFEST}/keys/none.parquet"}
    Path(lake_dir, MANIFEST, "00000000-bench.json").write_text(json.dumps(entry))
    return total


def run(quick: bool = False) -> list[Row]:
    per_game = HANDS // 30 if quick else HANDS
    target = PLAYER_HANDS // 10 if quick else PLAYER_HANDS
    tmp = tempfile.mkdtemp(prefix="hh-bench-lake-")
    t0 = time.perf_counter()
    rows = []
    try:
        folder = Path(tmp)
        files = _inputs(folder, per_game)
        n = 3 * per_game
        chunk = max(64_000, sum(os.path.getsize(f) for f in files) // 16)
        print(f"{time.perf_counter() - t0:.1f} s: inputs", file=sys.stderr)
        with PeakMemory() as peak:
            local1 = _local(files, str(folder / "local1.duckdb"), 1)
        rows.append(Row("lake.local.w1", f"local import into DuckDB, 1 worker ({n:,} hands)",
                        n / local1, "hands/s", None, peak.mb))
        with PeakMemory() as peak:
            local = _local(files, str(folder / "local.duckdb"), 2)
        base = "lake.local.w2"
        rows.append(Row(base, f"local import into DuckDB, 2 workers ({n:,} hands)",
                        n / local, "hands/s", "lake.local.w1", peak.mb))
        with PeakMemory() as peak:
            again = _local(files, str(folder / "local.duckdb"), 2)
        rows.append(Row("lake.local.again", "re-import of the same files (all duplicates)",
                        n / again, "hands/s", base, peak.mb))
        print(f"{time.perf_counter() - t0:.1f} s: local import", file=sys.stderr)
        for w in (2,) if quick else (1, 2):
            took, mb, imported = _dask(files, str(folder / f"lake{w}"), w, chunk)
            assert imported == n, imported
            rows.append(Row(f"lake.dask.w{w}", f"Dask import into the lake, {w}-worker "
                            "LocalCluster", n / took, "hands/s", base, mb))
            print(f"{time.perf_counter() - t0:.1f} s: dask {w}", file=sys.stderr)
        db = str(folder / "local.duckdb")
        total = _grow(db, str(folder / "biglake"), target)

        import duckdb

        from pipelines.lake import connect

        con = duckdb.connect(db, read_only=True)
        t_db, mb_db = seconds(lambda: con.execute(PLAYERS_SQL).fetchall(), 3)
        con.close()
        lake_con = connect(str(folder / "biglake"))
        t_lake, mb_lake = seconds(lambda: lake_con.execute(PLAYERS_SQL).fetchall(), 3)
        key = "lake.players.db"
        rows.append(Row(key, f"players query over {total:,} hands from DuckDB",
                        total / t_db, "hands/s", None, mb_db))
        rows.append(Row("lake.players.lake", f"players query over {total:,} hands from the lake",
                        total / t_lake, "hands/s", key, mb_lake))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
