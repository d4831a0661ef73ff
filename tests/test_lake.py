"""The lake on Delta Lake (issue 27) and the Dask import: the lake equals the
local DuckDB import of the same files table for table, for the three games,
cross-hand violations included; a rerun commits nothing; a worker killed
mid-run, and the client killed at any moment of a commit, lose and double
nothing once the same command runs again; two clients writing one lake at
once store each hand once; the Delta tables read without hh; ``lake load``
and ``lake optimize``.

The database side is ``hh import`` itself (the local import). Inputs are
small: one LocalCluster of two workers serves the module; the clients that
are killed run in their own process, on a cluster of threads."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from import_helpers import hh_import

from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands
from pipelines import lake
from pipelines.cluster import run_import

CHUNK = 20_000  # bytes: several chunks per file, so several tasks per file
FILE_COLUMNS = "path, sha256, size, lines, hands, status"


def _inputs(folder: Path) -> list[str]:
    """Three games on two tables each, plus: an exact copy of a file under
    another name (every hand a duplicate), a hand of the same id with other
    text (a conflict), a run that does not parse (a reject), the file of those
    two again (another conflict, the same reject: kept once), a file holding a
    hand, a hand of its id with other text and the hand again (a conflict
    and a duplicate inside one task), and a session
    with hands missing, cut in two files (14 cross-hand violations, a chain
    across files)."""
    files = []
    for k, game in enumerate(Game):
        hands = list(Simulator(game, seed=11 + k, tables=2).hands(40))
        path = folder / f"{game.value}.txt"
        path.write_text(write_hands(hands), encoding="utf-8")
        files.append(path)
    copy = folder / "copy-of-chiribito.log"
    copy.write_bytes(files[0].read_bytes())
    text = files[1].read_text(encoding="utf-8").split("\n\n")
    first = text[0]
    changed = first.replace(" in chips)", " in chips) ", 1)  # same id, other text
    assert changed != first
    broken = text[1].replace("*** ", "*** BROKEN ", 1)
    odd = folder / "odd.txt"
    odd.write_text(changed + "\n\n" + broken + "\n", encoding="utf-8")
    again = folder / "odd-again.txt"  # in the same task: the reject is kept once
    again.write_bytes(odd.read_bytes())
    own = write_hands(list(Simulator(Game("chiribito"), seed=77, tables=1).hands(1)))
    twin = own.replace(" in chips)", " in chips) ", 1)
    assert twin != own
    inside = folder / "conflict-inside.txt"  # a hand, its conflict, itself again: one task
    inside.write_text(own.rstrip("\n") + "\n\n" + twin.rstrip("\n") + "\n\n" + own,
                      encoding="utf-8")
    hands = list(Simulator(Game("calatone"), seed=5, tables=2).hands(30))
    gappy = [h for k, h in enumerate(hands) if k not in (7, 15, 16)]
    gaps = [folder / "gaps-1.txt", folder / "gaps-2.txt"]
    gaps[0].write_text(write_hands(gappy[:12]), encoding="utf-8")
    gaps[1].write_text(write_hands(gappy[12:]), encoding="utf-8")
    return [str(p) for p in (*files, copy, odd, again, inside, *gaps)]


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                     dashboard_address=None, silence_logs=40) as cluster,
        Client(cluster) as c,
    ):
        yield c


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("lake")
    files = _inputs(folder)
    db = str(folder / "direct.duckdb")
    code, _, err = hh_import(*files, "--db", db, "--workers", "1")
    assert code == 1, err  # invalid hands found: the cross-hand violations
    con = duckdb.connect(db, read_only=True)
    sums = lake.checksums(con)
    got = con.execute(f"SELECT {FILE_COLUMNS} FROM files ORDER BY path").fetchall()
    con.close()
    assert sums["cross_violations"][0] == 14
    return {"folder": folder, "files": files, "db": db, "sums": sums, "files_rows": got}


def _versions(url: str) -> dict[str, int]:
    return {t: lake.Lake(url).table(t).version() for t in (*lake.TABLES, lake.CHUNKS)}


def _complete(url: str, data: dict) -> None:
    """The lake holds exactly the direct import: every table, the files
    rows, each hand once, and no cross-hand check left due."""
    con = lake.connect(url)
    assert lake.checksums(con) == data["sums"]
    assert con.execute(
        "SELECT count(*) FROM (SELECT site, hand_id FROM hands GROUP BY ALL HAVING count(*) > 1)"
    ).fetchone() == (0,)
    rows = con.execute(f"SELECT {FILE_COLUMNS} FROM files ORDER BY path").fetchall()
    assert rows == data["files_rows"]
    assert lake.pending(url) == 0


def test_lake_equals_database_and_rerun_commits_nothing(client, data) -> None:
    url = str(data["folder"] / "lake")
    got = run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    assert got.left == []
    assert got.conflicts == 3 and got.rejected == 1
    assert got.duplicates == 41  # the copy of the Chiribito file, a hand again
    assert got.imported == 148 and got.invalid == 3
    assert got.hands == 4 * 40 + 2 * 2 + 3 + 27
    _complete(url, data)
    sums = data["sums"]
    assert sums["hands"][0] == 148 and sums["rejects"][0] == 4

    versions = _versions(url)
    again = run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    assert again.imported == 0 and again.left == [] and again.duplicates == again.hands
    assert again.skipped_chunks == sum(1 for _ in lake.committed_chunks(
        lake.Lake(url), [os.path.abspath(f) for f in data["files"]]).to_pylist())
    assert _versions(url) == versions  # not one commit
    _complete(url, data)

    # lake load: a DuckDB file equal to the direct import
    loaded = str(data["folder"] / "loaded.duckdb")
    lake.load(url, loaded)
    con = duckdb.connect(loaded, read_only=True)
    assert lake.checksums(con) == sums
    assert con.execute(f"SELECT {FILE_COLUMNS} FROM files ORDER BY path").fetchall() \
        == data["files_rows"]
    con.close()
    with pytest.raises(lake.LakeError):
        lake.load(url, loaded)


def test_the_tables_read_without_hh_and_filters_prune(client, data) -> None:
    """The Delta tables are read by the format alone (polars' scan_delta,
    the Delta log's files): the same hands, with the database's columns;
    a game filter opens only that game's files."""
    import polars as pl

    url = str(data["folder"] / "lake")
    if not lake.Lake(url).exists():
        run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    con = lake.connect(url)
    db = duckdb.connect(data["db"], read_only=True)
    for table in (*lake.TABLES, lake.CROSS, "violations", "files"):
        q = f"SELECT column_name, data_type FROM information_schema.columns " \
            f"WHERE table_name = '{table}' ORDER BY ordinal_position"
        assert con.execute(q).fetchall() == db.execute(q).fetchall(), table
    want = db.execute(
        "SELECT game, count(*), sum(total_pot) FROM hands GROUP BY ALL ORDER BY game"
    ).fetchall()
    db.close()
    got = (pl.scan_delta(f"{url}/hands").group_by("game")
           .agg(pl.len(), pl.col("total_pot").sum()).sort("game").collect())
    assert [tuple(r) for r in got.iter_rows()] == want
    seats = lake.files_of(url, "seats", games=["calatone"])
    every = lake.files_of(url, "seats")
    assert seats and all("/game=calatone/" in f for f in seats)
    assert len(seats) < len(every)
    only = lake.connect(url, games=["calatone"])
    assert only.execute("SELECT DISTINCT game FROM hands").fetchall() == [("calatone",)]
    n = only.execute("SELECT count(*) FROM seats").fetchone()
    assert n == con.execute(
        "SELECT count(*) FROM seats JOIN hands USING (site, hand_id) WHERE game = 'calatone'"
    ).fetchone() and n[0] > 0
    assert lake.connect(url, games=[]).execute("SELECT count(*) FROM hands").fetchone() == (0,)


def test_killed_worker_loses_and_duplicates_nothing(client, data) -> None:
    """One worker process of the LocalCluster is killed (SIGKILL) right after
    the first task is committed; Dask gives its task to the other worker.
    Whatever the run could not finish, the rerun does; the lake then equals
    the direct import."""
    url = str(data["folder"] / "killed")
    pids = sorted(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_once(_written: object) -> None:
        if not killed:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    first = run_import(data["files"], url, client=client, chunk_bytes=8_000,
                       on_commit=kill_once, commit_seconds=0)
    assert killed
    second = run_import(data["files"], url, client=client, chunk_bytes=8_000)
    assert second.left == []
    assert first.imported + second.imported == 148
    _complete(url, data)


_CLIENT = """
import sys
from distributed import Client, LocalCluster
from pipelines.cluster import run_import
url, chunk, tasks, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                  dashboard_address=None, silence_logs=40) as cluster, Client(cluster) as c:
    got = run_import(files, url, client=c, chunk_bytes=chunk, commit_tasks=tasks,
                     commit_seconds=0 if tasks == 1 else 1e9)
print(got.imported, len(got.left))
"""


def _client(url: str, files: list[str], chunk: int, kill_at: str | None = None,
            tasks: int = 1) -> subprocess.Popen:
    """A client in its own process committing each task as its turn comes
    (``tasks`` 1) or in groups of ``tasks`` tasks."""
    env = dict(os.environ, HH_NO_IMPORT_HOOKS="1")
    env.pop("HH_LAKE_KILL_AT", None)
    if kill_at:
        env["HH_LAKE_KILL_AT"] = kill_at
    return subprocess.Popen([sys.executable, "-c", _CLIENT, url, str(chunk), str(tasks), *files],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _group_of(files: list[str], name: str, chunk: int, tasks: int) -> int:
    """The commit (1, 2, ...) of the group of ``tasks`` tasks that holds the
    file ``name`` when a client commits ``files`` cut at ``chunk`` bytes."""
    from pipelines.cluster import plan

    scratch = lake.Lake(str(Path(files[0]).parent / f"plan-{chunk}-{tasks}"))
    scratch.create()
    groups, _, _ = plan(files, scratch, chunk)
    at = next(k for k, (_, g) in enumerate(groups) if any(Path(t.name).name == name for t in g))
    return at // tasks + 1


@pytest.mark.parametrize(("kill_at", "tasks"),
                         [("written:3", 1), ("hands:2", 4), ("hands:inside", 4),
                          ("hands:inside", 1), ("cross", 1), ("crossed", 4)])
def test_client_killed_at_any_moment_rerun_completes(client, data, kill_at: str,
                                                     tasks: int) -> None:
    """The client killed between a task's write and its commit, between its
    hands and its other tables (a group of four tasks committed together;
    also the group, and the lone task, holding a hand, a conflicting hand
    of the same id and the hand again: the rerun keeps only the hand that
    was stored, and stores the conflict as a reject), between the last
    commit and the cross-hand result, and between that result and the
    removal of the dirty-tables records: the same command again
    (committing the tasks a killed client began with the rest, in one
    group) completes the lake, table by table, conflicts and rejects
    included, the cross-hand violations too (the dirty-tables records say
    which tables are due)."""
    url = str(data["folder"] / f"client-{kill_at.replace(':', '-')}-{tasks}")
    if kill_at == "hands:inside":
        kill_at = f"hands:{_group_of(data['files'], 'conflict-inside.txt', 8_000, tasks)}"
    proc = _client(url, data["files"], 8_000, kill_at, tasks)
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == -signal.SIGKILL, err
    if kill_at.startswith("cross"):
        assert lake.pending(url) > 0
    again = run_import(data["files"], url, client=client, chunk_bytes=8_000)
    assert again.left == []
    _complete(url, data)


@pytest.mark.parametrize("seed", [7, 11])
def test_client_killed_from_outside_at_a_random_moment_rerun_completes(client, data,
                                                                      seed: int) -> None:
    """The client killed from outside (SIGKILL, as a user's ``kill -9`` or a
    machine that stops) at a moment drawn at random, not at a built-in
    point: wherever it was (starting its cluster, reading, committing, or
    done already), the same command again completes the lake, table by
    table, conflicts and rejects included."""
    import random
    import time

    url = str(data["folder"] / f"client-random-{seed}")
    proc = _client(url, data["files"], 8_000, tasks=2)
    time.sleep(random.Random(seed).uniform(1.0, 8.0))
    proc.kill()
    proc.communicate(timeout=240)
    again = run_import(data["files"], url, client=client, chunk_bytes=8_000)
    assert again.left == []
    _complete(url, data)


def test_two_clients_at_once_store_each_hand_once(data) -> None:
    """Two clients import the same files into one lake at the same time, cut
    into tasks of other sizes (so their commits race for the same
    partitions, not only the same tasks): each hand is stored once, with its
    rows in every table once, and the cross-hand checks are the database's."""
    url = str(data["folder"] / "two")
    lake.Lake(url).create()
    procs = [_client(url, data["files"], CHUNK), _client(url, data["files"], 6_000, tasks=3)]
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
        assert out.split()[1] == "0"  # nothing left to do
    con = lake.connect(url)
    got = lake.checksums(con)
    want = data["sums"]
    for table in (*lake.TABLES, lake.CROSS):
        assert got[table][0] == want[table][0], table
    for table, sums in got.items():  # the text of every row is the database's
        if table not in ("hands", "rejects"):  # which copy's file and line is stored varies
            assert sums == want[table], table
    assert con.execute(
        "SELECT count(DISTINCT (site, hand_id)), count(*) FROM hands"
    ).fetchone() == (148, 148)
    for table in ("hand_text", "seats", "actions"):
        assert con.execute(
            f"SELECT count(*) FROM {table} ANTI JOIN hands USING (site, hand_id)"
        ).fetchone() == (0,)
    assert lake.pending(url) == 0


def test_optimize_compacts_and_vacuums_uncommitted_files(client, data, tmp_path) -> None:
    """``hh lake optimize``: small files compacted into fewer, the files of an
    attempt that never committed removed, the tables' contents unchanged."""
    from typer.testing import CliRunner

    from pipelines.lake_cli import lake_app

    url = str(tmp_path / "lake")
    run_import(data["files"], url, client=client, chunk_bytes=8_000)
    stray = Path(url) / "hands" / "game=calatone" / "date=2001-01-01" / "part-stray.parquet"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"PAR1 an attempt that never committed")
    before = len(lake.Lake(url).table("seats").file_uris())
    out = CliRunner().invoke(lake_app, ["optimize", url, "--retention-hours", "0"])
    assert out.exit_code == 0, out.output
    assert not stray.exists()
    assert len(lake.Lake(url).table("seats").file_uris()) < before
    _complete(url, data)
    for args in (["optimize", str(tmp_path / "none")],
                 ["load", str(tmp_path / "none"), "--db", str(tmp_path / "x.duckdb")]):
        bad = CliRunner().invoke(lake_app, args)
        assert bad.exit_code == 2 and "no lake at" in bad.output


def test_a_files_facts_come_from_the_clients_cut(tmp_path) -> None:
    """A worker takes a file's lines and SHA-256 from the client's cut (not
    reading the file again) while the file keeps the size and mtime the cut
    saw; a file changed since is read again for them."""
    import datetime as dt
    import hashlib

    from pipelines.work import Task

    path = str(tmp_path / "one.txt")
    Path(path).write_text(write_hands(list(Simulator(Game("calatone"), seed=3).hands(3))),
                          encoding="utf-8")
    cut, facts = lake.file_facts(path, 1 << 20)
    assert facts is not None and len(cut) == 1
    data = Path(path).read_bytes()
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.lines == data.count(b"\n")
    store = lake.Lake(str(tmp_path / "lake"))
    store.create()
    now = dt.datetime(2026, 1, 1)
    marked = facts._replace(sha256="from the cut", lines=-1)
    got = store.write_task([Task(cut[0], path)], "t", 1, now, {path: marked})
    assert (got.chunks[0].sha256, got.chunks[0].lines) == ("from the cut", -1)
    stale = marked._replace(mtime_ns=facts.mtime_ns - 1)
    got = store.write_task([Task(cut[0], path)], "t", 1, now, {path: stale})
    assert (got.chunks[0].sha256, got.chunks[0].lines) == (facts.sha256, facts.lines)


class _LostPass:
    """A client whose cluster fails whatever is submitted one by one (the
    cross-hand pass, once the tasks are done): a worker lost at the end."""

    def __init__(self, client: object) -> None:
        self.client = client
        self.submitted = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.client, name)

    def submit(self, *args: object, **kwargs: object) -> object:
        self.submitted += 1
        outer = self

        class Failed:
            def result(self) -> None:
                raise RuntimeError(f"lost ({outer.submitted})")

            def release(self) -> None:
                pass

        return Failed()


def test_the_cross_hand_pass_lost_on_a_worker_runs_on_the_client(client, data, tmp_path) -> None:
    """The cross-hand pass runs on a worker beside the import hooks; a
    worker lost there leaves it to the client, which completes it."""
    url = str(tmp_path / "lake")
    lost = _LostPass(client)
    got = run_import([f for f in data["files"] if "gaps-" in f], url, client=lost)
    assert lost.submitted == 1 and got.imported == 27
    con = lake.connect(url)
    assert con.execute("SELECT count(*) FROM cross_violations").fetchone() == (14,)
    assert lake.pending(url) == 0


def test_a_file_that_is_not_text_is_refused_unread(client, data, tmp_path) -> None:
    """Random bytes beside a log: the Dask import says the file is no text
    (an error: ``hh import`` exits 2), reads none of it, and stores the
    log's hands; nothing of the noise is in the lake."""
    import random

    noise = tmp_path / "noise.txt"
    noise.write_bytes(random.Random(7).randbytes(50_000))
    log = data["files"][2]
    url = str(tmp_path / "lake")
    got = run_import([str(noise), log], url, client=client, chunk_bytes=CHUNK)
    at = noise.read_bytes()[:8192].index(b"\0") + 1
    assert got.errors == [f"{noise} is not a hand history (a NUL byte at byte {at:,}: binary "
                          "data, not text): it is not read"]
    assert got.left == [] and got.imported == 40 and got.files == 1
    con = lake.connect(url)
    assert con.execute("SELECT count(*) FROM rejects").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM files WHERE path = ?", [str(noise)]).fetchone() \
        == (0,)
