"""The referee's output as Arrow tables: one batch per chunk.

The values are built by :class:`hh.columns.Columns` (the model and the
verdict as plain columns, by column name, compiled in the fast build); this
module gives them their Arrow types (:data:`SCHEMAS`, from the kinds
:data:`hh.columns.COLUMNS` names) and turns each column into one array, so
the writer inserts whole tables (docs/schema.md is the contract for every
column).
"""

from __future__ import annotations

import pyarrow as pa

from hh.columns import COLUMNS, Columns, content_hash

__all__ = ["SCHEMAS", "TABLES", "Columns", "arrow", "content_hash"]

_KINDS: dict[str, pa.DataType] = {
    "str": pa.string(),
    "bool": pa.bool_(),
    "i16": pa.int16(),
    "i32": pa.int32(),
    "i64": pa.int64(),
    "ts": pa.timestamp("us"),
    "strs": pa.list_(pa.string()),
    "i16s": pa.list_(pa.int16()),
    "i64s": pa.list_(pa.int64()),
    "strss": pa.list_(pa.list_(pa.string())),
}

# Column types of each table as a batch carries it (the writer adds
# bookkeeping columns such as ``import_run`` and ``imported_at``).
SCHEMAS: dict[str, pa.Schema] = {
    t: pa.schema([(c, _KINDS[kind]) for c, kind in cols]) for t, cols in COLUMNS.items()
}
TABLES = tuple(SCHEMAS)


def arrow(columns: Columns) -> dict[str, pa.Table]:
    """Each table's columns as one Arrow table of :data:`SCHEMAS`' types."""
    out = {}
    for t, schema in SCHEMAS.items():
        values = columns.columns[t]
        out[t] = pa.Table.from_arrays(
            [pa.array(values[f.name], type=f.type) for f in schema], schema=schema
        )
    return out
