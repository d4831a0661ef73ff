"""The database's tables (docs/schema.md is the contract), its version and
the path from one version to the next.

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

SCHEMA_VERSION = 5

TABLES_DDL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER NOT NULL,
    applied_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS imports (
    import_run INTEGER NOT NULL,
    started_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    hh_version VARCHAR NOT NULL,
    command VARCHAR NOT NULL,
    summary VARCHAR
);
CREATE TABLE IF NOT EXISTS files (
    path VARCHAR NOT NULL,
    sha256 VARCHAR,
    size BIGINT,
    lines BIGINT,
    hands INTEGER,
    imported_at TIMESTAMP,
    status VARCHAR NOT NULL,
    error VARCHAR,
    open_at BIGINT,
    open_line INTEGER
);
CREATE TABLE IF NOT EXISTS hands (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    game VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    max_seats SMALLINT,
    dealer_seat SMALLINT,
    started_at TIMESTAMP,
    started_local VARCHAR,
    zone VARCHAR,
    forced BIGINT,
    small_bet BIGINT,
    big_bet BIGINT,
    house_rules VARCHAR[],
    players SMALLINT,
    total_pot BIGINT,
    rake BIGINT,
    last_round SMALLINT,
    showdown BOOLEAN,
    judged BOOLEAN NOT NULL,
    valid BOOLEAN NOT NULL,
    n_violations INTEGER NOT NULL,
    n_hand_violations INTEGER NOT NULL,
    n_unchecked INTEGER NOT NULL,
    hero_view BOOLEAN,
    file VARCHAR,
    line INTEGER,
    table_line INTEGER,
    content_hash VARCHAR NOT NULL,
    hh_version VARCHAR NOT NULL,
    import_run INTEGER,
    board VARCHAR[],
    board_rounds SMALLINT[]
);
CREATE TABLE IF NOT EXISTS hand_text (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    raw_text VARCHAR NOT NULL USING COMPRESSION zstd
);
CREATE TABLE IF NOT EXISTS seats (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    seat SMALLINT,
    line INTEGER,
    player VARCHAR,
    sitting_out BOOLEAN,
    dealt_in BOOLEAN,
    position SMALLINT,
    is_dealer BOOLEAN,
    stack_start BIGINT,
    top_up BIGINT,
    stack_end BIGINT,
    down_cards VARCHAR[],
    up_cards VARCHAR[],
    shown BOOLEAN,
    mucked BOOLEAN,
    put_in BIGINT,
    uncalled BIGINT,
    won BIGINT,
    net BIGINT,
    rake_paid BIGINT,
    went_to_showdown BOOLEAN,
    folded_round SMALLINT,
    all_in_round SMALLINT,
    hand_category VARCHAR,
    down_rounds SMALLINT[],
    up_rounds SMALLINT[],
    declared VARCHAR[][]
);
CREATE TABLE IF NOT EXISTS actions (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    seq INTEGER,
    line INTEGER,
    round SMALLINT,
    street VARCHAR,
    player VARCHAR,
    kind VARCHAR,
    amount BIGINT,
    raise_by BIGINT,
    total_after BIGINT,
    all_in BOOLEAN,
    timed_out BOOLEAN,
    pot_before BIGINT,
    to_call_before BIGINT,
    stack_before BIGINT,
    code VARCHAR
);
CREATE TABLE IF NOT EXISTS pots (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    pot_index SMALLINT,
    amount BIGINT,
    eligible VARCHAR[],
    winners VARCHAR[],
    shares BIGINT[]
);
CREATE TABLE IF NOT EXISTS hand_violations (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    code VARCHAR,
    line INTEGER,
    message VARCHAR,
    unchecked BOOLEAN
);
CREATE TABLE IF NOT EXISTS cross_violations (
    site VARCHAR NOT NULL,
    hand_id VARCHAR NOT NULL,
    code VARCHAR,
    line INTEGER,
    message VARCHAR
);
CREATE TABLE IF NOT EXISTS rejects (
    file VARCHAR,
    line INTEGER,
    raw_text VARCHAR,
    error VARCHAR,
    error_line INTEGER,
    error_column INTEGER,
    kind VARCHAR NOT NULL,
    site VARCHAR,
    hand_id VARCHAR,
    game VARCHAR,
    table_name VARCHAR,
    started_at TIMESTAMP,
    content_hash VARCHAR,
    other_file VARCHAR,
    other_line INTEGER,
    import_run INTEGER,
    imported_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS dirty_tables (
    site VARCHAR NOT NULL,
    table_name VARCHAR NOT NULL,
    since TIMESTAMP
);
CREATE TABLE IF NOT EXISTS notes (
    subject VARCHAR NOT NULL,
    site VARCHAR NOT NULL,
    target VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    written_at TIMESTAMP NOT NULL
);
CREATE OR REPLACE VIEW violations AS
    SELECT site, hand_id, code, line, message, unchecked, 'hand' AS source
    FROM hand_violations
    UNION ALL
    SELECT site, hand_id, code, line, message, false AS unchecked, 'cross' AS source
    FROM cross_violations;
"""

# Columns of each table that say when or by which run a row was written:
# they differ between two imports of the same files, everything else must not.
BOOKKEEPING = {"imported_at", "import_run", "applied_at", "written_at"}

def _to_2(con: Any) -> None:
    """The cards' rounds and the board, so that reports read them instead of
    parsing the stored text: NULL for hands imported before (``hh import
    --revalidate`` fills them)."""
    con.execute(
        "ALTER TABLE hands ADD COLUMN board VARCHAR[];"
        "ALTER TABLE hands ADD COLUMN board_rounds SMALLINT[];"
        "ALTER TABLE seats ADD COLUMN down_rounds SMALLINT[];"
        "ALTER TABLE seats ADD COLUMN up_rounds SMALLINT[];"
        "ALTER TABLE seats ADD COLUMN declared VARCHAR[][];"
    )


def _to_3(con: Any) -> None:
    """Where each dirty table's chain changed: the earliest instant of the
    rows written since its last check (NULL: anywhere, the whole chain), so
    that the cross-hand pass reads its end, not all of it."""
    con.execute("ALTER TABLE dirty_tables ADD COLUMN since TIMESTAMP")


def _to_4(con: Any) -> None:
    """Where a file's last hand begins when nothing follows it (it may still
    grow: read again, and replaced if it grew): NULL for files imported
    before, whose last hand is then read again only as a partial file's is."""
    con.execute(
        "ALTER TABLE files ADD COLUMN open_at BIGINT;"
        "ALTER TABLE files ADD COLUMN open_line INTEGER;"
    )


def _to_5(con: Any) -> None:
    """The players' and hands' notes and tags (pipelines.notes): written
    by a user, never by an import, so no import or revalidation touches them."""
    con.execute(TABLES_DDL[TABLES_DDL.index("CREATE TABLE IF NOT EXISTS notes"):
                           TABLES_DDL.index("CREATE OR REPLACE VIEW violations")])


# version -> the step from version - 1 to it. Version 1 is created whole;
# a change adds ``n: _to_n`` here (ALTER TABLE ... in SQL) and bumps
# SCHEMA_VERSION: ``ensure`` then applies it to every older database.
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
