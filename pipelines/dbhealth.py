"""A database that cannot be written or read: a full disk, an I/O error, a
damaged file (docs/decisions.md, "Import under faults").

DuckDB reports these as exceptions of several classes whose messages carry
the cause ("No space left on device") in their middle, and a commit that
failed ends its transaction, so the usual ``ROLLBACK`` fails again with
"no transaction is active", hiding the first error. Here they become one
line for users (:func:`failure`), and :func:`rollback` never hides the
error that made it necessary.

A damaged file (bytes changed on disk) is found by DuckDB only when it
reads the damaged block, which a report or an import may never do while
it writes beside it. So every hh command checks the file when it opens it
(:func:`check`, called by ``hh.pipelines.dblock.open_db``): a scan that
reads every block of every table once, its checksums verified by DuckDB,
within :data:`CHECK_MEMORY` (what it read is not kept).
A scan costs a read of the whole file; it is made only when the file is
not as hh last left or checked it: a stamp beside the file
(``<db>.checked``: the size, time and inode of the file and of its WAL)
says so, written after a scan that found it sound and after each hh
command that wrote it (:func:`stamp`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from typing import Any

from hh.pipelines.dblock import DatabaseUnusable

NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device"
# DuckDB's memory while :func:`check` scans: the scan streams, and DuckDB keeps
# every block it reads while under its limit (by default most of the
# machine's memory), so without this the process would grow to the size of
# the file it opened.
CHECK_MEMORY = "128MB"


def rollback(con: Any) -> None:
    """Roll back the open transaction, if there still is one: after a
    failed commit (a full disk) DuckDB has ended it already."""
    import duckdb

    with contextlib.suppress(duckdb.Error):
        con.execute("ROLLBACK")


def failure(error: BaseException, db: str) -> str | None:
    """One line saying why the database ``db`` could not be used, for an
    error of storage (a full disk, an I/O error, a damaged file), with what
    to do; None for any other error (a bug: its traceback is wanted)."""
    import duckdb

    text = str(error)
    if NO_SPACE in text or (isinstance(error, OSError) and error.errno == errno.ENOSPC):
        return (
            f"cannot write the database {db}: {NO_SPACE}; what was imported before is kept: "
            "free some space and run the same command again"
        )
    if "Corrupt database file" in text or "checksum" in text.lower():
        return damaged(db, text)
    if isinstance(error, duckdb.IOException) or "database has been invalidated" in text:
        first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        return f"cannot use the database {db}: {first}"
    return None


def damaged(db: str, why: str) -> str:
    """The line for a database file whose blocks do not read back."""
    first = why.strip().splitlines()[0] if why.strip() else "a block does not read back"
    return (
        f"the database {db} is damaged ({first}): hh neither reads nor writes it; restore "
        f"it from a copy, or import again into a new file with --db"
    )


class DatabaseDamaged(DatabaseUnusable):
    """The database file does not read back (a block's checksum does not
    match): no command reads or writes it (exit 2). The message is for users."""


def stamp_file(db: str) -> str:
    """Where the stamp of ``db`` is kept: beside it."""
    return f"{db}.checked"


def _state(db: str) -> list[object]:
    """What a change to the file or its WAL changes."""
    out: list[object] = []
    for path in (db, f"{db}.wal"):
        try:
            st = os.stat(path)
        except OSError:
            out.append(None)
            continue
        out.append([st.st_size, st.st_mtime_ns, st.st_ino])
    return out


def stamp(db: str) -> None:
    """Note that ``db`` is as hh left it (after a command that wrote it) or
    as a check found it: the next open need not scan it. Best effort: in a
    folder hh cannot write, every open scans."""
    path = stamp_file(db)
    with contextlib.suppress(OSError):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(_state(db), f)
        os.replace(tmp, path)


def _stamped(db: str) -> bool:
    try:
        with open(stamp_file(db), encoding="utf-8") as f:
            return bool(json.load(f) == _state(db))
    except (OSError, ValueError):
        return False


def check(con: Any, db: str) -> None:
    """Raise :class:`DatabaseDamaged` if a block of ``db``'s tables does not
    read back; skipped when the file is as stamped (see the module)."""
    import duckdb

    if db == ":memory:" or _stamped(db):
        return
    limit = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    con.execute(f"SET memory_limit = '{CHECK_MEMORY}'")
    try:
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = current_database() AND NOT temporary ORDER BY 1, 2"
        ).fetchall()
        for schema, table in tables:
            columns = con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = "
                "current_database() AND schema_name = ? AND table_name = ?",
                [schema, table],
            ).fetchall()
            # a hash of every value of every column: each block is read (and
            # its checksum verified) once, nothing is kept
            reads = ", ".join(f"bit_xor(hash({_quote(c)}))" for (c,) in columns)
            con.execute(f"SELECT count(*), {reads} FROM {_quote(schema)}.{_quote(table)}")
            con.fetchall()
    except duckdb.Error as error:  # a scan of sound tables does not fail
        raise DatabaseDamaged(damaged(db, str(error))) from None
    finally:
        with contextlib.suppress(duckdb.Error):  # (a broken connection: its error stands)
            _limit(con, limit)
    stamp(db)


def _limit(con: Any, limit: str) -> None:
    """DuckDB's memory limit back to ``limit``, as ``current_setting`` wrote
    it: its default exactly (the text is rounded), another one as written."""
    con.execute("RESET memory_limit")
    if con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] != limit:
        con.execute(f"SET memory_limit = '{limit}'")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
