"""``hh import --watch``: keep importing files a poker client is still
writing. watchfiles reports changes; each change imports what was appended
(from where the last import stopped), holding back the last hand of each
file, which may still be being written, until a blank line or another hand
follows it or the files have been quiet for ``quiet`` seconds. A hand
stored after the quiet time that then grows is read again whole and
replaces the stored one (docs/decisions.md, "A hand is judged only when it
is whole"). Ctrl-C (or ``stop``) ends the watch cleanly with the summary.

The database is open only during a cycle (an import of what changed and its
cross-hand checks), never while the watch waits for changes: reports, ``hh
show`` and other imports use it in between (pipelines.dblock,
docs/decisions.md). A cycle waits as long as it takes for a database
another process is using. Each cycle that stored hands runs the import's
hooks (pipelines.hooks.AFTER_IMPORT: the reports' per-hand counts), so a report or a
page beside the watch finds the new hands' counts already made.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from hh.read.files import SUFFIXES
from pipelines import crosshand
from pipelines.importer import (
    Importer,
    after_import,
    closed,
    connect,
    find_files,
    timed,
)

Lease = Callable[[], AbstractContextManager[Any]]


def watch(
    db: str,
    paths: list[str],
    workers: int,
    quiet: float = 2.0,
    say: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
    on_cycle: Callable[[dict[str, int]], None] | None = None,
    lease: Lease | None = None,
    hooks: Callable[[Any, str | None], None] | None = None,
) -> dict[str, Any]:
    """Import ``paths`` and then what is appended to them, until ``stop`` is
    set or Ctrl-C; return the summary of everything this watch imported
    (``files``: the distinct files read, however often). ``say`` hears a
    line per batch imported after the first. ``lease()`` gives the
    read-write connection for one cycle (default: the database opened for
    the cycle, waiting while another process holds it, and closed after;
    ``hh serve`` shares its own with its pages); ``hooks(con, stored)``
    (default: pipelines.importer.after_import) runs the import's hooks after
    a cycle that stored hands, ``stored`` the table of the hands that cycle
    stored (pipelines.hooks.AfterImport)."""
    import watchfiles

    clock = timed()
    hold: Lease = lease or (lambda: _for_a_cycle(db, say))
    run_hooks = hooks or _after_import
    with hold() as con:
        importer = Importer(con, workers, command="import --watch")
    seen: set[str] = set()

    def batch(files: list[str] | None, tail: bool, tell: bool = True) -> None:
        """One cycle: ``files`` imported (None: the files whose last hand
        was held back), the cross-hand checks and the hooks."""
        with hold() as con:
            importer.use(con)
            stored = importer.track()  # the hooks then look at this cycle's hands only
            if files is None:
                files = [f for f in find_files(paths) if _held(importer, f)]
            before = _progress(importer)
            counts = importer.import_files(files, tail=tail)
            importer.notes.clear()  # an unfinished last hand: what a watch waits for anyway
            crosshand.check(con)
            if counts.imported or counts.replaced:  # the reports' counts, as after an import
                run_hooks(con, stored)
        seen.update(files)
        if say is not None and tell and files:
            now = _progress(importer)
            new = {k: now[k] - before[k] for k in now}
            noun = "file" if len(files) == 1 else "files"
            grown = f", {new['replaced']:,} replaced" if new["replaced"] else ""
            say(f"{new['hands']:,} hands read from {len(files)} {noun}: {new['imported']:,} "
                f"imported{grown}, {new['rejected']:,} rejected")

    try:
        batch(find_files(paths), tail=True, tell=False)
        held = True  # files may end with a hand held back
        last = time.monotonic()
        if on_cycle is not None:
            on_cycle(_progress(importer))
        if say is not None:
            say(f"watching {', '.join(paths)} (Ctrl-C stops)")
        try:
            for changes in watchfiles.watch(
                *paths,
                stop_event=stop,
                debounce=200,
                step=50,
                rust_timeout=max(100, int(quiet * 500)),
                yield_on_timeout=True,
                raise_interrupt=True,
            ):
                touched = sorted(
                    {
                        os.path.abspath(p)
                        for _, p in changes
                        if p.endswith(SUFFIXES) and os.path.isfile(p)
                    }
                )
                if touched:
                    batch(touched, tail=True)
                    held, last = True, time.monotonic()
                elif held and time.monotonic() - last >= quiet:
                    # quiet: the last hand of each file is complete
                    batch(None, tail=False)
                    held = False
                else:
                    continue
                if on_cycle is not None:
                    on_cycle(_progress(importer))
        except KeyboardInterrupt:
            pass
        with hold() as con:
            importer.use(con)
            summary: dict[str, Any] = importer.finish()
            summary["files"] = len(seen)  # a file read again is not another file
            summary["seconds"] = clock()
            importer.record(summary)
        return summary
    finally:
        importer.close()


def _after_import(con: Any, stored: str | None) -> None:
    """The import's hooks after a cycle (the default of :func:`watch`)."""
    after_import(con, stored=stored)


@contextmanager
def _for_a_cycle(db: str, say: Callable[[str], None] | None) -> Iterator[Any]:
    """The database for one cycle: waited for as long as it takes, closed after."""
    con = connect(db, wait=-1, say=say)
    try:
        yield con
    except BaseException:
        con.close()
        raise
    closed(con, db)


def _held(importer: Importer, name: str) -> bool:
    row = importer._stored(name)
    return row is not None and row[4] == "partial"


def _progress(importer: Importer) -> dict[str, int]:
    c = importer.counts
    return {"hands": c.hands, "imported": c.imported, "rejected": c.rejected,
            "replaced": c.replaced}
