"""The lake committer's memory against the size of the lake (issue 27).

The same import (simulated sessions of the three games, a few thousand
hands) runs on a LocalCluster of one worker process into a lake that
already holds ``SMALL`` and then ``BIG`` hands. The hands already there are
synthetic (``synthetic``: one row per hand in the ``hands`` table, keys of
their own, every column the committer and the cross-hand pass read filled,
spread over the games and three years of days, so that the partitions the
import touches hold their share of them). The figure is the peak resident
memory of the client process alone (``ru_maxrss``: the committer and the
cross-hand pass, the workers and the lake's building excluded), with the
import hooks off (the reports' per-hand counts are the reports' own
work, not the committer's).

    python benchmarks/bench_lake_memory.py [BIG] [SMALL] [FOLDER]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # a script: the repository's benchmarks package
    sys.path.append(str(Path(__file__).resolve().parents[1]))

SMALL = 10_000
BIG = 10_000_000
PER_GAME = 2_000  # hands imported per game
DAYS = 1_096  # the synthetic hands' days, up to the simulated sessions' day


def synthetic(url: str, n: int) -> None:
    """A lake of ``n`` synthetic hands (the other tables empty), written as
    nine Delta commits: a year of one game each."""
    import duckdb
    from deltalake import write_deltalake

    from benchmarks.bighands import DUCK_TYPES
    from pipelines import lake

    lake.Lake(url).create()
    schema = lake._schema("hands")
    con = duckdb.connect()
    con.execute("SET memory_limit = '2GB'")
    days = DAYS // 3
    fill = {
        "_ord": "0", "site": "'synthetic'", "hand_id": "'S' || i",
        "table_name": "'Synthetic ' || (i % 5000)",
        "judged": "true", "valid": "true", "n_violations": "0", "n_hand_violations": "0",
        "n_unchecked": "0", "file": "'synthetic'", "line": "i % 1000000",
        "content_hash": "md5(i::VARCHAR) || md5((i + 1)::VARCHAR)",
        "hh_version": "'synthetic'", "import_run": "0", "_task": "'synthetic'",
        "dealer_seat": "1", "table_line": "1",
    }
    games = ["chiribito", "aces-straights-flushes", "calatone"]
    per = max(1, n // 9)
    for g, game in enumerate(games):
        for year in range(3):
            lo = (g * 3 + year) * per
            hi = n if (g, year) == (2, 2) else min(n, lo + per)
            if hi <= lo:
                continue
            day = f"INTERVAL ((i % {days}) + {year * days}) DAY"
            exprs = dict(fill, game=f"'{game}'", date=f"TIMESTAMP '2026-01-01' - {day}",
                         started_at=f"TIMESTAMP '2026-01-01 12:00:00' - {day}")
            cols = ", ".join(
                f'({exprs.get(f.name, "NULL")})::{DUCK_TYPES[str(f.type)]} AS "{f.name}"'
                for f in schema)
            rel = con.sql(f"SELECT {cols} FROM range({lo}, {hi}) t(i) ORDER BY date")
            write_deltalake(url + "/hands", rel.to_arrow_reader(200_000), mode="append")


_CLIENT = """
import json, resource, sys, time
from distributed import Client, LocalCluster
from pipelines.cluster import run_import
url, files = sys.argv[1], sys.argv[2:]
with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                  dashboard_address=None, silence_logs=40) as cluster, Client(cluster) as c:
    t = time.perf_counter()
    got = run_import(files, url, client=c)
    s = time.perf_counter() - t
print(json.dumps({"peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "imported": got.imported, "left": len(got.left), "seconds": s}))
"""


def measure(url: str, files: list[str]) -> dict:
    env = dict(os.environ, HH_NO_IMPORT_HOOKS="1")
    # run outside the checkout: "-c" puts the working directory first on the
    # path, where the source's hh (without pipelines) would hide the build's
    out = subprocess.run([sys.executable, "-c", _CLIENT, url, *files], env=env,
                         capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.abspath(url)))
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    big = int(sys.argv[1]) if len(sys.argv) > 1 else BIG
    small = int(sys.argv[2]) if len(sys.argv) > 2 else SMALL
    folder = Path(sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="hh-lakemem-"))
    folder.mkdir(parents=True, exist_ok=True)
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hands

    files = []
    for k, game in enumerate(Game):
        path = folder / f"{game.value}.txt"
        if not path.exists():
            hands = Simulator(game, seed=300 + k, tables=6).hands(PER_GAME)
            path.write_text(write_hands(list(hands)), encoding="utf-8")
        files.append(str(path))
    rows = {}
    for n in (small, big):
        url = str(folder / f"lake-{n}")
        t = time.perf_counter()
        if not Path(url, "hands").exists():
            subprocess.run([sys.executable, __file__, "--synthetic", url, str(n)], check=True)
        built = time.perf_counter() - t
        rows[n] = measure(url, files)
        rows[n]["built_s"] = round(built, 1)
        print(f"lake of {n:>12,} hands: client peak {rows[n]['peak_mb']:7.1f} MB "
              f"({rows[n]['imported']:,} hands imported, left {rows[n]['left']})", flush=True)
    a, b = rows[small]["peak_mb"], rows[big]["peak_mb"]
    print(f"big / small: {b / a:.3f}")
    print(json.dumps(rows))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--synthetic":
        synthetic(sys.argv[2], int(sys.argv[3]))
    else:
        main()
