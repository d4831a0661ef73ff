"""Players report and HTML report over a synthetic database of N hands.

The database is built in DuckDB with set-based SQL (no referee, no Python
loop): N hands spread over the three games, 4 players each from a pool, a
few betting actions per player and round, nets that sum to zero per hand,
in the shape of docs/schema.md. The timings are printed beside a plain
``SELECT count(*) FROM actions`` measured in the same run (a ratio, since
the machine is shared). The synthetic hands carry no hand text, so the
all-in equity (which parses the hands it adjusts) and the card-judged
counts do no work here: they are timed by the tests on simulated hands.

``python benchmarks/bench_report.py [N]`` (default 1,000,000).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import duckdb


def build(path: Path, n: int, seed: float = 0.42) -> None:
    """A schema-shaped database with ``n`` synthetic hands."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.reportdb import create

    con = duckdb.connect(str(path))
    create(con)
    con.execute(f"SELECT setseed({seed})")
    con.execute("""
        INSERT INTO hands (site, hand_id, game, table_name, max_seats, started_at, forced,
                           house_rules, players, rake, last_round, showdown, valid,
                           n_violations)
        SELECT 'bench', 'H' || i,
               ['chiribito', 'aces-straights-flushes', 'calatone'][i % 3 + 1],
               'T' || (i % 97), 6, TIMESTAMP '2026-01-01' + to_seconds(i * 30), 20, [], 4, 0,
               (random() * 4)::SMALLINT, random() < 0.3, random() < 0.98, 0
        FROM range(?) t(i)""", [n])  # fmt: skip
    con.execute("""
        INSERT INTO seats (site, hand_id, seat, player, sitting_out, position, net, won,
                           put_in, rake_paid, went_to_showdown, folded_round, down_cards,
                           up_cards)
        SELECT h.site, h.hand_id, p + 1, 'P' || ((hash(h.hand_id) + p * 7919) % 300), FALSE,
               p + 1, CASE WHEN p = 0 THEN 60 ELSE -20 END, CASE WHEN p = 0 THEN 80 ELSE 0 END,
               20, 0, h.showdown AND p < 2,
               CASE WHEN h.showdown AND p < 2 THEN NULL ELSE (p % 2)::SMALLINT END,
               CASE h.game WHEN 'chiribito' THEN ['So', '7o']
                           WHEN 'aces-straights-flushes' THEN ['As', 'Ks', '2c'] END,
               CASE h.game WHEN 'aces-straights-flushes' THEN ['Qs', '7s', ['9d', '8d'][p % 2 + 1]]
                           ELSE [] END
        FROM hands h, range(4) s(p)""")  # fmt: skip
    con.execute("""
        INSERT INTO actions (site, hand_id, seq, round, player, kind, amount)
        SELECT s.site, s.hand_id, (r + 1) * 8 + s.seat * 2 + k, r, s.player,
               ['check', 'fold', 'call', 'bet', 'raise'][
                   (hash(s.hand_id, s.seat, r, k) % 5)::BIGINT + 1],
               10
        FROM seats s JOIN hands h USING (site, hand_id), range(3) a(r), range(2) b(k)
        WHERE r <= h.last_round""")  # fmt: skip
    con.execute("""
        INSERT INTO pots SELECT site, hand_id, 0, 80, [], [], [] FROM hands""")
    con.close()


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def run(n: int = 1_000_000) -> None:
    from reports.db import Filters, connect
    from reports.html import render, report_data
    from reports.players import hand_rows
    from reports.stats.table import players_table

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        built = _time(lambda: build(db, n))
        con = connect(db)
        actions = con.sql("SELECT count(*) FROM actions").fetchall()[0][0]
        base = _time(lambda: con.sql("SELECT count(*) FROM actions").fetchall())
        state = {}

        def players() -> None:
            _, rows = hand_rows(con, Filters())
            state["rows"] = rows.cache()
            state["table"] = players_table(state["rows"], Filters())

        t_players = _time(players)

        def html() -> None:
            _, rows = hand_rows(con, Filters())
            rows = rows.cache()
            render(report_data(players_table(rows, Filters()), rows, None, "bench"))

        t_html = _time(html)
        print(f"synthetic database: {n:,} hands, {actions:,} actions (built in {built:.1f} s)")
        print(f"SELECT count(*) FROM actions: {base * 1000:.1f} ms (baseline)")
        print(f"players report: {t_players:.2f} s  ({t_players / base:,.0f}x the baseline; "
              f"target <= 3 s for 1,000,000 hands)")
        print(f"HTML report:    {t_html:.2f} s  ({t_html / base:,.0f}x the baseline; "
              f"target <= 10 s)")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
