"""The body of ``hh report integrity`` (reports/cli.py registers it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reports.db import Filters, ReportError


def run(con: Any, filters: Filters, fmt: str, out: Path | None, fail: Callable[[str], None],
        emit: Callable[[str | None, Path | None], None], cache: str | None,
        with_progress: Callable[[Callable[[Any], Any]], Any]) -> None:  # fmt: skip
    """Compute the pairs and write them in ``fmt`` (table, json, csv, html);
    ``cache``: the reports' cache file (None: in memory), where the seats'
    standings are read; ``with_progress(call)``: runs ``call(progress)``
    with a progress bar (the standings and facts a first report computes)."""
    from reports.integrity import render as integrity_out
    from reports.integrity.signals import integrity

    try:
        pairs = with_progress(lambda p: integrity(con, filters, cache=cache, progress=p))
    except ReportError as error:
        fail(str(error))
        return
    if fmt == "table":
        from rich.console import Console

        integrity_out.show(Console(), pairs)
    elif fmt == "json":
        emit(integrity_out.to_json(pairs), out)
    elif fmt == "csv":
        emit(integrity_out.to_csv(pairs), out)
    elif fmt == "html":
        emit(integrity_out.page(pairs), out)
    else:
        fail(f"--format {fmt!r}: integrity writes table, json, csv or html")
