"""The all-in equity's share of the import's CPU (issue 24: at most 10%).

In the import's workers each batch is built (``pipelines.work.process``:
read, parse, referee, rows) and its all-in equity computed
(``reports.players.equity.of_batch``, the equity part of the ``hh.derive``
hook). This times both with CPU time (``time.process_time``), best of 3
rounds, on the import's own batches of the files given (cut as ``hh
import`` cuts them: ``pipelines.importer.CHUNK_BYTES``), in one process.
Compare the equity's CPU with the whole import's (``/usr/bin/time hh import
...``: user + system of every process). Run it with the compiled build's
Python, from outside the checkout so that the installed ``hh`` is imported
(``cd /tmp && /path/to/hh/.venv-fast/bin/python /path/to/hh/benchmarks/equity_share.py FOLDER``).
"""

from __future__ import annotations

import sys
import time

from hh.read.cut import cut
from pipelines.importer import CHUNK_BYTES, find_files
from pipelines.work import Task, process
from reports.players import equity


def main(paths: list[str]) -> None:
    tasks = [Task(c, f) for f in find_files(paths) for c in cut(f, CHUNK_BYTES).chunks]
    best = {"work": float("inf"), "equity": float("inf")}
    for _ in range(3):
        start = time.process_time()
        results = [process(t) for t in tasks]
        work = time.process_time() - start
        spent = 0.0
        for r in results:
            start = time.process_time()
            equity.of_batch(r.tables)
            spent += time.process_time() - start
        best["work"] = min(best["work"], work)
        best["equity"] = min(best["equity"], spent)
    print(f"{len(tasks)} batches: their work {best['work']:.2f} s CPU, "
          f"the equity {best['equity']:.2f} s CPU ({best['equity'] / best['work']:.1%} of it)")


if __name__ == "__main__":
    main(sys.argv[1:] or ["."])
