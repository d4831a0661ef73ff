"""Sharing one DuckDB file between hh processes (docs/decisions.md, "One
database, several commands at once").

DuckDB lets one process write a database file, or several read it, never
both: a second process gets ``Could not set lock on file ... Conflicting
lock is held``. So every hh command holds the file only while it works on
it, and one that finds it held waits instead of failing:

- ``pipelines.database.open_db`` retries the connection until the holder lets go (a
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
# later belongs to (pipelines.dbhealth.explain).
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


def touch(path: str) -> None:
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
