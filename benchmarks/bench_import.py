"""Import speed: simulated hands of the three games mixed, imported into a
fresh DuckDB file with 2 workers (read, cut, hash, parse, validate with the
trace, build Arrow batches, insert, cross-hand checks), then the same files
again (all duplicates), beside pokerkit's PHH load+replay rate measured in
the same run. Peak memory: the largest resident set of the import process
and of its workers (ru_maxrss).

    python benchmarks/bench_import.py [--hands N] [--workers W]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_validate import PHH_HANDS, _pokerkit_rate, phh_corpus
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

SEED = 2026
FILES_PER_GAME = 4


def write_inputs(folder: Path, hands: int) -> int:
    """``hands`` simulated hands, a third per game, in a few files each."""
    per_file = max(1, hands // (3 * FILES_PER_GAME))
    n = 0
    for g, game in enumerate(Game):
        for k in range(FILES_PER_GAME):
            sim = Simulator(game, SEED + 10 * g + k, tables=6)
            with (folder / f"{game.value}-{k}.txt").open("w", encoding="utf-8") as f:
                for i, hand in enumerate(sim.hands(per_file)):
                    f.write(("\n" if i else "") + write_hand(hand) + "\n")
                    n += 1
    return n


def _import(folder: Path, db: Path, workers: int) -> tuple[dict[str, object], float]:
    from pipelines.importer import Importer, connect, find_files

    start = time.perf_counter()
    con = connect(str(db))
    importer = Importer(con, workers)
    try:
        importer.import_files(find_files([str(folder)]))
        summary = importer.finish()
    finally:
        importer.close()
        con.close()
    return summary, time.perf_counter() - start


def _mb(kb: int) -> float:
    return kb / 1024


def run(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args([] if argv is None else argv)
    pk = _pokerkit_rate(phh_corpus(PHH_HANDS))
    print(f"pokerkit PHH load + replay (NLHE, one core): {pk:,.0f} hands/s")
    with tempfile.TemporaryDirectory(prefix="hh-bench-import-") as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        t = time.perf_counter()
        n = write_inputs(folder, args.hands)
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"inputs: {n:,} hands, {size / 2**20:,.0f} MB in {3 * FILES_PER_GAME} files "
              f"(simulated in {time.perf_counter() - t:,.0f} s)")  # fmt: skip
        db = Path(tmp) / "bench.duckdb"
        summary, seconds = _import(folder, db, args.workers)
        assert summary["imported"] == n, summary
        rate = n / seconds
        print(f"import, {args.workers} workers: {rate:,.0f} hands/s ({seconds:,.1f} s, "
              f"{rate / pk:,.1f}x pokerkit) -> {db.stat().st_size / 2**20:,.0f} MB of DuckDB")
        summary, seconds = _import(folder, db, args.workers)
        assert summary["duplicates"] == n and summary["imported"] == 0, summary
        print(f"re-import, files unchanged: {n / seconds:,.0f} hands/s ({seconds:,.2f} s)")
        import duckdb

        con = duckdb.connect(str(db))
        con.execute("UPDATE files SET status = 'partial', sha256 = NULL")  # forget the files
        con.close()
        summary, seconds = _import(folder, db, args.workers)
        assert summary["duplicates"] == n and summary["imported"] == 0, summary
        print(f"re-import, hand by hand (a hash each, no parse): {n / seconds:,.0f} hands/s "
              f"({seconds:,.2f} s)")
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"peak memory: import process {_mb(me):,.0f} MB, largest worker {_mb(kids):,.0f} MB")


if __name__ == "__main__":
    run(sys.argv[1:])
