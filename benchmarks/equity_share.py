"""The all-in equity's share of the import's CPU (issue 24: at most 10%).

In the import's workers a batch is built (``hh.pipelines.work.process``:
read, parse, referee, rows) and then its equity computed
(``hh.reports.imported.derive``). This times both with CPU time
(``time.process_time``, which the other work on a shared machine disturbs
less than wall time), on simulated hands of each game (hh.simulate, seed
2027, 6 tables), batch by batch, in one process set up as a worker
(``worker_init``), cut into batches as an import with ``--workers`` cuts
them (hh.sources.Plan: about 1 MB each); a first round warms the evaluators' lazy tables and is
not counted.

With ``--against REV`` the equity as it was at a git revision (its
reports/equity.py and reports/imported.py, loaded from ``git show``) is
timed on the same batches, interleaved with the current one, and the
ratio printed. reports/ is pure Python in every build, so the files of the
source tree are loaded whatever the interpreter; run it with the compiled
build's (``.venv-fast/bin/python benchmarks/equity_share.py``) for what
users run.

    python benchmarks/equity_share.py [--hands N] [--rounds R] [--against REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("chiribito", "aces-straights-flushes", "calatone")


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _derive_at(label: str, equity: Path, imported: Path) -> ModuleType:
    """hh.reports.imported with its own hh.reports.equity, from these files."""
    eq = _load(f"hh.reports.equity_{label}", equity)
    mod = _load(f"hh.reports.imported_{label}", imported)
    mod.equity = eq  # type: ignore[attr-defined]
    return mod


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="the import's, for its batches")
    parser.add_argument("--against", metavar="REV", help="also time the equity at REV")
    args = parser.parse_args(argv)
    os.environ["HH_NO_IMPORT_HOOKS"] = "1"  # process() derives nothing by itself

    from hh.pipelines.work import Task, process, worker_init

    import hh
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.sources import Chunk, Plan
    from hh.write import write_hands

    worker_init()
    tmp = Path(tempfile.mkdtemp(prefix="hh-equity-share-"))
    versions = {"now": _derive_at("now", ROOT / "reports/equity.py",
                                  ROOT / "reports/imported.py")}  # fmt: skip
    if args.against:
        for name in ("equity", "imported"):
            show = ["git", "-C", str(ROOT), "show", f"{args.against}:reports/{name}.py"]
            text = subprocess.run(show, check=True, capture_output=True, text=True).stdout
            (tmp / f"{name}_then.py").write_text(text, "utf-8")
        versions = {"then": _derive_at("then", tmp / "equity_then.py", tmp / "imported_then.py"),
                    **versions}  # fmt: skip
    paths = {}
    for game in GAMES:
        path = tmp / f"{game}.txt"
        hands = Simulator(Game(game), seed=2027, tables=6).hands(args.hands)
        path.write_text(write_hands(hands), "utf-8")
        paths[str(path)] = game
    # cut as an import with 2 workers cuts them (hh.sources.Plan): batches of about 1 MB
    tasks = [(paths[c.path], Task(c, c.path)) for c in Plan(list(paths), args.workers)
             if isinstance(c, Chunk)]  # fmt: skip
    cpu = {(g, k): 0.0 for g in GAMES for k in ("process", *versions)}
    for rnd in range(args.rounds + 1):
        for game, task in tasks:
            t0 = time.process_time()
            result = process(task)
            took = {"process": time.process_time() - t0}
            for label, mod in versions.items():
                t0 = time.process_time()
                mod.derive(result.tables)
                took[label] = time.process_time() - t0
            if rnd:
                for k, v in took.items():
                    cpu[game, k] += v
    build = "compiled" if hh.compiled_modules() else "pure"
    print(f"{build} build, {args.hands} hands per game in {len(tasks)} batches, {args.rounds} "
          "rounds; CPU seconds a round")  # fmt: skip
    for game in (*GAMES, "all"):
        gs = GAMES if game == "all" else (game,)
        spent = {k: sum(cpu[g, k] for g in gs) / args.rounds for k in ("process", *versions)}
        line = f"{game:24} process {spent['process']:6.2f}"
        for label in versions:
            line += f"  equity {label} {spent[label]:5.2f} ({spent[label] / spent['process']:.1%})"
        if "then" in versions:
            line += f"  {spent['then'] / spent['now']:.2f}x cheaper"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
