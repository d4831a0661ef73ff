"""The database's version and the path from one version to the next; its
tables are declared in pipelines.tables (docs/schema.md is generated from
there), and this module runs what that declaration derives.

``ensure`` creates a new database at ``SCHEMA_VERSION`` or migrates an older
one step by step, each step in the transaction that records it; a database
newer than this code is refused rather than misread.

No primary keys are declared: the writer is the only way in and keeps
``(site, hand_id)`` unique itself (it must, to tell duplicates from
conflicts), and DuckDB's indexes would slow every bulk insert.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipelines.tables import BOOKKEEPING, SCHEMA_VERSION, TABLE, add_column_sql, create_sql, ddl

__all__ = ["BOOKKEEPING", "MIGRATIONS", "SCHEMA_VERSION", "SchemaError", "current_version",
           "ensure"]

# The DDL of a new database: every CREATE TABLE comes from the declaration.
TABLES_DDL = ddl()


def _to_2(con: Any) -> None:
    """The cards' rounds and the board, so that reports read them instead of
    parsing the stored text: NULL for hands imported before (``hh import
    --revalidate`` fills them)."""
    con.execute(
        add_column_sql("hands", "board")
        + add_column_sql("hands", "board_rounds")
        + add_column_sql("seats", "down_rounds")
        + add_column_sql("seats", "up_rounds")
        + add_column_sql("seats", "declared")
    )


def _to_3(con: Any) -> None:
    """Where each dirty table's chain changed: the earliest instant of the
    rows written since its last check (NULL: anywhere, the whole chain), so
    that the cross-hand pass reads its end, not all of it."""
    con.execute(add_column_sql("dirty_tables", "since"))


def _to_4(con: Any) -> None:
    """Where a file's last hand begins when nothing follows it (it may still
    grow: read again, and replaced if it grew): NULL for files imported
    before, whose last hand is then read again only as a partial file's is."""
    con.execute(add_column_sql("files", "open_at") + add_column_sql("files", "open_line"))


def _to_5(con: Any) -> None:
    """The players' and hands' notes and tags (pipelines.notes): written
    by a user, never by an import, so no import or revalidation touches them."""
    con.execute(create_sql(TABLE["notes"]))


# version -> the step from version - 1 to it. Version 1 is created whole;
# a change declares its columns or table in pipelines/tables.py, adds
# ``n: _to_n`` here (``add_column_sql`` or ``create_sql`` of the
# declaration) and bumps SCHEMA_VERSION there: ``ensure`` then applies it
# to every older database. A step takes its types from today's declaration:
# a table a step creates whole already has the columns later steps add
# (they add them ``IF NOT EXISTS``), in the order the declaration lists.
MIGRATIONS: dict[int, Callable[[Any], None]] = {2: _to_2, 3: _to_3, 4: _to_4, 5: _to_5}


class SchemaError(Exception):
    """The database cannot be used by this version of hh."""


def current_version(con: Any) -> int | None:
    """The database's schema version, None for a database without one."""
    found = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'"
    ).fetchall()
    if not found[0][0]:
        return None
    row = con.execute("SELECT max(version) FROM schema_version").fetchall()
    return None if row[0][0] is None else int(row[0][0])


def ensure(con: Any) -> int:
    """Create the tables of a new database, or migrate an older one."""
    version = current_version(con)
    if version is None:
        con.execute("BEGIN TRANSACTION")
        con.execute(TABLES_DDL)
        con.execute(
            "INSERT INTO schema_version VALUES (?, now()::TIMESTAMP)", [SCHEMA_VERSION]
        )
        con.execute("COMMIT")
        return SCHEMA_VERSION
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"the database has schema version {version}, newer than this hh knows "
            f"({SCHEMA_VERSION}): upgrade hh"
        )
    for step in range(version + 1, SCHEMA_VERSION + 1):
        con.execute("BEGIN TRANSACTION")
        MIGRATIONS[step](con)
        con.execute("INSERT INTO schema_version VALUES (?, now()::TIMESTAMP)", [step])
        con.execute("COMMIT")
    return SCHEMA_VERSION
