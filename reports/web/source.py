"""Where ``hh serve`` reads: a database file (shared with the watch in this
process and with other hh commands) or a lake (read-only).

A database file is opened for the pages only while they are asked for: the
connection is closed after ``IDLE`` seconds without a request, or as soon
as no request is running when another process waits for the file
(pipelines.dblock), so ``hh report``, ``hh show --db`` and ``hh import``
run beside the server. Requests read at the same time, each through a
cursor of that connection. Without a watch it is opened read-only (other
readers share the file). With a watch (``writes``) the pages and the watch
share one read-write DuckDB instance in this process (DuckDB cannot open a
file read-only and read-write in one process), so pages read while a cycle
writes, each seeing what was committed; the computations that fill the
reports' cache file (attached while they run) take turns with each other
and with the watch's import hooks (``report_lock``,
reports.web.watcher).

The data has a version (:meth:`Source.refresh`): a new one when the
database's files changed and, read again, its counts of hands, rejects,
violations, imports and notes did too (``FINGERPRINT``), so an import from
another terminal counts as well as this server's watch, and a write that
stored nothing new (a cycle of the watch over a hand not yet complete)
does not make every page compute again. What the pages compute is kept
per version (reports.web.results); the watch that imports is
reports.web.watcher.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from pipelines.database import open_db
from pipelines.dblock import DatabaseUnusable, wanted

HAND_LIST = "hh_serve_hand_list"  # the reports' cache file, attached for the searches

IDLE = 0.5  # seconds without a request after which the read connection is closed
READ_WAIT = 15.0  # how long a page waits for a database another process writes
# what the pages show changes only if one of these does (a new version)
# (max(rowid): a hand replaced by the text it grew to is a new row, pipelines.writer)
FINGERPRINT = ("SELECT (SELECT count(*) FROM hands), (SELECT sum(n_violations) FROM hands), "
               "(SELECT max(rowid) FROM hands), "
               "(SELECT count(*) FROM rejects), (SELECT count(*) FROM hand_violations), "
               "(SELECT count(*) FROM cross_violations), (SELECT max(import_run) FROM imports), "
               "(SELECT count(finished_at) FROM imports)")  # fmt: skip
# and the notes and tags (pipelines.notes; a database before schema 5 has none)
NOTES_PRINT = "SELECT count(*), max(written_at) FROM notes"


class Busy(Exception):
    """The database stayed held by another process (the page says 503)."""


class _Shared:
    """A readers-writer lock: many readers, or one writer; a writer waiting
    goes before readers that come after it (the watch never starves)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.readers = 0
        self.writer = False
        self.waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self.writer or self.waiting:
                self._cond.wait()
            self.readers += 1
        try:
            yield
        finally:
            with self._cond:
                self.readers -= 1
                self._cond.notify_all()

    def acquire(self, blocking: bool = True) -> bool:
        with self._cond:
            if not blocking and (self.writer or self.readers or self.waiting):
                return False
            self.waiting += 1
            try:
                while self.writer or self.readers:
                    self._cond.wait()
            finally:
                self.waiting -= 1
            self.writer = True
            return True

    def release(self) -> None:
        with self._cond:
            self.writer = False
            self._cond.notify_all()

    @property
    def busy(self) -> bool:
        """A writer holds it or waits for it."""
        return self.writer or self.waiting > 0


class Turns:
    """One at a time for whoever writes the reports' cache file: a page's
    report computation (``with turns:``) or the watch's cycle
    (:meth:`first`), and a cycle waiting goes before the computations
    waiting (it waits only for the one running). Why: the cycle stores the
    new hands' all-in equity and counts in that file (the import's
    ``hh.derive`` and ``hh.imported`` hooks); while a computation held the
    file, they were kept nowhere, so the next computation worked them out
    again itself, for longer, while the watch and the HUD waited
    (docs/performance.md, "hh serve while it imports")."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._held = False
        self._first = 0  # cycles waiting

    def locked(self) -> bool:
        return self._held or self._first > 0

    @contextmanager
    def first(self) -> Iterator[None]:
        """The next turn, before every computation waiting."""
        with self._cond:
            self._first += 1
            try:
                while self._held:
                    self._cond.wait()
            finally:
                self._first -= 1
            self._held = True
        try:
            yield
        finally:
            self._release()

    def __enter__(self) -> None:
        with self._cond:
            while self._held or self._first:
                self._cond.wait()
            self._held = True

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        with self._cond:
            self._held = False
            self._cond.notify_all()


class Source:
    """The database file or the lake the pages read."""

    def __init__(self, db: str | None = None, lake: str | None = None,
                 writes: bool = False, hand_list: str | None = None) -> None:  # fmt: skip
        self.db = os.path.abspath(db) if db else None
        # the reports' cache file, which holds each player's hands (reports.search.handlist)
        self.hand_list_file = os.path.abspath(hand_list) if hand_list and self.db else None
        self._list = threading.Condition()
        self._list_readers = 0  # searches reading the list now (the file attached)
        self._list_blocked = 0  # holders of exclusive(): no search may attach it
        self._list_ready: tuple[Any, ...] | None = None  # the version it was found complete at
        self._list_tried: tuple[Any, ...] | None = None  # the version it was last prepared for
        self.lake = lake
        self.writes = writes
        self.rw = _Shared()
        self._open_lock = threading.Lock()
        self.report_lock = Turns()  # one computation (or the watch's cycle) fills the cache file
        self._con: Any = None
        self._used = 0.0
        self._version = 0
        self._hands_version = 0  # as _version, but not moved by a note or a mark
        self._files_seen: tuple[Any, ...] | None = None
        self._fingerprint: tuple[Any, ...] | None = None
        self._refresh_lock = threading.Lock()
        self._closing = threading.Event()
        self._reaper: threading.Thread | None = None
        if self.db is not None:
            self._reaper = threading.Thread(target=self._reap, name="hh-serve-db", daemon=True)
            self._reaper.start()

    @property
    def label(self) -> str:
        return self.db or self.lake or ""

    # ----------------------------------------------------------- versions

    def _files(self) -> tuple[Any, ...]:
        """The database's files' sizes and times: they change with any write."""
        out: list[Any] = []
        assert self.db is not None
        for path in (self.db, f"{self.db}.wal"):
            try:
                st = os.stat(path)
                out += [st.st_size, st.st_mtime_ns]
            except OSError:
                out += [None, None]
        return tuple(out)

    def version(self) -> tuple[Any, ...]:
        """The version of the data the results are kept for: it changes when
        hands, rejects, violations or imports changed (:data:`FINGERPRINT`),
        not at every write (a cycle of the watch that completed no hand, a
        checkpoint). Cheap: the files are looked at by :meth:`refresh`."""
        return (self._version,)

    def hands_version(self) -> tuple[Any, ...]:
        """The version of the data but the notes (:data:`FINGERPRINT` alone):
        what a note or a reviewer's mark does not change (the integrity
        report's pairs) is kept per this one. After :meth:`refresh`."""
        return (self._hands_version,)

    def refresh(self) -> tuple[Any, ...]:
        """Look again at the database: when its files changed since the last
        look, read the data's fingerprint (:data:`FINGERPRINT`), and a new
        fingerprint is a new version. Returns the version."""
        if self.db is None:
            return self.version()
        files = self._files()
        if files == self._files_seen:
            return self.version()
        with self._refresh_lock:
            if files != self._files_seen:
                try:
                    with self.reading() as con:
                        found = tuple(con.execute(FINGERPRINT).fetchall()[0])
                        with suppress(Exception):  # no notes table (before schema 5): none
                            found += tuple(con.execute(NOTES_PRINT).fetchall()[0])
                except Busy:
                    found = None  # not read: a new version, to be safe
                except Exception:  # a database without the tables: its files say
                    found = files
                if found is None or found != self._fingerprint:
                    self._version += 1
                    hands = FINGERPRINT.count("(SELECT")
                    if (found is None or self._fingerprint is None
                            or found[:hands] != self._fingerprint[:hands]):
                        self._hands_version += 1
                self._fingerprint, self._files_seen = found, files
        return self.version()

    def changed(self) -> None:
        """This process wrote the database (its watch): look again."""
        self._files_seen = None

    # ---------------------------------------------------- each player's hands

    @contextmanager
    def hand_list(self, con: Any) -> Iterator[str | None]:
        """The table of each player's hands (reports.search.handlist) for a
        search through ``con`` (a cursor of :meth:`reading`), or None when
        it is not to be read: not yet found complete for this version of
        the data (it is then prepared in the background, see
        :meth:`prepare_hand_list`), the cache file held by a computation
        or a cycle of the watch (:meth:`exclusive`), or by another process.
        Searches share one read-only attachment of the file, made by the
        first and dropped by the last: DuckDB attaches a file once per
        process, and a computation must attach it read-write."""
        table = self._attach_list(con)
        try:
            yield table
        finally:
            if table is not None:
                with self._list:
                    self._list_readers -= 1
                    if not self._list_readers:
                        try:
                            con.execute(f"DETACH {HAND_LIST}")
                        finally:
                            self._list.notify_all()

    def _attach_list(self, con: Any) -> str | None:
        import duckdb

        from reports.search.handlist import KIND

        if self.hand_list_file is None:
            return None
        version = self.version()
        if self._list_ready != version:
            self._prepare_later(version)
            return None
        with self._list:
            if self._list_blocked:
                return None
            if not self._list_readers:
                path = self.hand_list_file.replace("'", "''")
                try:
                    con.execute(f"DETACH DATABASE IF EXISTS {HAND_LIST}")  # a leftover
                    con.execute(f"ATTACH '{path}' AS {HAND_LIST} (READ_ONLY)")
                except duckdb.Error:  # another process holds it
                    return None
            self._list_readers += 1
        return f"{HAND_LIST}.{KIND}"

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """No search reads the list meanwhile (those reading finish first):
        for whoever attaches the cache file read-write in this process (a
        report's computation, the watch's cycle and its hooks)."""
        with self._list:
            self._list_blocked += 1
            while self._list_readers:
                self._list.wait()
        try:
            yield
        finally:
            with self._list:
                self._list_blocked -= 1
                self._list.notify_all()

    def _prepare_later(self, version: tuple[Any, ...]) -> None:
        with self._list:
            if self._list_tried == version:
                return
            self._list_tried = version
        threading.Thread(target=self.prepare_hand_list, args=(version,),
                         name="hh-serve-hand-list", daemon=True).start()  # fmt: skip

    def prepare_hand_list(self, version: tuple[Any, ...] | None = None) -> bool:
        """Make the list complete for the data stored (the hands it lacks
        added, sorted again when needed: reports.search.handlist.ensure), in
        turn with the other computations that write the cache file; then
        searches at ``version`` (now's by default) read it. False when it
        could not be (the database or the cache file held elsewhere)."""
        from reports.search.handlist import ensure

        if self.hand_list_file is None or self._closing.is_set():
            return False
        if version is None:
            version = self.refresh()
            with self._list:
                self._list_tried = version
        try:
            with self.report_lock, self.exclusive(), self.reading() as con:
                ready = ensure(con, self.hand_list_file)
        except Exception:  # Busy, a damaged cache file: searches go without it
            return False
        if ready:
            self._list_ready = version
        return ready

    # ------------------------------------------------------------ reading

    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A cursor of the read connection (opened if needed), for one request."""
        with self.rw.shared():
            with self._open_lock:
                if self._con is None:
                    if self._closing.is_set():  # a late request (or preparation): no new connection
                        raise Busy("the server is stopping")
                    self._con = self._open()
                cursor = self._con.cursor()
            try:
                yield cursor
            finally:
                cursor.close()
                self._used = time.monotonic()

    def _open(self) -> Any:

        if self.lake is not None:
            from reports.db import connect_lake

            return connect_lake(self.lake)
        assert self.db is not None
        if wanted(self.db):  # let whoever waits in first
            time.sleep(0.3)
        try:
            con = open_db(self.db, read_only=not self.writes, timeout=READ_WAIT)
        except DatabaseUnusable as error:
            raise Busy(str(error)) from None
        con.execute("SET enable_progress_bar = false")
        return con

    def _release(self) -> None:
        """Close the read connection (the caller holds the lock alone)."""
        if self._con is not None and self.lake is None:
            self._con.close()
            self._con = None

    def _reap(self) -> None:
        """Close the read connection when idle, or when someone waits for the file."""
        assert self.db is not None
        while not self._closing.wait(0.1):
            if self._con is None or not (time.monotonic() - self._used > IDLE
                                         or wanted(self.db)):  # fmt: skip
                continue
            if not self.rw.acquire(blocking=False):
                continue
            try:
                self._release()
            finally:
                self.rw.release()

    @contextmanager
    def writing_alone(self) -> Iterator[Any]:
        """A read-write connection for one small write (a note) when this
        server has no watch: the pages' read-only instance is closed first
        (DuckDB opens a file one way per process; requests wait meanwhile),
        and the database's lock is taken as an import takes it
        (pipelines.importer.connect). Busy when it stays held."""
        from pipelines.importer import ImportFailure, closed, connect

        assert self.db is not None
        self.rw.acquire()
        try:
            with self._open_lock:
                self._release()
            try:
                con = connect(self.db, wait=READ_WAIT)
            except ImportFailure as failure:
                raise Busy(str(failure)) from None
            try:
                yield con
            except BaseException:
                con.close()
                raise
            else:
                closed(con, self.db)
        finally:
            self.changed()
            self.rw.release()

    def close(self) -> None:
        self._closing.set()
        self.rw.acquire()
        try:
            if self._con is not None:
                self._con.close()
                self._con = None
        finally:
            self.rw.release()
