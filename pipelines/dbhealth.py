"""A database that cannot be written or read: a full disk, an I/O error, a
damaged file (docs/decisions.md, "Import under faults").

DuckDB reports these as exceptions of several classes whose messages carry
the cause ("No space left on device") in their middle, and a commit that
failed ends its transaction, so the usual ``ROLLBACK`` fails again with
"no transaction is active", hiding the first error. Here they become one
line for users (:func:`failure`), and :func:`rollback` never hides the
error that made it necessary.
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import Any

NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device"


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
    if isinstance(error, (duckdb.IOException, OSError)) or "database has been invalidated" in text:
        first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        return f"cannot use the database {db}: {first}"
    return None


def damaged(db: str, why: str) -> str:
    """The line for a database file whose blocks do not read back."""
    first = why.strip().splitlines()[0] if why.strip() else "a block does not read back"
    return (
        f"the database {db} is damaged ({first}); nothing was written to it: restore it "
        f"from a copy, or import again into a new file with --db"
    )
