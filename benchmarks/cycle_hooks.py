"""A watch cycle's import hooks on a large database: given the table of the
hands the cycle stored (``pipelines.hooks.AfterImport``'s ``stored``) against
given nothing (a look over every stored hand), interleaved in one run.

A copy of benchmarks/serve_load.py's part-2 database (1,000,000 stored hands;
``--quick``: 50,000), its reports' cache as an import leaves it. Each round
appends 20 simulated hands of each game to three files, imports them as a
watch's cycle does (``Importer.track``, ``import_files``, the cross-hand
checks), then times the hooks, the rounds alternating between ``stored``
and None (the same work on the new hands; None also looks over every stored
one). The figure of each way is its median over its rounds.

``python benchmarks/cycle_hooks.py [--quick] [--keep DIR]`` (``--keep``: the
large database built once in DIR and reused, as serve_live's); in ``make
bench``.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # a script of the compiled build:
    sys.path[0:1] = []  # its hh before the checkout's (appended for benchmarks.*)
    sys.path.append(str(Path(__file__).resolve().parents[1]))

from benchmarks.rows import Row, script
from benchmarks.serve_load import STORED, kept

ROUNDS = 10  # alternating: 5 a way
PER_GAME = 20  # hands of each game a cycle


def measure(big: str, work: Path, stored_hands: int, rounds: int = ROUNDS) -> list[Row]:
    import duckdb

    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand
    from pipelines import crosshand
    from pipelines.importer import Importer, after_import

    for suffix in ("", ".reports.duckdb", ".checked"):
        if Path(big + suffix).exists():
            shutil.copy(big + suffix, work / f"big.duckdb{suffix}")
    live = work / "live"
    live.mkdir()
    sims = {g: Simulator(g, 4242, tables=4) for g in Game}
    con = duckdb.connect(str(work / "big.duckdb"))
    importer = Importer(con, 1, command="import --watch")
    took: dict[str, list[float]] = {"stored": [], "all": []}
    try:
        for k in range(rounds):
            for game, sim in sims.items():
                with (live / f"{game.value}.txt").open("a", encoding="utf-8") as f:
                    for hand in sim.hands(PER_GAME):
                        f.write(write_hand(hand) + "\n\n")
            importer.use(con)
            stored = importer.track()
            importer.import_files(sorted(str(p) for p in live.iterdir()), tail=True)
            crosshand.check(con)
            way = "stored" if k % 2 == 0 else "all"
            start = time.perf_counter()
            after_import(con, stored=stored if way == "stored" else None)
            took[way].append(time.perf_counter() - start)
    finally:
        importer.close()
        con.close()
    hands = f"{PER_GAME * len(sims)} new hands, {stored_hands:,} stored"
    return [
        Row("cycle.hooks.all", f"a watch cycle's import hooks, {hands}: looking over every "
            "stored hand (median)", statistics.median(took["all"]), "s"),
        Row("cycle.hooks.stored", "  the same, given the cycle's stored hands "
            "(AfterImport's stored): against looking over every one",
            statistics.median(took["stored"]), "s", "cycle.hooks.all"),
    ]  # fmt: skip


def run(quick: bool = False, keep: Path | None = None) -> list[Row]:
    tmp = Path(tempfile.mkdtemp(prefix="hh-cycle-hooks-"))
    try:
        folder = keep if keep is not None else tmp / "big"
        size = STORED // 20 if quick else STORED
        db = kept(folder, size)
        (tmp / "work").mkdir()
        return measure(db, tmp / "work", size, 4 if quick else ROUNDS)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    script(run)
