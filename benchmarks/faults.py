"""Fault injection for ``hh import`` (issue 23): kill the import at random
moments, run it again, and compare every table with a clean import.

    python -m benchmarks.faults [--quick] [--trials N] [--seed S] [--workers W]

The input mixes what an import meets: sessions of the three games (one
gzip), a file of rejects, a file whose hands reuse other hands' ids with
other text (conflicts), and a growing file: a table a client is still
writing, cut in the middle of a line when a trial starts and appended to,
in pieces, while the import runs (the rest before the rerun).

Each trial imports into a fresh database with two workers, many small
commits (``HH_IMPORT_GROUP_HANDS``, small chunks) and the import's hooks,
and at a random moment within the length of a clean import kills, with
SIGKILL, one of: the parent, one worker, or the whole process group. It
then checks that no process of the killed import survives (each carries a
token in its environment; its workers end when their parent does, within
a second), completes the growing file, runs the same command again (it
must exit 0 or 1, nothing on stderr but notes) and compares each table, as
``(rows, sum of row hashes)`` without the bookkeeping columns, with a
clean import of the same, complete files (the reports' cache beside the
database is a cache, filled by the reports as they need it: not compared).
The killed import must have said nothing, or one line for a worker's
death (exit 2), never a traceback. Exit 0 when every trial
matched, 1 otherwise. Slow (a trial is two imports): it is not a test;
``tests/test_import_faults.py`` runs a small version of it.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MODES = ("parent", "worker", "group")
NOT_COMPARED = {"imports"}  # one row per run: a killed run is a run too


@dataclass
class Inputs:
    """The input folder and the growing file's whole text."""

    folder: Path
    live: Path
    live_text: str


@dataclass
class Trial:
    mode: str
    at: float  # seconds after the start
    killed: bool = False  # the import was still running at ``at``
    code: int | None = None  # the killed import's exit code
    stderr: str = ""
    survivors: list[int] = field(default_factory=list)
    rerun: int | None = None
    rerun_stderr: str = ""
    differ: list[str] = field(default_factory=list)  # tables unlike the clean import's

    @property
    def ok(self) -> bool:
        return (
            not self.survivors
            and self.rerun in (0, 1)
            and not self.differ
            and _quiet(self.rerun_stderr)
            and self.plain
        )

    @property
    def plain(self) -> bool:
        """The killed import said what happened in one line (a worker's
        death), or nothing: never a traceback."""
        if "Traceback" in self.stderr:
            return False
        if self.code == 2:
            lines = [x for x in self.stderr.splitlines() if "is unfinished" not in x]
            return len(lines) == 1 and "a worker process ended abruptly" in lines[0]
        return True


def _quiet(stderr: str) -> bool:
    """Nothing on stderr but the notes of an unfinished last hand."""
    return all("is unfinished" in line for line in stderr.splitlines())


def make_inputs(root: Path, hands: int, seed: int) -> Inputs:
    """The mixed input (see the module's docstring) in ``root/logs``."""
    from hh.model import Game
    from hh.simulate import Simulator
    from hh.write import write_hand

    def session(game: Game, n: int, s: int, tables: int = 3) -> list[str]:
        return [write_hand(h) for h in Simulator(game, s, tables=tables).hands(n)]

    folder = root / "logs"
    (folder / "live").mkdir(parents=True)
    chiribito = session(Game.CHIRIBITO, hands, seed)
    (folder / "chiribito.txt").write_text("\n\n".join(chiribito) + "\n", encoding="utf-8")
    aces = session(Game.ACES, hands, seed + 1)
    (folder / "aces.log").write_text("\n\n".join(aces) + "\n", encoding="utf-8")
    calatone = "\n\n".join(session(Game.CALATONE, hands, seed + 2)) + "\n"
    (folder / "calatone.txt.gz").write_bytes(gzip.compress(calatone.encode("utf-8")))
    rnd = random.Random(seed)
    broken = []
    for text in session(Game.ACES, max(10, hands // 5), seed + 3):
        lines = text.split("\n")
        k = rnd.randrange(1, len(lines))
        lines[k] = lines[k][: rnd.randrange(len(lines[k]) + 1)] + rnd.choice(["", "#", " ?"])
        broken.append("\n".join(lines).replace("Hand #", "Hand #X", 1))
    broken += ["not a hand\nnor this"] * 5
    (folder / "rejects.txt").write_text("\n\n".join(broken) + "\n", encoding="utf-8")
    # the same ids as some of chiribito.txt's hands, other text
    other = [h.replace("*** SUMMARY ***", "Ana: says hello\n*** SUMMARY ***", 1)
             for h in chiribito[: max(5, hands // 20)]]  # fmt: skip
    (folder / "zz-conflicts.txt").write_text("\n\n".join(other) + "\n", encoding="utf-8")
    live = folder / "live" / "table.txt"
    live_text = "\n\n".join(session(Game.CALATONE, max(20, hands // 2), seed + 4, 1)) + "\n"
    return Inputs(folder, live, live_text)


def checksums(db: Path) -> dict[str, tuple[int, int]]:
    """Each table's rows and the sum of their hashes, bookkeeping left out."""
    import duckdb

    from pipelines.schema import BOOKKEEPING

    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {}
        tables = con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
            "ORDER BY 1"
        ).fetchall()
        for (table,) in tables:
            if table in NOT_COMPARED:
                continue
            cols = [
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
                    "AND database_name = current_database() ORDER BY column_index",
                    [table],
                ).fetchall()
                if c not in BOOKKEEPING
            ]
            row = ", ".join(f'"{c}"' for c in cols)
            n, total = con.execute(
                f'SELECT count(*), coalesce(sum(hash({row})::HUGEINT), 0) FROM "{table}"'
            ).fetchall()[0]
            out[table] = (int(n), int(total))
        return out
    finally:
        con.close()


def _command(folder: Path, db: Path, workers: int) -> list[str]:
    return [sys.executable, "-m", "hh", "import", str(folder), "--db", str(db),
            "--workers", str(workers)]  # fmt: skip


def _env(token: str) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONUTF8": "1",
        "HH_FAULT_TOKEN": token,
        "HH_IMPORT_GROUP_HANDS": "150",
        "HH_IMPORT_CHUNK_BYTES": "65536",
        "HH_IMPORT_POOL_MIN_BYTES": "0",
    }


def clean(inputs: Inputs, root: Path, workers: int) -> tuple[dict[str, tuple[int, int]], float]:
    """The checksums of a clean import of the complete files, and its seconds."""
    inputs.live.write_text(inputs.live_text, encoding="utf-8")
    db = root / "clean.duckdb"
    start = time.monotonic()
    done = subprocess.run(_command(inputs.folder, db, workers), env=_env("clean"),
                          capture_output=True, text=True)  # fmt: skip
    seconds = time.monotonic() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"the clean import failed ({done.returncode}): {done.stderr}")
    return checksums(db), seconds


def pool_workers(pid: int) -> list[int]:
    """The pool's workers of the import ``pid`` (not the resource tracker)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    out = []
    for child in children:
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd and b"resource_tracker" not in cmd:
            out.append(int(child))
    return out


def _carrying(token: str) -> list[int]:
    """Every live process whose environment carries ``token``."""
    mark = f"HH_FAULT_TOKEN={token}".encode()
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
        except (OSError, IndexError):
            continue
        if mark in env.split(b"\0") and state != "Z":
            out.append(int(entry.name))
    return out


def _grow(live: Path, text: str, start: int, stop: threading.Event, rnd: random.Random,
          span: float) -> None:  # fmt: skip
    """Append ``text[start:]`` to the growing file in three pieces, at random
    moments within ``span`` seconds, until ``stop``."""
    cuts = sorted(rnd.randrange(start, len(text) + 1) for _ in range(2))
    pieces = [text[a:b] for a, b in zip([start, *cuts], [*cuts, len(text)], strict=True)]
    for piece in pieces[:-1]:
        if stop.wait(rnd.uniform(0, span / 2)):
            return
        with live.open("a", encoding="utf-8") as f:
            f.write(piece)


def trial(inputs: Inputs, root: Path, mode: str, at: float, rnd: random.Random,
          workers: int, reference: dict[str, tuple[int, int]]) -> Trial:  # fmt: skip
    """One kill and rerun (see the module's docstring)."""
    result = Trial(mode, round(at, 2))
    db = root / f"trial-{secrets.token_hex(4)}.duckdb"
    text = inputs.live_text
    begin = rnd.randrange(len(text) // 4, 3 * len(text) // 4)  # mid-line, most likely
    inputs.live.write_text(text[:begin], encoding="utf-8")
    token = secrets.token_hex(8)
    err = root / "stderr.txt"
    stop = threading.Event()
    with err.open("w") as stderr:
        proc = subprocess.Popen(_command(inputs.folder, db, workers), env=_env(token),
                                stdout=subprocess.DEVNULL, stderr=stderr,
                                start_new_session=True)  # fmt: skip
        grower = threading.Thread(target=_grow, args=(inputs.live, text, begin, stop, rnd, at))
        grower.start()
        try:
            deadline = time.monotonic() + at
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            if proc.poll() is None:
                result.killed = True
                if mode == "parent":
                    os.kill(proc.pid, signal.SIGKILL)
                elif mode == "group":
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    found = pool_workers(proc.pid)
                    while not found and proc.poll() is None:
                        time.sleep(0.01)
                        found = pool_workers(proc.pid)
                    if found:
                        os.kill(rnd.choice(found), signal.SIGKILL)
                    else:
                        result.killed = False
            result.code = proc.wait(timeout=600)
        finally:
            stop.set()
            grower.join()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    result.stderr = err.read_text()
    deadline = time.monotonic() + 10  # workers notice their parent's end within a second
    while (left := _carrying(token)) and time.monotonic() < deadline:
        time.sleep(0.1)
    result.survivors = left
    for pid in left:  # leave nothing behind, but say so
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    inputs.live.write_text(text, encoding="utf-8")  # the client wrote the rest
    again = subprocess.run(_command(inputs.folder, db, workers), env=_env(token),
                           capture_output=True, text=True)  # fmt: skip
    result.rerun, result.rerun_stderr = again.returncode, again.stderr
    got = checksums(db)
    result.differ = sorted(t for t in set(got) | set(reference) if got.get(t) != reference.get(t))
    for path in root.glob(f"{db.name}*"):
        path.unlink()
    return result


def run(quick: bool = False, trials: int | None = None, seed: int = 1, workers: int = 2,
        say: Any = print, hands: int | None = None) -> list[Trial]:  # fmt: skip
    """The trials, each mode in turn; ``say`` hears a line per trial
    (``hands``: per game, else 300 quick, 1,500 otherwise)."""
    rnd = random.Random(seed)
    hands = hands or (300 if quick else 1500)
    count = trials if trials is not None else (6 if quick else 30)
    root = Path(tempfile.mkdtemp(prefix="hh-faults-"))
    try:
        inputs = make_inputs(root, hands, seed)
        reference, seconds = clean(inputs, root, workers)
        rows = sum(n for n, _ in reference.values())
        say(f"clean import: {len(reference)} tables, {rows:,} rows, {seconds:.1f} s")
        out = []
        for k in range(count):
            mode = MODES[k % len(MODES)]
            t = trial(inputs, root, mode, rnd.uniform(0.2, seconds * 1.1), rnd, workers,
                      reference)  # fmt: skip
            out.append(t)
            what = f"killed at {t.at:5.2f} s" if t.killed else f"done before {t.at:5.2f} s"
            first = t.stderr.strip().splitlines()[-1:] if t.stderr.strip() else []
            say(f"{k + 1:3} {mode:<6} {what}, exit {t.code}, survivors {len(t.survivors)}, "
                f"rerun exit {t.rerun}: {'same as clean' if t.ok else 'DIFFERS'}"
                + (f" {t.differ}" if t.differ else "")
                + (f" | {first[0][:160]}" if first and not t.ok else ""))  # fmt: skip
            if t.rerun_stderr and not _quiet(t.rerun_stderr):
                say(f"    rerun said: {t.rerun_stderr.strip()[:300]}")
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small input, six trials")
    parser.add_argument("--trials", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    results = run(args.quick, args.trials, args.seed, args.workers)
    bad = [t for t in results if not t.ok]
    killed = sum(t.killed for t in results)
    modes = ", ".join(f"{m} {sum(t.killed for t in results if t.mode == m)}" for m in MODES)
    print(f"{len(results)} trials, {killed} killed mid-import ({modes}): "
          f"{len(results) - len(bad)} equal to the clean import, {len(bad)} not")  # fmt: skip
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
