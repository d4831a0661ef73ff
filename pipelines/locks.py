"""The one message every command gives when the database is held by
another process (DuckDB lets one process write a file, and none read it
meanwhile): what, which process, what to do; never DuckDB's raw text."""

from __future__ import annotations


def in_use(db: str, error: BaseException | str, advice: str = "wait for it to finish"
           ) -> str | None:  # fmt: skip
    """``the database DB is in use by another process (PID n): ADVICE`` when
    ``error`` (DuckDB's, on opening ``db``) is a lock held elsewhere; None
    for any other error. ``hh import`` adds ", or import into another file
    with --db" to the advice (hh.pipelines.importer.connect)."""
    text = str(error)
    if "lock" not in text.lower():
        return None
    holder = ""
    if "PID" in text:
        holder = " (" + text[text.index("PID") :].split(")")[0].rstrip(".") + ")"
    return f"the database {db} is in use by another process{holder}: {advice}"
