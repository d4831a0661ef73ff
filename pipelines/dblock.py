"""Sharing one DuckDB file between hh processes (docs/decisions.md, "One
database, several commands at once").

DuckDB lets one process write a database file, or several read it, never
both: a second process gets ``Could not set lock on file ... Conflicting
lock is held``. So every hh command holds the file only while it works on
it, and one that finds it held waits instead of failing:

- :func:`open_db` retries the connection until the holder lets go (a
  writer between two batches of a watch, a report when it is done), and
  after ``timeout`` seconds fails with a plain :class:`DatabaseBusy` that
  says who holds it; it never lets DuckDB's lock message through.
- While it waits it touches ``<db>.wait`` (:func:`wait_file`); a process
  that holds the file for long (``hh serve``'s read connection, a watch)
  asks :func:`wanted` between two pieces of work and lets go when someone
  is waiting.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from typing import Any

# The database a command uses when --db is not given: $HH_DB, else this file
# in the current folder (:func:`db_path`); every command's --db says so.
DEFAULT_DB = "hands.duckdb"
DB_HELP = f"The DuckDB file (default: $HH_DB, else {DEFAULT_DB})."

# How long a command waits for a database another process holds, by default
# (``$HH_DB_WAIT`` seconds overrides it; the watch of a server waits forever).
DEFAULT_WAIT = 30.0
WANTED_FOR = 2.0  # a wait file touched this recently means someone is waiting
_PID = re.compile(r"PID (\d+)")
# what DuckDB says when another connection holds the file: another process,
# or this one (another read/write mode, or the file attached elsewhere)
_HELD = (
    "Could not set lock",
    "Conflicting lock",
    "different configuration",
    "Unique file handle conflict",
)
# Rows per row group of a database that hh writes (DuckDB's default: 122,880).
# Each commit's checkpoint rewrites a table's last, partly filled row group
# whole; with one row per hand and a commit per write group, a row group of
# the default size was compressed again by every commit until it was full.
ROW_GROUP_SIZE = 32_768
WRITTEN_AS = "hh_db"  # the name of a database that hh writes, in its connections


# The database files this process opened, last last: what a damage met
# later belongs to (hh.pipelines.dbhealth.explain).
OPENED: list[str] = []


class DatabaseUnusable(Exception):
    """The database cannot be opened (not a DuckDB file, held too long,
    damaged): the message is for users, the same in every command."""


class DatabaseBusy(DatabaseUnusable):
    """The database stayed held by another process for the whole wait."""


def db_path(given: str | None = None) -> str:
    """The database a command uses: ``given`` (its --db), else ``$HH_DB``,
    else :data:`DEFAULT_DB` in the current folder."""
    return given or os.environ.get("HH_DB") or DEFAULT_DB


def default_wait() -> float:
    """``$HH_DB_WAIT`` (seconds) if set and a number, else ``DEFAULT_WAIT``."""
    try:
        return float(os.environ.get("HH_DB_WAIT", DEFAULT_WAIT))
    except ValueError:
        return DEFAULT_WAIT


def wait_file(db: str) -> str:
    """The file a waiting process touches: beside the database."""
    return f"{db}.wait"


def is_lock_error(error: BaseException) -> bool:
    """Whether DuckDB refused the file because another connection holds it
    (another process, or this one with another read/write mode)."""
    text = str(error)
    return any(says in text for says in _HELD)


def holder(error: BaseException) -> str:
    """``" (PID n)"`` when DuckDB's message names the holder, else ``""``."""
    m = _PID.search(str(error))
    return f" (PID {m.group(1)})" if m else ""


def _touch(path: str) -> None:
    try:
        with open(path, "a"):
            pass
        os.utime(path)
    except OSError:  # a read-only folder: the holders just do not hear us
        pass


def wanted(db: str) -> bool:
    """Whether another process is waiting for this database now."""
    try:
        return time.time() - os.stat(wait_file(db)).st_mtime < WANTED_FOR
    except OSError:
        return False


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
    hh.pipelines.dbhealth). Any other refusal (not a database, no such
    folder) raises :class:`DatabaseUnusable` at once, with DuckDB's reason."""
    import duckdb
    from hh.pipelines.dbhealth import DatabaseDamaged, check, damaged

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
            _touch(wait_file(db))  # the holder hears that someone waits
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
