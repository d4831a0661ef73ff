"""What the referee found, for a room's integrity team: by code, by table,
by player. A violation's player is the one whose action line it is on
(``actions.line``), else whoever collected on a PAYOUT line is unknown to
the schema and the row counts under no player (shown as null)."""

from __future__ import annotations

import html
from pathlib import Path

import duckdb
import polars as pl

from hh.output import safe
from reports.db import Filters, frame


def violations(con: duckdb.DuckDBPyConnection, filters: Filters) -> dict[str, pl.DataFrame]:
    """Frames ``by_code``, ``by_table``, ``by_player`` (counts of violations
    and of hands), filters on the hands applied; ``unchecked`` ones left out."""
    cond, params = filters.where()
    rows = frame(
        con,
        "SELECT v.code, v.source, h.game, h.site, h.table_name, a.player "
        "FROM violations v JOIN hands h ON h.site = v.site AND h.hand_id = v.hand_id "
        "LEFT JOIN actions a ON a.site = v.site AND a.hand_id = v.hand_id AND a.line = v.line "
        f"WHERE NOT coalesce(v.unchecked, FALSE) AND {cond}",
        params,
    )
    total = frame(con, f"SELECT h.game, count(*) AS hands FROM hands h WHERE {cond} GROUP BY 1",
                  params)  # fmt: skip
    if filters.players:
        rows = rows.filter(pl.col("player").is_in(filters.players))
    count = pl.len().alias("violations")

    def most(frame_: pl.DataFrame, *keys: str) -> pl.DataFrame:
        # most violations first, ties by every key of the row: the same
        # order at every run (a group_by's own order is not)
        return frame_.sort(["violations", *keys], descending=[True] + [False] * len(keys))

    by_code = most(rows.group_by("code", "game").agg(count), "code", "game")
    by_table = most(rows.group_by("site", "table_name", "game").agg(count),
                    "table_name", "site", "game")
    by_player = most(rows.filter(pl.col("player").is_not_null())
                     .group_by("player", "game", "code").agg(count), "player", "game", "code")
    return {"by_code": by_code, "by_table": by_table, "by_player": by_player,
            "hands": total.sort("game")}  # fmt: skip


def write_violation_pages(
    con: duckdb.DuckDBPyConnection, filters: Filters, folder: Path
) -> pl.DataFrame:
    """A replayer page (``hh show --html``) for every invalid hand the
    filters keep, and ``index.html`` linking them; returns one row per hand
    (site, hand_id, table, codes, page). The pages are built from the stored
    raw text, re-refereed as ``hh show`` does; every string from the log is
    escaped in the index."""
    from reports.show.replayer import write_pages

    cond, params = filters.where()
    hands = frame(
        con,
        "SELECT h.site, h.hand_id, h.table_name, h.line, h.file, t.raw_text, "
        "string_agg(DISTINCT v.code, ' ' ORDER BY v.code) AS codes "
        "FROM violations v JOIN hands h ON h.site = v.site AND h.hand_id = v.hand_id "
        "JOIN hand_text t ON t.site = h.site AND t.hand_id = h.hand_id "
        f"WHERE NOT coalesce(v.unchecked, FALSE) AND {cond} "
        "GROUP BY ALL ORDER BY h.file, h.line",
        params,
    )
    written = write_pages(
        ((raw, line, file) for raw, line, file in
         hands.select("raw_text", "line", "file").iter_rows()),
        folder,
    )  # fmt: skip
    paths = [str(written[(s, h)]) for s, h in hands.select("site", "hand_id").iter_rows()]
    out = hands.select("site", "hand_id", "table_name", "codes").with_columns(
        pl.Series("page", paths, dtype=pl.String)
    )
    items = "\n".join(
        f'<li><a href="{html.escape(Path(p).name, quote=True)}">'
        f"{html.escape(safe(s) + ' ' if s else '')}#{html.escape(h)}</a> "
        f"<span>{html.escape(safe(t or ''))}</span> <code>{html.escape(c)}</code></li>"
        for s, h, t, c, p in out.iter_rows()
    )
    (Path(folder) / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>hh: invalid hands</title>"
        "<style>body{font:15px system-ui;margin:2em}li{margin:.3em 0}"
        "code{color:#b00}</style>"
        f"<h1>Invalid hands ({out.height})</h1><ul>\n{items}\n</ul>\n",
        encoding="utf-8",
    )
    return out
