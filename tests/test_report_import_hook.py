"""The reports' per-hand counts and all-in equity filled by the import (the
equity by the import's deriver, reports.players.imported (pipelines.hooks), in the
import's workers; the counts by its after-import hook, which fills any
equity still missing too): a report after an import
computes nothing, a later import computes only its new hands, and the
figures are those of a report that computes everything itself."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from import_helpers import hh_import
from polars.testing import assert_frame_equal

import reports.players.counts
import reports.players.equity
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands
from reports.db import Filters, connect
from reports.players.report import players


def _logs(folder: Path, seed: int, hands: int = 40) -> list[str]:
    files = []
    for k, game in enumerate(Game):
        path = folder / f"{game.value}-{seed}.txt"
        path.write_text(write_hands(Simulator(game, seed=seed + k, tables=2).hands(hands)),
                        encoding="utf-8")  # fmt: skip
        files.append(str(path))
    return files


def _import(db: Path, files: list[str]) -> None:
    code, _, err = hh_import(*files, "--db", str(db), "--workers", "1")
    assert code == 0, err


def _cached(db: Path, table: str) -> int:
    con = duckdb.connect()
    con.execute(f"ATTACH '{db}.reports.duckdb' AS c (READ_ONLY)")
    return int(con.execute(f"SELECT count(*) FROM c.{table}").fetchall()[0][0])


def _hands(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    n = int(con.execute("SELECT count(*) FROM hands").fetchall()[0][0])
    con.close()
    return n


def _boom(*_a: object, **_k: object) -> None:
    raise AssertionError("a report computed a hand the import had computed")


def test_import_fills_the_counts_and_a_report_computes_nothing(tmp_path: Path,
                                                               monkeypatch) -> None:  # fmt: skip
    db = tmp_path / "h.duckdb"
    monkeypatch.setattr(reports.players.counts, "IMPORT_BATCH", 37)  # several statements
    _import(db, _logs(tmp_path, seed=3))
    first = _hands(db)
    assert _cached(db, "counts_hands") == first > 100
    assert _cached(db, "equity_hands") == first  # a few all-in hands: within the hook's limit
    assert _cached(db, "equity") > 0
    con = connect(db)
    fresh = players(con, Filters(), cache=None)  # computed in memory, every hand
    with monkeypatch.context() as m:
        m.setattr(reports.players.counts, "card_counts", _boom)
        m.setattr(reports.players.equity, "hand_equity", _boom)
        after = players(con, Filters(), cache=f"{db}.reports.duckdb")
    assert_frame_equal(after, fresh)
    con.close()
    # a second import: only its new hands are computed
    todo: list[int] = []
    real = reports.players.counts.card_counts

    def counted(c: duckdb.DuckDBPyConnection) -> None:
        todo.append(int(c.execute("SELECT count(*) FROM _todo").fetchall()[0][0]))
        real(c)

    monkeypatch.setattr(reports.players.counts, "card_counts", counted)
    _import(db, _logs(tmp_path, seed=11, hands=10))
    total = _hands(db)
    assert todo == [total - first] and total > first
    assert _cached(db, "counts_hands") == total
    con = connect(db)
    assert_frame_equal(players(con, Filters(), cache=f"{db}.reports.duckdb"),
                       players(con, Filters(), cache=None))  # fmt: skip


def test_no_hooks_when_told(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HH_NO_IMPORT_HOOKS", "1")
    db = tmp_path / "h.duckdb"
    _import(db, _logs(tmp_path, seed=3, hands=5))
    assert not Path(f"{db}.reports.duckdb").exists()


def test_equity_missing_from_the_cache_is_left_to_the_report(tmp_path: Path) -> None:
    import json

    import typer
    from typer.testing import CliRunner

    from reports.cli import register

    db = tmp_path / "h.duckdb"
    _import(db, _logs(tmp_path, seed=3))
    assert _cached(db, "counts_hands") == _hands(db)
    # as if the import could not keep it (its cache file held by a report)
    con = duckdb.connect(f"{db}.reports.duckdb")
    con.execute("DELETE FROM equity; DELETE FROM equity_hands")
    con.close()
    assert _cached(db, "equity_hands") == 0
    app = typer.Typer()
    register(app)

    def run(*args: str) -> tuple[list[dict], str]:
        out = CliRunner().invoke(app, ["report", "players", "--db", str(db), "--format", "json",
                                       *args])  # fmt: skip
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout), out.stderr

    partial, said = run("--no-equity-fill")
    assert f"{_hands(db):,} hands are not checked for all-in equity yet" in said
    assert all(r["allin_adjusted_net"] == pytest.approx(r["net"]) for r in partial)
    assert _cached(db, "equity_hands") == 0  # nothing computed
    full, said = run()
    assert said == "" and _cached(db, "equity_hands") == _hands(db)
    assert any(r["allin_adjusted_net"] != pytest.approx(r["net"]) for r in full)
    assert [r["net"] for r in full] == [r["net"] for r in partial]


def test_a_reimport_that_stores_nothing_runs_no_hook(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "h.duckdb"
    files = _logs(tmp_path, seed=3, hands=5)
    _import(db, files)
    calls: list[object] = []
    monkeypatch.setattr(
        reports.players.counts, "after_import", lambda con, cache, stored: calls.append(con)
    )
    _import(db, files)  # every hand a duplicate
    assert calls == []
    _import(db, _logs(tmp_path, seed=21, hands=3))
    assert len(calls) == 1


def _cache_tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect()
    con.execute(f"ATTACH '{db}.reports.duckdb' AS c (READ_ONLY)")
    out = {t: sorted(con.execute(f"SELECT * FROM c.{t}").fetchall(), key=repr)
           for t in ("counts", "counts_hands", "equity", "equity_hands")}  # fmt: skip
    con.close()
    return out


def test_what_the_workers_derive_is_what_a_pass_over_the_database_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two workers (several chunks a file), the same hand twice in the run
    # and a conflict: each stored hand kept once, with the figures computed
    # from the database itself
    monkeypatch.setenv("HH_IMPORT_CHUNK_BYTES", "20000")
    monkeypatch.setenv("HH_IMPORT_POOL_MIN_BYTES", "0")
    files = _logs(tmp_path, seed=5, hands=60)
    text = Path(files[0]).read_text("utf-8")
    first = text.split("\n\n")[0]
    other = first.replace(" 00:00:00 UTC", " 00:00:01 UTC", 1)  # same id, other text
    assert other != first
    (tmp_path / "again.txt").write_text(first + "\n\n" + other + "\n", "utf-8")
    (tmp_path / "other.txt").write_text(other + "\n", "utf-8")  # first of its batch
    db = tmp_path / "h.duckdb"
    code, summary, err = hh_import(*files, str(tmp_path / "again.txt"),
                                   str(tmp_path / "other.txt"), "--db", str(db),
                                   "--workers", "2")  # fmt: skip
    assert summary is not None, err
    assert (code, summary["duplicates"], summary["conflicts"]) == (1, 1, 2), summary
    assert _cached(db, "counts_hands") == _hands(db) == _cached(db, "equity_hands")
    assert _cached(db, "equity") > 0
    derived = _cache_tables(db)
    Path(f"{db}.reports.duckdb").unlink()
    monkeypatch.setattr(reports.players.counts, "IMPORT_EQUITY_LIMIT", 10**9)
    con = duckdb.connect(str(db))
    reports.players.counts.after_import(con)  # every hand, by SQL over the database
    con.close()
    assert _cache_tables(db) == derived


def test_the_hooks_equity_limit_stops_at_a_slice_and_a_fill_within_it_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over its limit, the hook reads the all-in hands a slice at a time and
    stops once the limit is passed (nothing kept); within it, the equity
    kept is the one a fill without a limit keeps."""
    from reports.cache import Cache, default_path
    from reports.players.equity import EQUITY_COLUMNS, VERSION, candidates, fill_equity

    db = tmp_path / "h.duckdb"
    _import(db, _logs(tmp_path, seed=3))
    con = duckdb.connect(str(db))

    def todo() -> Cache:
        Path(default_path(db)).unlink(missing_ok=True)
        store = Cache(con, default_path(db))
        store.want("TRUE", [])
        store.ensure("equity", VERSION, EQUITY_COLUMNS)
        store.todo("equity")
        return store

    def fill(limit: int | None) -> tuple[int, list[tuple[object, ...]]]:
        store = todo()
        got = fill_equity(con, store, limit=limit, parallel=False)
        kept = sorted(con.execute(f"SELECT * FROM {store.table('equity')}").fetchall())
        store.close()
        return got, kept

    store = todo()
    every = candidates(con)
    monkeypatch.setattr(reports.players.equity, "LIMITED_SLICE", 1)
    first = candidates(con, limit=1)  # slices of 2, 4, ... hands until more than 1 is found
    store.close()
    assert 1 < len(first) < len(every)
    assert first == every[: len(first)]
    whole = fill(None)
    assert whole[0] == len(every) and whole[1]
    assert fill(len(every)) == whole
    assert fill(len(every) - 1) == (-1, [])
    con.close()
