"""Opening the database file: the one way every command opens it.

:func:`open_db` waits while another process holds the file
(pipelines.dblock) and refuses a damaged one (pipelines.dbhealth),
each with one line that says what and why.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from pipelines.dbhealth import DatabaseDamaged, check, damaged
from pipelines.dblock import (
    OPENED,
    ROW_GROUP_SIZE,
    WRITTEN_AS,
    DatabaseBusy,
    DatabaseUnusable,
    default_wait,
    holder,
    is_lock_error,
    touch,
    wait_file,
)


def open_db(
    db: str,
    read_only: bool = False,
    timeout: float | None = None,
    say: Callable[[str], None] | None = None,
) -> Any:
    """A connection to ``db`` (:func:`_connect`), waiting while another process holds
    the file: up to ``timeout`` seconds (None: :func:`default_wait`; a
    negative number: forever), then :class:`DatabaseBusy`. ``say`` hears
    once, after a second, that we are waiting and for whom. A file whose
    blocks do not read back raises DatabaseDamaged (checked at each open:
    pipelines.dbhealth). Any other refusal (not a database, no such
    folder) raises :class:`DatabaseUnusable` at once, with DuckDB's reason."""
    import duckdb

    limit = default_wait() if timeout is None else timeout
    start = time.monotonic()
    delay = 0.02
    told = False
    while True:
        try:
            con = _connect(db, read_only)
        except duckdb.Error as error:
            if "Corrupt database file" in str(error):
                raise DatabaseDamaged(damaged(db, str(error))) from None
            if not is_lock_error(error):
                raise DatabaseUnusable(f"cannot open the database {db}: {error}") from None
            touch(wait_file(db))  # the holder hears that someone waits
            waited = time.monotonic() - start
            who = holder(error)
            if 0 <= limit <= waited:
                raise DatabaseBusy(
                    f"the database {db} is in use by another process{who} and stayed so "
                    f"for {limit:g} s: try again when it is done, or wait longer with "
                    f"HH_DB_WAIT=SECONDS"
                ) from None
            if say is not None and not told and waited >= 1.0:
                say(f"waiting for the database {db}: another process{who} is using it")
                told = True
            time.sleep(delay)
            delay = min(delay * 1.5, 0.2)
            continue
        try:
            check(con, db)
        except BaseException:
            con.close()
            raise
        if db != ":memory:":
            OPENED.append(db)
        return con


def _connect(db: str, read_only: bool) -> Any:
    """``duckdb.connect(db, read_only)``; a file opened to be written is
    attached with rows per row group :data:`ROW_GROUP_SIZE` (an option of
    ATTACH only, not kept in the file) under the name :data:`WRITTEN_AS`.

    The file is attached in an in-memory DuckDB named after it, whose own
    empty database is then detached: every connection and cursor of this
    process to the file shares one database and reads the file's tables by
    their plain names, as with ``duckdb.connect(db)``, and the file is let
    go when the last of them is closed. Its temporary files go beside it,
    as DuckDB puts those of a file it opens itself."""
    import hashlib

    import duckdb

    if read_only or db == ":memory:":
        return duckdb.connect(db, read_only=read_only)
    path = os.path.realpath(db)
    name = ":memory:hh_" + hashlib.sha256(path.encode()).hexdigest()[:16]
    con = duckdb.connect(name, config={"temp_directory": path + ".tmp"})
    try:
        if not _attached(con):
            quoted = "'" + path.replace("'", "''") + "'"
            try:
                con.execute(f"ATTACH {quoted} AS {WRITTEN_AS} (ROW_GROUP_SIZE {ROW_GROUP_SIZE})")
            except duckdb.Error:
                if not _attached(con):  # (else another thread of this process just did)
                    raise
        con.execute(f"USE {WRITTEN_AS}")
        # the file is then every connection's and cursor's default database
        con.execute("DETACH DATABASE IF EXISTS memory")
    except BaseException:
        con.close()
        raise
    return con


def _attached(con: Any) -> bool:
    rows = con.execute(
        "SELECT count(*) FROM duckdb_databases() WHERE database_name = ?", [WRITTEN_AS]
    ).fetchall()
    return bool(rows[0][0])
