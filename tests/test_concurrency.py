"""One database, several commands at once (docs/decisions.md): while ``hh
import --watch`` or ``hh serve --watch`` holds a database, ``hh report``,
``hh show --db`` and a second ``hh import`` on it work from other
processes, and none fails with DuckDB's lock message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pytest
from import_helpers import session
from serve_helpers import free_port, logs

from hh.model import Game

HH = [sys.executable, "-m", "hh"]
ENV = {**os.environ, "PYTHONUTF8": "1", "HH_DB_WAIT": "60"}


def _hh(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*HH, *args], capture_output=True, text=True, env=ENV, timeout=120)


def _count(db: Path) -> int:
    from pipelines.database import open_db

    con = open_db(str(db), read_only=True, timeout=30)
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    finally:
        con.close()


@contextmanager
def _background(*args: str) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([*HH, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV)  # fmt: skip
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_for(check: object, seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except (duckdb.Error, OSError):
            pass
        time.sleep(0.2)
    raise AssertionError("timed out")


def _others_work(db: Path, folder: Path, extra: Path) -> None:
    """hh report, hh show --db and a second hh import, each while the
    watcher holds the database; then a hand appended is still imported."""
    report = _hh("report", "players", "--db", str(db), "--format", "json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout) and "lock" not in report.stderr.lower()
    show = _hh("show", "CH-1", "--db", str(db))
    assert show.returncode == 1 and "RAISE_SIZE" in show.stdout, show.stderr  # the disputed hand
    assert "lock" not in show.stderr.lower()
    second = _hh("import", str(extra), "--db", str(db), "--json", "--workers", "1")
    assert second.returncode in (0, 1), second.stderr
    assert json.loads(second.stdout)["imported"] == 8 and "lock" not in second.stderr.lower()
    before = _count(db)
    live = folder / "chiribito.txt"
    with live.open("a", encoding="utf-8") as f:
        f.write("\n" + session(Game.CALATONE, 3, 91, tables=1).replace("CA-", "CAX-"))
    _wait_for(lambda: _count(db) == before + 3)


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path, Path]:
    folder, _ = logs(tmp_path / "logs", 15)
    extra = tmp_path / "extra.txt"
    extra.write_text(session(Game.ACES, 8, 55, tables=1).replace("AS-", "ASX-"), "utf-8")
    return tmp_path / "hands.duckdb", folder, extra


def test_while_import_watch_holds_the_database(inputs: tuple[Path, Path, Path]) -> None:
    db, folder, extra = inputs
    with _background("import", str(folder), "--db", str(db), "--watch", "--quiet", "0.5",
                     "--workers", "1") as proc:  # fmt: skip
        _wait_for(lambda: db.exists() and _count(db) >= 45)
        _others_work(db, folder, extra)
    assert proc.returncode in (0, 1), proc.stderr.read() if proc.stderr else ""


def test_while_serve_watch_holds_the_database(inputs: tuple[Path, Path, Path]) -> None:
    db, folder, extra = inputs
    port = free_port()
    with _background("serve", "--db", str(db), "--watch", str(folder), "--port", str(port),
                     "--quiet", "0.5") as proc:  # fmt: skip
        url = f"http://127.0.0.1:{port}"

        def served() -> int:
            with urllib.request.urlopen(url + "/api/overview", timeout=10) as r:
                return sum(g["hands"] for g in json.load(r)["games"])

        _wait_for(lambda: served() >= 46)
        _others_work(db, folder, extra)
        _wait_for(lambda: served() == _count(db))
        with urllib.request.urlopen(url + "/api/players", timeout=30) as r:
            assert r.status == 200 and json.load(r)
    assert proc.returncode == 0 or proc.returncode == -signal.SIGINT


def test_a_report_waits_for_a_long_writer_and_says_so(tmp_path: Path) -> None:
    """A database held for longer than HH_DB_WAIT: hh report fails with a
    plain message (exit 2), never DuckDB's."""
    db = tmp_path / "held.duckdb"
    duckdb.connect(str(db)).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
            "print('held', flush=True); time.sleep(60)",
            str(db),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        env = {**ENV, "HH_DB_WAIT": "1"}
        for args in (["report", "players", "--db", str(db)], ["show", "X", "--db", str(db)]):
            r = subprocess.run([*HH, *args], capture_output=True, text=True, env=env, timeout=60)
            assert r.returncode == 2 and "in use by another process" in r.stderr, r.stderr
            assert "Conflicting lock" not in r.stderr and "Traceback" not in r.stderr
    finally:
        holder.kill()
        holder.wait()


def test_an_import_beside_a_busy_server_without_watch(tmp_path: Path) -> None:
    """``hh serve`` (read-only, pages asked for all the time) and ``hh
    import`` into its database: the server lets the file go while the
    import waits, the import runs, the pages then show its hands."""
    import threading

    from serve_helpers import build_db, running

    from reports.web.app import Config, create_app

    db = build_db(tmp_path, 10)
    extra = tmp_path / "extra.txt"
    extra.write_text(session(Game.ACES, 8, 55, tables=1).replace("AS-", "ASX-"), "utf-8")
    with running(create_app(Config(db=str(db)))) as url:

        def total() -> int:
            with urllib.request.urlopen(url + "/api/overview", timeout=30) as r:
                return sum(g["hands"] for g in json.load(r)["games"])

        before = total()
        stop = threading.Event()
        codes: list[int] = []

        def ask() -> None:
            while not stop.is_set():
                with urllib.request.urlopen(url + "/api/hands?per=5", timeout=30) as r:
                    codes.append(r.status)

        asking = threading.Thread(target=ask)
        asking.start()
        try:
            second = _hh("import", str(extra), "--db", str(db), "--json", "--workers", "1")
        finally:
            stop.set()
            asking.join(30)
        assert second.returncode == 0, second.stderr
        assert json.loads(second.stdout)["imported"] == 8
        assert codes and set(codes) == {200}
        _wait_for(lambda: total() == before + 8)


def test_connections_of_one_process_share_a_written_database(tmp_path: Path) -> None:
    """A database hh writes is attached with its own row-group size; two
    read-write connections of one process (``hh serve --watch``: the pages'
    and the watch's) still share it, another process waits while either is
    open, and the file is let go once both are closed."""
    from pipelines.database import open_db
    from pipelines.dblock import ROW_GROUP_SIZE

    db = tmp_path / "shared.duckdb"
    first = open_db(str(db))
    second = open_db(str(db))
    first.execute("CREATE TABLE t AS SELECT range AS i FROM range(100000)")
    assert second.execute("SELECT count(*) FROM t").fetchall() == [(100_000,)]
    assert first.cursor().execute("SELECT count(*) FROM t").fetchall() == [(100_000,)]
    first.execute("CHECKPOINT")
    sizes = second.execute(
        "SELECT max(count) FROM pragma_storage_info('t') GROUP BY row_group_id"
    ).fetchall()
    assert len(sizes) == -(-100_000 // ROW_GROUP_SIZE)
    assert max(s for (s,) in sizes) == ROW_GROUP_SIZE
    # DuckDB's temporary files go beside the file, as for a file it opens itself
    assert first.execute("SELECT current_setting('temp_directory')").fetchall() == [
        (os.path.realpath(db) + ".tmp",)
    ]
    probe = [
        sys.executable,
        "-c",
        "import duckdb, sys; duckdb.connect(sys.argv[1]).close()",
        str(db),
    ]
    first.close()
    held = subprocess.run(probe, capture_output=True, text=True, timeout=60)
    assert held.returncode != 0 and "lock" in held.stderr
    second.close()
    subprocess.run(probe, check=True, capture_output=True, timeout=60)
    # a read-only connection in the same process while it is written: told
    # apart as the file being held, so open_db waits, then says who holds it
    writer = open_db(str(db))
    try:
        from pipelines.dblock import DatabaseBusy

        with pytest.raises(DatabaseBusy, match="in use by another process"):
            open_db(str(db), read_only=True, timeout=0.2)
    finally:
        writer.close()


def test_threads_of_one_process_open_a_written_database_at_once(tmp_path: Path) -> None:
    """Connections opened at the same moment by threads of one process (the
    pages and the watch of ``hh serve --watch``) each get the file's tables
    by their plain names, whichever of them attached it."""
    import threading

    from pipelines.database import open_db

    db = str(tmp_path / "raced.duckdb")

    def open_one(start: threading.Barrier, opened: list[Any], errors: list[BaseException]) -> None:
        try:
            start.wait()
            opened.append(open_db(db, timeout=10))
        except BaseException as error:
            errors.append(error)

    for trial in range(10):
        start = threading.Barrier(4)
        opened: list[Any] = []
        errors: list[BaseException] = []
        threads = [
            threading.Thread(target=open_one, args=(start, opened, errors)) for _ in range(4)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        opened[0].execute("CREATE TABLE IF NOT EXISTS t (i INTEGER)")
        opened[0].execute(f"INSERT INTO t VALUES ({trial})")
        for con in opened:
            assert con.execute("SELECT count(*) FROM t").fetchall() == [(trial + 1,)]
        for con in opened:
            con.close()
