"""hh import across runs and processes: kill -9 then rerun equals a clean
import, a locked database, a table split over three runs, --watch on a file
being written, --revalidate, and two workers giving the same rows as one."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from import_helpers import contents, hh_import, query, referee, session

from benchmarks.faults import pool_workers
from hh.model import Game
from pipelines.schema import SCHEMA_VERSION

ENV = {**os.environ, "PYTHONUTF8": "1"}


def _logs(tmp: Path) -> Path:
    folder = tmp / "logs"
    folder.mkdir()
    (folder / "a.txt").write_text(session(Game.CHIRIBITO, 30, 11), encoding="utf-8")
    (folder / "b.txt").write_text(session(Game.ACES, 30, 12), encoding="utf-8")
    return folder


def test_kill_9_after_the_first_commit_then_rerun_equals_a_clean_import(tmp_path: Path) -> None:
    folder = _logs(tmp_path)
    clean = tmp_path / "clean.duckdb"
    hh_import(str(folder), "--db", str(clean), "--workers", "1")
    db = tmp_path / "crashed.duckdb"
    env = {**ENV, "HH_IMPORT_PAUSE_AFTER_COMMIT": "60", "HH_IMPORT_GROUP_HANDS": "1",
           "HH_IMPORT_CHUNK_BYTES": "20000"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "hh", "import", str(folder), "--db", str(db), "--workers", "1"],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert b"committed" in line, line
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    partial = contents(db)
    assert 0 < len(partial["hands"]) < len(contents(clean)["hands"])
    code, s, _ = hh_import(str(folder), "--db", str(db), "--workers", "1")
    assert s is not None and s["duplicates"] == len(partial["hands"]) and code == 0
    assert contents(db) == contents(clean)


def test_a_locked_database_fails_after_the_wait_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database held for longer than HH_DB_WAIT: a plain message, exit 2
    (pipelines.dblock; docs/decisions.md)."""
    monkeypatch.setenv("HH_DB_WAIT", "1")
    db = tmp_path / "held.duckdb"
    duckdb.connect(str(db)).close()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True); "
         "time.sleep(60)", str(db)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        log = tmp_path / "a.txt"
        log.write_text(session(Game.CHIRIBITO, 2, 1), encoding="utf-8")
        start = time.monotonic()
        code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
        assert code == 2 and s is None
        assert "in use by another process" in err and "Traceback" not in err
        assert "Conflicting lock" not in err and "HH_DB_WAIT" in err
        assert 1 <= time.monotonic() - start < 10
    finally:
        holder.kill()
        holder.wait()


def _table_in_three_files(tmp: Path) -> list[Path]:
    """One table's session cut in three files, with a hand missing (stacks
    and the dealer jump), a seat's chips changed and a hand that does not
    parse (the chain breaks there)."""
    hands = session(Game.CALATONE, 24, 21, tables=1).strip("\n").split("\n\n")
    del hands[7]
    dealer = re.compile(r"Seat #[0-9]+ is the dealer")
    hands[10] = dealer.sub(dealer.findall(hands[12])[0], hands[10])
    hands[12] = hands[12].replace(" in chips)", "5 in chips)", 1)
    hands[14] = hands[14].replace(" in chips)", "5 in chips)", 1)  # the 2nd file's last
    hands[16] = hands[16].replace("*** SUMMARY ***", "*** SUMARY ***")
    parts = [hands[:6], hands[6:15], hands[15:]]
    out = []
    for k, part in enumerate(parts):
        path = tmp / f"day{k + 1}.txt"
        path.write_text("\n\n".join(part) + "\n", encoding="utf-8")
        out.append(path)
    return out


@pytest.mark.parametrize("order", [(2, 0, 1), (0, 1, 2), (1, 2, 0)])
def test_a_table_over_three_runs_is_one_chain(tmp_path: Path, order: tuple[int, ...]) -> None:
    """In any order of the runs; in order, each run's pass reads the chain
    from the last hand before it, whose own findings stand."""
    files = _table_in_three_files(tmp_path)
    db = str(tmp_path / "h.duckdb")
    for k in order:
        hh_import(str(files[k]), "--db", db, "--workers", "1")
    verdicts = referee([str(f) for f in files])
    cross = Counter(
        (v.hand_id, x.code, x.line, x.message)
        for v in verdicts
        for x in v.violations
        if x.code in ("STACK_CARRYOVER", "DEALER_ROTATION")
    )
    assert {code for _, code, _, _ in cross} == {"STACK_CARRYOVER", "DEALER_ROTATION"}
    stored = Counter(query(db, "SELECT hand_id, code, line, message FROM cross_violations"))
    assert stored == cross
    valid = dict(query(db, "SELECT hand_id, valid FROM hands"))
    assert valid == {v.hand_id: v.valid for v in verdicts if v.pots is not None}


@pytest.mark.parametrize("group_hands", [1, 7, 1_000])
def test_the_chains_read_in_groups_of_tables_give_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, group_hands: int
) -> None:
    """The cross-hand pass reads the chains a group of tables at a time (its
    memory bounded by the largest table, not the import): whatever the
    groups, the findings are hh validate's, chains broken in several tables."""
    from pipelines import crosshand

    monkeypatch.setattr(crosshand, "_GROUP_HANDS", group_hands)
    hands = session(Game.CHIRIBITO, 40, 5, tables=4).strip("\n").split("\n\n")
    for k in (9, 22):
        hands[k] = hands[k].replace(" in chips)", "5 in chips)", 1)
    del hands[30]
    path = tmp_path / "four.txt"
    path.write_text("\n\n".join(hands) + "\n", encoding="utf-8")
    db = str(tmp_path / "h.duckdb")
    hh_import(str(path), "--db", db, "--workers", "1")
    cross = Counter(
        (v.hand_id, x.code, x.line, x.message)
        for v in referee([str(path)])
        for x in v.violations
        if x.code in ("STACK_CARRYOVER", "DEALER_ROTATION")
    )
    assert len({hand_id for hand_id, _, _, _ in cross}) >= 3
    stored = Counter(query(db, "SELECT hand_id, code, line, message FROM cross_violations"))
    assert stored == cross


def test_watch_picks_up_a_file_written_in_pieces(tmp_path: Path) -> None:
    from pipelines.watch import watch

    folder = tmp_path / "live"
    folder.mkdir()
    text = session(Game.CHIRIBITO, 10, 31, tables=1)
    hands = text.strip("\n").split("\n\n")
    log = folder / "table.txt"
    log.write_text("\n\n".join(hands[:4]) + "\n\n", encoding="utf-8")
    db = str(tmp_path / "live.duckdb")
    stop = threading.Event()
    seen: list[dict[str, object]] = []
    out: list[dict[str, object]] = []

    def run() -> None:
        out.append(watch(db, [str(folder)], 1, quiet=1.5, stop=stop, on_cycle=seen.append))

    def imported() -> int:
        return int(seen[-1]["imported"]) if seen else -1  # type: ignore[call-overload]

    def wait_for(n: int) -> None:
        deadline = time.monotonic() + 30
        while imported() < n and time.monotonic() < deadline:
            time.sleep(0.05)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        wait_for(4)
        assert imported() == 4  # a blank line follows the fourth: it is whole
        rest = "\n\n".join(hands[4:]) + "\n"
        cut = len(hands[4]) // 2  # the fifth hand cut in the middle of a line
        with log.open("a", encoding="utf-8") as f:
            f.write(rest[:cut])
            f.flush()
            time.sleep(0.6)
            f.write(rest[cut:])
        wait_for(10)  # the last one once the file has been quiet
    finally:
        stop.set()
        thread.join(30)
    assert out and out[0]["imported"] == 10 and out[0]["rejected"] == 0
    assert query(db, "SELECT count(*) FROM hands")[0][0] == 10
    assert query(db, "SELECT count(*) FROM rejects")[0][0] == 0
    assert query(db, "SELECT status, hands FROM files") == [("done", 10)]


def test_revalidate_and_two_workers(tmp_path: Path) -> None:
    folder = _logs(tmp_path)
    one = tmp_path / "one.duckdb"
    two = tmp_path / "two.duckdb"
    hh_import(str(folder), "--db", str(one), "--workers", "1")
    # several chunks per file, and workers however little there is to read
    env = {**ENV, "HH_IMPORT_CHUNK_BYTES": "30000", "HH_IMPORT_POOL_MIN_BYTES": "0"}
    subprocess.run(
        [sys.executable, "-m", "hh", "import", str(folder), "--db", str(two), "--workers", "2"],
        env=env, check=False, capture_output=True,
    )  # fmt: skip
    assert contents(two) == contents(one)
    before = contents(one)
    con = duckdb.connect(str(one))
    con.execute("DELETE FROM hand_violations")
    con.execute("UPDATE hands SET valid = false, hh_version = 'old'")
    con.close()
    code, s, _ = hh_import("--revalidate", "--db", str(one), "--workers", "1")
    assert s is not None and s["hands"] == 60 and s["imported"] == 60 and code == 0
    assert contents(one) == before
    # its progress: the hands judged out of all, from none to all, page by page
    from pipelines.importer import closed, connect
    from pipelines.revalidate import revalidate

    heard: list[tuple[int, int]] = []
    con = connect(str(one))
    revalidate(con, 1, lambda done, total: heard.append((done, total)))
    closed(con, str(one))
    assert heard[0] == (0, 60) and heard[-1] == (60, 60) and len(heard) >= 2
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)
    assert contents(one) == before


def test_a_worker_that_dies_is_one_line_and_exit_2_and_a_rerun_completes(
    tmp_path: Path,
) -> None:
    folder = _logs(tmp_path)
    clean = tmp_path / "clean.duckdb"
    hh_import(str(folder), "--db", str(clean), "--workers", "1")
    db = tmp_path / "died.duckdb"
    env = {**ENV, "HH_IMPORT_PAUSE_AFTER_COMMIT": "2", "HH_IMPORT_GROUP_HANDS": "1",
           "HH_IMPORT_CHUNK_BYTES": "5000", "HH_IMPORT_POOL_MIN_BYTES": "0",
           "HH_NO_IMPORT_HOOKS": "1"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "hh", "import", str(folder), "--db", str(db), "--workers", "2"],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # paused after its first commit: the workers wait
        assert b"committed" in line, line
        workers = pool_workers(proc.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        rest = proc.stderr.read().decode()
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    messages = [x for x in rest.splitlines() if not x.startswith("hh-import: committed")]
    assert code == 2, rest
    assert len(messages) == 1, rest
    assert re.fullmatch(
        r"hh: a worker process ended abruptly while reading \S+ (from line \d+ )?\(killed, or "
        r"out of memory\?\); what was imported before is kept: run the same command again "
        r"to complete the import",
        messages[0],
    ), messages[0]
    hh_import(str(folder), "--db", str(db), "--workers", "2")
    assert contents(db) == contents(clean)


def test_a_version_2_database_is_migrated_and_its_dirty_tables_checked_whole(
    tmp_path: Path,
) -> None:
    """A database of schema version 2 (dirty_tables without ``since``) left
    with a table noted dirty: the next import migrates it, and the table's
    chain is checked whole, as a clean import of the same files checks it."""
    files = _table_in_three_files(tmp_path)
    db = str(tmp_path / "h.duckdb")
    hh_import(str(files[0]), "--db", db, "--workers", "1")
    hh_import(str(files[1]), "--db", db, "--workers", "1")
    con = duckdb.connect(db)
    con.execute("DELETE FROM cross_violations")  # as if a crash came before the checks
    con.execute("ALTER TABLE dirty_tables DROP COLUMN since")
    con.execute("ALTER TABLE files DROP COLUMN open_at; ALTER TABLE files DROP COLUMN open_line")
    con.execute("INSERT INTO dirty_tables SELECT DISTINCT site, table_name FROM hands")
    con.execute("UPDATE schema_version SET version = 2")
    con.close()
    hh_import(str(files[2]), "--db", db, "--workers", "1")
    assert query(db, "SELECT max(version) FROM schema_version") == [(SCHEMA_VERSION,)]
    clean = str(tmp_path / "clean.duckdb")
    hh_import(*(str(f) for f in files), "--db", clean, "--workers", "1")
    sql = "SELECT hand_id, code, line, message FROM cross_violations"
    assert Counter(query(db, sql)) == Counter(query(clean, sql)) and query(clean, sql)


def test_a_file_deleted_during_the_import_is_said_once(tmp_path: Path) -> None:
    """A file of many chunks deleted after the import planned it (here while
    it pauses after its first commit): one message for the file, not one per
    chunk, its ``files`` row ``error``, exit 2; the other file is stored."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.txt").write_text(session(Game.CHIRIBITO, 5, 11), encoding="utf-8")
    gone = folder / "b.txt"
    gone.write_text(session(Game.ACES, 60, 12), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    env = {**ENV, "HH_IMPORT_PAUSE_AFTER_COMMIT": "0.3", "HH_IMPORT_GROUP_HANDS": "1",
           "HH_IMPORT_CHUNK_BYTES": "4000"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "hh", "import", str(folder), "--db", str(db), "--workers", "1"],
        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    assert "committed" in proc.stderr.readline()
    gone.unlink()
    rest = proc.stderr.read()
    assert proc.wait(120) == 2
    said = [line for line in rest.splitlines() if "committed" not in line]
    assert said == [f"hh: cannot read {gone}: No such file or directory"]
    assert query(db, "SELECT path, status FROM files ORDER BY path") == [
        (str(folder / "a.txt"), "done"), (str(gone), "error")]


def test_a_killed_parent_leaves_no_interpreter_warning(tmp_path: Path) -> None:
    """``kill -9`` of an import whose workers run: its workers end, and the
    resource tracker removes the pool's semaphores without its "leaked
    semaphore objects" warning on the terminal (all their output read to
    its end: every process that holds the pipe has ended)."""
    folder = _logs(tmp_path)
    env = {**ENV, "HH_IMPORT_PAUSE_AFTER_COMMIT": "60", "HH_IMPORT_GROUP_HANDS": "1",
           "HH_IMPORT_CHUNK_BYTES": "4000", "HH_IMPORT_POOL_MIN_BYTES": "1"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "hh", "import", str(folder), "--db", str(tmp_path / "h.duckdb"),
         "--workers", "2"],
        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    assert "committed" in proc.stderr.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rest = proc.stderr.read()  # to the end: the workers and the tracker are gone
    assert rest == ""
