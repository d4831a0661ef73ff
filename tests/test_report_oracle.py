"""The polars statistics against a plain DuckDB SQL implementation of vpip,
pfr, wtsd, wsd and net, on a simulated import (keyed on the strings, not on the
reports' hashed hand key). ``HH_ORACLE_HANDS`` sets the hands per game (the
issue asks for 100,000 in all once the real import lands)."""

from __future__ import annotations

import os

import polars as pl

from reports.db import Filters, connect, frame
from reports.players.report import players
from tests.simload import simulated

HANDS_PER_GAME = int(os.environ.get("HH_ORACLE_HANDS", "400"))

ORACLE = """
WITH r1 AS (
  SELECT a.site, a.hand_id, a.player,
         bool_or(a.kind IN ('check','fold','call','bet','raise')) AS asked,
         bool_or(a.kind IN ('call','bet','raise')) AS vol,
         bool_or(a.kind IN ('bet','raise')) AS agg
  FROM actions a WHERE a.round = 0 GROUP BY ALL),
s AS (
  SELECT s.player, h.game, s.net,
         coalesce(r1.asked, FALSE) AS asked, coalesce(r1.vol, FALSE) AS vol,
         coalesce(r1.agg, FALSE) AS agg,
         h.last_round >= 1 AND (s.folded_round IS NULL OR s.folded_round >= 1) AS saw2,
         s.went_to_showdown AS sd, s.won > 0 AS won
  FROM seats s JOIN hands h USING (site, hand_id)
  LEFT JOIN r1 USING (site, hand_id, player)
  WHERE NOT s.sitting_out)
SELECT player, game, count(*) AS hands, sum(net)::BIGINT AS net,
       count(*) FILTER (asked) AS vpip_opp, count(*) FILTER (vol) AS vpip_n,
       count(*) FILTER (asked) AS pfr_opp, count(*) FILTER (agg) AS pfr_n,
       count(*) FILTER (saw2) AS wtsd_opp, count(*) FILTER (saw2 AND sd) AS wtsd_n,
       count(*) FILTER (saw2 AND sd) AS wsd_opp, count(*) FILTER (saw2 AND sd AND won) AS wsd_n,
       count(*) FILTER (sd AND NOT saw2) AS sd_before_round2
FROM s GROUP BY ALL ORDER BY player, game
"""


def test_polars_and_sql_agree_exactly(tmp_path) -> None:
    con = connect(simulated(tmp_path / "sim.duckdb", HANDS_PER_GAME, seed=2))
    sql = frame(con, ORACLE)
    sql_sd = sql.select("player", "game", "sd_before_round2")
    sql = sql.drop("sd_before_round2")
    cols = sql.columns
    mine = players(con, Filters(), cards=False, equity=False).select(cols).sort("player", "game")
    assert mine.height == sql.height > 10
    assert mine.with_columns(pl.col(c).cast(pl.Int64) for c in cols[2:]).equals(
        sql.with_columns(pl.col(c).cast(pl.Int64) for c in cols[2:])
    )
    assert (sql["vpip_n"] > 0).any() and (sql["wtsd_n"] > 0).any()
    # W$SD's opportunity is exactly WTSD's count, in each of the three games
    # (PokerTracker's definition), and W$SD never exceeds it
    assert set(mine["game"]) == {"chiribito", "aces-straights-flushes", "calatone"}
    assert mine["wsd_opp"].to_list() == mine["wtsd_n"].to_list()
    assert (mine["wsd_n"] <= mine["wsd_opp"]).all() and (mine["wsd_n"] > 0).any()
    for game in ("chiribito", "aces-straights-flushes", "calatone"):
        part = mine.filter(pl.col("game") == game)
        assert part["wsd_opp"].sum() == part["wtsd_n"].sum() > 0, game
    # the simulated Calatone hands include showdowns before round 2 (a round
    # 1 every player checked): they are what W$SD used to count, and left out
    early = sql_sd.filter(pl.col("game") == "calatone")["sd_before_round2"].sum()
    assert early > 0
