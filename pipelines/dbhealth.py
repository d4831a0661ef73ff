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
(:func:`check`, called by ``pipelines.database.open_db``): a scan that
reads every block of every table once, its checksums verified by DuckDB,
within :data:`CHECK_MEMORY` (what it read is not kept).
A scan costs a read of the whole file; it is made only when the file is
not as hh last left or checked it: a stamp beside the file
(``<db>.checked``: the size, times and inode of the file and of its WAL)
says so, written after a scan that found it sound and after each hh
command that wrote it (:func:`stamp`). Damage found by a scan (or by ``hh
db check``, which also hashes every hand's text again) is noted in the
stamp (:func:`condemn`): every later command refuses the file with the
same line while it stays as it is; damage a command meets while it reads
removes the stamp, so that the next command scans.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from dataclasses import dataclass
from typing import Any

from hh.cli_support import EXPLAINERS
from pipelines.dblock import DatabaseUnusable

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


def _kind(error: BaseException) -> str | None:
    """Which error of storage ``error`` is: ``full`` (no space left),
    ``damaged`` (a block that does not read back), ``io`` (another I/O
    error); None for any other error."""
    import duckdb

    text = str(error)
    if NO_SPACE in text or (isinstance(error, OSError) and error.errno == errno.ENOSPC):
        return "full"
    if is_damage(error):
        return "damaged"
    if isinstance(error, duckdb.IOException) or "database has been invalidated" in text:
        return "io"
    return None


def failure(error: BaseException, db: str) -> str | None:
    """One line saying why the database ``db`` could not be used, for an
    error of storage (a full disk, an I/O error, a damaged file), with what
    to do; None for any other error (a bug: its traceback is wanted). A
    damaged file's stamp is removed: the next open scans it."""
    kind = _kind(error)
    text = str(error)
    if kind == "full":
        return (
            f"cannot write the database {db}: {NO_SPACE}; what was imported before is kept: "
            "free some space and run the same command again"
        )
    if kind == "damaged":
        unstamp(db)
        return damaged(db, text)
    if kind == "io":
        first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        return f"cannot use the database {db}: {first}"
    return None


def damaged(db: str, why: str) -> str:
    """The line for a database file whose blocks do not read back."""
    first = why.strip().splitlines()[0] if why.strip() else "a block does not read back"
    return (
        f"the database {db} is damaged ({first}): hh neither reads nor writes it; restore "
        f"it from a backup, or import the hand histories again into a new file "
        f"(hh import LOGS --db NEW.duckdb)"
    )


def is_damage(error: BaseException) -> bool:
    """Whether DuckDB found a block of the file that does not read back."""
    text = str(error)
    return "Corrupt database file" in text or "checksum" in text.lower()


def is_storage_error(error: BaseException) -> bool:
    """An error of storage (a full disk, an I/O error, a damaged file), which
    no step of a command may swallow (an import hook's error is otherwise
    only said)."""
    return _kind(error) is not None


def explain(error: BaseException) -> str | None:
    """The damaged line for a damage met by a command after it opened its
    database (a report reading a damaged block): registered with
    hh.cli_support.EXPLAINERS, so every command says the same line, exit 2,
    never a traceback. The stamp is removed, not replaced by the verdict:
    DuckDB's error does not name its file (it may be another one the
    command attached, the reports' cache), so the next command's scan of
    the database decides (and notes it, :func:`condemn`)."""
    from pipelines.dblock import OPENED

    if not is_damage(error):
        return None
    if not OPENED:
        return damaged("in use", str(error))
    unstamp(OPENED[-1])
    return damaged(OPENED[-1], str(error))


EXPLAINERS.append(explain)


class DatabaseDamaged(DatabaseUnusable):
    """The database file does not read back (a block's checksum does not
    match): no command reads or writes it (exit 2). The message is for users."""


def stamp_file(db: str) -> str:
    """Where the stamp of ``db`` is kept: beside it."""
    return f"{db}.checked"


def _state(db: str) -> list[object]:
    """What a change to the file or its WAL changes: its size, its times
    (the change time too, which a write sets and no program can set back:
    bytes rewritten in place with the size and mtime kept change it) and
    its inode."""
    out: list[object] = []
    for path in (db, f"{db}.wal"):
        try:
            st = os.stat(path)
        except OSError:
            out.append(None)
            continue
        out.append([st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns])
    return out


def stamp(db: str, damage: str | None = None) -> None:
    """Note that ``db`` is as hh left it (after a command that wrote it) or
    as a check found it: the next open need not scan it; or, with
    ``damage``, that it was found damaged (why): every open refuses it
    while it stays as it is. Best effort: in a folder hh cannot write,
    every open scans."""
    path = stamp_file(db)
    with contextlib.suppress(OSError):
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"state": _state(db), "damaged": damage}, f)
        os.replace(tmp, path)


def unstamp(db: str) -> None:
    """Forget how ``db`` was found: the next open scans it."""
    with contextlib.suppress(OSError):
        os.remove(stamp_file(db))


def condemn(db: str, why: str) -> str:
    """The damaged line of ``db``, noted in its stamp: the commands after
    this one refuse the file at their open with the same line, without a
    scan, until it changes (restored from a backup, say)."""
    first = why.strip().splitlines()[0] if why.strip() else ""
    stamp(db, first)
    return damaged(db, first)


def _stamped(db: str) -> tuple[bool, str | None]:
    """Whether ``db`` is as stamped, and the damage the stamp notes."""
    try:
        with open(stamp_file(db), encoding="utf-8") as f:
            got = json.load(f)
    except (OSError, ValueError):
        return False, None
    if not isinstance(got, dict) or got.get("state") != _state(db):
        return False, None
    damage = got.get("damaged")
    return True, damage if isinstance(damage, str) else None


@dataclass(frozen=True)
class Health:
    """What a scan read of a sound database (``hh db check`` says it)."""

    tables: int
    rows: int
    hands: int  # hands whose stored text was hashed again and matched


def check(con: Any, db: str, force: bool = False) -> Health | None:
    """Raise :class:`DatabaseDamaged` if a block of ``db``'s tables does not
    read back; skipped (None) when the file is as stamped (see the module).
    ``force`` (``hh db check``): whatever the stamp, and each hand's stored
    text hashed again against its content hash too."""
    import duckdb

    if db == ":memory:":
        return None
    same, damage = _stamped(db)
    if damage is not None:
        raise DatabaseDamaged(damaged(db, damage))
    if same and not force:
        return None
    limit = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    con.execute(f"SET memory_limit = '{CHECK_MEMORY}'")
    rows = 0
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
            rows += int(con.fetchall()[0][0])
        hands = _texts_match(con, db) if force else 0
    except duckdb.Error as error:  # a scan of sound tables does not fail
        raise DatabaseDamaged(condemn(db, str(error))) from None
    finally:
        with contextlib.suppress(duckdb.Error):  # (a broken connection: its error stands)
            _limit(con, limit)
    stamp(db)
    return Health(len(tables), rows, hands)


def _texts_match(con: Any, db: str) -> int:
    """Each hand's content hash made again from its stored text (SHA-256,
    as pipelines.columns.content_hash), and, in a file that holds texts, each
    hand's text present and each text's hand: damage that DuckDB's block
    checksums do not see, in the hands' keys, hashes or texts, shows here.
    Returns the hands checked (0: the file has no such columns)."""
    have = {tuple(r) for r in con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = "
        "current_database() AND schema_name = 'main'").fetchall()}
    if not {("hands", "site"), ("hands", "hand_id"), ("hands", "content_hash"),
            ("hand_text", "site"), ("hand_text", "hand_id"), ("hand_text", "raw_text")} <= have:
        return 0
    row = con.execute("""
        WITH j AS (
            SELECT coalesce(h.hand_id, t.hand_id) AS hand_id, h.hand_id IS NOT NULL AS hand,
                   CASE WHEN h.hand_id IS NULL OR t.hand_id IS NULL
                        THEN (SELECT count(*) FROM hand_text) > 0
                        ELSE h.content_hash <> sha256(t.raw_text) END AS wrong
            FROM hands h FULL JOIN hand_text t USING (site, hand_id))
        SELECT count(*) FILTER (WHERE hand), count(*) FILTER (WHERE wrong),
               min(hand_id) FILTER (WHERE wrong) FROM j""").fetchall()[0]
    if row[1]:
        raise DatabaseDamaged(condemn(db, (
            f"{row[1]:,} of {row[0]:,} hands' stored texts do not match their content "
            f"hashes, hand #{row[2]} among them")))
    return int(row[0])


def _limit(con: Any, limit: str) -> None:
    """DuckDB's memory limit back to ``limit``, as ``current_setting`` wrote
    it: its default exactly (the text is rounded), another one as written."""
    con.execute("RESET memory_limit")
    if con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] != limit:
        con.execute(f"SET memory_limit = '{limit}'")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
