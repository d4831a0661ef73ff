"""The per-hand cache of the reports (reports.cache): a warm report equals a
cold one and computes nothing again; a hand whose text or referee changed
is computed again; the equity of a cached hand is read, not recomputed."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import reports.players.counts
import reports.players.equity
from reports.cache import Cache
from reports.db import Filters, connect
from reports.players.equity import exact, expected
from reports.players.report import hand_rows, players
from tests.simload import simulated


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulated(tmp_path_factory.mktemp("cache") / "sim.duckdb", 40, seed=5)


def _copy(src: Path, dst: Path) -> Path:
    dst.write_bytes(src.read_bytes())
    return dst


def _count(con: duckdb.DuckDBPyConnection, cache: str, table: str) -> int:
    con.execute(f"ATTACH '{cache}' AS c (READ_ONLY)")
    n = con.execute(f"SELECT count(*) FROM c.{table}").fetchall()[0][0]
    con.execute("DETACH c")
    return int(n)


def test_warm_report_equals_cold_and_computes_nothing(sim: Path, tmp_path: Path,
                                                      monkeypatch) -> None:  # fmt: skip
    cache = str(tmp_path / "sim.reports.duckdb")
    con = connect(sim)
    cold = players(con, Filters())  # no cache file: in memory
    first = players(con, Filters(), cache=cache)
    assert_frame_equal(cold, first)
    hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    assert _count(con, cache, "counts_hands") == hands
    computed = _count(con, cache, "equity")
    assert computed > 0  # some all-in hand of the sample had its equity computed

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("a cached hand was computed again")

    monkeypatch.setattr(reports.players.equity, "hand_equity", boom)
    monkeypatch.setattr(reports.players.counts, "card_counts", boom)
    warm = players(con, Filters(), cache=cache)
    assert_frame_equal(first, warm)
    # a filtered report reads the same cache
    only = players(con, Filters(games=("chiribito",)), cache=cache)
    assert_frame_equal(only, first.filter(pl.col("game") == "chiribito"))
    assert only.height > 0


def test_changed_hand_is_computed_again(sim: Path, tmp_path: Path) -> None:
    db = _copy(sim, tmp_path / "h.duckdb")
    cache = str(tmp_path / "h.reports.duckdb")
    con = connect(db)
    before = players(con, Filters(), cache=cache, equity=False)
    con.close()
    # what `hh import --revalidate` does to one hand: new verdict rows, new hh_version
    rw = duckdb.connect(str(db))
    site, hand_id, player = rw.execute(
        "SELECT s.site, s.hand_id, s.player FROM seats s JOIN hands h "
        "USING (site, hand_id) WHERE h.game = 'calatone' AND NOT s.sitting_out LIMIT 1"
    ).fetchall()[0]
    rw.execute("UPDATE seats SET net = net + 1000 WHERE site = ? AND hand_id = ? AND player = ?",
               [site, hand_id, player])  # fmt: skip
    rw.execute("UPDATE hands SET hh_version = 'newer' WHERE site = ? AND hand_id = ?",
               [site, hand_id])  # fmt: skip
    rw.close()
    con = connect(db)
    after = players(con, Filters(), cache=cache, equity=False)
    key = (pl.col("player") == player) & (pl.col("game") == "calatone")
    assert after.filter(key)["net"].item() == before.filter(key)["net"].item() + 1000
    assert_frame_equal(after.filter(~key), before.filter(~key))
    # the old key's rows are gone: one row set per hand
    hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    assert _count(con, cache, "counts_hands") == hands
    assert after.filter(key)["net"].item() == players(con, Filters(), equity=False).filter(
        key)["net"].item()  # fmt: skip


def test_equity_cache_hit_is_identical_and_a_changed_hand_is_recomputed(
    sim: Path, tmp_path: Path, monkeypatch
) -> None:
    db = _copy(sim, tmp_path / "e.duckdb")
    cache = str(tmp_path / "e.reports.duckdb")
    con = connect(db)
    calls: list[int] = []
    real = reports.players.equity.hand_equity

    def counted(task: dict) -> list:
        calls.append(task["key"])
        return real(task)

    monkeypatch.setattr(reports.players.equity, "hand_equity", counted)
    monkeypatch.setattr(reports.players.equity, "PARALLEL_FROM", 10**9)  # in this process
    first = hand_rows(con, Filters(), cache=cache).collect()
    n = len(calls)
    assert n > 0
    again = hand_rows(con, Filters(), cache=cache).collect()
    assert len(calls) == n
    cols = ["hk", "player", "allin_adjusted_net", "allin_se"]
    assert_frame_equal(first.select(cols).sort("hk", "player"), again.select(cols).sort(
        "hk", "player"))  # fmt: skip
    # a Chiribito all-in hand: exact, so the same figures once recomputed (a
    # stud hand's Monte Carlo is seeded by the key, which changes with it)
    adjusted = first.filter((pl.col("allin_adjusted_net") != pl.col("net"))
                            & (pl.col("game") == "chiribito"))  # fmt: skip
    site, hand_id = adjusted.select("site", "hand_id").row(0)
    con.close()
    rw = duckdb.connect(str(db))
    rw.execute("UPDATE hands SET content_hash = 'changed' WHERE site = ? AND hand_id = ?",
               [site, hand_id])  # fmt: skip
    rw.close()
    con = connect(db)
    third = hand_rows(con, Filters(), cache=cache).collect()
    assert len(calls) == n + 1  # that hand only
    mine = (pl.col("site") == site) & (pl.col("hand_id") == hand_id)
    assert_frame_equal(
        third.filter(mine).select(cols[1:]).sort("player"),
        first.filter(mine).select(cols[1:]).sort("player"),
    )


def test_a_cache_held_elsewhere_falls_back_to_memory(sim: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "held.reports.duckdb")
    holder = duckdb.connect(cache)  # another process would hold its lock the same way
    holder.execute("CREATE TABLE x (a INTEGER)")
    con = connect(sim)
    store = Cache(con, tmp_path / "nowhere" / "x.duckdb")  # a folder that does not exist
    assert not store.persistent
    store.close()
    assert_frame_equal(players(con, Filters(), cache=cache, equity=False),
                       players(con, Filters(), equity=False))  # fmt: skip
    holder.close()


def test_chiribito_board_enumeration_matches_the_general_one() -> None:
    from reports.players.equity import Spot, exact_general

    spot = Spot("chiribito", ("La Perla wins",), {"A": ["So", "7o"], "B": ["Ac", "Ae"],
                                                  "C": ["Ab", "Ao"]},
                {"A": 0, "B": 0, "C": 0}, [(300, ["A", "B", "C"]), (120, ["B", "C"])],
                board=["6o", "Cc", "5e"], board_to_come=2)  # fmt: skip
    general = exact_general(spot)
    assert exact(spot) == pytest.approx(general, abs=1e-9)
    assert expected(spot, seed=1)[2] == "exact"


def test_cli_cache_beside_the_database_unless_told(sim: Path, tmp_path: Path) -> None:
    import json

    import typer
    from typer.testing import CliRunner

    from reports.cli import register

    app = typer.Typer()
    register(app)
    db = _copy(sim, tmp_path / "c.duckdb")

    def run(*args: str) -> list:
        out = CliRunner().invoke(app, ["report", "players", "--db", str(db), "--format", "json",
                                       "--game", "calatone", *args])  # fmt: skip
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    plain = run("--no-cache")
    assert not Path(f"{db}.reports.duckdb").exists()
    assert run() == plain and Path(f"{db}.reports.duckdb").exists()
    other = tmp_path / "elsewhere.duckdb"
    assert run("--cache", str(other)) == plain and other.exists()


def test_equity_in_worker_processes_equals_in_process(sim: Path, monkeypatch) -> None:
    con = connect(sim)
    f = Filters(games=("chiribito",))
    cols = ["hk", "player", "allin_adjusted_net", "allin_se"]
    monkeypatch.setattr(reports.players.equity, "PARALLEL_FROM", 10**9)
    serial = hand_rows(con, f).collect().select(cols).sort("hk", "player")
    monkeypatch.setattr(reports.players.equity, "PARALLEL_FROM", 1)
    monkeypatch.setattr(reports.players.equity, "_BATCH", 2)
    seen: list[tuple[str, int, int]] = []
    pooled = hand_rows(con, f, progress=lambda *event: seen.append(event))
    assert_frame_equal(pooled.collect().select(cols).sort("hk", "player"), serial)
    equity = [(done, total) for stage, done, total in seen if stage == "all-in equity"]
    assert len(equity) > 1 and equity[-1][0] == equity[-1][1] > 1  # batch by batch, to the end
