"""Reports as files: CSV, Parquet, JSON.

JSON is a list of objects, one per row, with the keys of the frame: rates as
fractions (null when there was no opportunity), each with ``x_opp`` and
``x_n``. Names are written as they are (UTF-8), as ``hh validate --json``
does; a consumer that embeds them in HTML escapes them (reports.render.html does).

CSV is read by spreadsheets, which run a cell beginning with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return as a formula: a player who names
himself ``=HYPERLINK(...)`` would run it on the machine of whoever opens the
report. Such a text cell is written with a leading ``'`` (:func:`cell`), as
OWASP advises; JSON and Parquet keep the text exact.
"""

from __future__ import annotations

import json
import math
from datetime import date, datetime
from pathlib import Path
from typing import Any

import polars as pl

FORMATS = ("table", "csv", "json", "parquet", "html")

# what a spreadsheet reads as the start of a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """A text cell of a CSV file, so that no spreadsheet runs it as a formula."""
    return "'" + text if text.startswith(FORMULA_START) else text


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def to_records(df: pl.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in df.to_dicts()]


def to_json(df: pl.DataFrame) -> str:
    return json.dumps(to_records(df), ensure_ascii=False, indent=1) + "\n"


def _json_list(value: Any) -> str:
    """A list cell as JSON text (polars hands each one over as a Series)."""
    return json.dumps(value.to_list() if isinstance(value, pl.Series) else value)


def write(df: pl.DataFrame, fmt: str, out: Path | None) -> str | None:
    """Write ``df`` as csv, json or parquet to ``out``; with no ``out``, return
    the text (csv, json) to print. Parquet needs a file."""
    if fmt == "parquet":
        if out is None:
            raise ValueError("--format parquet needs --out FILE")
        df.write_parquet(out)
        return None
    if fmt == "csv":
        # nested columns (lists) do not fit CSV cells: written as JSON text
        flat = df.with_columns(
            pl.col(c).map_elements(_json_list, return_dtype=pl.String)
            for c, t in df.schema.items() if isinstance(t, pl.List)
        )  # fmt: skip
        flat = flat.with_columns(
            pl.when(pl.any_horizontal(pl.col(c).str.starts_with(x) for x in FORMULA_START))
            .then(pl.lit("'") + pl.col(c)).otherwise(pl.col(c)).alias(c)
            for c, t in flat.schema.items() if t == pl.String
        )  # fmt: skip
        text = flat.write_csv()
    elif fmt == "json":
        text = to_json(df)
    else:
        raise ValueError(f"unknown format {fmt!r}")
    if out is None:
        return text
    out.write_text(text, "utf-8")
    return None
