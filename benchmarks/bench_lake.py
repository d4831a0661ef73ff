"""The Dask import into the lake, against the local DuckDB import of the same
files measured in the same run; and the players report over many hands from
a DuckDB file and from the lake.

Import: simulated sessions of the three games, one file per game and table
group, cut into 16 chunks (so that two workers stay busy to the end). The
local import (``pipelines.importer``, a process pool and the one DuckDB
writer) runs with 1 and 2 workers; the Dask import on a LocalCluster of 1
and of 2 single-threaded worker processes started beforehand (cluster
start-up is not counted; it is a few seconds, paid once per session). The
four run in turn, twice (``ROUNDS``); each one's best round counts. Beside
hands/s: hands per CPU-second of all the processes (the client, the pool's
or the cluster's workers), which other work on a shared machine does not
change. Both run the same build of the referee: the runner (benchmarks/__main__.py) runs
this module as a script with the compiled build's interpreter (``make
fast``, .venv-fast), whose pool and Dask workers import the same installed,
compiled ``hh`` (each row says which build ran). Peak memory is that of the
whole process tree: the client (the committer) and the workers.

Players: the players report (reports.players.report, the real one: every count,
cards and all-in equity) over ``PLAYER_HANDS`` hands from a DuckDB file and
from a lake holding the same hands (benchmarks/bighands.py: the imported
hands repeated under new ids; the lake's Delta tables partitioned by game
and day, as the Dask import writes them). Both run warm (the
per-hand counts and equity cached, reports.cache, as every report after the
first one finds them); the cold figures are in bench_report.

    python benchmarks/bench_lake.py [--quick]   # the rows, with the interpreter that runs it
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import psutil

if __package__ in (None, ""):  # a script (the compiled build's interpreter): the
    # repository's benchmarks package, after the installed hh, pipelines, reports
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from benchmarks.rows import PeakMemory, Row, seconds
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands

HANDS = 14_000  # per game: 42,000 in all, a realistic run (docs/performance.md)
ROUNDS = 2  # each import measured twice, in turn: the best round counts
PLAYER_HANDS = 1_000_000

def _inputs(folder: Path, per_game: int) -> list[str]:
    files = []
    for k, game in enumerate(Game):
        hands = list(Simulator(game, seed=100 + k, tables=4).hands(per_game))
        path = folder / f"{game.value}.txt"
        path.write_text(write_hands(hands), encoding="utf-8")
        files.append(str(path))
    return files


def _tree_cpu() -> float:
    """CPU seconds so far of this process, of its children that ended (a
    pool's workers) and of those still running (a LocalCluster's)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def _local(files: list[str], db: str, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every process) of one local import."""
    from pipelines.importer import Importer, connect

    cpu = _tree_cpu()
    con = connect(db)
    imp = Importer(con, workers)
    start = time.perf_counter()
    imp.import_files(files)
    imp.finish()
    took = time.perf_counter() - start
    imp.close()  # joins the pool: its workers' CPU time is counted
    con.close()
    return took, _tree_cpu() - cpu


def _dask(
    files: list[str], url: str, client: object, chunk_bytes: int, hands: int
) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the client and the cluster's workers)
    of one Dask import, on a cluster started beforehand."""
    from pipelines.cluster import run_import

    cpu = _tree_cpu()
    start = time.perf_counter()
    got = run_import(files, url, client=client, chunk_bytes=chunk_bytes)
    took = time.perf_counter() - start
    assert not got.left and got.imported == hands, (got.left, got.imported)
    return took, _tree_cpu() - cpu


def _imports(
    folder: Path, files: list[str], hands: int, quick: bool
) -> dict[str, list[float]]:
    """[best wall seconds, least CPU seconds, highest peak MiB] of each
    import, the four run in turn ``ROUNDS`` times (once when quick): on a
    shared machine a round can lose a core to other work, and the best
    round is the one that had the machine."""
    from distributed import Client

    from pipelines.cluster import local_cluster

    chunk = max(64_000, sum(os.path.getsize(f) for f in files) // 16)
    best: dict[str, list[float]] = {}

    def keep(key: str, wall: float, cpu: float, mb: float) -> None:
        old = best.setdefault(key, [wall, cpu, mb])
        best[key] = [min(old[0], wall), min(old[1], cpu), max(old[2], mb)]

    for r in range(1 if quick else ROUNDS):
        for w in (1, 2):
            with PeakMemory() as peak:
                wall, cpu = _local(files, str(folder / f"local{w}-{r}.duckdb"), w)
            keep(f"local{w}", wall, cpu, peak.mb)
        for w in (2,) if quick else (1, 2):
            with local_cluster(w) as cluster, Client(cluster) as client:
                with PeakMemory() as peak:
                    wall, cpu = _dask(files, str(folder / f"lake{w}-{r}"), client, chunk, hands)
                keep(f"dask{w}", wall, cpu, peak.mb)
        print(f"round {r + 1}: " + ", ".join(
            f"{k} {v[0]:.1f} s" for k, v in best.items()), file=sys.stderr)
    return best


def _players(folder: Path, target: int) -> list[Row]:
    """The players report over ``target`` hands from DuckDB and from the lake."""
    from benchmarks.bench_report import seed_equity
    from benchmarks.bighands import base, grow, lake
    from pipelines.lake import derived_path
    from reports.db import Filters, connect, connect_lake
    from reports.players.report import players

    (folder / "players").mkdir(exist_ok=True)
    base_db = base(folder / "players", max(100, target // 1000))
    db = str(folder / "players" / "big.duckdb")
    total = grow(base_db, db, target)
    lake_dir = str(folder / "players" / "lake")
    lake(db, lake_dir)
    cache_db = db + ".reports.duckdb"
    cache_lake = derived_path(lake_dir)
    assert cache_lake is not None
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
        print(f"{time.perf_counter() - t0:.1f} s: inputs", file=sys.stderr)
        best = _imports(folder, files, n, quick)
        base = "lake.local.w2"
        what = {
            "local1": ("lake.local.w1", f"local import into DuckDB, 1 worker ({n:,} hands, "
                       f"{build})", None),
            "local2": (base, f"local import into DuckDB, 2 workers ({n:,} hands, {build})",
                       "lake.local.w1"),
            "dask1": ("lake.dask.w1", f"Dask import into the lake, 1-worker LocalCluster "
                      f"({build})", base),
            "dask2": ("lake.dask.w2", f"Dask import into the lake, 2-worker LocalCluster "
                      f"({build})", base),
        }
        for key, (wall, _cpu, mb) in best.items():
            name, text, against = what[key]
            rows.append(Row(name, text, n / wall, "hands/s", against, mb))
        if "dask1" in best:
            rows.append(Row("lake.dask.scaling", "  the same, 2 workers against 1 (Dask)",
                            n / best["dask2"][0], "hands/s", "lake.dask.w1", None))
            # The one-worker run's client (commits, hooks) and scheduler use a
            # core the worker does not: two workers can be at most the cores
            # the machine gives them over the cores one worker's run used.
            cores = best["dask1"][1] / best["dask1"][0]
            rows.append(Row("lake.dask.w1.cores", "  the 1-worker Dask import's busy cores on "
                            "average (CPU-seconds of the client and the worker over its "
                            "seconds)", cores, "cores", None, None))  # fmt: skip
            rows.append(Row("lake.dask.bound", "  the most 2 workers can be against 1 here "
                            "(the cores 2 workers and their client can use over that), "
                            "were nothing serial", min(os.cpu_count() or 1, 2 * cores) / cores,
                            "x", None, None))  # fmt: skip
        rows.append(Row("lake.local.w2.cpu", "local import, 2 workers: hands per CPU-second "
                        "of all its processes", n / best["local2"][1], "hands/cpu-s", None,
                        None))
        rows.append(Row("lake.dask.w2.cpu", "Dask import, 2 workers: hands per CPU-second of "
                        "the client and the workers", n / best["dask2"][1], "hands/cpu-s",
                        "lake.local.w2.cpu", None))
        with PeakMemory() as peak:
            again, _ = _local(files, str(folder / "local2-0.duckdb"), 2)
        rows.append(Row("lake.local.again", "re-import of the same files (all duplicates)",
                        n / again, "hands/s", base, peak.mb))
        print(f"{time.perf_counter() - t0:.1f} s: imports", file=sys.stderr)
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
