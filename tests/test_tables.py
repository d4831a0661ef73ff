"""The one declaration of the stored tables (pipelines/tables.py): the
database a fresh import makes and a migrated one are what it declares, and
docs/schema.md says what it declares."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pipelines import schema, tables
from pipelines.columns import COLUMNS
from pipelines.rows import SCHEMAS

DOC = Path(__file__).resolve().parent.parent / "docs" / "schema.md"


def _described(con: duckdb.DuckDBPyConnection, name: str) -> list[tuple[str, str, bool]]:
    return [(r[0], r[1], r[2] == "NO") for r in con.execute(f"DESCRIBE {name}").fetchall()]


def test_the_page_says_what_the_declaration_declares() -> None:
    page = DOC.read_text(encoding="utf-8")
    assert tables.replace_section(page) == page, (
        "docs/schema.md differs from pipelines/tables.py: "
        "python -m pipelines.tables --markdown docs/schema.md")


def test_a_new_database_has_the_declared_tables_and_nothing_else() -> None:
    con = duckdb.connect()
    schema.ensure(con)
    names = {r[0] for r in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE NOT internal").fetchall()}
    assert names == set(tables.TABLE)
    for t in tables.TABLES:
        assert _described(con, t.name) == [
            (c.name, c.sql_type, c.not_null) for c in t.columns], t.name
    for v in tables.VIEWS:
        assert [(n, k) for n, k, _ in _described(con, v.name)] == [
            (c.name, c.sql_type) for c in v.columns], v.name
    # the raw text with zstd: the one column with a compression of its own
    sql = con.execute("SELECT sql FROM duckdb_tables() WHERE table_name = 'hand_text'").fetchall()
    assert "raw_text VARCHAR USING COMPRESSION ZSTD NOT NULL" in sql[0][0]


def test_a_version_1_database_is_migrated_to_the_declared_layout() -> None:
    """The columns and the table later versions added, taken away, and the
    version set to 1: the steps give back exactly a new database's tables
    (each CREATE TABLE statement as DuckDB keeps it)."""
    fresh = duckdb.connect()
    schema.ensure(fresh)
    old = duckdb.connect()
    schema.ensure(old)
    old.execute("""
        ALTER TABLE hands DROP COLUMN board; ALTER TABLE hands DROP COLUMN board_rounds;
        ALTER TABLE seats DROP COLUMN down_rounds; ALTER TABLE seats DROP COLUMN up_rounds;
        ALTER TABLE seats DROP COLUMN declared; ALTER TABLE dirty_tables DROP COLUMN since;
        ALTER TABLE files DROP COLUMN open_at; ALTER TABLE files DROP COLUMN open_line;
        DROP TABLE notes; UPDATE schema_version SET version = 1""")
    assert schema.ensure(old) == tables.SCHEMA_VERSION
    q = "SELECT table_name, sql FROM duckdb_tables() ORDER BY 1"
    assert old.execute(q).fetchall() == fresh.execute(q).fetchall()
    assert old.execute("SELECT version FROM schema_version ORDER BY 1").fetchall() == [
        (v,) for v in range(1, tables.SCHEMA_VERSION + 1)]


def test_the_batches_and_the_builder_take_the_declared_columns() -> None:
    """A batch: ``_ord`` and the table's columns less the bookkeeping ones;
    the builder: the same, less a hand's key in the tables of its parts."""
    assert tuple(SCHEMAS) == tables.BATCH == tuple(COLUMNS)
    assert SCHEMAS["seats"].names[:4] == ["_ord", "site", "hand_id", "seat"]
    assert COLUMNS["seats"][:2] == ("_ord", "seat")
    assert "import_run" not in SCHEMAS["hands"].names
    assert SCHEMAS["rejects"].names[-1] == "other_line"
    assert SCHEMAS["hands"].field("board").type == tables.KINDS["strs"][1]


@pytest.mark.parametrize("table", [*tables.TABLES, *tables.VIEWS, *tables.LAKE_TABLES],
                         ids=lambda t: t.name)
def test_every_column_has_a_kind_and_a_meaning(table: tables.Table | tables.View) -> None:
    for c in table.columns:
        assert c.kind in tables.KINDS and c.meaning, (table.name, c.name)
    assert len(set(c.name for c in table.columns)) == len(table.columns)


def test_the_page_is_written_by_the_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:  # fmt: skip
    page = tmp_path / "schema.md"
    page.write_text(f"# head\n\n{tables.BEGIN}\nold\n{tables.END}\n\n## tail\n", encoding="utf-8")
    assert tables.main(["--markdown", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == f"# head\n\n{tables.markdown()}\n## tail\n"
    assert tables.main(["--markdown"]) == 0
    assert capsys.readouterr().out == tables.markdown()
    assert tables.main([]) == 2


def test_a_reader_names_only_stored_columns() -> None:
    assert tables.columns_of("seats", "_ord", "player", batch=True) == ("_ord", "player")
    with pytest.raises(KeyError, match="hands has no column players_seen"):
        tables.columns_of("hands", "game", "players_seen")
    with pytest.raises(KeyError):
        tables.columns_of("hands", "_ord")  # the database's hands have no _ord
