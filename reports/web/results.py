"""What the pages computed, kept per version of the data (the result cache
of ``hh serve``), over a :class:`reports.web.source.Source`.

A result is kept per version of the data (:meth:`Source.refresh`). While
another request computes the same thing, or a report must wait its turn
(the reports' cache file is filled by one computation at a time, in turn
with the watch's cycles), a page asked for again gets its last result
rather than waiting (or, with none yet, waits for that computation instead
of repeating it). :class:`Bodies` keeps the JSON text of those results.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.responses import JSONResponse, Response

from reports.web.source import Source

T = TypeVar("T")

KEEP = 64  # results kept (all versions together)


class Results:
    """The results of one source's computations, per version of its data."""

    def __init__(self, source: Source, keep: int = KEEP) -> None:
        self.source = source
        self._keep = keep
        self._results: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._latest: dict[tuple[Any, ...], Any] = {}  # by key, whatever the version
        self._computing: set[tuple[Any, ...]] = set()
        self._pending: dict[tuple[Any, ...], threading.Event] = {}  # by version and key
        self._lock = threading.Lock()

    def cached(self, key: tuple[Any, ...], compute: Callable[[Any], T],
               report: bool = False, hands_only: bool = False) -> T:  # fmt: skip
        """``compute(con)`` for this version of the data, computed once;
        ``report``: it fills the reports' cache file (one at a time, in turn
        with the watch's cycles). While another request computes the same,
        or a report must wait its turn, the last result of ``key`` if there
        is one (pages are live: the next change event asks again); with none,
        the request waits for that computation rather than doing it again.
        ``hands_only``: ``compute`` reads no note nor mark, so it is kept
        per version of the rest of the data (Source.hands_version), and
        :meth:`forget` keeps it."""
        source = self.source
        version = source.refresh()
        full = (("hands", *source.hands_version()) if hands_only else version, *key)
        with self._lock:
            if full in self._results:
                self._results.move_to_end(full)
                return self._results[full]  # type: ignore[no-any-return]  # kept as Any
            if key in self._latest and (key in self._computing
                                        or (report and source.report_lock.locked())):
                return self._latest[key]  # type: ignore[no-any-return]  # kept as Any
            pending = self._pending.get(full)
            if pending is None:
                self._pending[full] = threading.Event()
                self._computing.add(key)
        if pending is not None:  # the same is being computed: wait for it
            pending.wait()
            return self.cached(key, compute, report, hands_only)
        try:
            if report:
                with source.report_lock, source.exclusive(), source.reading() as con:
                    value = compute(con)
            else:
                with source.reading() as con:
                    value = compute(con)
        finally:
            with self._lock:
                self._computing.discard(key)
                self._pending.pop(full).set()
        with self._lock:
            self._results[full] = value
            self._latest[key] = value
            if len(self._latest) > 4 * self._keep:
                self._latest.clear()
            while len(self._results) > self._keep:
                self._results.popitem(last=False)
        return value

    def forget(self) -> None:
        """Drop every result: something the pages show changed outside the
        data's version (a note written by this server); those kept per
        version of the hands alone stay."""
        with self._lock:
            for full in [f for f in self._results if not _hands_only(f)]:
                del self._results[full]
            kept = {f[1:] for f in self._results}
            for key in [k for k in self._latest if k not in kept]:
                del self._latest[key]


def _hands_only(full: tuple[Any, ...]) -> bool:
    return isinstance(full[0], tuple) and full[0][:1] == ("hands",)


class Bodies:
    """The JSON text of results kept per version (:meth:`Results.cached`),
    encoded once per result rather than at every request: the players list
    of a large database is hundreds of kilobytes, and encoding it holds the
    interpreter lock every other request of the server needs."""

    def __init__(self, keep: int = 64) -> None:
        self._keep = keep
        self._by: dict[tuple[Any, ...], tuple[Any, bytes]] = {}

    def response(self, key: tuple[Any, ...], value: Any,
                 headers: dict[str, str] | None = None) -> Response:  # fmt: skip
        """``JSONResponse(value)``, its body encoded once for this very
        ``value`` (the same object: a new version's result is encoded anew)."""
        found = self._by.get(key)
        if found is not None and found[0] is value:
            body = found[1]
        else:
            body = bytes(JSONResponse(value).body)
            if len(self._by) >= self._keep:
                self._by.clear()
            self._by[key] = (value, body)
        return Response(body, media_type="application/json", headers=headers)
