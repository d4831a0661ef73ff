"""The referee's output as Arrow tables: one batch per chunk.

The values are built by :class:`pipelines.columns.Columns` (the model and
the verdict as plain columns, by column name, compiled in the fast build);
this module gives them their Arrow types (:data:`SCHEMAS`, from the
declaration, pipelines.tables) and turns each column into one array, so
the writer inserts whole tables.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from pipelines.columns import Columns, content_hash
from pipelines.tables import BATCH, TABLE, arrow_schema, batch_columns

# hands (and rejects) whose values a batch holds as Python objects before it
# turns them into Arrow arrays: a chunk's memory is its Arrow tables, not
# millions of small objects
FLUSH_HANDS = 256

__all__ = ["SCHEMAS", "TABLES", "Batch", "arrow", "content_hash"]

# The tables whose rows belong to a hand: the builder leaves out the hand's
# key (site, hand_id), which :func:`arrow` takes from the hand's row by
# ``_ord`` (one vectorised take instead of a value per row).
KEYED = tuple(t for t in BATCH if TABLE[t].of_hand)

# Column types of each table as a batch carries it (pipelines.tables: the
# writer adds the bookkeeping columns such as ``import_run``).
SCHEMAS: dict[str, pa.Schema] = {t: arrow_schema(batch_columns(t)) for t in BATCH}
TABLES = tuple(SCHEMAS)


def arrow(columns: Columns) -> dict[str, pa.Table]:
    """Each table's columns as one Arrow table of :data:`SCHEMAS`' types."""
    out = {}
    for t, schema in SCHEMAS.items():
        values = columns.columns[t]
        if t in KEYED:
            continue
        out[t] = pa.Table.from_arrays(
            [pa.array(values[f.name], type=f.type) for f in schema], schema=schema
        )
    hands = out["hands"]
    for t in KEYED:
        values = columns.columns[t]
        schema = SCHEMAS[t]
        ords = pa.array(values["_ord"], type=pa.int32())
        at = pc.index_in(ords, hands.column("_ord"))
        arrays = [ords, hands.column("site").take(at), hands.column("hand_id").take(at)]
        arrays += [pa.array(values[f.name], type=f.type) for f in list(schema)[3:]]
        out[t] = pa.Table.from_arrays(arrays, schema=schema)
    return {t: out[t] for t in SCHEMAS}


class Batch:
    """A chunk's rows: values go to :attr:`columns`
    (``batch.columns.add_hand(...)``, ``add_reject``), and after each hand
    :meth:`added` turns them into Arrow every :data:`FLUSH_HANDS` hands;
    :meth:`tables` gives the whole chunk, one table per name."""

    def __init__(self) -> None:
        self.columns = Columns()
        self._parts: list[dict[str, pa.Table]] = []
        self._flushed = 0  # hands turned into Arrow so far

    def added(self) -> None:
        if self.columns.n - self._flushed >= FLUSH_HANDS:
            self._flush()

    def _flush(self) -> None:
        self._parts.append(arrow(self.columns))
        self.columns.clear()
        self._flushed = self.columns.n

    def tables(self) -> dict[str, pa.Table]:
        if self.columns.n > self._flushed or not self._parts:
            self._flush()
        if len(self._parts) == 1:
            return self._parts[0]
        return {t: pa.concat_tables([p[t] for p in self._parts]) for t in SCHEMAS}
