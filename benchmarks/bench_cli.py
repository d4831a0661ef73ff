"""The referee and the import as a user runs them, whole process.

``hh validate --json FILE`` on 40,000 simulated hands per game (2,000 with
--quick), so that start-up is noise, with ``--workers 1`` and with the
default (every core); and ``hh import`` of 30,000 mixed hands (10,000 a
game; 1,500 with --quick) into a fresh database against ``hh validate
--json`` on the same files, with the same workers. The commands are those
installed by the fastest build (``.venv-fast`` when ``make fast`` has built
it).

Baselines, each measured in the same run: pokerkit's PHH load + replay
(``bench_validate``); the one-worker rows for the parallel speed-up, and two
one-worker runs at once (what two independent processes get of this
machine: the ceiling of that speed-up here); and, when ``make ref`` has
built it (``.venv-ref``: the build of an earlier commit, ``REF``), the same
commands of that build, run interleaved with this one's in the same rounds.

A command's memory is that of its own processes (itself and its workers),
not this benchmark's: the import's is given both as resident sizes summed
and with each shared page counted once (proportional set sizes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.rows import Row, command_peak
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
BASELINE = "validate.pokerkit"  # measured by bench_validate in the same run


def _command(venv: str) -> tuple[str, str] | None:
    """The ``hh`` of a build folder and what build it is (None: not built)."""
    hh = ROOT / venv / "bin" / "hh"
    if not hh.exists():
        return None
    build = subprocess.run([str(hh), "--version"], capture_output=True, text=True).stdout
    return str(hh), build.strip().partition("(")[2].rstrip(")") or "?"


def _once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    return time.perf_counter() - start


def _imported(argv: list[str], db: Path) -> float:
    """One import into a fresh database: wall seconds."""
    for leftover in db.parent.glob(db.name + "*"):
        leftover.unlink()
    return _once([*argv, "--db", str(db)])


def _peak(argv: list[str]) -> float:
    """The command's peak memory: its own processes, not this benchmark's."""
    return command_peak(argv).rss


def _pair(argv: list[str]) -> float:
    """Wall seconds of two copies of ``argv`` run at once (see the module)."""
    start = time.perf_counter()
    both = [
        subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
        for _ in range(2)
    ]
    for process in both:
        process.wait()
    return time.perf_counter() - start


def run(quick: bool = False) -> list[Row]:
    """Rounds interleave the games, the ways of running and the builds, and
    each cell is its best round: this shared machine has slow phases lasting
    seconds to minutes, which back-to-back runs would let fall on one cell."""
    this = _command(".venv-fast") or _command(".venv")
    assert this is not None, "no hh installed: run make fast"
    hh, build = this
    ref = _command(".venv-ref")
    builds = {"this": hh} | ({"ref": ref[0]} if ref else {})
    n = 2_000 if quick else 40_000
    n_import = 500 if quick else 10_000
    rounds = 2 if quick else 3
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        one = work / "one.txt"
        one.write_text(write_hands(Simulator(Game.CHIRIBITO, seed=SEED).hands(1)), "utf-8")
        took = min(_once([hh, "validate", "--json", str(one)]) for _ in range(5))
        rows.append(Row("cli.startup", f"hh validate --json, one hand, whole process ({build})",
                        took, "s", None, _peak([hh, "validate", "--json", str(one)])))
        files: dict[Game, str] = {}
        mixed = work / "mixed"
        mixed.mkdir()
        for game in Game:
            path = work / f"{game.value}.txt"
            path.write_text(write_hands(Simulator(game, seed=SEED, tables=4).hands(n)), "utf-8")
            files[game] = str(path)
            (mixed / f"{game.value}.txt").write_text(
                write_hands(Simulator(game, seed=SEED + 1, tables=6).hands(n_import)), "utf-8"
            )
        db = work / "bench.duckdb"
        best: dict[tuple[str, ...], float] = {}

        def keep(key: tuple[str, ...], took: float) -> None:
            best[key] = min(best.get(key, float("inf")), took)

        for _ in range(rounds):
            for game in Game:
                for name, exe in builds.items():
                    argv = [exe, "validate", "--json", files[game]]
                    keep((name, game.value, "w1"), _once([*argv, "--workers", "1"]))
                    keep((name, game.value, "wall"), _once(argv))
                keep(("this", game.value, "pair"), _pair([hh, "validate", "--json", files[game],
                                                          "--workers", "1"]))
            for name, exe in builds.items():
                keep((name, "import"), _imported([exe, "import", str(mixed)], db))
                keep((name, "import.validate"), _once([exe, "validate", "--json", str(mixed)]))
        for game in Game:
            g = game.value
            w1 = f"cli.validate.w1.{g}"
            wall = f"cli.validate.wall.{g}"
            rows.append(Row(w1, f"hh validate --json --workers 1, {n:,} hands, {g} ({build})",
                            n / best["this", g, "w1"], "hands/s", BASELINE,
                            _peak([hh, "validate", "--json", files[g], "--workers", "1"])))
            rows.append(Row(wall, f"hh validate --json default workers (every core), {n:,} "
                            f"hands, {g} ({build})", n / best["this", g, "wall"], "hands/s",
                            BASELINE, _peak([hh, "validate", "--json", files[g]])))
            rows.append(Row(f"cli.validate.speedup.{g}",
                            f"  the same, every core against one core ({g})",
                            rows[-1].figure, "hands/s", w1, None))
            rows.append(Row(f"cli.validate.pair.{g}",
                            f"  two --workers 1 runs at once: the machine's own ceiling for "
                            f"two processes ({g})", 2 * n / best["this", g, "pair"], "hands/s",
                            w1, None))
            if ref:
                rows.append(Row(f"cli.validate.ref.w1.{g}", f"  the reference build, --workers "
                                f"1 ({g}, {ref[1]}): this build against it",
                                n / best["ref", g, "w1"], "hands/s", None, None))
                rows.append(Row(f"cli.validate.vsref.w1.{g}", f"  this build's --workers 1 "
                                f"against the reference's ({g})", n / best["this", g, "w1"],
                                "hands/s", f"cli.validate.ref.w1.{g}", None))
                rows.append(Row(f"cli.validate.ref.wall.{g}", f"  the reference build, default "
                                f"workers ({g})", n / best["ref", g, "wall"], "hands/s", None,
                                None))
                rows.append(Row(f"cli.validate.vsref.wall.{g}", f"  this build's default "
                                f"workers against the reference's ({g})",
                                n / best["this", g, "wall"], "hands/s",
                                f"cli.validate.ref.wall.{g}", None))
        total = 3 * n_import
        rows.append(Row("cli.import.validate", f"hh validate --json, {total:,} mixed hands, "
                        f"default workers ({build})", total / best["this", "import.validate"],
                        "hands/s", BASELINE, None))
        for leftover in db.parent.glob(db.name + "*"):
            leftover.unlink()
        memory = command_peak([hh, "import", str(mixed), "--db", str(db)])
        rows.append(Row("cli.import", f"hh import, the same {total:,} hands, default workers, "
                        f"into a new database ({build})", total / best["this", "import"],
                        "hands/s", "cli.import.validate", memory.rss))  # fmt: skip
        rows.append(Row("cli.import.rss", "  its peak memory: the resident sizes of all its "
                        "processes, summed", memory.rss, "MiB", None, None))  # fmt: skip
        rows.append(Row("cli.import.pss", "  the same, each shared page counted once "
                        "(proportional set sizes, summed)", memory.pss, "MiB", None,
                        None))  # fmt: skip
        rows.append(Row("cli.import.pokerkit", "  the same import against pokerkit",
                        total / best["this", "import"], "hands/s", BASELINE, None))
        if ref:
            rows.append(Row("cli.import.ref", f"  the reference build's hh import ({ref[1]})",
                            total / best["ref", "import"], "hands/s", None, None))
            rows.append(Row("cli.import.vsref", "  this build's hh import against the "
                            "reference's", total / best["this", "import"], "hands/s",
                            "cli.import.ref", None))
            rows.append(Row("cli.import.validate.ref", "  the reference build's hh validate "
                            "--json on the same files", total / best["ref", "import.validate"],
                            "hands/s", None, None))
            rows.append(Row("cli.import.validate.vsref", "  this build's hh validate --json "
                            "there against the reference's",
                            total / best["this", "import.validate"], "hands/s",
                            "cli.import.validate.ref", None))
    return rows


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    for row in run(quick="--quick" in sys.argv):
        print(row)
