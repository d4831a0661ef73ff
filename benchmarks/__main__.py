"""``make bench``: run every benchmark, print ONE table, write BENCHMARKS.md.

``python -m benchmarks [--quick] [--out BENCHMARKS.md]``

Each module of ``MODULES`` has ``run(quick: bool = False) -> list[Row]``
(benchmarks/rows.py). The runner starts each module in its own process, so
one module's inputs do not weigh on the next one's memory figures, collects
the rows (as JSON on the child's last stdout line), then prints one table
where every speed is also a ratio to its baseline row, measured in the same
run. A module not written yet is skipped with a note; a module that fails is
reported in the table and makes the run exit 1, after the other modules ran.

The compiled referee (``make fast``, in ``.venv-fast``) is measured by
running bench_validate again with that interpreter, as a script so that it
imports the installed, compiled ``hh`` rather than the source tree. The
modules of ``COMPILED_ONLY`` (the import and the lake's import: what users
run is the compiled build) run with that interpreter only, the pure one
when it is missing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import importlib.util
import inspect
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import psutil

from benchmarks.rows import Row

ROOT = Path(__file__).resolve().parents[1]
FAST_PYTHON = ROOT / ".venv-fast" / "bin" / "python"

MODULES = [
    "benchmarks.bench_evaluate",
    "benchmarks.bench_parse",
    "benchmarks.bench_validate",
    "benchmarks.bench_cli",
    "benchmarks.bench_simulate",
    "benchmarks.bench_import",
    "benchmarks.bench_report",
    "benchmarks.bench_lake",
    "benchmarks.serve_load",
    "benchmarks.serve_live",
    "benchmarks.cycle_hooks",
    "benchmarks.bench_integrity",
]

# measured with the compiled build only (as a script by .venv-fast's python):
# the import, and the lake's import against it (the local import's pool and
# the Dask workers then both run the compiled referee)
COMPILED_ONLY = {"benchmarks.bench_import", "benchmarks.bench_lake", "benchmarks.serve_live",
                 "benchmarks.cycle_hooks"}

_MARK = "@@rows@@"


def _child(name: str, quick: bool) -> None:
    """In the child process: run one module, print its rows as JSON."""
    module = importlib.import_module(name)
    if "quick" not in inspect.signature(module.run).parameters:
        # a module that prints its own figures: shown, not in the table
        module.run()
        print(_MARK + "[]", flush=True)
        return
    rows = module.run(quick=quick)
    if not isinstance(rows, list):
        raise SystemExit(f"{name}.run() must return a list of benchmarks.rows.Row")
    print(_MARK + json.dumps([r.to_json() for r in rows]), flush=True)


def _gives_rows(name: str) -> bool:
    """Whether a module has the row interface (``run(quick=...)``)."""
    module = importlib.import_module(name)
    return "quick" in inspect.signature(module.run).parameters


def _collect(command: list[str], label: str) -> tuple[list[Row], str | None]:
    """Run a child, pass its progress through, return its rows or an error."""
    print(f"== {label}", file=sys.stderr, flush=True)
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # the compiled run must import the installed hh
    proc = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    rows: list[Row] = []
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            rows = [Row.from_json(d) for d in json.loads(line[len(_MARK) :])]
        else:
            print(line, file=sys.stderr)
    if proc.returncode != 0:
        return rows, f"{label} failed (exit {proc.returncode})"
    return rows, None


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = psutil.virtual_memory().total / 2**30
    return (
        f"{cpu}, {os.cpu_count()} logical cores, {ram:.0f} GiB RAM, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def _figure(value: float, unit: str) -> str:
    if unit in ("s", "ms"):
        return f"{value:,.3f}" if value < 10 else f"{value:,.1f}"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if unit.startswith("%"):
        return f"{value:.2f}"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}"


def table(rows: list[Row]) -> list[list[str]]:
    """The table's cells: what, figure, unit, baseline, ratio, peak MiB."""
    by_key = {r.key: r for r in rows}
    cells = [["benchmark", "figure", "unit", "baseline", "ratio", "peak MiB"]]
    for r in rows:
        base = by_key.get(r.baseline) if r.baseline else None
        if r.baseline and base is None:
            baseline, ratio = f"{r.baseline} (missing)", ""
        elif base is not None:
            baseline, ratio = base.what, f"{r.figure / base.figure:.2f}x" if base.figure else ""
        else:
            baseline, ratio = "", ""
        peak = "" if r.peak_mb is None else f"{r.peak_mb:,.0f}"
        cells.append([r.what, _figure(r.figure, r.unit), r.unit, baseline, ratio, peak])
    return cells


def _text(cells: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    right = {1, 4, 5}
    out = []
    for k, row in enumerate(cells):
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in
                 enumerate(zip(row, widths, strict=True))]
        out.append("  ".join(parts).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def _markdown(cells: list[list[str]]) -> str:
    def esc(c: str) -> str:
        return c.replace("|", "\\|")

    lines = ["| " + " | ".join(cells[0]) + " |"]
    lines.append("|" + "|".join("---:" if i in (1, 4, 5) else "---" for i in
                                range(len(cells[0]))) + "|")
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in cells[1:]]
    return "\n".join(lines)


def _write(path: Path, cells: list[list[str]], quick: bool, took: float,
           notes: list[str]) -> None:
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = f"""# Benchmarks

The last run of `make bench{" QUICK=1" if quick else ""}` ({when}, {took:.0f} s in all),
written by `python -m benchmarks`. Every figure below was measured in that
one run; every speed is also given as a ratio to its baseline, measured in
the same run on the same machine. The machine is shared with other work and
noisy: compare ratios between runs, not absolute figures.

Machine: {_machine()}.

Peak MiB: peak resident memory of the benchmark process and every process it
started (workers, a Dask LocalCluster) while that figure was measured,
sampled every 20 ms; the interpreter and the benchmark's inputs included.
A row of a command run as a user runs it (`hh validate`, `hh import`) gives
that command's own processes only, the benchmark's excluded.

{_markdown(cells)}
"""
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks")
    ap.add_argument("--quick", action="store_true", help="small inputs (under 2 minutes)")
    ap.add_argument("--out", default=str(ROOT / "BENCHMARKS.md"))
    ap.add_argument("--only", default="",
                    help="comma-separated modules to run (e.g. bench_validate,bench_cli; "
                    "a module's baselines must be among them)")
    ap.add_argument("--module", help=argparse.SUPPRESS)  # internal: run one module
    args = ap.parse_args(argv)
    only = {f"benchmarks.{m.strip()}" for m in args.only.split(",") if m.strip()}
    if only - set(MODULES):
        ap.error(f"no such benchmark module: {', '.join(sorted(only - set(MODULES)))}")
    if args.module:
        _child(args.module, args.quick)
        return 0

    start = time.perf_counter()
    quick = ["--quick"] if args.quick else []
    rows: list[Row] = []
    notes: list[str] = []
    for name in MODULES:
        if only and name not in only:
            continue
        if importlib.util.find_spec(name) is None:
            notes.append(f"{name}: not present, skipped")
            continue
        if not _gives_rows(name):
            if args.quick:
                notes.append(f"{name}: prints its own figures (no rows), skipped with --quick")
                continue
            notes.append(f"{name}: printed its own figures above (its run() gives no rows)")
        if name in COMPILED_ONLY and FAST_PYTHON.exists():
            script = ROOT / "benchmarks" / f"{name.rsplit('.', 1)[1]}.py"
            got, error = _collect(
                [str(FAST_PYTHON), str(script), "--compiled", *quick],
                f"{name} with the compiled build (make fast)",
            )
        else:
            if name in COMPILED_ONLY:
                notes.append(f"{name}: compiled build (.venv-fast) not found, measured pure")
            got, error = _collect(
                [sys.executable, "-m", "benchmarks", "--module", name, *quick], name
            )
        rows += got
        if error:
            notes.append(error)
        if name == "benchmarks.bench_validate":
            if FAST_PYTHON.exists():
                got, error = _collect(
                    [str(FAST_PYTHON), str(ROOT / "benchmarks" / "bench_validate.py"),
                     "--compiled", *quick],
                    "bench_validate with the compiled build (make fast)",
                )
                rows += got
                if error:
                    notes.append(error)
            else:
                notes.append("compiled build (.venv-fast) not found: `make fast` to measure it")
    took = time.perf_counter() - start
    cells = table(rows)
    print()
    print(_text(cells))
    for n in notes:
        print(f"note: {n}")
    _write(Path(args.out), cells, args.quick, took, notes)
    print(f"({took:.0f} s; table written to {args.out})")
    return 1 if any("failed" in n for n in notes) else 0


if __name__ == "__main__":
    sys.exit(main())
