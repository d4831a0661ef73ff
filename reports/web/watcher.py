"""The watch of ``hh serve --watch``: a thread that imports the folders as
a poker client writes them (pipelines.watch), into the database the
pages read (reports.web.source), and what it has done so far (the
overview's progress)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from reports.web.source import Source


@dataclass
class Watching:
    """What the watch of this server has done (the overview's progress)."""

    folders: list[str] = field(default_factory=list)
    state: str = "off"  # off, starting, watching, stopped, failed
    hands: int = 0
    imported: int = 0
    rejected: int = 0
    cycles: int = 0
    error: str | None = None
    updated: float = 0.0

    def json(self) -> dict[str, Any]:
        return {"folders": self.folders, "state": self.state, "hands": self.hands,
                "imported": self.imported, "rejected": self.rejected, "cycles": self.cycles,
                "error": self.error}  # fmt: skip


class Watcher:
    """Imports ``folders`` into the source's database in a thread; every
    write of this process (a cycle, a note) takes :meth:`writing`, the one
    read-write connection, in turn."""

    def __init__(self, source: Source, folders: list[str], workers: int = 1,
                 quiet: float = 1.0) -> None:  # fmt: skip
        self.source = source
        self.folders = folders
        self.workers = workers
        self.quiet = quiet
        self.status = Watching(folders=list(folders), state="starting" if folders else "off")
        self.stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lock = threading.Lock()  # one writer in this process: a cycle or a note

    @contextmanager
    def writing(self, stop: threading.Event | None = None) -> Iterator[Any]:
        """The read-write connection for one cycle of this process's watch
        (the instance the pages read, when they hold it). While another
        process holds the file, it tries again every 0.15 s."""
        from pipelines.importer import ImportFailure, closed, connect

        source = self.source
        assert source.db is not None and source.writes
        with self.lock:
            while True:
                try:
                    con = connect(source.db, wait=0)
                except ImportFailure as failure:
                    if "in use by another process" not in str(failure):
                        raise
                    con = None
                if con is not None:
                    try:  # its hooks attach the cache file read-write: no computation meanwhile
                        with source.report_lock.first(), source.exclusive():
                            yield con
                    except BaseException:
                        con.close()
                        raise
                    else:
                        closed(con, source.db)
                    finally:
                        source.changed()
                    return
                if stop is not None and stop.is_set():
                    raise ImportFailure(f"stopped while waiting for {source.db}")
                time.sleep(0.15)

    def hooks(self, con: Any, stored: str | None = None) -> None:
        """The import's hooks after a cycle of the watch (``stored``: the
        hands it stored, pipelines.hooks.AfterImport), which holds the
        reports' cache file's turn (Source.report_lock) already."""
        from pipelines.importer import after_import

        with self.source.exclusive():  # (within the cycle's turn: :meth:`writing`)
            after_import(con, stored=stored)

    def run(self) -> None:
        """The watch, until :attr:`stop` is set (the thread's body)."""
        from pipelines.importer import ImportFailure
        from pipelines.watch import watch

        status, source = self.status, self.source

        def cycle(progress: dict[str, int]) -> None:
            status.state = "watching"
            status.hands = progress["hands"]
            status.imported = progress["imported"]
            status.rejected = progress["rejected"]
            status.cycles += 1
            status.updated = time.monotonic()
            source.changed()

        assert source.db is not None
        try:
            watch(source.db, self.folders, self.workers, self.quiet, stop=self.stop,
                  on_cycle=cycle, lease=lambda: self.writing(self.stop),
                  hooks=self.hooks)  # fmt: skip
            status.state = "stopped"
        except ImportFailure as failure:
            status.state, status.error = ("stopped", None) if self.stop.is_set() else (
                "failed", str(failure))
        except Exception as error:  # the pages go on; the overview says why
            status.state, status.error = "failed", f"{type(error).__name__}: {error}"
        status.updated = time.monotonic()

    def start(self) -> None:
        if self.folders:
            self._thread = threading.Thread(target=self.run, name="hh-serve-watch", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self.stop.set()
        if self._thread is not None:
            self._thread.join(30)
