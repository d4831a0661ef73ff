"""Test-only: DuckDB databases in the shape of docs/schema.md, filled from
hand-written rows, for the report tests (the import is built elsewhere).

``DDL`` restates the contract's tables column for column; ``build`` creates
them and inserts rows given as dicts (missing columns get neutral values),
through Arrow, so the reports read exactly what the import will write.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

DDL = {
    "hands": """site VARCHAR, hand_id VARCHAR, game VARCHAR, table_name VARCHAR,
        max_seats SMALLINT, dealer_seat SMALLINT, started_at TIMESTAMP, started_local VARCHAR,
        zone VARCHAR, forced BIGINT, small_bet BIGINT, big_bet BIGINT, house_rules VARCHAR[],
        players SMALLINT, total_pot BIGINT, rake BIGINT, last_round SMALLINT, showdown BOOLEAN,
        valid BOOLEAN, n_violations INTEGER, n_unchecked INTEGER, hero_view BOOLEAN,
        file VARCHAR, line INTEGER, content_hash VARCHAR, hh_version VARCHAR,
        board VARCHAR[], board_rounds SMALLINT[]""",
    "hand_text": "site VARCHAR, hand_id VARCHAR, raw_text VARCHAR",
    "seats": """site VARCHAR, hand_id VARCHAR, seat SMALLINT, player VARCHAR,
        sitting_out BOOLEAN, position SMALLINT, is_dealer BOOLEAN, stack_start BIGINT,
        stack_end BIGINT, down_cards VARCHAR[], up_cards VARCHAR[], shown BOOLEAN,
        mucked BOOLEAN, put_in BIGINT, uncalled BIGINT, won BIGINT, net BIGINT,
        rake_paid BIGINT, went_to_showdown BOOLEAN, folded_round SMALLINT,
        all_in_round SMALLINT, hand_category VARCHAR, down_rounds SMALLINT[],
        up_rounds SMALLINT[], declared VARCHAR[][]""",
    "actions": """site VARCHAR, hand_id VARCHAR, seq INTEGER, line INTEGER, round SMALLINT,
        street VARCHAR, player VARCHAR, kind VARCHAR, amount BIGINT, raise_by BIGINT,
        total_after BIGINT, all_in BOOLEAN, timed_out BOOLEAN, pot_before BIGINT,
        to_call_before BIGINT, stack_before BIGINT, code VARCHAR""",
    "pots": """site VARCHAR, hand_id VARCHAR, pot_index SMALLINT, amount BIGINT,
        eligible VARCHAR[], winners VARCHAR[], shares BIGINT[]""",
    # a view over hand_violations and cross_violations in the real database
    "violations": """site VARCHAR, hand_id VARCHAR, code VARCHAR, line INTEGER,
        message VARCHAR, unchecked BOOLEAN, source VARCHAR""",
    "rejects": """file VARCHAR, line INTEGER, raw_text VARCHAR, error VARCHAR,
        error_line INTEGER, error_column INTEGER, kind VARCHAR, site VARCHAR,
        hand_id VARCHAR, other_file VARCHAR, other_line INTEGER, imported_at TIMESTAMP""",
}

_NEUTRAL = {"BOOLEAN": False, "BIGINT": 0, "INTEGER": 0, "SMALLINT": 0, "VARCHAR": None}
_NULLABLE = {"position", "folded_round", "all_in_round", "hand_category", "raise_by", "code",
             "street", "zone", "small_bet", "big_bet", "down_cards", "up_cards"}  # fmt: skip


def columns(table: str) -> list[tuple[str, str]]:
    """(name, type) of a table's columns, in order."""
    out = []
    for part in DDL[table].replace("\n", " ").split(","):
        name, kind = part.split()
        out.append((name, kind))
    return out


def create(con: duckdb.DuckDBPyConnection) -> None:
    for table, ddl in DDL.items():
        con.execute(f"CREATE TABLE {table} ({ddl})")


def insert(con: duckdb.DuckDBPyConnection, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert dict rows; a missing column is NULL if nullable, else neutral."""
    rows = list(rows)
    if not rows:
        return
    cols = columns(table)
    known = {name for name, _ in cols}
    for row in rows:
        unknown = set(row) - known
        assert not unknown, f"{table}: no column {unknown}"
    data = {}
    for name, kind in cols:
        default = None if name in _NULLABLE or kind.endswith("[]") else _NEUTRAL.get(kind)
        data[name] = [row.get(name, default) for row in rows]
    arrow = pa.table(data)  # noqa: F841 - read by DuckDB's replacement scan
    names = ", ".join(name for name, _ in cols)
    casts = ", ".join(f"CAST({name} AS {kind}) AS {name}" for name, kind in cols)
    con.execute(f"INSERT INTO {table} ({names}) SELECT {casts} FROM arrow")


def build(path: Path, **tables: Iterable[dict[str, Any]]) -> Path:
    """A new database at ``path`` with the given rows per table."""
    con = duckdb.connect(str(path))
    create(con)
    for table, rows in tables.items():
        insert(con, table, rows)
    con.close()
    return path


def hand(game: str, hand_id: str, seats: list[tuple], actions: str, *, forced: int,
         last_round: int, showdown: bool, rake: int = 0, table: str = "T1",
         started_at: str = "2026-01-01 00:00:00", valid: bool = True,
         site: str = "test", pots: list[tuple] = ()) -> dict[str, list[dict]]:  # fmt: skip
    """Rows for one hand written compactly.

    ``seats``: (player, net, won, put_in, extra) in dealing order (position
    1 first), ``extra`` a dict of other seat columns (folded_round,
    went_to_showdown, down_cards, ...). ``actions``: one line per action,
    ``round player kind [amount]`` (round -1 for forced bets).
    ``pots``: (amount, eligible, winners, shares).
    """
    key = {"site": site, "hand_id": hand_id}
    h = dict(key, game=game, table_name=table, max_seats=6, started_at=started_at,
             forced=forced, players=len(seats), rake=rake, last_round=last_round,
             showdown=showdown, valid=valid, n_violations=0 if valid else 1,
             house_rules=[])  # fmt: skip
    seat_rows = []
    for i, (player, net, won, put_in, *extra) in enumerate(seats, start=1):
        row = dict(key, seat=i, player=player, position=i, net=net, won=won, put_in=put_in,
                   is_dealer=i == len(seats))  # fmt: skip
        if extra:
            row.update(extra[0])
        seat_rows.append(row)
    action_rows = []
    for seq, text in enumerate(t.strip() for t in actions.strip().splitlines() if t.strip()):
        rnd, player, kind, *amount = text.split()
        action_rows.append(dict(key, seq=seq, round=int(rnd), player=player, kind=kind,
                                amount=int(amount[0]) if amount else 0))  # fmt: skip
    pot_rows = [dict(key, pot_index=i, amount=a, eligible=e, winners=w, shares=s)
                for i, (a, e, w, s) in enumerate(pots)]  # fmt: skip
    return {"hands": [h], "seats": seat_rows, "actions": action_rows, "pots": pot_rows}


def merge(*parts: dict[str, list[dict]]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for part in parts:
        for table, rows in part.items():
            out.setdefault(table, []).extend(rows)
    return out
