"""The players report and the HTML report over 1,000,000 hands (50,000
with ``--quick``), beside scans of ``actions`` measured in the same run.

The database is realistic (benchmarks/bighands.py): simulated sessions of
the three games imported by the real import (~13 action rows a hand, cards,
all-in hands and their text), repeated under new hand ids up to the size.

What is timed (each the median of 3 runs):
- baselines: ``SELECT count(*) FROM actions`` (a metadata lookup) and
  ``SELECT count(*) FROM actions WHERE kind = 'bet'`` (a real scan of a
  column of every action row);
- the per-hand counts the import computes for its new hands (the
  ``hh.imported`` hook, reports.players.counts.after_import, run here on the grown
  database as ``hh import`` runs it after writing): one SQL pass over
  every action, seat and hand, the card-judged counts evaluated, all of it
  written to the cache file;
- the players report over those imported hands: the first report, in a
  new connection, finds every count cached (target: 3 s at 1,000,000);
- the players report when the counts are missing (a database imported
  without the hook, e.g. by an older hh; or a lake): the report computes
  and caches them itself, the same work as the hook;
- the players report warm (the same connection, again);
- the HTML report warm (target 10 s);
- the all-in equity a first report computes for hands not cached yet, as
  hands per second on the imported base (in worker processes from
  ``reports.players.equity.PARALLEL_FROM`` hands);
- the import of the base's simulated hands (one worker, the per-hand counts
  and all-in equity derived in it), and the all-in equity of the base's
  candidate hands computed in one process, as a share of that import
  (target: at most 10%, issue 24).

The all-in equity of the repeated hands is not computed again for every
copy (it would take ~15 minutes at 1,000,000 hands on two cores): the cache
is given the base hands' figures under the copies' keys, which is what the
first report leaves there. Its fill rate is the last row.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bighands import base, grow
from benchmarks.rows import PeakMemory, Row, seconds

HANDS = 1_000_000
BASE_PER_GAME = 2_000


def seed_equity(db: str, base_db: str, cache: str) -> tuple[int, float, float]:
    """Fill the equity cache of ``db`` (hands repeated from ``base_db`` by
    :func:`benchmarks.bighands.grow`) from the base's own: compute the base
    hands' equity with the report code (cold: worker processes, as a first
    report does), then copy each hand's rows to its copies' keys. Returns the
    candidate hands computed, the seconds it took and the peak MiB."""
    from reports.cache import Cache
    from reports.db import Filters, connect
    from reports.players.equity import EQUITY_COLUMNS, VERSION, fill_equity

    con = connect(base_db)
    store = Cache(con, None)
    store.want(*Filters().where())
    with PeakMemory() as peak:
        start = time.perf_counter()
        computed = fill_equity(con, store)
        took = time.perf_counter() - start
    base_rows = con.sql(
        f"SELECT w.hand_id, e.player, e.expected_won, e.se FROM {store.table('equity')} e "
        "JOIN _want w USING (hk)"
    ).to_arrow_table()
    con.close()
    con = connect(db)
    store = Cache(con, cache)
    store.want(*Filters().where())
    store.ensure("equity", VERSION, EQUITY_COLUMNS)
    con.register("base_rows", base_rows)
    con.execute(
        f"INSERT INTO {store.table('equity')} SELECT w.hk, b.player, b.expected_won, b.se "
        "FROM _want w JOIN base_rows b ON b.hand_id = split_part(w.hand_id, '~', 1)"
    )
    con.execute(f"INSERT INTO {store.table('equity_hands')} SELECT hk FROM _want")
    store.close()
    con.close()
    return computed, took, peak.mb


def import_seconds(folder: Path) -> float:
    """Import the simulated files of ``folder`` (benchmarks.bighands.base)
    again into a new database, one worker, as ``hh import --workers 1``."""
    from pipelines.importer import Importer
    from pipelines.importer import connect as connect_import

    files = sorted(str(p) for p in folder.glob("*.txt"))
    start = time.perf_counter()
    con = connect_import(str(folder / "again.duckdb"))
    imp = Importer(con, 1)
    imp.import_files(files)
    imp.finish()
    imp.close()
    con.close()
    return time.perf_counter() - start


def equity_seconds(base_db: str) -> tuple[int, float]:
    """The all-in equity of every candidate hand of ``base_db``, computed
    in this process (as the import's workers do): candidates and seconds."""
    from reports.cache import Cache
    from reports.db import Filters, connect
    from reports.players.equity import EQUITY_COLUMNS, VERSION, candidates, hand_equity

    con = connect(base_db)
    store = Cache(con, None)
    store.want(*Filters().where())
    store.ensure("equity", VERSION, EQUITY_COLUMNS)
    store.todo("equity")
    tasks = candidates(con)
    con.close()
    start = time.perf_counter()
    for task in tasks:
        hand_equity(task)
    return len(tasks), time.perf_counter() - start


def run(quick: bool = False) -> list[Row]:
    import duckdb

    from pipelines.importer import CHECK_MEMORY_LIMIT
    from reports.cache import default_path
    from reports.db import Filters, connect
    from reports.players.counts import after_import
    from reports.players.report import players
    from reports.render.html import players_page

    n = HANDS // 20 if quick else HANDS
    per_game = BASE_PER_GAME // 10 if quick else BASE_PER_GAME
    tmp = Path(tempfile.mkdtemp(prefix="hh-bench-report-"))
    rows: list[Row] = []
    t0 = time.perf_counter()
    try:
        base_db = base(tmp, per_game)
        with PeakMemory() as peak:
            t_import = import_seconds(tmp)
        rows.append(Row("report.import.base", f"import of {3 * per_game:,} simulated hands (one "
                        "worker; counts and all-in equity derived in it)", t_import, "s", None,
                        peak.mb))  # fmt: skip
        with PeakMemory() as peak:
            n_all_in, t_equity = equity_seconds(base_db)
        rows.append(Row("report.equity.candidates", f"all-in equity of those hands' {n_all_in} "
                        "candidates, in one process (target <= 10% of the import)", t_equity,
                        "s", "report.import.base", peak.mb))  # fmt: skip
        db = str(tmp / "big.duckdb")
        total = grow(base_db, db, n)
        seeded = str(tmp / "equity-only.reports.duckdb")
        computed, took, equity_mb = seed_equity(db, base_db, seeded)
        print(f"{time.perf_counter() - t0:.1f} s: database of {total:,} hands", file=sys.stderr)
        cache = default_path(db)
        f = Filters()

        def hook() -> None:  # what hh import runs after writing, on its connection
            shutil.copyfile(seeded, cache)  # all-in equity cached, the counts not
            rw = duckdb.connect(db)
            rw.execute(f"SET memory_limit = '{CHECK_MEMORY_LIMIT}'")  # as the import's connection
            start = time.perf_counter()
            after_import(rw)
            hook_times.append(time.perf_counter() - start)
            rw.close()

        hook_times: list[float] = []
        _, hook_mb = seconds(hook)

        def after() -> None:  # the first report after the import, a new connection
            fresh = connect(db)
            players(fresh, f, cache=cache)
            fresh.close()

        t_after, after_mb = seconds(after)
        con = connect(db)
        actions = con.execute("SELECT count(*) FROM actions").fetchall()[0][0]
        t_count, mb = seconds(lambda: con.execute("SELECT count(*) FROM actions").fetchall())
        rows.append(Row("report.count", f"SELECT count(*) FROM actions ({actions:,} rows; "
                        "metadata)", t_count, "s", None, mb))  # fmt: skip
        t_scan, mb = seconds(lambda: con.execute(
            "SELECT count(*) FROM actions WHERE kind = 'bet'").fetchall())  # fmt: skip
        scan = "report.scan"
        rows.append(Row(scan, "SELECT count(*) FROM actions WHERE kind = 'bet' (a scan)",
                        t_scan, "s", None, mb))  # fmt: skip
        rows.append(Row("report.counts.import", f"per-hand counts of {total:,} new hands, "
                        "computed by the import's hook and cached", sorted(hook_times)[1],
                        "s", scan, hook_mb))  # fmt: skip
        rows.append(Row("report.players.after_import", f"players report, {total:,} imported "
                        "hands, first report (counts cached on import; target <= 3 s at "
                        "1,000,000)", t_after, "s", scan, after_mb))  # fmt: skip

        def cold() -> None:
            shutil.copyfile(seeded, cache)  # all-in equity cached, the counts not
            start = time.perf_counter()
            players(con, f, cache=cache)
            cold_times.append(time.perf_counter() - start)

        cold_times: list[float] = []
        _, mb = seconds(cold)
        rows.append(Row("report.players.cold", f"players report, {total:,} hands, counts not "
                        "cached (imported without the hook): computed and cached by the "
                        "report", sorted(cold_times)[1], "s", scan, mb))  # fmt: skip
        t_warm, mb = seconds(lambda: players(con, f, cache=cache))
        rows.append(Row("report.players.warm", f"players report, {total:,} hands, warm (the "
                        "same connection again)", t_warm, "s", scan, mb))  # fmt: skip

        t_html, mb = seconds(lambda: players_page(con, f, cache))
        rows.append(Row("report.html.warm", f"HTML report, {total:,} hands, warm (target "
                        "<= 10 s)", t_html, "s", scan, mb))  # fmt: skip
        con.close()
        rows.append(Row("report.equity.fill", f"all-in equity of hands not cached ({computed} "
                        "all-in hands)", computed / took, "hands/s", None,
                        equity_mb))  # fmt: skip
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
