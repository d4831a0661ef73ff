"""Import speed: simulated hands of the three games mixed, imported into a
fresh DuckDB file with 2 workers (read, cut, hash, parse, validate with the
light trace, build Arrow batches, insert, cross-hand checks), then the same
files again (all duplicates) twice: files unchanged (a SHA-256 per file) and
with the ``files`` table cleared (each hand hashed and skipped unparsed);
beside pokerkit's PHH load+replay rate, measured in the same process.

The runner (benchmarks/__main__.py) runs this module with the compiled
build's interpreter (``make fast``, .venv-fast) as a script, so that the
installed, compiled ``hh`` is measured, not the source tree.

Figures besides hands/s: hands per CPU-second of the whole process tree
(the import process, its workers and DuckDB's threads), which the other
work on a shared machine does not change; and the peak resident memory of
the import process and of its largest worker.

    python benchmarks/bench_import.py [--quick] [--hands N] [--workers W]
    python benchmarks/bench_import.py --big MB   # memory: one MB-sized log
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from benchmarks.bench_validate import PHH_HANDS, _pokerkit_rate, phh_corpus
    from benchmarks.rows import CommandPeak, PeakMemory, Row, command_peak
except ModuleNotFoundError:  # run as a script by the compiled build's interpreter
    from bench_validate import PHH_HANDS, _pokerkit_rate, phh_corpus  # type: ignore[no-redef]
    from rows import CommandPeak, PeakMemory, Row, command_peak  # type: ignore[no-redef]
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand

SEED = 2026
FILES_PER_GAME = 4
HANDS = 200_000
QUICK_HANDS = 12_000
WORKERS = 2
BASELINE = "import.pokerkit"


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


def _command_import(paths: list[str], db: Path, workers: int) -> CommandPeak:
    """``hh import`` as a user runs it (the ``hh`` installed beside this
    interpreter), into a new database: its processes' memory, this
    benchmark's own excluded (the in-process runs share it)."""
    for leftover in db.parent.glob(db.name + "*"):
        leftover.unlink()
    hh = str(Path(sys.executable).parent / "hh")
    argv = [hh, "import", *paths, "--db", str(db), "--workers", str(workers)]
    peak = command_peak(argv)
    assert peak.returncode == 0, (argv, peak.returncode)
    return peak


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _import(paths: list[str], db: Path, workers: int) -> tuple[dict[str, Any], float, float, Any]:
    """One ``hh import`` run: (summary, wall seconds, CPU seconds of the
    process tree, where the reading went: ``Importer.busy``). The pool's
    workers are joined before it returns, so their CPU time is counted."""
    from pipelines.importer import Importer, connect, find_files

    cpu = _cpu()
    start = time.perf_counter()
    con = connect(str(db))
    importer = Importer(con, workers)
    try:
        importer.import_files(find_files(paths))
        summary = importer.finish()
    finally:
        importer.close()
        con.close()
    return summary, time.perf_counter() - start, _cpu() - cpu, importer.busy


def budget(paths: list[str], db: Path) -> list[Row]:
    """Where an import's CPU goes, part by part, against ``hh validate``'s
    on the same files (a file per game). Each part runs alone, so that no
    part's time hides in another's: the workers' work on each file in this
    process (read, parse, judge, rows, derived rows), the writer storing
    those results (one DuckDB thread, as while workers read, a file a
    transaction) and the end (the cross-hand pass, the reports' counts).
    On cores that every part keeps busy the import's speed against
    validate's can be at most ``1 / (sum over the parts of validate's
    hands per CPU-second over the part's)``: the last row."""
    import subprocess

    from hh.read.cut import Chunk
    from pipelines.importer import Importer, connect, keep
    from pipelines.work import Task, process, wanted

    hh = str(Path(sys.executable).parent / "hh")
    start = _cpu()  # (the command's, once it has been waited for)
    done = subprocess.run([hh, "validate", "--json", "--workers", "1", *paths],
                          stdout=subprocess.DEVNULL, check=False)  # fmt: skip
    assert done.returncode == 0, done.returncode
    validate = _cpu() - start
    con = connect(str(db))
    importer = Importer(con, 1)
    try:
        derive = wanted(con)
        start = time.process_time()
        results = [process(Task(Chunk(p), p, derive=derive)) for p in paths]
        work = time.process_time() - start
        n = sum(r.tables["hands"].num_rows for r in results)
        con.execute("SET threads = 1")
        start = time.process_time()
        for r in results:
            importer.counts.add(importer.writer.write([r]))
            keep(con, [r])
        writer = time.process_time() - start
        con.execute("RESET threads")
        start = time.process_time()
        importer.finish()
        end = time.process_time() - start
    finally:
        importer.close()
        con.close()
    rate = n / validate
    parts = [
        ("workers", "the workers' work on each file (read, parse, judge, rows, derived rows), "
                    "in one process", work),
        ("writer", "the writer storing those rows (inserts, commits; one DuckDB thread)", writer),
        ("end", "the end of the import (cross-hand pass, the reports' counts)", end),
    ]  # fmt: skip
    rows = [Row("import.part.validate", f"hh validate --json --workers 1, {n:,} hands (a file "
                "per game): hands per CPU-second", rate, "hands/cpu-s", None, None)]  # fmt: skip
    for key, what, cpu in parts:
        rows.append(Row(f"import.part.{key}", f"  {what}: hands per CPU-second", n / cpu,
                        "hands/cpu-s", "import.part.validate", None))  # fmt: skip
    ceiling = 1 / sum(rate / (n / cpu) for _, _, cpu in parts)
    rows.append(Row("import.part.ceiling", "  the most an import can be against hh validate on "
                    "cores these parts keep busy (1 / the sum of validate's rate over each "
                    "part's)", ceiling, "x", None, None))  # fmt: skip
    return rows


def _mib(n: int) -> float:
    return n / 2**20


def run(quick: bool = False, hands: int | None = None, workers: int = WORKERS) -> list[Row]:
    import hh.validate

    compiled = not (hh.validate.__file__ or "").endswith(".py")
    build = "compiled" if compiled else "interpreted"
    pk, pk_mb = _pokerkit_rate(phh_corpus(PHH_HANDS // 3 if quick else PHH_HANDS), 3)
    rows = [Row(BASELINE, "pokerkit PHH load + replay (NLHE, one core)", pk, "hands/s", None,
                pk_mb)]  # fmt: skip
    tmp = Path(tempfile.mkdtemp(prefix="hh-bench-import-"))
    try:
        folder = tmp / "logs"
        folder.mkdir()
        t = time.perf_counter()
        n = write_inputs(folder, hands or (QUICK_HANDS if quick else HANDS))
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"inputs: {n:,} hands, {_mib(size):,.0f} MiB in {3 * FILES_PER_GAME} files "
              f"(simulated in {time.perf_counter() - t:,.0f} s)", file=sys.stderr)  # fmt: skip
        db = tmp / "bench.duckdb"
        with PeakMemory() as peak:
            summary, wall, cpu, busy = _import([str(folder)], db, workers)
        assert summary["imported"] == n, summary
        key = f"import.w{workers}"
        rows.append(Row(key, f"import, {workers} workers, {n:,} hands, 3 games ({build} "
                        f"referee)", n / wall, "hands/s", BASELINE, peak.mb))  # fmt: skip
        rows.append(Row("import.cpu", "import: hands per CPU-second of all its processes",
                        n / cpu, "hands/cpu-s", None, None))  # fmt: skip
        memory = _command_import([str(folder)], tmp / "command.duckdb", workers)
        rows.append(Row("import.peak.all", f"hh import of the same {n:,} hands, as a command: "
                        "peak of its processes' resident sizes, summed", memory.rss, "MiB",
                        None, None))  # fmt: skip
        rows.append(Row("import.peak.pss", "  the same, each shared page counted once "
                        "(proportional set sizes, summed)", memory.pss, "MiB", None,
                        None))  # fmt: skip
        rows.append(Row("import.peak.parent", "  its import process's peak resident size",
                        memory.parent, "MiB", None, None))  # fmt: skip
        rows.append(Row("import.peak.worker", "  its largest worker's peak resident size",
                        memory.worker, "MiB", None, None))  # fmt: skip
        rows.append(Row("import.busy.writer", "import: the writer's busy share of the reading "
                        "(inserts, commits, derived rows kept)", 100 * busy.writer_share, "%",
                        None, None))  # fmt: skip
        rows.append(Row("import.busy.workers", "import: the workers' busy share of the reading "
                        "(the rest they waited)", 100 * busy.workers_share, "%", None,
                        None))  # fmt: skip
        print(f"import: {n / wall:,.0f} hands/s ({wall:,.1f} s, {n / cpu:,.0f} hands per "
              f"CPU-second, {n / wall / pk:,.2f}x pokerkit), "
              f"{_mib(db.stat().st_size):,.0f} MiB of DuckDB", file=sys.stderr)  # fmt: skip

        with PeakMemory() as peak:
            summary, wall, _, _ = _import([str(folder)], db, workers)
        assert summary["duplicates"] == n and summary["imported"] == 0, summary
        rows.append(Row("import.again.files", "re-import, files unchanged (a SHA-256 per file)",
                        n / wall, "hands/s", key, peak.mb))  # fmt: skip

        rows += budget(sorted(str(p) for p in folder.glob("*-0.txt")), tmp / "parts.duckdb")

        import duckdb

        con = duckdb.connect(str(db))
        con.execute("DELETE FROM files")  # forget the files: every hand is looked at
        con.close()
        with PeakMemory() as peak:
            summary, wall, _, _ = _import([str(folder)], db, workers)
        assert summary["duplicates"] == n and summary["imported"] == 0, summary
        rows.append(Row("import.again.hands", "re-import, files table cleared (a hash a hand, "
                        "no parse)", n / wall, "hands/s", key, peak.mb))  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def big(megabytes: int, workers: int = WORKERS) -> None:
    """Memory with one big log: simulated sessions repeated under new hand
    ids and table names up to ``megabytes``, imported with ``workers``;
    prints the peak RSS of the import process and its largest worker."""
    tmp = Path(tempfile.mkdtemp(prefix="hh-bench-import-big-"))
    try:
        unit = tmp / "unit"
        unit.mkdir()
        write_inputs(unit, 6_000)
        session = "\n".join(p.read_text(encoding="utf-8") for p in sorted(unit.iterdir()))
        log = tmp / "big.txt"
        copies = max(1, -(-megabytes * 2**20 // len(session.encode("utf-8"))))
        with log.open("w", encoding="utf-8") as f:
            for k in range(copies):
                renamed = session.replace("Hand #", f"Hand #r{k}-")
                f.write(("\n" if k else "") + renamed.replace("Table '", f"Table 'r{k} "))
        n = session.count("Hand #") * copies
        start = time.perf_counter()
        peak = _command_import([str(log)], tmp / "big.duckdb", workers)
        wall = time.perf_counter() - start
        print(f"{_mib(log.stat().st_size):,.0f} MiB log, {n:,} hands: {n / wall:,.0f} hands/s; "
              f"peak memory of all its processes {peak.rss:,.0f} MiB (resident sizes summed), "
              f"{peak.pss:,.0f} MiB (proportional); the import process {peak.parent:,.0f} MiB, "
              f"its largest worker {peak.worker:,.0f} MiB")  # fmt: skip
        tenths = [peak.timeline[len(peak.timeline) * k // 10 :][:1] for k in range(10)]
        print("import process resident size at each tenth of the run (MiB): "
              + " ".join(f"{t[0]:,.0f}" for t in tenths if t))  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_HANDS:,} hands")
    ap.add_argument("--hands", type=int)
    ap.add_argument("--workers", type=int, default=WORKERS)
    ap.add_argument("--big", type=int, metavar="MB", help="one log of MB megabytes: memory")
    ap.add_argument("--compiled", action="store_true", help="(the runner's flag: no effect)")
    args = ap.parse_args()
    if args.big:
        big(args.big, args.workers)
    else:
        got = run(args.quick, args.hands, args.workers)
        for row in got:
            print(f"{row.what}: {row.figure:,.1f} {row.unit}", file=sys.stderr)
        # the rows as JSON on the last line, for the runner (benchmarks/__main__.py)
        print("@@rows@@" + json.dumps([r.to_json() for r in got]))
