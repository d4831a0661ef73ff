"""Worker processes for a run: an ordered, bounded pool.

``hh validate`` and ``hh import`` both spread their chunks over processes
(parsing and judging are pure Python: threads would share one core) and
both need the same things from the pool, which this module gives on top of
the standard library's :class:`concurrent.futures.ProcessPoolExecutor`:

* results in input order, whatever worker judged what, so that the output
  and the database do not depend on the number of workers;
* a bounded window of tasks in flight (``ahead`` per worker), so that a
  slow reader (a pager, a full pipe, a busy writer) makes the workers wait
  instead of piling up results in memory;
* a worker that dies (killed, out of memory) ends the run with
  :class:`WorkerDied`, a message naming what was being read, never a hang
  or a traceback;
* closing early (the reader went away, an error) stops the workers at
  once, and no worker outlives its parent: each runs a watchdog thread
  that ends the process when the parent is gone (killed with ``kill -9``,
  say, when nothing else would tell the worker).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

AHEAD = 2  # tasks in flight per worker
WATCH_SECONDS = 0.2  # how often a worker looks whether its parent is still there


def default_workers() -> int:
    """The cores this process may run on: every command's workers when
    none are asked for (``--workers 0`` or left out)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


class WorkerDied(RuntimeError):
    """A worker process ended without its results (killed, out of memory):
    the run cannot be completed, which no input can cause."""


def _start(parent: int, stop: Any, init: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    """A worker's first steps: Ctrl-C is the parent's to handle (it stops
    the workers itself), the watchdog starts, then the pool's own
    initializer runs."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(parent, stop), name="hh-watchdog", daemon=True).start()
    if init is not None:
        init(*args)


def _watch(parent: int, stop: Any) -> None:
    """End this worker when its parent is gone (it is then adopted by
    another process) or asks it to stop (:meth:`Pool.close`): a worker
    blocked on its task queue would otherwise wait forever, since it holds
    both ends of the queue's pipe itself. ``stop`` is a flag in shared
    memory, without a lock: no worker that dies can leave it held."""
    while not stop.value:
        if os.getppid() != parent:
            os._exit(70)
        time.sleep(WATCH_SECONDS)
    os._exit(0)


# The warning the standard library's resource tracker gives, at its end,
# for the semaphores of a parent that ended without removing them.
_LEAKED = "ignore:resource_tracker:UserWarning"


def _quiet_tracker() -> None:
    """Start the resource tracker (the process that removes the named
    semaphores of a pool's queues when their parent could not: killed with
    ``kill -9``) told not to warn of them: it removes them all the same,
    and its "There appear to be 5 leaked semaphore objects" line after a
    killed import is noise on the user's terminal. The tracker takes the
    parent's ``-W`` options when it starts, so the option is added for that
    moment only; a tracker already running is left as it is."""
    import sys
    from multiprocessing import resource_tracker

    added = _LEAKED not in sys.warnoptions
    if added:
        sys.warnoptions.append(_LEAKED)
    try:
        resource_tracker.ensure_running()
    finally:
        if added:
            sys.warnoptions.remove(_LEAKED)


class Pool:
    """``workers`` processes (started with ``start``: fork where the system
    has it, else spawn; the import asks for spawn, its parent holding
    DuckDB's threads), each running ``initializer(*initargs)`` first.
    :meth:`map` gives results in order; :meth:`close` (or leaving a
    ``with`` block) stops the workers."""

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        *,
        start: str | None = None,
        ahead: int = AHEAD,
    ) -> None:
        methods = multiprocessing.get_all_start_methods()
        method = start or ("fork" if "fork" in methods else "spawn")
        context = multiprocessing.get_context(method)
        if method != "fork":
            _quiet_tracker()
        self.workers = workers
        self._window = max(1, ahead * workers)
        self._stop = context.RawValue("b", 0)
        self._ending: threading.Thread | None = None  # the workers being stopped
        self._executor: ProcessPoolExecutor | None = ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=_start,
            initargs=(os.getpid(), self._stop, initializer, initargs),
        )

    def map(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        describe: Callable[[T], str] | None = None,
    ) -> Ordered[T, R]:
        """``fn`` over ``items`` in the workers, results in the items' order;
        the first tasks are sent at once. ``describe`` names an item for
        :class:`WorkerDied` ("reading aces.txt from line 4001")."""
        return Ordered(self, fn, iter(items), describe)

    def _submit(self, fn: Callable[[T], R], item: T) -> Future[R]:
        if self._executor is None:
            raise RuntimeError("the pool is closed")
        return self._executor.submit(fn, item)

    def close(self, now: bool = True, wait: bool = True) -> None:
        """Stop the workers: at once (``now``), even those busy with a task;
        else once their queue is empty. Without ``wait`` the workers end
        while the caller goes on (its work after the last result, say), and
        a later ``close()`` waits until they have: no worker outlives it."""
        executor, self._executor = self._executor, None
        if executor is not None:
            if now:
                self._stop.value = 1
            self._ending = threading.Thread(
                target=executor.shutdown, kwargs={"wait": True, "cancel_futures": True},
                name="hh-pool-close",
            )
            self._ending.start()
        if wait and self._ending is not None:
            self._ending.join()
            self._ending = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Ordered(Generic[T, R]):
    """The results of :meth:`Pool.map`, in order; :meth:`close` before the
    end stops the pool's workers."""

    def __init__(
        self,
        pool: Pool,
        fn: Callable[[T], R],
        items: Iterator[T],
        describe: Callable[[T], str] | None,
    ) -> None:
        self._pool = pool
        self._fn = fn
        self._items = items
        self._describe = describe
        self._pending: deque[tuple[Future[R], T]] = deque()
        self._done = False
        try:
            self._fill()
        except BrokenProcessPool:
            # a worker died before the window was full: it held one of the
            # tasks handed out, the first of them as likely as any
            raise self._died(self._pending[0][1] if self._pending else None) from None

    def _fill(self) -> None:
        while len(self._pending) < self._pool._window:
            item = next(self._items, _END)
            if item is _END:
                return
            self._pending.append((self._pool._submit(self._fn, item), item))

    def __iter__(self) -> Iterator[R]:
        return self

    def __next__(self) -> R:
        if not self._pending:
            self._done = True
            raise StopIteration
        future, item = self._pending.popleft()
        try:
            result = future.result()
            self._fill()
        except BrokenProcessPool:
            self.close()
            raise self._died(item) from None
        except BaseException:
            self.close()
            raise
        return result

    def _died(self, item: T | None) -> WorkerDied:
        what = ""
        if item is not None and self._describe is not None:
            what = f" while {self._describe(item)}"
        return WorkerDied(f"a worker process ended abruptly{what} (killed, or out of memory?)")

    def close(self) -> None:
        """Stop early: the tasks not begun are dropped, and the workers stopped."""
        if self._pending or not self._done:
            for future, _ in self._pending:
                future.cancel()
            self._pending.clear()
            self._done = True
            self._pool.close()


_END: Any = object()
