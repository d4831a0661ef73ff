"""What the referee found, for a room's integrity team: by code, by table,
by player. A violation's player is the one whose action line it is on
(``actions.line``), else whoever collected on a PAYOUT line is unknown to
the schema and the row counts under no player (shown as null)."""

from __future__ import annotations

import duckdb
import polars as pl

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
    by_code = rows.group_by("code", "game").agg(count).sort(["violations", "code"],
                                                             descending=[True, False])
    by_table = rows.group_by("site", "table_name", "game").agg(count).sort(
        ["violations", "table_name"], descending=[True, False])
    by_player = (rows.filter(pl.col("player").is_not_null())
                 .group_by("player", "game", "code").agg(count)
                 .sort(["violations", "player"], descending=[True, False]))  # fmt: skip
    return {"by_code": by_code, "by_table": by_table, "by_player": by_player,
            "hands": total}  # fmt: skip
