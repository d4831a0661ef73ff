"""The integrity report's per-hand facts (reports.integrity.facts): kept
by the first report, then by the import's hook for every hand (not for a
database no integrity report has read), numbered in the order the hands are
stored, each pair's soft-play rows numbered in that order (checked against
a plain SQL window), and the report the same whether it takes the blocks
from those numbers, ranks the hands itself, or computes everything afresh."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from hh.collusion import Collusion
from hh.model import Game
from hh.simulate import Simulator
from hh.write import write_hand
from pipelines.cli import register as register_import
from reports.cache import default_path
from reports.db import Filters
from reports.integrity import facts
from reports.integrity.render import to_json
from reports.integrity.signals import integrity

runner = CliRunner()
app = typer.Typer()


@app.callback()
def _root() -> None:
    """hh import."""


register_import(app)


def _write(path: Path, game: Game, seed: int, hands: int) -> Path:
    pair = (Collusion("<b>Ana</b>", "Bo", "soft-play"),)
    sim = Simulator(game, seed, players=5, tables=2, colluders=pair)
    path.write_text("".join(write_hand(h) + "\n\n" for h in sim.hands(hands)), "utf-8")
    return path


def _import(db: Path, *files: Path) -> None:
    result = runner.invoke(app, ["import", *map(str, files), "--db", str(db)])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games imported (two files, two imports), an integrity report run
    between them: the second import's hook keeps the facts."""
    folder = tmp_path_factory.mktemp("facts")
    db = folder / "s.duckdb"
    _import(db, _write(folder / "ch.txt", Game.CHIRIBITO, 5, 300))
    assert _kept(db) == 0  # no integrity report yet: the import keeps no facts
    con = duckdb.connect(str(db))
    try:
        integrity(con, Filters(), cache=default_path(db))
    finally:
        con.close()
    first = _kept(db)
    assert first == 300  # the report kept every hand's
    _import(db, _write(folder / "ca.txt", Game.CALATONE, 6, 250))
    assert _kept(db) == first + 250  # and the next import its new hands'
    return db


def _kept(db: Path) -> int:
    """How many hands' facts the database's cache holds (0: none kept)."""
    con = duckdb.connect()
    try:
        con.execute(f"ATTACH '{default_path(db)}' AS c (READ_ONLY)")
        tables = {r[0] for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = 'c'").fetchall()}
        if f"{facts.SEATS}_hands" not in tables:
            return 0
        return int(con.execute(f"SELECT count(*) FROM c.{facts.SEATS}_hands").fetchall()[0][0])
    finally:
        con.close()


def _unnumbered(con: duckdb.DuckDBPyConnection) -> int:
    """Soft-play rows whose seq is not their rank among the pair's rows of
    the game by the hands' numbers (a plain window: the oracle)."""
    return int(con.execute(f"""
        SELECT count(*) FROM (
            SELECT p.seq, row_number() OVER (PARTITION BY h.game, p.a, p.b ORDER BY p.n) - 1 AS r
            FROM c.{facts.PAIRS} p JOIN c.{facts.PAIRS}_hands h ON h.n = p.n WHERE p.soft)
        WHERE seq IS DISTINCT FROM r""").fetchall()[0][0])  # fmt: skip


def test_import_keeps_every_hands_facts_numbered_in_stored_order(session: Path) -> None:
    con = duckdb.connect(str(session), read_only=True)
    con.execute(f"ATTACH '{default_path(session)}' AS c (READ_ONLY)")
    hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    for kind in facts.KINDS:
        assert con.execute(f"SELECT count(*) FROM c.{kind}_hands").fetchall()[0][0] == hands
    # the hands' numbers follow the order they are stored in, across both imports
    numbers = [n for (n,) in con.execute(f"""
        SELECT c.n FROM hands h
        JOIN c.{facts.PAIRS}_hands c ON c.hk = hash(h.content_hash, h.hh_version, h.site, h.hand_id)
        ORDER BY h.rowid""").fetchall()]  # fmt: skip
    assert numbers == sorted(numbers) and len(set(numbers)) == hands
    assert con.execute(f"SELECT count(*) FROM c.{facts.PAIRS} WHERE soft").fetchall()[0][0] > 1000
    assert _unnumbered(con) == 0
    # the pairs' next numbers follow their rows
    assert not con.execute(f"""
        SELECT count(*) FROM (
            SELECT h.game, p.a, p.b, max(p.seq) + 1 AS next
            FROM c.{facts.PAIRS} p JOIN c.{facts.PAIRS}_hands h ON h.n = p.n WHERE p.soft
            GROUP BY ALL) r
        FULL JOIN c.{facts.SEQ} s USING (game, a, b)
        WHERE r.next IS DISTINCT FROM s.next""").fetchall()[0][0]  # fmt: skip


def _report(db: Path, cache: Path | None, filters: Filters | None = None) -> str:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return to_json(integrity(con, filters or Filters(), cache=cache))
    finally:
        con.close()


def test_blocks_by_number_by_rank_and_afresh_agree(session: Path, tmp_path: Path) -> None:
    """The kept numbers (blocks without a sort), a cache where one pair's
    numbers have a gap (the report ranks the hands itself) and no cache
    (everything computed for this report) give the same report."""
    kept = _report(session, Path(default_path(session)))
    gap = tmp_path / "gap.duckdb"
    shutil.copyfile(default_path(session), gap)
    con = duckdb.connect(str(gap))
    con.execute(f"""
        UPDATE {facts.PAIRS} SET seq = seq + 1 WHERE soft AND (a, b) =
            (SELECT (a, b) FROM {facts.PAIRS} WHERE soft GROUP BY a, b
             ORDER BY count(*) DESC, a, b LIMIT 1)""")  # fmt: skip
    con.close()
    assert _report(session, gap) == kept
    assert _report(session, None) == kept
    # a filter that leaves gaps in the numbers: ranked, as computed afresh
    calatone = Filters(games=("calatone",), min_hands=50)
    assert _report(session, Path(default_path(session)), calatone) == _report(session, None,
                                                                              calatone)


def test_rows_of_hands_gone_are_numbered_again(session: Path, tmp_path: Path) -> None:
    """A hand deleted from the database: the next import's hook drops its
    facts and numbers the pairs' rows again, without a gap."""
    db = tmp_path / "d.duckdb"
    shutil.copyfile(session, db)
    shutil.copyfile(default_path(session), default_path(db))
    con = duckdb.connect(str(db))
    (hand,) = con.execute("SELECT hand_id FROM hands WHERE game = 'chiribito' "
                          "ORDER BY rowid LIMIT 1 OFFSET 10").fetchall()[0]  # fmt: skip
    con.execute(f"ATTACH '{default_path(db)}' AS c (READ_ONLY)")
    assert con.execute(f"""
        SELECT count(*) FROM c.{facts.PAIRS} p JOIN hands h
        ON hash(h.content_hash, h.hh_version, h.site, h.hand_id) = p.hk
        WHERE h.hand_id = ? AND p.soft""", [hand]).fetchall()[0][0] > 0  # fmt: skip
    con.execute("DETACH c")
    for table in ("hands", "hand_text", "seats", "actions", "pots", "hand_violations"):
        con.execute(f"DELETE FROM {table} WHERE hand_id = ?", [hand])
    con.close()
    _import(db, _write(tmp_path / "more.txt", Game.ACES, 7, 60))
    con = duckdb.connect(str(db), read_only=True)
    con.execute(f"ATTACH '{default_path(db)}' AS c (READ_ONLY)")
    assert _unnumbered(con) == 0
    assert not con.execute(f"SELECT min(seq) FROM c.{facts.PAIRS} WHERE soft "
                           "GROUP BY a, b HAVING min(seq) > 0").fetchall()  # fmt: skip
    con.close()
    assert _report(db, Path(default_path(db))) == _report(db, None)


def test_a_first_report_computes_the_facts_in_batches_with_progress(
    session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report that finds no facts cached computes them a batch of hands at
    a time (its memory bounded, not all of a large database's hands in one
    statement), says how far it is, and gives the report of the facts the
    import kept."""
    kept = _report(session, Path(default_path(session)))
    monkeypatch.setattr(facts, "BATCH", 120)
    heard: list[tuple[str, int, int]] = []
    con = duckdb.connect(str(session), read_only=True)
    try:
        fresh = to_json(integrity(con, Filters(), cache=None,
                                  progress=lambda *a: heard.append(a)))  # fmt: skip
    finally:
        con.close()
    assert fresh == kept
    assert heard == [("standings", 0, 550), ("standings", 550, 550)] + [
        ("integrity facts", done, 550) for done in (0, 120, 240, 360, 480, 550)]


def test_a_first_report_computes_within_bounded_memory_then_lifts_the_bound(
    session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a report computes for the cache (standings and facts) runs under
    FILL_MEMORY_LIMIT, not DuckDB's default of most of the RAM; the report's
    connection has its default limit again afterwards."""
    seen: list[str] = []
    fill = facts.fill

    def spy(con: duckdb.DuckDBPyConnection, *args: Any, **kw: Any) -> int:
        seen.append(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        return fill(con, *args, **kw)

    monkeypatch.setattr(facts, "fill", spy)
    con = duckdb.connect(str(session), read_only=True)
    try:
        default = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        integrity(con, Filters(), cache=None)
        after = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    finally:
        con.close()
    assert seen == ["953.6 MiB"]  # 1GB: 10^9 bytes
    assert after == default != seen[0]
