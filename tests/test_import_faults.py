"""hh import at the edges (issue 23): a hand cut at the end of a file, a
line without end, a damaged database, a full disk, a file reached twice, a
symbolic link that loops, and many rejects. Each through the command line,
each compared with a clean import of the same files where it can be."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from import_helpers import contents, hh_import, query, session

from hh.model import Game

ENV = {**os.environ, "PYTHONUTF8": "1", "HH_NO_IMPORT_HOOKS": "1"}


def _hands(game: Game, n: int, seed: int) -> list[str]:
    return session(game, n, seed, tables=1).strip("\n").split("\n\n")


def _settled(hands: list[str]) -> int:
    """The lines before the last of ``hands`` written as a file (one blank
    line between hands): what ``files.lines`` says of a file left open."""
    return ("\n\n".join(hands[:-1]) + "\n\n").count("\n")


def _clean(tmp: Path, *paths: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table of a clean import of ``paths`` as they are now."""
    db = tmp / "clean.duckdb"
    if db.exists():
        db.unlink()
    hh_import(*map(str, paths), "--db", str(db), "--workers", "1")
    return contents(db)


@pytest.mark.parametrize("where", ["mid-line", "line end", "header only"])
def test_a_hand_cut_at_the_end_of_a_file_is_pending_then_stored_whole(
    tmp_path: Path, where: str
) -> None:
    hands = _hands(Game.CHIRIBITO, 8, 41)
    whole = "\n\n".join(hands) + "\n"
    head = "\n\n".join(hands[:5]) + "\n\n"
    fifth = hands[5]
    if where == "mid-line":
        cut = fifth[: len(fifth) // 2]
        assert not cut.endswith("\n")
    elif where == "line end":
        cut = fifth[: fifth.index("\n", len(fifth) // 2) + 1]
    else:
        cut = fifth[: fifth.index("\n") // 2]  # half of its header line
    log = tmp_path / "table.txt"
    log.write_text(head + cut, encoding="utf-8")
    db = tmp_path / "hands.duckdb"
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert code == 0, err
    assert s is not None and (s["hands"], s["imported"], s["rejected"]) == (5, 5, 0)
    line = head.count("\n") + 1
    assert err == (
        f"hh: {log}: the hand at line {line} is unfinished (it stops before its end): "
        "held back until the file is completed\n"
    )
    assert query(db, "SELECT status, hands, lines FROM files") == [("partial", 5, line - 1)]
    again = hh_import(str(log), "--db", str(db), "--workers", "1")  # read from the cut
    assert again[0] == 0 and again[1] is not None and again[1]["hands"] == 0
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    log.write_text(whole, encoding="utf-8")  # the client wrote the rest
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert code == 0 and err == ""
    assert s is not None and (s["hands"], s["imported"], s["duplicates"]) == (3, 3, 0)
    assert contents(db) == _clean(tmp_path, log)
    # nothing follows the last hand: stored, and read again should the file grow
    assert query(db, "SELECT status, hands, lines, open_line FROM files") == [
        ("done", 8, whole.count("\n"), _settled(hands) + 1)
    ]


def test_a_last_hand_that_is_wrong_before_its_end_is_a_reject(tmp_path: Path) -> None:
    hands = _hands(Game.ACES, 3, 42)
    lines = hands[2].split("\n")
    lines[3] = "Seat 9 is not a line of a hand"
    log = tmp_path / "t.txt"
    log.write_text("\n\n".join([*hands[:2], "\n".join(lines)]) + "\n", encoding="utf-8")
    db = tmp_path / "h.duckdb"
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert code == 1 and err == ""
    assert s is not None and (s["imported"], s["rejected"]) == (2, 1)
    assert query(db, "SELECT status FROM files") == [("done",)]


def test_a_complete_last_hand_without_a_line_end_is_stored(tmp_path: Path) -> None:
    hands = _hands(Game.CALATONE, 3, 43)
    log = tmp_path / "t.txt"
    log.write_text("\n\n".join(hands), encoding="utf-8")  # no line end at all at the end
    db = tmp_path / "h.duckdb"
    code, s, err = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert code == 0 and err == ""
    assert s is not None and s["imported"] == 3
    assert query(db, "SELECT status, hands FROM files") == [("done", 3)]


def test_watch_holds_a_cut_hand_when_the_writer_pauses_longer_than_quiet(tmp_path: Path) -> None:
    import threading
    import time

    from pipelines.watch import watch

    folder = tmp_path / "live"
    folder.mkdir()
    hands = _hands(Game.CHIRIBITO, 6, 44)
    log = folder / "table.txt"
    whole = "\n\n".join(hands) + "\n"
    cut = len("\n\n".join(hands[:3])) + 2 + len(hands[3]) // 2  # the fourth hand, mid-line
    log.write_text(whole[:cut], encoding="utf-8")
    db = str(tmp_path / "live.duckdb")
    stop = threading.Event()
    seen: list[dict[str, object]] = []
    out: list[dict[str, object]] = []
    thread = threading.Thread(
        target=lambda: out.append(watch(db, [str(folder)], 1, quiet=0.3, stop=stop,
                                        on_cycle=seen.append))
    )

    def cycles_after(n: int) -> None:
        deadline = time.monotonic() + 30
        while len(seen) <= n and time.monotonic() < deadline:
            time.sleep(0.05)

    thread.start()
    try:
        cycles_after(1)  # the first import, then the quiet one: the cut hand is pending
        assert len(seen) >= 2 and seen[-1]["imported"] == 3 and seen[-1]["rejected"] == 0
        with log.open("a", encoding="utf-8") as f:
            f.write(whole[cut:])
        deadline = time.monotonic() + 30
        while int(seen[-1]["imported"]) < 6 and time.monotonic() < deadline:  # type: ignore[call-overload]
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(30)
    assert out and out[0]["imported"] == 6 and out[0]["rejected"] == 0
    assert query(db, "SELECT status, hands FROM files") == [("done", 6)]
    assert contents(db) == _clean(tmp_path, log)


def test_a_file_reached_twice_in_one_run_is_read_once(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    log = folder / "a.txt"
    log.write_text(session(Game.ACES, 12, 45), encoding="utf-8")
    (folder / "link.txt").symlink_to(log)
    db = tmp_path / "h.duckdb"
    code, s, err = hh_import(str(folder), str(log), str(folder / "link.txt"), "--db", str(db))
    assert code == 0 and err == ""
    assert s is not None and (s["files"], s["hands"], s["imported"]) == (1, 12, 12)
    assert query(db, "SELECT path, hands FROM files") == [(str(log), 12)]
    assert contents(db) == _clean(tmp_path, log)


def test_a_symbolic_link_that_loops_is_said_in_a_folder_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    good = folder / "a.txt"
    good.write_text(session(Game.CHIRIBITO, 5, 46), encoding="utf-8")
    loop = folder / "loop.txt"
    loop.symlink_to(loop)
    (folder / "back").symlink_to(folder)  # a folder linked into itself
    db = tmp_path / "h.duckdb"
    code, s, err = hh_import(str(folder), "--db", str(db), "--workers", "1")
    assert code == 2
    assert err.splitlines() == [
        f"hh: cannot read {folder}/back: a link back to a folder being read",
        f"hh: cannot read {loop}: a symbolic link that loops",
    ]
    assert s is not None and s["imported"] == 5
    code, s, err = hh_import(str(loop), "--db", str(db), "--workers", "1")
    assert (code, s, err) == (2, None, f"hh: cannot read {loop}: a symbolic link that loops\n")


def _unshare() -> list[str] | None:
    """A command prefix giving a mount namespace of our own (to mount a
    small tmpfs without touching the machine), or None where it is refused."""
    for prefix in (["unshare", "--mount"], ["unshare", "--user", "--map-root-user", "--mount"]):
        try:
            ok = subprocess.run([*prefix, "true"], capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return prefix
    return None


def test_a_full_disk_is_one_line_exit_2_and_a_rerun_completes(tmp_path: Path) -> None:
    prefix = _unshare()
    if prefix is None:
        pytest.skip("no mount namespace here (unshare refused)")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.txt").write_text(session(Game.CHIRIBITO, 1500, 47), encoding="utf-8")
    disk = tmp_path / "disk"
    disk.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    hh = f"{sys.executable} -m hh import {folder} --db {disk}/h.duckdb --workers 1"
    script = f"""
    set -u
    mount -t tmpfs -o size=1m tmpfs {disk} || exit 99
    {hh} > /dev/null 2> {out}/first.err; echo $? > {out}/first.rc
    mount -o remount,size=64m {disk}
    {hh} > /dev/null 2> {out}/second.err; echo $? > {out}/second.rc
    cp {disk}/h.duckdb {out}/h.duckdb
    """
    done = subprocess.run([*prefix, "sh", "-c", script], env=ENV, timeout=600)
    if done.returncode == 99:
        pytest.skip("tmpfs cannot be mounted here")
    assert (out / "first.rc").read_text().strip() == "2"
    assert (out / "first.err").read_text() == (
        f"hh: cannot write the database {disk}/h.duckdb: No space left on device; what was "
        "imported before is kept: free some space and run the same command again\n"
    )
    assert (out / "second.rc").read_text().strip() == "0", (out / "second.err").read_text()
    assert contents(out / "h.duckdb") == _clean(tmp_path, folder)


def _damage(db: Path, table: str = "hand_text") -> None:
    """Flip bytes in the middle of a block of ``table``'s data (DuckDB's
    layout: three 4 KiB headers, then blocks of 256 KiB), in place: the
    file keeps its size, its inode and its mtime (set back), as a tool that
    damages it on purpose, or a disk's firmware, would leave it."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        blocks = con.execute(
            "SELECT DISTINCT block_id FROM pragma_storage_info(?) "
            "WHERE persistent AND block_id >= 0 ORDER BY 1", [table]
        ).fetchall()
        size = con.execute("PRAGMA database_size").fetchall()[0][2]
    finally:
        con.close()
    block = blocks[len(blocks) // 2][0]
    at = 3 * 4096 + block * size + 4096
    before = db.stat()
    with open(db, "r+b") as f:
        f.seek(at)
        data = f.read(64)
        f.seek(at)
        f.write(bytes(b ^ 0xFF for b in data))
    os.utime(db, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = db.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size, before.st_mtime_ns, before.st_ino)


DAMAGED_TAIL = ("): hh neither reads nor writes it; restore it from a backup, or import the "
                "hand histories again into a new file (hh import LOGS --db NEW.duckdb)")


def _stored(db: Path) -> tuple[int, int]:
    """Hands and files of a damaged database, counted without reading the
    damaged block (a count reads no column)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        return (con.execute("SELECT count(*) FROM hands").fetchall()[0][0],
                con.execute("SELECT count(*) FROM files").fetchall()[0][0])
    finally:
        con.close()


def _imported(tmp_path: Path) -> Path:
    """A database of 400 hands of each game, imported."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for k, game in enumerate(Game):
        (folder / f"{game.value}.txt").write_text(session(game, 400, 50 + k), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    assert hh_import(str(folder), "--db", str(db), "--workers", "1")[0] == 0
    return db


def _one_damaged_line(who: str, db: Path, said: str) -> None:
    lines = said.splitlines()
    assert len(lines) == 1, said
    assert lines[0].startswith(f"{who}: the database {db} is damaged (Corrupt database file: ")
    assert lines[0].endswith(DAMAGED_TAIL), lines


def test_a_damaged_database_is_refused_in_one_line_by_every_command(tmp_path: Path) -> None:
    db = _imported(tmp_path)
    _damage(db)
    damaged = db.read_bytes()
    more = tmp_path / "more.txt"
    more.write_text(session(Game.ACES, 5, 60), encoding="utf-8")
    commands = {
        "hh": [["import", str(more)], ["import", "--revalidate"], ["show", "CH-1"]],
        "hh report": [["report", "players"], ["report", "violations"], ["hands"]],
        "hh serve": [["serve", "--port", "0"]],
    }
    for who, _args, said in _refusals(commands, db):
        _one_damaged_line(who, db, said)
    assert db.read_bytes() == damaged  # nothing was written
    assert not Path(f"{db}.wal").exists()


def test_damage_met_while_a_command_reads_is_its_one_line(tmp_path: Path) -> None:
    """Damage no open can see (the file as it was stamped: a disk's bit rot
    under the file system, here the stamp written again after the damage)
    is found when a command reads the block: a report, and an import whose
    hook reads it, say the damaged line, exit 2, never a traceback nor
    "import hook failed" with exit 0; every command after them refuses the
    file at once."""
    from pipelines.dbhealth import stamp

    db = _imported(tmp_path)
    _damage(db, "hands")
    stamp(str(db))  # as if the damage came from below the file system
    more = tmp_path / "more.txt"
    more.write_text(session(Game.ACES, 200, 60), encoding="utf-8")
    hooks = {k: v for k, v in ENV.items() if k != "HH_NO_IMPORT_HOOKS"}
    for who, args, env in (("hh report", ["report", "players"], ENV),
                           ("hh", ["import", str(more), "--workers", "1"], hooks),
                           ("hh report", ["report", "players"], ENV),
                           ("hh report", ["hands"], ENV)):
        if args[0] == "import":
            stamp(str(db))  # the report's meeting removed the stamp: unseen again
        done = subprocess.run([sys.executable, "-m", "hh", *args, "--db", str(db)], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        _one_damaged_line(who, db, done.stderr)
        assert _stored(db) == (1200, 3)  # the import rolled back: no hand, no file


def test_damage_met_while_hh_serve_reads_is_its_one_line(tmp_path: Path) -> None:
    """``hh serve`` started on a file stamped sound whose blocks then do not
    read back: a page that meets the damage answers 503 with the one damaged
    line every command says, not a 500 and a traceback."""
    from starlette.testclient import TestClient

    from pipelines.dbhealth import stamp
    from reports.web.app import Config, create_app

    db = _imported(tmp_path)
    _damage(db, "hands")
    stamp(str(db))  # as if the damage came from below the file system
    with TestClient(create_app(Config(db=str(db))), raise_server_exceptions=False) as c:
        r = c.get("/api/players")
    assert r.status_code == 503, r.text
    message = r.json()["error"]
    assert message.startswith(f"the database {db} is damaged (Corrupt database file: ")
    assert message.endswith(DAMAGED_TAIL)


def test_damage_the_checksums_cannot_see_is_found_by_the_texts_hashes(tmp_path: Path) -> None:
    """A hand's stored text changed with its block's checksum made anew (a
    write through DuckDB, as damage DuckDB cannot see): the commands' own
    scan (checksums) does not see it; ``hh db check`` hashes every text
    again and says the one damaged line, exit 2 (and a sound file is
    sound), and from then on every command says that line at its open,
    while the file stays as it is."""
    import duckdb

    from pipelines.dbhealth import stamp

    db = tmp_path / "h.duckdb"
    logs = tmp_path / "c.txt"
    logs.write_text(session(Game.CHIRIBITO, 30, 70), encoding="utf-8")
    assert hh_import(str(logs), "--db", str(db), "--workers", "1")[0] == 0

    def hh(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "hh", *args, "--db", str(db)], env=ENV,
                              capture_output=True, text=True, timeout=120)

    sound = hh("db", "check")
    assert sound.returncode == 0, sound.stderr
    tables = len(query(db, "SELECT table_name FROM duckdb_tables()"))  # docs/schema.md's
    assert tables >= 12
    assert sound.stdout == (f"the database {db} is sound: {tables} tables, {_rows(db):,} rows "
                            "read, every block's checksum verified; 30 hands' texts match "
                            "their content hashes\n")
    con = duckdb.connect(str(db))
    con.execute("UPDATE hand_text SET raw_text = replace(raw_text, 'Seat 1', 'Seat 9') "
                "WHERE hand_id = (SELECT min(hand_id) FROM hands)")
    con.close()
    stamp(str(db))
    assert hh("report", "players").returncode == 0  # what the commands' scan cannot see
    said = " hands' stored texts do not match their content hashes, hand #"
    for who, args in (("hh", ["db", "check"]), ("hh report", ["report", "players"]),
                      ("hh", ["import", str(logs)])):
        done = hh(*args)  # found by the check: from then on every command says it
        assert done.returncode == 2 and done.stdout == "", done.stderr
        line = done.stderr.splitlines()[-1]
        assert line.startswith(f"{who}: the database {db} is damaged (1 of 30{said}"), line
        assert line.endswith(DAMAGED_TAIL), line


def _rows(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = con.execute("SELECT schema_name, table_name FROM duckdb_tables()").fetchall()
        return sum(con.execute(f'SELECT count(*) FROM "{s}"."{t}"').fetchall()[0][0]
                   for s, t in tables)
    finally:
        con.close()


def test_a_file_that_is_no_database_is_refused_alike_by_every_command(tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    db.write_text(session(Game.CHIRIBITO, 2, 61), encoding="utf-8")  # a log, not a database
    commands = {
        "hh": [["import", str(db)], ["import", "--revalidate"], ["show", "CH-1"]],
        "hh report": [["report", "players"], ["hands"]],
        "hh serve": [["serve", "--port", "0"]],
    }
    for who, args, said in _refusals(commands, db):
        assert said == (
            f"{who}: cannot open the database {db}: IO Error: The file \"{db}\" exists, "
            "but it is not a valid DuckDB database file!\n"
        ), args


def _refusals(
    commands: dict[str, list[list[str]]], db: Path
) -> Iterator[tuple[str, list[str], str]]:
    """Each command run with ``--db db`` (who says it, its arguments, its
    stderr), each checked to have failed with exit 2 and printed nothing."""
    for who, runs in commands.items():
        for args in runs:
            done = subprocess.run(
                [sys.executable, "-m", "hh", *args, "--db", str(db)],
                env=ENV, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 2, (args, done.stderr)
            assert done.stdout == "", args
            yield who, args, done.stderr


def test_a_line_too_long_is_a_reject_with_its_beginning_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    from hh.read.lines import MAX_LINE
    from hh.read.runs import looks_like_header

    folder = tmp_path / "logs"
    folder.mkdir()
    good = session(Game.CALATONE, 6, 48)
    (folder / "a.txt").write_text(good, encoding="utf-8")
    (folder / "b.txt").write_bytes(b"x" * (3 * 1024 * 1024))  # no line end at all
    hands = _hands(Game.ACES, 4, 49)
    long_line = "Ana said, '" + "y" * (MAX_LINE * 2) + "'"
    second = hands[1].split("\n")
    second.insert(4, long_line)
    text = "\n\n".join([hands[0], "\n".join(second), *hands[2:]]) + "\n"
    (folder / "c.txt").write_text(text, encoding="utf-8")
    db = tmp_path / "h.duckdb"
    code, s, err = hh_import(str(folder), "--db", str(db), "--workers", "1")
    assert code == 1 and err == ""
    assert s is not None and (s["imported"], s["rejected"]) == (6 + 3, 2)
    message = (
        f"a line longer than {MAX_LINE:,} bytes: hand-history lines are far shorter (the file "
        f"may be no hand history); its first {MAX_LINE:,} bytes are kept"
    )
    line = hands[0].count("\n") + 3  # the second hand's first line
    rejects = query(db, "SELECT file, line, raw_text, error, error_line FROM rejects ORDER BY 1")
    assert rejects == [
        (str(folder / "b.txt"), 1, "x" * MAX_LINE, message, 1),
        (str(folder / "c.txt"), line,
         "\n".join([*second[:4], long_line[:MAX_LINE], *second[5:]]), message, line + 4),
    ]  # fmt: skip
    # the hands after it are where they are in the file
    starts = [k + 1 for k, x in enumerate(text.split("\n")) if looks_like_header(x)]
    c = str(folder / "c.txt")
    stored = query(db, "SELECT line FROM hands WHERE file = ? ORDER BY line", [c])
    assert [r[0] for r in stored] == [starts[0], *starts[2:]]
    assert query(db, "SELECT path, status FROM files ORDER BY 1") == [
        (str(folder / n), "done") for n in ("a.txt", "b.txt", "c.txt")
    ]


@pytest.mark.parametrize("extra", [0, 1, 2, 5000, 16 * 1024, 200_000])
@pytest.mark.parametrize("packed", [False, True])
def test_long_lines_are_cut_alike_by_every_reader(tmp_path: Path, extra: int, packed: bool) -> None:
    """The worker's blocks, the gzip reader and the cut's pass see a line
    too long as its first MAX_LINE bytes, with the line numbers of the file."""
    import gzip

    from hh.read.cut import Chunk, cut, marks, runs
    from hh.read.lines import MAX_LINE

    hands = _hands(Game.CHIRIBITO, 4, 51)
    long_line = "Info " + "z" * (MAX_LINE - 5 + extra)
    second = hands[1].split("\n")
    second.insert(3, long_line)
    parts = [hands[0], "\n".join(second), long_line, *hands[2:]]
    text = "\n\n".join(parts) + "\n"
    short = text.replace(long_line, long_line[:MAX_LINE])
    path, ref = tmp_path / "long.txt", tmp_path / "short.txt"
    if packed:
        path.write_bytes(gzip.compress(text.encode()))
        ref.write_bytes(gzip.compress(short.encode()))
    else:
        path.write_text(text, encoding="utf-8")
        ref.write_text(short, encoding="utf-8")
    long: list[int] = []
    got = [(r.start, r.lines) for r in runs(Chunk(str(path)), long)]
    want = [(r.start, r.lines) for r in runs(Chunk(str(ref)))]
    assert got == want
    numbers = [k + 1 for k, x in enumerate(text.split("\n")) if x == long_line]
    assert long == (numbers if extra > 0 else [])
    assert [m.line for m in marks(str(path))] == [m.line for m in marks(str(ref))]
    if not packed:  # the chunks of a plain file, cut at hands, read the same runs
        pieces = cut(str(path), 2048).chunks
        assert len(pieces) > 1
        assert [(r.start, r.lines) for c in pieces for r in runs(c)] == want


def test_many_rejects_each_say_their_own_words(tmp_path: Path) -> None:
    """Rejects whose lines differ only by their hand id, or not at all,
    each get the message of their own text (the import and hh validate
    alike), in any order they come."""
    from import_helpers import referee

    ids = [f"R-{k}" for k in (7, 123, 45, 7000, 7, 2)]
    header = "Hand #{}: Chiribito No Limit (5/10) - 2024/01/01 10:00:00 UTC"
    runs = [f"{header.format(i)}\nTable 'T' 6-max Seat #1 is the button" for i in ids]
    runs.append("Hand #R-9: Chiribito No Limit (blind 10) - 2024/01/01 10:00:00 UTC\nTable 'T'")
    runs += ["not a hand at all"] * 3
    log = tmp_path / "rejects.txt"
    log.write_text("\n\n".join(runs) + "\n", encoding="utf-8")
    db = tmp_path / "h.duckdb"
    code, s, _ = hh_import(str(log), "--db", str(db), "--workers", "1")
    assert code == 1 and s is not None and s["rejected"] == len(runs)
    stored = query(db, "SELECT line, hand_id, error FROM rejects ORDER BY line")
    expected = [
        (1 + 3 * k, i, "expected 'Chiribito No Limit (blind <n>)', 'Aces, Straights and Flushes "
         "Limit (ante <n>, bets <n>/<n>)' or 'Calatone Spread Limit (ante <n>, bets <n>-<n>)' "
         f"after 'Hand #{i}: ', found 'Chiribito'")
        for k, i in enumerate(ids)
    ]  # fmt: skip
    assert stored[: len(ids)] == expected
    verdicts = referee([str(log)])
    assert [(v.line, v.violations[0].message) for v in verdicts] == [(r[0], r[2]) for r in stored]


def test_killed_imports_leave_nothing_running_and_reruns_equal_a_clean_import() -> None:
    """A small run of benchmarks/faults.py: the parent, a worker and the
    whole group killed at random moments, each rerun compared table by
    table with a clean import."""
    from benchmarks.faults import run

    said: list[str] = []
    trials = run(trials=3, seed=7, hands=60, say=said.append)
    assert [t.mode for t in trials] == ["parent", "worker", "group"]
    for t in trials:
        assert t.survivors == [] and t.differ == [] and t.rerun in (0, 1), said
        assert t.ok, said


def test_an_identical_copy_of_a_file_stores_its_rejected_hand_once(tmp_path: Path) -> None:
    # issue 24: the copy's hands are duplicates, and so is its reject (the
    # same text at the same line); the same fragment at two lines of a file
    # is two rejects
    hands = session(Game.CHIRIBITO, 5, 3).split("\n\n")
    hands[2] = hands[2].replace("-max Seat #", "-mux Seat #", 1)  # does not parse
    text = "\n\n".join(hands)
    (tmp_path / "copy").mkdir()
    first, copy = tmp_path / "a.txt", tmp_path / "copy" / "a.txt"
    first.write_text(text, "utf-8")
    copy.write_text(text, "utf-8")
    db = tmp_path / "h.duckdb"
    code, s, _ = hh_import(str(first), "--db", str(db))
    assert s is not None and (code, s["imported"], s["rejected"], s["duplicates"]) == (1, 4, 1, 0)
    code, s, _ = hh_import(str(copy), "--db", str(db))
    assert s is not None and (s["imported"], s["rejected"], s["duplicates"]) == (0, 0, 5)
    assert query(db, "SELECT file, kind FROM rejects") == [(str(first), "parse")]
    twice = tmp_path / "twice.txt"
    fragment = hands[2].replace("#CH-", "#CX-")
    twice.write_text(fragment + "\n\n" + fragment + "\n", "utf-8")
    code, s, _ = hh_import(str(twice), "--db", str(db))
    assert s is not None and (s["rejected"], s["duplicates"]) == (2, 0)
    copy = tmp_path / "copy" / "twice.txt"
    copy.write_text(twice.read_text("utf-8"), "utf-8")
    code, s, _ = hh_import(str(copy), "--db", str(db))
    assert s is not None and (s["rejected"], s["duplicates"]) == (0, 2)
    assert query(db, "SELECT count(*) FROM rejects") == [(3,)]


def test_the_check_of_a_database_hh_did_not_leave_keeps_no_more_than_its_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a file hh did not stamp scans every block; DuckDB keeps the
    blocks it reads while under its limit, so the scan runs within
    CHECK_MEMORY and the limit is what it was after."""
    import duckdb

    from pipelines import dbhealth
    from pipelines.database import open_db

    db = tmp_path / "copied.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE t AS SELECT i, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s "
                "FROM range(800000) r(i)")  # fmt: skip
    con.close()
    assert db.stat().st_size > 16 * 2**20
    default = duckdb.connect().execute("SELECT current_setting('memory_limit')").fetchall()
    monkeypatch.setattr(dbhealth, "CHECK_MEMORY", "8MB")
    con = open_db(str(db))  # no stamp beside it: scanned
    try:
        used = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchall()
        assert used[0][0] <= 8 * 2**20
        assert con.execute("SELECT current_setting('memory_limit')").fetchall() == default
        assert con.execute("SELECT count(*) FROM t").fetchall() == [(800_000,)]
    finally:
        con.close()
    assert Path(dbhealth.stamp_file(str(db))).exists()


def test_a_file_that_is_not_text_is_an_error_of_its_own_read_once(tmp_path: Path) -> None:
    """Random bytes beside a log: one line saying the file is no text, exit
    2, its ``files`` row ``error`` (not ``partial``: "held back until the
    file is completed"), nothing of it stored; the next import does not
    read it again (exit 0, silent) until it changes."""
    import random

    noise = tmp_path / "noise.txt"
    noise.write_bytes(random.Random(43).randbytes(200_000))
    log = tmp_path / "c.txt"
    log.write_text(session(Game.CHIRIBITO, 20, 71), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    code, summary, err = hh_import(str(noise), str(log), "--db", str(db), "--workers", "1")
    assert code == 2 and summary is not None and summary["imported"] == 20
    at = noise.read_bytes()[:8192].index(b"\0") + 1
    assert err == (f"hh: {noise} is not a hand history (a NUL byte at byte {at:,}: binary "
                   "data, not text): it is not read again until it changes\n")
    assert query(db, "SELECT status, size, hands, error IS NOT NULL FROM files "
                     "WHERE path = ?", [str(noise)]) == [("error", 200_000, 0, True)]
    assert query(db, "SELECT count(*) FROM rejects") == [(0,)]
    code, summary, err = hh_import(str(noise), "--db", str(db), "--workers", "1")
    assert (code, err) == (0, "") and summary is not None and summary["hands"] == 0
    noise.write_bytes(noise.read_bytes() + b"\0")  # changed: read again, said again
    code, _, err = hh_import(str(noise), "--db", str(db), "--workers", "1")
    assert code == 2 and "is not a hand history" in err
