"""``hh import --watch``: keep importing files a poker client is still
writing. watchfiles reports changes; each change imports what was appended
(from where the last import stopped), holding back the last hand of each
file, which may still be being written, until another hand follows it or
the files have been quiet for ``quiet`` seconds. Ctrl-C (or ``stop``) ends
the watch cleanly with the summary.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from hh.pipelines import crosshand
from hh.pipelines.importer import SUFFIXES, Importer, connect, find_files, timed


def watch(
    db: str,
    paths: list[str],
    workers: int,
    quiet: float = 2.0,
    say: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
    on_cycle: Callable[[dict[str, object]], None] | None = None,
) -> dict[str, Any]:
    """Import ``paths`` and then what is appended to them, until ``stop`` is
    set or Ctrl-C; return the summary of everything this watch imported
    (``files``: the distinct files read, however often). ``say`` hears a
    line per batch imported after the first."""
    import watchfiles

    clock = timed()
    con = connect(db)
    importer = Importer(con, workers, command="import --watch")
    seen: set[str] = set()

    def batch(files: list[str], tail: bool) -> None:
        before = _progress(importer)
        importer.import_files(files, tail=tail)
        crosshand.check(con)
        seen.update(files)
        if say is not None and files:
            now = _progress(importer)
            new = {k: int(now[k]) - int(before[k]) for k in now}  # type: ignore[call-overload]
            noun = "file" if len(files) == 1 else "files"
            say(f"{new['hands']:,} hands read from {len(files)} {noun}: {new['imported']:,} "
                f"imported, {new['rejected']:,} rejected")

    try:
        importer.import_files(find_files(paths), tail=True)
        crosshand.check(con)
        seen.update(find_files(paths))
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
                    partial = [f for f in find_files(paths) if _held(importer, f)]
                    batch(partial, tail=False)
                    held = False
                else:
                    continue
                if on_cycle is not None:
                    on_cycle(_progress(importer))
        except KeyboardInterrupt:
            pass
        summary: dict[str, Any] = importer.finish()
        summary["files"] = len(seen)  # a file read again is not another file
        summary["seconds"] = clock()
        importer.record(summary)
        return summary
    finally:
        importer.close()
        con.close()


def _held(importer: Importer, name: str) -> bool:
    row = importer._stored(name)
    return row is not None and row[4] == "partial"


def _progress(importer: Importer) -> dict[str, object]:
    c = importer.counts
    return {"hands": c.hands, "imported": c.imported, "rejected": c.rejected}
