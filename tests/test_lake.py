"""The lake and the Dask import (issue 13): a LocalCluster import equals the
local DuckDB import table for table; a rerun writes nothing twice; a worker
killed mid-run loses and duplicates nothing; the lake's views, partition
filters and ``lake load``.

The database side is built with the local import's own pieces (the
per-chunk function, the writer, the cross-hand SQL), the same input cut into
the same chunks. Inputs are small: one LocalCluster of two workers serves
the whole module.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import duckdb
import pytest
from hh.pipelines import crosshand, lake, schema
from hh.pipelines.cluster import run_import
from hh.pipelines.work import Task, hh_version, process
from hh.pipelines.writer import Writer

from hh.model import Game
from hh.simulate import Simulator
from hh.sources import chunks
from hh.write import write_hands

CHUNK = 20_000  # bytes: several chunks per file, so several tasks per file


def _inputs(folder: Path) -> list[str]:
    """Three games on two tables each, plus: an exact copy of a file under
    another name (every hand a duplicate), a hand of the same id with other
    text (a conflict), and a run that does not parse (a reject)."""
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
    return [str(p) for p in (*files, copy, odd)]


def _local_import(files: list[str], db: str) -> None:
    con = duckdb.connect(db)
    schema.ensure(con)
    writer = Writer(con, 1)
    for name in files:
        path = os.path.abspath(name)
        for chunk in chunks(path, CHUNK):
            writer.write([process(Task(chunk, path, hh_version=hh_version()))])
    crosshand.check(con)
    con.close()


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
    _local_import(files, db)
    con = duckdb.connect(db, read_only=True)
    sums = lake.checksums(con)
    con.close()
    return {"folder": folder, "files": files, "db": db, "sums": sums}


def _entries(url: str) -> list[dict]:
    return lake.Lake(url).entries()


def test_lake_equals_database_and_rerun_writes_nothing(client, data) -> None:
    url = str(data["folder"] / "lake")
    got = run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    assert got.left == []
    assert got.conflicts == 1 and got.rejected == 1
    assert got.duplicates == 40  # the copy of the Chiribito file
    assert got.imported == 120
    assert got.hands == 4 * 40 + 2
    sums = lake.checksums(lake.connect(url))
    assert sums == data["sums"]
    assert sums["hands"][0] == 120 and sums["rejects"][0] == 2

    parts = sorted(p for e in _entries(url) for p in e["parts"] for p in [p["path"]])
    again = run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    assert again.imported == 0 and again.left == []
    assert again.skipped_chunks == sum(len(chunks(f, CHUNK)) for f in data["files"])
    assert sorted(p["path"] for e in _entries(url) for p in e["parts"]) == parts
    assert lake.checksums(lake.connect(url)) == data["sums"]

    # lake load: a DuckDB file equal to the direct import
    loaded = str(data["folder"] / "loaded.duckdb")
    lake.load(url, loaded)
    con = duckdb.connect(loaded, read_only=True)
    assert lake.checksums(con) == data["sums"]
    con.close()
    with pytest.raises(lake.LakeError):
        lake.load(url, loaded)


def test_views_have_the_database_columns_and_filters_prune(client, data) -> None:
    url = str(data["folder"] / "lake")
    if not _entries(url):
        run_import(data["files"], url, client=client, chunk_bytes=CHUNK)
    con = lake.connect(url)
    db = duckdb.connect(data["db"], read_only=True)
    for table in (*lake.TABLES, lake.CROSS, "violations", "files"):
        q = f"SELECT column_name, data_type FROM information_schema.columns " \
            f"WHERE table_name = '{table}' ORDER BY ordinal_position"
        assert con.execute(q).fetchall() == db.execute(q).fetchall(), table
    db.close()
    only = lake.connect(url, games=["calatone"])
    assert only.execute("SELECT DISTINCT game FROM hands").fetchall() == [("calatone",)]
    n = only.execute("SELECT count(*) FROM seats").fetchone()
    want = con.execute(
        "SELECT count(*) FROM seats JOIN hands USING (site, hand_id) WHERE game = 'calatone'"
    ).fetchone()
    assert n == want and n[0] > 0
    plan = only.execute("EXPLAIN ANALYZE SELECT count(*) FROM seats").fetchall()[0][1]
    total = sum(1 for e in _entries(url) for p in e["parts"] if p["table"] == "seats")
    calatone = sum(
        1 for e in _entries(url) for p in e["parts"]
        if p["table"] == "seats" and "game=calatone/" in p["path"]
    )
    assert f"Scanning Files: {calatone}/{total}" in plan
    assert lake.connect(url, games=[]).execute("SELECT count(*) FROM hands").fetchone() == (0,)


def test_killed_worker_loses_and_duplicates_nothing(client, data) -> None:
    """One worker process of the LocalCluster is killed (SIGKILL) right after
    the first chunk is committed; Dask gives its task to the other worker.
    Whatever the run could not finish, the rerun does; the lake then equals
    the direct import."""
    url = str(data["folder"] / "killed")
    pids = sorted(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_once(_written: object) -> None:
        if not killed:
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    first = run_import(data["files"], url, client=client, chunk_bytes=4_000,
                       on_commit=kill_once)
    assert killed
    second = run_import(data["files"], url, client=client, chunk_bytes=4_000)
    assert second.left == []
    assert first.imported + second.imported == 120
    assert lake.checksums(lake.connect(url)) == data["sums"]
    # no hand twice in the manifest's keys, and no stray temporary file kept
    con = duckdb.connect()
    keys = [lake.Lake(url).uri(e["keys"]) for e in _entries(url)]
    dup = con.execute(
        "SELECT count(*) FROM (SELECT site, hand_id FROM read_parquet($k) WHERE kind = 'hand' "
        "GROUP BY ALL HAVING count(*) > 1)", {"k": keys}
    ).fetchone()
    assert dup == (0,)
    lake.Lake(url).sweep()
    assert not [p for p in Path(url).rglob("*") if p.name.endswith(lake.TMP)]


def test_small_files_are_read_together_in_one_task(client, data) -> None:
    """With tasks of a few megabytes, the five small files (the copy, the
    conflict and the reject included) are one task, one commit and one
    manifest entry naming the five chunks: the lake still equals the
    direct import, and a rerun skips each chunk."""
    from hh.pipelines.cluster import group

    url = str(data["folder"] / "grouped")
    big = 4 * 1024 * 1024
    got = run_import(data["files"], url, client=client, chunk_bytes=big)
    assert got.left == [] and got.imported == 120
    assert (got.duplicates, got.conflicts, got.rejected) == (40, 1, 1)
    entries = _entries(url)
    assert len(entries) == 1
    assert [c["path"] for c in entries[0]["chunks"]] == [os.path.abspath(f) for f in data["files"]]
    assert [c["hands"] for c in entries[0]["chunks"]] == [40, 40, 40, 40, 2]
    assert lake.checksums(lake.connect(url)) == data["sums"]
    again = run_import(data["files"], url, client=client, chunk_bytes=big)
    assert again.skipped_chunks == 5 and again.imported == 0 and len(_entries(url)) == 1
    # groups keep the input order and close before they pass the target
    tasks = [Task(c, f) for f in data["files"] for c in chunks(f, CHUNK)]
    sizes = [os.path.getsize(f) for f in data["files"]]
    groups = group(tasks, 2 * CHUNK)
    assert [t for g in groups for t in g] == tasks
    assert all(
        len(g) == 1 or sum((t.chunk.end or sizes[data["files"].index(t.name)]) - t.chunk.start
                           for t in g) <= 2 * CHUNK
        for g in groups
    )
    assert len(groups) < len(tasks)


def test_a_clean_import_reads_no_part_back_on_the_client(client, data, monkeypatch) -> None:
    """The committer holds keys only: without duplicates or conflicts it
    never opens a part (the workers, other processes, write them)."""
    url = str(data["folder"] / "clean")

    def no_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the committer read a part back")

    monkeypatch.setattr(lake.pq, "read_table", no_read)
    got = run_import(data["files"][:3], url, client=client, chunk_bytes=CHUNK)
    assert got.left == [] and got.imported == 120 and got.duplicates == 0
    monkeypatch.undo()
    want = lake.checksums(lake.connect(url))
    assert want["hands"] == data["sums"]["hands"]
    assert want["seats"] == data["sums"]["seats"]
