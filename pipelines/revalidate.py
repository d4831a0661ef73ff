"""``hh import --revalidate``: judge every stored hand again, from its raw
text, after an upgrade of hh; one transaction replaces every verdict (a
crash leaves the old ones whole). Each hand then records the hh version
that judged it. Hands are read in pages and judged by the same worker
function as an import, so memory stays bounded and the rows are exactly the
ones a fresh import of the same text would give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pipelines import crosshand
from pipelines.dbhealth import rollback
from pipelines.importer import Importer, after_import
from pipelines.work import Result, TextTask, process_texts
from pipelines.writer import Counts

PAGE = 2_000  # hands per worker task

_CHILDREN = ("hands", "hand_text", "seats", "actions", "pots", "hand_violations",
             "cross_violations")  # fmt: skip


def revalidate(
    con: Any, workers: int, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Judge every stored hand again (see the module); ``progress(done,
    total)`` hears the hands judged after each page, and once at the start."""
    importer = Importer(con, workers, command="import --revalidate")
    counts = Counts()
    try:
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(
                "CREATE OR REPLACE TEMP TABLE _texts AS "
                "SELECT row_number() OVER (ORDER BY h.file, h.line, h.site, h.hand_id) AS k, "
                "h.file, h.line, t.raw_text FROM hands h JOIN hand_text t USING (site, hand_id)"
            )
            total = con.execute("SELECT count(*) FROM _texts").fetchall()[0][0]
            for t in _CHILDREN:
                con.execute(f"DELETE FROM {t}")
            # the parse rejects' tables: their chains are checked again too
            con.execute(
                "INSERT INTO dirty_tables SELECT DISTINCT coalesce(site, ''), table_name, NULL "
                "FROM rejects WHERE kind = 'parse' AND table_name IS NOT NULL"
            )
            if progress:
                progress(0, total)
            for result in importer.map(process_texts, _pages(con, total, importer.version)):
                counts.add(importer.writer.write([result], own=False))
                if progress:
                    progress(counts.hands, total)
            crosshand.check(con, in_transaction=True)
            con.execute("DROP TABLE _texts")
            con.execute("COMMIT")
        except BaseException:
            rollback(con)
            raise
        invalid = con.execute(
            "SELECT count(*) FROM hands WHERE NOT valid"
        ).fetchall()[0][0]
        summary: dict[str, Any] = {
            "files": 0,
            "hands": counts.hands,
            "imported": counts.imported,
            "duplicates": counts.duplicates,
            "invalid": int(invalid),
            "rejected": counts.rejected,
            "conflicts": counts.conflicts,
        }
        after_import(con)
        importer.record(summary)
        return summary
    finally:
        importer.close()


def _pages(con: Any, total: int, version: str) -> Iterator[TextTask]:
    for lo in range(1, total + 1, PAGE):
        rows = con.execute(
            "SELECT file, line, raw_text FROM _texts WHERE k >= ? AND k < ? ORDER BY k",
            [lo, lo + PAGE],
        ).fetchall()
        yield TextTask(tuple((f, int(n), raw) for f, n, raw in rows), version)


__all__ = ["Result", "revalidate"]
