"""One bounded line reader: the lines of a file as bytes, a line longer
than :data:`MAX_LINE` cut there (its rest read and dropped), so that
memory stays flat whatever the file holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

# The longest line read (bytes, its line end left out): hand-history lines are a
# few hundred bytes at most. A longer line (a file that is no hand history,
# or a log with no line end at all) is cut there and the rest of it read and
# dropped, so that memory stays flat whatever the line: the import keeps its
# beginning as a reject (docs/decisions.md, "Import under faults").
MAX_LINE = 64 * 1024
_REST = 1024 * 1024  # the rest of a line too long is read and dropped this much at a time


def drop_line(readline: Callable[[int], bytes]) -> tuple[int, bool]:
    """Read the rest of a line that is too long, to its line end: the
    bytes read, and whether a line end ended them (not the file's end)."""
    dropped = 0
    while True:
        more = readline(_REST)
        dropped += len(more)
        if not more or more.endswith(b"\n"):
            return dropped, bool(more)


def bounded_lines(
    readline: Callable[[int], bytes], first_line: int = 1, long: list[int] | None = None
) -> Iterator[tuple[bytes, int]]:
    """The lines ``readline`` gives, each with the bytes it took in the
    file; a line of more than :data:`MAX_LINE` bytes (line end left out) is
    cut there, its line end kept and the rest dropped, and its number
    appended to ``long``."""
    n = first_line
    while True:
        line = readline(MAX_LINE + 1)
        if not line:
            return
        size = len(line)
        if size > MAX_LINE and not line.endswith(b"\n"):
            dropped, ended = drop_line(readline)
            size += dropped
            line = line[:MAX_LINE] + (b"\n" if ended else b"")
            if long is not None:
                long.append(n)
        yield line, size
        n += 1


