"""The Dask import into the lake, against the local DuckDB import of the same
files measured in the same run; and the players report over many hands from
a DuckDB file and from the lake.

Import: simulated sessions of the three games, one file per game and table
group, cut into 16 chunks (so that two workers stay busy to the end). The
local import (``pipelines.importer``, a process pool and the one DuckDB
writer) runs with 1 and 2 workers; the Dask import on a LocalCluster of 1
and of 2 single-threaded worker processes started beforehand (cluster
start-up is not counted; it is a few seconds, paid once per session). Both
run the same build of the referee: the runner (benchmarks/__main__.py) runs
this module as a script with the compiled build's interpreter (``make
fast``, .venv-fast), whose pool and Dask workers import the same installed,
compiled ``hh`` (each row says which build ran). Peak memory is that of the
whole process tree: the client (the committer) and the workers.

Players: the players report (reports.players, the real one: every count,
cards and all-in equity) over ``PLAYER_HANDS`` hands from a DuckDB file and
from a lake holding the same hands (benchmarks/bighands.py: the imported
hands repeated under new ids; the lake one part per table, game and day,
with a manifest entry, as the Dask import writes them). Both run warm (the
per-hand counts and equity cached, reports.cache, as every report after the
first one finds them); the cold figures are in bench_report.

    python benchmarks/bench_lake.py [--quick]   # the rows, with the interpreter that runs it
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # a script (the compiled build's interpreter): the
    # repository's benchmarks package, after the installed hh, pipelines, reports
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from benchmarks.rows import PeakMemory, Row, seconds
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands

HANDS = 6_000  # per game
PLAYER_HANDS = 1_000_000

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


def _players(folder: Path, target: int) -> list[Row]:
    """The players report over ``target`` hands from DuckDB and from the lake."""
    from benchmarks.bench_report import seed_equity
    from benchmarks.bighands import base, grow, lake
    from reports.db import Filters, connect, connect_lake
    from reports.players import players

    (folder / "players").mkdir(exist_ok=True)
    base_db = base(folder / "players", max(100, target // 1000))
    db = str(folder / "players" / "big.duckdb")
    total = grow(base_db, db, target)
    lake_dir = str(folder / "players" / "lake")
    lake(db, lake_dir)
    cache_db = db + ".reports.duckdb"
    cache_lake = lake_dir + "/_reports.duckdb"
    seed_equity(db, base_db, cache_db)
    shutil.copyfile(cache_db, cache_lake)  # the same hands have the same keys in the lake
    f = Filters()
    con = connect(db)
    players(con, f, cache=cache_db)  # counts cached: warm from here
    t_db, mb_db = seconds(lambda: players(con, f, cache=cache_db), 3)
    con.close()
    lake_con = connect_lake(lake_dir)
    players(lake_con, f, cache=cache_lake)
    t_lake, mb_lake = seconds(lambda: players(lake_con, f, cache=cache_lake), 3)
    lake_con.close()
    key = "lake.players.db"
    return [
        Row(key, f"players report over {total:,} hands from DuckDB (warm)", total / t_db,
            "hands/s", None, mb_db),
        Row("lake.players.lake", f"players report over {total:,} hands from the lake (warm)",
            total / t_lake, "hands/s", key, mb_lake),
    ]


def _build() -> str:
    import hh.validate

    return "compiled referee" if not (hh.validate.__file__ or "").endswith(".py") else "pure"


def run(quick: bool = False) -> list[Row]:
    per_game = HANDS // 30 if quick else HANDS
    target = PLAYER_HANDS // 10 if quick else PLAYER_HANDS
    tmp = tempfile.mkdtemp(prefix="hh-bench-lake-")
    t0 = time.perf_counter()
    rows = []
    build = _build()
    try:
        folder = Path(tmp)
        files = _inputs(folder, per_game)
        n = 3 * per_game
        chunk = max(64_000, sum(os.path.getsize(f) for f in files) // 16)
        print(f"{time.perf_counter() - t0:.1f} s: inputs", file=sys.stderr)
        with PeakMemory() as peak:
            local1 = _local(files, str(folder / "local1.duckdb"), 1)
        rows.append(Row("lake.local.w1", f"local import into DuckDB, 1 worker ({n:,} hands, "
                        f"{build})", n / local1, "hands/s", None, peak.mb))
        with PeakMemory() as peak:
            local = _local(files, str(folder / "local.duckdb"), 2)
        base = "lake.local.w2"
        rows.append(Row(base, f"local import into DuckDB, 2 workers ({n:,} hands, {build})",
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
                            f"LocalCluster ({build})", n / took, "hands/s", base, mb))
            print(f"{time.perf_counter() - t0:.1f} s: dask {w}", file=sys.stderr)
        if not quick:
            rows.append(Row("lake.dask.scaling", "  the same, 2 workers against 1 (Dask)",
                            rows[-1].figure, "hands/s", "lake.dask.w1", None))
        rows += _players(folder, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


if __name__ == "__main__":
    got = run(quick="--quick" in sys.argv)
    for row in got:
        print(f"{row.what}: {row.figure:,.1f} {row.unit}", file=sys.stderr)
    # the rows as JSON on the last line, for the runner (benchmarks/__main__.py)
    print("@@rows@@" + json.dumps([r.to_json() for r in got]))
