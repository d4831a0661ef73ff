"""Reports from the lake (issues 13 and 27: its Delta tables) equal reports
from the database for the same simulated hands: the players report (cards and all-in equity
included), one player in depth, the violations, with and without a game
filter (which prunes the lake's partitions), and ``hh report ... --lake``.

The lake is written by the Dask import on a one-worker LocalCluster of
threads (no worker processes to start: quick); the database by the local
import of the same files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from import_helpers import hh_import
from polars.testing import assert_frame_equal

from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hands
from reports.db import Filters, connect, connect_lake
from reports.players.depth import in_depth
from reports.players.report import hand_rows, players
from reports.players.stats.table import select_players
from reports.violations import violations


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    from distributed import Client, LocalCluster

    from pipelines.cluster import run_import

    folder = tmp_path_factory.mktemp("lake-report")
    files = []
    for k, game in enumerate(Game):
        hands = list(Simulator(game, seed=31 + k, tables=2).hands(40))
        path = folder / f"{game.value}.txt"
        path.write_text(write_hands(hands), encoding="utf-8")
        files.append(str(path))
    db = str(folder / "hands.duckdb")
    code, _, err = hh_import(*files, "--db", db, "--workers", "1")
    assert code == 0, err
    lake = str(folder / "lake")
    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                     dashboard_address=None, silence_logs=40) as cluster,
        Client(cluster) as client,
    ):  # fmt: skip
        got = run_import(files, lake, client=client)
    assert got.left == [] and got.imported == 120
    return db, lake


def test_players_report_from_the_lake_equals_the_database(stores: tuple[str, str]) -> None:
    db, lake = stores
    from_db = players(connect(db), Filters())
    from_lake = players(connect_lake(lake), Filters())
    assert from_db.height > 10
    assert (from_db["allin_adjusted_net"] != from_db["net"]).any()  # equity did some work
    assert_frame_equal(from_lake, from_db)
    f = Filters(games=("calatone",), valid_only=True)
    assert_frame_equal(players(connect_lake(lake, f), f), players(connect(db), f))


def test_player_and_violations_from_the_lake_equal_the_database(
    stores: tuple[str, str],
) -> None:
    db, lake = stores
    con_db, con_lake = connect(db), connect_lake(lake)
    name = players(con_db, Filters(), equity=False)["player"][0]
    f = Filters(players=(name,))
    mine_db = in_depth(select_players(hand_rows(con_db, f), f))
    mine_lake = in_depth(select_players(hand_rows(con_lake, f), f))
    for key, df in mine_db.items():
        assert_frame_equal(mine_lake[key], df)
    for key, df in violations(con_db, Filters()).items():
        assert_frame_equal(violations(con_lake, Filters())[key], df, check_row_order=False)


def test_cli_reads_the_lake(stores: tuple[str, str], tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from reports.cli import register

    db, lake = stores
    app = typer.Typer()
    register(app)

    def run(*args: str) -> list:
        out = CliRunner().invoke(app, ["report", "players", *args, "--format", "json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    assert run("--lake", lake, "--game", "chiribito") == run("--db", db, "--game", "chiribito")
    assert (Path(lake) / "_reports.duckdb").exists()  # the lake's cache, beside its tables


def test_every_command_says_a_missing_lake_alike(tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from hh.cli import load_plugins

    app = typer.Typer()
    load_plugins(app)
    empty = tmp_path / "empty"
    empty.mkdir()
    for where in (str(empty), str(tmp_path / "none")):
        said = (f"no lake at {where} (no Delta tables: "
                "run `hh import --engine dask --lake DIR` first)")  # fmt: skip
        for who, args in (
            ("hh report", ["report", "players", "--lake", where]),
            ("hh serve", ["serve", "--lake", where, "--port", "0"]),
            ("hh", ["lake", "load", where, "--db", str(tmp_path / "x.duckdb")]),
            ("hh", ["lake", "optimize", where]),
        ):
            out = CliRunner().invoke(app, args)
            assert (out.exit_code, out.stderr) == (2, f"{who}: {said}\n"), args


def test_the_lake_import_fills_the_report_counts(
    stores: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Dask import runs the import hooks too: the lake's own cache
    (``_reports.duckdb``) holds every hand's counts, so the first report on
    the lake computes nothing, and its figures are the database's."""
    import duckdb

    import reports.players.counts

    db, lake = stores
    cache = Path(lake) / "_reports.duckdb"
    assert cache.exists()
    con = duckdb.connect()
    con.execute(f"ATTACH '{cache}' AS c (READ_ONLY)")
    assert con.execute("SELECT count(*) FROM c.counts_hands").fetchall() == [(120,)]
    con.close()

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("the report computed counts the import had computed")

    from_db = players(connect(db), Filters(), cache=None)
    monkeypatch.setattr(reports.players.counts, "card_counts", boom)
    from_lake = players(connect_lake(lake), Filters(), cache=str(cache))
    assert_frame_equal(from_lake, from_db)
