"""``hh report integrity``: pairs of players who play together against the
table (soft play, chip dumping, card sharing), ranked by how unlikely their
play together is, each signal with its count, opportunity and probability
under a null model estimated from the rest of the population
(docs/integrity.md says which, with its assumptions and the threshold).

What each signal counts is a fact of each hand, reduced once per hand in
SQL from the stored columns (``hands``, ``seats``, ``actions``, ``pots``)
and the seats' standings (reports.integrity.standings) and kept in the reports'
cache (reports.integrity.facts: the import's hook, or this report for
the hands the cache lacks). The report sums those facts per pair in
DuckDB, on small integers (hands, games, tables, days and players
numbered), and finishes the null models as polars plans over a row per
pair and stratum. A pair is two players of one game.
"""

from __future__ import annotations

import gc
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl

from reports.cache import Cache
from reports.db import Filters, ReportError, frame
from reports.integrity import facts, standings
from reports.integrity.pairs import (  # the records, kept importable from here too
    ALERT,
    MIN_EXPECTED,
    NORMAL,
    Pair,
    Ring,
    Signal,
    rings,
    rounded,
    shown_score,
    upper_tail,
)

SUPPORT = 0.001  # a signal's own probability that counts as a piece of evidence (tiers)
MIN_HANDS = 200  # hands together before a pair's signals are judged at all
SHRINK = 20.0  # pseudo-observations pulling a player's own rate to the population's
EVIDENCE = 10  # evidence hand ids kept per signal
MIN_FLOW_HANDS = 30  # hands with chips between the two before chip flow is judged
FLOW_NOISE = 4.0  # coin flips' variance per hand of a player's share of the chips won
FLOW_CAP = 0.9  # each hand's chips between a pair capped at the game's 90th percentile
EMPIRICAL_PAIRS = 20  # pairs judged before a group's empirical null exists
QUANTILE, CHI2_Q = 0.9, 2.706  # the quantile of z^2 overdispersion is fitted to, chi2(1)'s
STYLE = 0.5  # how far a player's own rate may lie from the population's (a factor of 1.5)
TRIM = 4.0  # |z| of a first pass over which a pair is left out of its players' baselines
BLOCK = facts.BLOCK  # a pair's consecutive hands together per cluster of soft play's variance
BEHAVIOUR = ("fold_to", "chip_flow", "soft_play", "fold_ahead", "allin_call_behind",
             "stack_lost", "card_share")  # fmt: skip
SIGNALS = ("overlap", *BEHAVIOUR)
# signals that measure the same behaviour count as one piece of evidence (tiers)
FAMILY = {"fold_to": "folds", "fold_ahead": "folds", "chip_flow": "chips", "stack_lost": "chips",
          "soft_play": "soft_play", "card_share": "card_share",
          "allin_call_behind": "allin_call_behind"}  # fmt: skip
DIRECTED = ("fold_to",)  # signals judged in each direction, the stronger one kept
SIZES = 4  # table sizes of the baselines: heads-up, three, four to six, more


def _size(players: str) -> str:
    """SQL: the table size class (of :data:`SIZES`) of a hand's players dealt in."""
    return (f"CASE WHEN {players} <= 2 THEN 0 WHEN {players} = 3 THEN 1 "
            f"WHEN {players} <= 6 THEN 2 ELSE 3 END")
def _load(con: duckdb.DuckDBPyConnection, filters: Filters, store: Cache
          ) -> tuple[list[str], list[str]]:  # fmt: skip
    """Temp tables of the hands the filters keep, keyed by one integer per
    hand in their stored order (``ih``, ``ihx`` with the game, table and
    day as integers), the players as integers in the order of their names
    (``ipl``), and views of the per-hand facts of those hands
    (reports.integrity.facts, read from the cache ``store``) by those
    integers: ``ip`` (per hand and pair), ``iev`` (the card-judged
    decisions). Returns the games and the players, each list indexed by
    its integer."""
    where, params = filters.where()
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE ih AS
        SELECT row_number() OVER ()::BIGINT AS hk,
               hash(h.content_hash, h.hh_version, h.site, h.hand_id) AS ck,
               h.site, h.hand_id, h.game, h.table_name,
               coalesce(CAST(h.started_at AS DATE)::VARCHAR, '') AS day, h.players
        FROM hands h WHERE h.judged AND {where}""", params)  # fmt: skip
    seats, pairs, events = (store.table(k) for k in facts.KINDS)
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE ig AS
        SELECT game, (row_number() OVER (ORDER BY game) - 1)::INTEGER AS g
        FROM (SELECT DISTINCT game FROM ih);
        CREATE OR REPLACE TEMP TABLE itb AS
        SELECT game, table_name, (row_number() OVER ())::INTEGER AS t
        FROM (SELECT DISTINCT game, table_name FROM ih);
        CREATE OR REPLACE TEMP TABLE iday AS
        SELECT day, (row_number() OVER ())::INTEGER AS d FROM (SELECT DISTINCT day FROM ih);
        CREATE OR REPLACE TEMP TABLE ihx AS
        SELECT ih.hk, c.n, ih.hand_id, ih.players, ig.g, itb.t, iday.d
        FROM ih JOIN ig USING (game) JOIN itb USING (game, table_name) JOIN iday USING (day)
        JOIN {store.table(facts.PAIRS + "_hands")} c ON c.hk = ih.ck;
        -- every name the cache numbered, by its rank among the names
        CREATE OR REPLACE TEMP TABLE ipl AS
        SELECT player, p AS c, (row_number() OVER (ORDER BY player) - 1)::INTEGER AS p
        FROM {store.table(facts.PLAYERS)};
        CREATE OR REPLACE TEMP VIEW ist AS
        SELECT i.t, p.p FROM {seats} s JOIN ihx i ON i.n = s.n
        JOIN ipl p ON p.c = s.player WHERE s.dealt;
        CREATE OR REPLACE TEMP VIEW ip AS
        SELECT i.hk, i.g, i.t, i.d, i.hand_id, i.players, pa.p AS a, pb.p AS b,
               c.* EXCLUDE (hk, n, a, b)
        FROM {pairs} c JOIN ihx i ON i.n = c.n
        JOIN ipl pa ON pa.c = c.a JOIN ipl pb ON pb.c = c.b;
        CREATE OR REPLACE TEMP VIEW iev AS
        SELECT i.hk, i.g, i.hand_id, px.p AS x, py.p AS y, e.signal,
               e.stratum * {SIZES} + {_size("i.players")} AS stratum, e.judged, e.hit
        FROM {events} e JOIN ihx i ON i.n = e.n
        JOIN ipl px ON px.c = e.x JOIN ipl py ON py.c = e.y""")  # fmt: skip
    games = [r[0] for r in con.execute("SELECT game FROM ig ORDER BY g").fetchall()]
    names = [r[0] for r in con.execute("SELECT player FROM ipl ORDER BY p").fetchall()]
    return games, names


def _pairs(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Overlap of every pair (g, a, b): hands, tables and days together, and
    the hands together that independent seating would give (per table: the
    product of the two players' hands there over the table's hands)."""
    return frame(con, """
        WITH pt AS (
            SELECT g, a, b, t, sum(n) AS n, sum(hu) AS hu, count(*) AS days
            FROM (SELECT g, a, b, t, d, sum(together) AS n,
                         coalesce(sum(together) FILTER (WHERE players <= 2), 0) AS hu
                  FROM ip WHERE together > 0 GROUP BY ALL)
            GROUP BY ALL),
        tp AS (SELECT t, p, count(*) AS n FROM ist GROUP BY ALL),
        tt AS (SELECT t, count(*) AS n FROM ihx GROUP BY ALL)
        SELECT pt.g, pt.a, pt.b, sum(pt.n)::BIGINT AS n, sum(pt.hu)::BIGINT AS hu,
               count(*) AS tables,
               sum(pt.days)::BIGINT AS sessions, sum(ta.n * tb.n / tt.n) AS expected
        FROM pt JOIN tp ta ON ta.t = pt.t AND ta.p = pt.a
        JOIN tp tb ON tb.t = pt.t AND tb.p = pt.b
        JOIN tt ON tt.t = pt.t
        GROUP BY ALL ORDER BY g, a, b""")  # fmt: skip


# --------------------------------------------------------------- signals


def _aligned(keys: pl.DataFrame, df: pl.DataFrame) -> pl.DataFrame:
    """``df``'s rows for the report's pairs ``keys`` (g, a, b), in their
    order; pairs ``df`` lacks have nulls."""
    return keys.join(df, on=["g", "a", "b"], how="left", maintain_order="left")


def _chip_flow(con: duckdb.DuckDBPyConnection, keys: pl.DataFrame, names: list[str],
               out: list[dict[str, Signal]]) -> None:  # fmt: skip
    """Net chips between the two, given the chips that passed between them:
    each hand's chips between a and b (``g``) go to b with the probability
    ``p`` that each one's results against everyone else give (a's share
    ``w_a`` of the chips he exchanged with the others, b's ``w_b``, shrunk
    to an even split; ``p = w_b (1 - w_a) / (w_b (1 - w_a) + w_a (1 - w_b))``),
    so the expected net is ``sum(g) (2p - 1)`` and its variance
    ``4 p (1 - p) sum(g^2)``. Conditioning on what passed between them
    makes the stakes, stack depths and styles of the hands they played
    cancel: only the direction is tested. Two-sided."""
    # a few big pots must not drown the many small ones (nor make a pair's
    # direction): each hand's chips between the two are capped at the game's
    # FLOW_CAP quantile of them (the same for every pair, whatever the direction:
    # the test given the chips stays exact)
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE iflows AS
        WITH f AS (
            SELECT g, a, b, hk, coalesce(chips_ab, 0) AS raw_ab, coalesce(chips_ba, 0) AS raw_ba
            FROM ip WHERE chips_ab IS NOT NULL OR chips_ba IS NOT NULL),
        c AS (SELECT *, quantile_disc(raw_ab + raw_ba, {FLOW_CAP}) OVER (PARTITION BY g) AS cap
              FROM f)
        SELECT g, a, b, hk, raw_ab, raw_ba,
               raw_ab * least(1.0, cap / greatest(raw_ab + raw_ba, 1e-9)) AS ab,
               raw_ba * least(1.0, cap / greatest(raw_ab + raw_ba, 1e-9)) AS ba
        FROM c""")
    # the sums compensated (fsum): the same chips whatever order the threads add
    # them in (a plain float sum of a pair's shares came to 3173.4999999999995 or
    # 3173.5 run to run). The evidence: the hands with the most between them, ties
    # by hand id (those at least the tenth most, then sorted with their ids)
    flows = frame(con, f"""
        WITH s AS (
            SELECT g, a, b, fsum(ab - ba) AS d, fsum((ab + ba) * (ab + ba)) AS g2,
                   fsum(ab) AS ab, fsum(ba) AS ba, fsum(raw_ab) AS raw_ab,
                   fsum(raw_ba) AS raw_ba, count(*) AS nf,
                   list_min(max(abs(raw_ab - raw_ba), {EVIDENCE})) AS least
            FROM iflows GROUP BY ALL),
        e AS (
            SELECT f.g, f.a, f.b, list(i.hand_id ORDER BY abs(f.raw_ab - f.raw_ba) DESC, i.hand_id)
                                      [1:{EVIDENCE}] AS ev
            FROM iflows f JOIN s ON s.g = f.g AND s.a = f.a AND s.b = f.b
            JOIN ihx i ON i.hk = f.hk
            WHERE abs(f.raw_ab - f.raw_ba) >= s.least GROUP BY ALL)
        SELECT s.* EXCLUDE (least), e.ev FROM s JOIN e USING (g, a, b)""")  # fmt: skip
    con.execute("DROP TABLE iflows")
    ab, ba = pl.col("ab"), pl.col("ba")
    # each player's chips won from and lost to everyone, per game
    mine = pl.concat([
        flows.select("g", p="b", won=ab, lost=ba, nf="nf"),
        flows.select("g", p="a", won=ba, lost=ab, nf="nf"),
    ]).group_by("g", "p").agg(pl.col("won").sum(), pl.col("lost").sum(),
                              pl.col("nf").sum())  # fmt: skip
    gross = flows.group_by("g").agg(chips=(ab + ba).sum(), hands=pl.col("nf").sum())
    df = _aligned(keys, flows).with_columns(
        pl.col("d", "g2", "ab", "ba").fill_null(0.0), pl.col("nf").fill_null(0))
    df = df.join(mine.rename({"p": "a", "won": "won_a", "lost": "lost_a", "nf": "nf_a"}),
                 on=["g", "a"], how="left", maintain_order="left")
    df = df.join(mine.rename({"p": "b", "won": "won_b", "lost": "lost_b", "nf": "nf_b"}),
                 on=["g", "b"], how="left", maintain_order="left")
    df = df.join(gross, on="g", how="left", maintain_order="left").with_columns(
        pl.col("won_a", "lost_a", "won_b", "lost_b", "chips").fill_null(0.0),
        pl.col("hands").fill_null(0))
    # SHRINK hands' worth of the game's chips per flow hand, half won, half lost
    c = pl.when(pl.col("hands") > 0).then(SHRINK * pl.col("chips") / pl.col("hands") / 2
                                         ).otherwise(0.0)  # fmt: skip
    df = df.with_columns(c=c)
    c = pl.col("c")
    df = df.with_columns(
        wa=_share_of(pl.col("won_a") - ba + c, pl.col("lost_a") - ab + c),
        wb=_share_of(pl.col("won_b") - ab + c, pl.col("lost_b") - ba + c))
    wa, wb = pl.col("wa"), pl.col("wb")
    df = df.with_columns(p=_share_of(wb * (1 - wa), wa * (1 - wb)))
    p = pl.col("p")
    # p is estimated from each one's hands with the others: a player seen in few
    # (a heads-up regular) may win or lose more against everyone than they show.
    # Its variance, by the delta method on each share (chips won per hand are far
    # noisier than a coin: FLOW_NOISE coins a hand), goes into the net's.
    others_a = (pl.col("nf_a").fill_null(0) - pl.col("nf")).cast(pl.Float64)
    others_b = (pl.col("nf_b").fill_null(0) - pl.col("nf")).cast(pl.Float64)
    var_p = (p * (1 - p)) ** 2 * FLOW_NOISE * (
        1 / ((wa * (1 - wa)).clip(lower_bound=0.01) * (others_a + SHRINK))
        + 1 / ((wb * (1 - wb)).clip(lower_bound=0.01) * (others_b + SHRINK)))
    df = df.with_columns(e=(ab + ba) * (2 * p - 1),
                         var=4 * p * (1 - p) * pl.col("g2") + 4 * (ab + ba) ** 2 * var_p)
    df = df.with_columns(pl.col("raw_ab", "raw_ba").fill_null(0.0))
    cols = ("a", "b", "d", "ab", "ba", "nf", "ev", "p", "e", "var", "n", "raw_ab", "raw_ba")
    for sigs, (a, b, d, chips_ab, chips_ba, nf, ev, p_ab, e, var, n, raw_ab, raw_ba) in zip(
            out, zip(*(df.get_column(k).to_list() for k in cols), strict=True),
            strict=True):  # fmt: skip
        s = Signal(value=raw_ab - raw_ba, count=nf, opportunity=n, expected=e)
        gainer, loser = (b, a) if d - e > 0 else (a, b)
        s.detail = {"from": names[loser], "to": names[gainer], "chips_a_to_b": round(raw_ab),
                    "chips_b_to_a": round(raw_ba), "capped_a_to_b": round(chips_ab),
                    "capped_b_to_a": round(chips_ba), "p_a_to_b": round(p_ab, 4)}  # fmt: skip
        if nf >= MIN_FLOW_HANDS and var > 0:
            s.observed, s.variance, s.size, s.continuity = d, var, chips_ab + chips_ba, False
            s.z = (d - e) / math.sqrt(var)
            s.probability = min(1.0, 2 * upper_tail(abs(s.z)))
        s.evidence = list(ev or [])
        sigs["chip_flow"] = s


def _share_of(x: pl.Expr, y: pl.Expr) -> pl.Expr:
    """x / (x + y) over columns, an even split when both are 0 (or less)."""
    x, y = x.clip(lower_bound=0.0), y.clip(lower_bound=0.0)
    return pl.when(x + y > 0).then(x / (x + y)).otherwise(0.5)


def _field(c: str, dc: int) -> str:
    """SQL for one count of the packed words of a block (``isoft``): ``c``
    ``n`` (decisions) or ``k`` (bets and raises), ``dc`` = 16 x direction
    (0: a's, 1: b's) + the cell (reports.integrity.facts.CELLS: 8 x
    heads-up + facing a bet + 2 x round)."""
    d, cell = ("ab", "ba")[dc // facts.CELLS], dc % facts.CELLS
    return f"(({c}_{d}{cell // facts.PER_WORD} >> {16 * (cell % facts.PER_WORD)}) & 65535)"


_DC = range(2 * facts.CELLS)


def _soft_play(con: duckdb.DuckDBPyConnection, keys: pl.DataFrame, out: list[dict[str, Signal]]
               ) -> None:  # fmt: skip
    """Bets and raises while the other is still in the hand, against each
    player's own aggression when the other is not (per stratum: heads-up or
    multiway, facing a bet or not, the round), shrunk to the population's
    rate times his own factor; lower tail. Rates are per (action, opponent
    still in), as the pair's counts are. Two passes: a player's aggression
    towards an opponent far off his usual (|z| over ``TRIM`` in the first
    pass, a likely partner) is left out of his rate for the others.
    Heads-up checks are counted beside it.

    The per-hand facts' packed words are summed per block of ``BLOCK``
    consecutive hands of the pair with such decisions (no field spills:
    reports.integrity.facts), then unpacked per pair for the model, and
    per block for the variance clustered by block (:func:`_soft_clustered`)."""
    _soft_blocks(con)
    # each pair's decisions and bets per direction and cell, with any
    sums = ", ".join(f"sum({_field(c, dc)})::BIGINT AS {c}{dc}" for c in "nk" for dc in _DC)
    rows = frame(con, f"""
        SELECT g, a, b, dc, n, k FROM (
            SELECT g, a, b, unnest(range({len(_DC)})) AS dc,
                   unnest([{", ".join(f"n{dc}" for dc in _DC)}]) AS n,
                   unnest([{", ".join(f"k{dc}" for dc in _DC)}]) AS k
            FROM (SELECT g, a, b, {sums} FROM isoft GROUP BY g, a, b))
        WHERE n > 0""")  # fmt: skip
    hu_checks = frame(con, f"""
        SELECT g // {SIZES} AS g, a, b, (sum(checks_ab) + sum(checks_ba))::BIGINT AS c
        FROM isoft GROUP BY ALL""")
    rates = _soft_model(rows)
    clustered = _soft_clustered(con, rates.select("g", "a", "b", "dc", "p0"))
    con.execute("DROP TABLE isoft")
    n, k, p0, hu = pl.col("n"), pl.col("k"), pl.col("p0"), pl.col("hu")
    # each table size of a pair apart (its own baselines, its own blocks), then summed
    per = rates.group_by("g", "a", "b").agg(
        count=k.sum(), expected=(n * p0).sum(), var=(n * p0 * (1 - p0)).sum(), opp=n.sum(),
        hu_n=n.filter(hu).sum(), hu_k=k.filter(hu).sum(), hu_e=(n * p0).filter(hu).sum())
    style = rates.group_by("g", "a", "b", pl.col("dc") < facts.CELLS).agg(
        ew=(n * p0 * pl.col("w")).sum()).group_by("g", "a", "b").agg(
        style=_style_variance(pl.col("ew")).sum())  # fmt: skip
    per = per.join(clustered, on=["g", "a", "b"], how="left").join(
        style, on=["g", "a", "b"], how="left").with_columns(
        var=pl.max_horizontal("var", pl.col("clustered").fill_null(0.0)) + pl.col("style"),
        g=pl.col("g") // SIZES).drop("clustered", "style")
    per = per.group_by("g", "a", "b").agg(pl.all().sum())
    evidence = _soft_evidence(con)
    df = _aligned(keys, per.with_columns(pl.col("g").cast(keys.schema["g"])))
    for more in (hu_checks, evidence):
        df = df.join(more, on=["g", "a", "b"], how="left", maintain_order="left")
    cols = ("count", "expected", "var", "opp", "hu_n", "hu_k", "hu_e", "c", "ev")
    for sigs, (count, expected, var, opp, hu_n, hu_k, hu_e, hu_c, ev) in zip(
            out, zip(*(df.get_column(c).to_list() for c in cols), strict=True),
            strict=True):  # fmt: skip
        count, opp, hu_n, hu_k, hu_c = (int(v or 0) for v in (count, opp, hu_n, hu_k, hu_c))
        expected, hu_e = expected or 0.0, hu_e or 0.0
        var = var or 0.0
        s = Signal(value=count / expected if expected else None, count=count, opportunity=opp,
                   expected=expected, evidence=list(ev or []))  # fmt: skip
        s.judge(count, expected, var, lower=True)
        s.detail = {"heads_up": {"count": hu_k, "opportunity": hu_n, "expected": round(hu_e, 2),
                                 "checks": hu_c}}  # fmt: skip
        sigs["soft_play"] = s


def _soft_blocks(con: duckdb.DuckDBPyConnection) -> None:
    """``isoft``: each pair's soft-play words summed per block of ``BLOCK``
    consecutive hands of the pair with such decisions (in the report's
    order of hands, ``hk``), with the heads-up checks. The per-hand facts
    number each pair's rows in the order of the hands' numbers (``seq``:
    reports.integrity.facts); when that order is the report's and every
    pair's rows here are numbered 0, 1, ... without a gap (the report reads
    every hand the cache holds, in the order they were numbered), the
    blocks are ``seq // BLOCK``, without a sort. Otherwise (a filter, hands
    numbered out of their stored order) each pair's hands are ranked."""
    sums = ", ".join(f"sum({c})::BIGINT AS {c}" for c in facts.SOFT_COLUMNS)
    sums += ", sum(checks_ab)::BIGINT AS checks_ab, sum(checks_ba)::BIGINT AS checks_ba"
    ordered = not con.execute("""
        SELECT count(*) FROM (SELECT hk, row_number() OVER (ORDER BY n) AS r FROM ihx)
        WHERE r <> hk""").fetchall()[0][0]  # fmt: skip
    if ordered:
        con.execute(f"""
            CREATE OR REPLACE TEMP TABLE isoft AS
            SELECT g * {SIZES} + {_size("players")} AS g, a, b, seq // {BLOCK} AS blk, {sums},
                   count(*) AS m, min(seq) AS lo, max(seq) AS hi
            FROM ip WHERE soft GROUP BY ALL""")  # fmt: skip
        ordered = not con.execute("""
            SELECT count(*) FROM (
                SELECT sum(m) AS m, min(lo) AS lo, max(hi) AS hi FROM isoft GROUP BY g, a, b)
            WHERE lo <> 0 OR hi <> m - 1""").fetchall()[0][0]  # fmt: skip
    if ordered:
        return
    # the pair's hands first, narrow: a window over the view's joins is several
    # times slower
    words = ", ".join(facts.SOFT_COLUMNS)
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE isoft AS
        SELECT g * {SIZES} + {_size("players")} AS g, a, b, hk, {words}, checks_ab, checks_ba
        FROM ip WHERE soft""")
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE isoft AS
        SELECT g, a, b, blk, {sums}
        FROM (SELECT *, (row_number() OVER (PARTITION BY g, a, b ORDER BY hk) - 1)
                        // {BLOCK} AS blk
              FROM isoft)
        GROUP BY ALL""")  # fmt: skip


def _soft_model(rows: pl.DataFrame) -> pl.DataFrame:
    """Soft play's null rate ``p0`` of each pair's direction and cell
    (``rows``: g, a, b, dc, decisions n, bets and raises k), and ``hu``.
    Every total a row needs is a window over one integer key: the game's
    cell (the population), x in the game (his own over all strata), x's
    cell, x towards y."""
    n, k, c = pl.col("n"), pl.col("k"), facts.CELLS
    width = 1 << max(1, int(rows.select(pl.max_horizontal("a", "b").max()).item() or 0)
                     .bit_length())  # fmt: skip
    lazy = rows.lazy()  # one plan: polars shares the windows' groups
    mine = pl.col("dc") < c
    x = pl.when(mine).then("a").otherwise("b").cast(pl.Int64)
    y = pl.when(mine).then("b").otherwise("a").cast(pl.Int64)
    cell = pl.col("dc") % c
    lazy = lazy.with_columns(x=pl.col("g").cast(pl.Int64) * width + x, y=y, cell=cell,
                             hu=cell >= c // 2)  # fmt: skip
    lazy = lazy.with_columns(gc=pl.col("g") * c + pl.col("cell"), xc=pl.col("x") * c + cell,
                             xy=pl.col("x") * width + pl.col("y"))  # fmt: skip
    # the population's rate per cell; x's totals per cell; x's with y
    lazy = lazy.with_columns(base=k.sum().over("gc") / n.sum().over("gc"), tn=n.sum().over("xc"),
                             tk=k.sum().over("xc"), mk=k.sum().over("xy"),
                             ev=k.sum().over("x"))  # fmt: skip
    lazy = lazy.with_columns(nb=n * pl.col("base"))
    # what the population's rates expect of x's actions, with y and with everyone
    lazy = lazy.with_columns(mw=pl.col("nb").sum().over("xy"), wa=pl.col("nb").sum().over("x"))
    # first pass: y's rows left out of x's own
    lazy = _soft_rates(lazy, pl.col("tn") - n, pl.col("tk") - k, pl.col("ev") - pl.col("mk"),
                       pl.col("wa") - pl.col("mw"))  # fmt: skip
    p0 = pl.col("p0")
    e, v = (n * p0).sum().over("xy"), (n * p0 * (1 - p0)).sum().over("xy")
    lazy = lazy.with_columns(trim=(v > 0) & (e >= MIN_EXPECTED)
                             & (((pl.col("mk") - e) / v.sqrt()).abs() > TRIM))  # fmt: skip
    # second pass: the trimmed opponents left out of x's own; y's rows too
    # (already out if y is one of them)
    t = pl.col("trim")
    lazy = lazy.with_columns(cn=(n * t).sum().over("xc"), ck=(k * t).sum().over("xc"),
                             kev=pl.col("ev") - (k * t).sum().over("x"),
                             kwa=pl.col("wa") - (pl.col("nb") * t).sum().over("x"))  # fmt: skip
    return _soft_rates(
        lazy, pl.col("tn") - pl.col("cn") - pl.when(t).then(0).otherwise(n),
        pl.col("tk") - pl.col("ck") - pl.when(t).then(0).otherwise(k),
        pl.col("kev") - pl.when(t).then(0).otherwise(pl.col("mk")),
        pl.col("kwa") - pl.when(t).then(0.0).otherwise(pl.col("mw"))).collect()


def _soft_rates(rows: pl.LazyFrame, own_n: pl.Expr, own_k: pl.Expr, events: pl.Expr,
                wanted: pl.Expr) -> pl.LazyFrame:  # fmt: skip
    """``rows`` with ``p0``: x's own rate with the others in the stratum
    (``own_k`` of ``own_n``), shrunk with ``SHRINK`` pseudo-actions to the
    population's rate times his own factor (``events`` over ``wanted``,
    his bets and raises with the others over what the population's rates
    expect of his actions: :func:`_factor_of`): a passive player is passive
    heads-up too."""
    prior = _prior_of(pl.col("base"), _factor_of(events, wanted))
    return rows.with_columns(p0=(own_k + SHRINK * prior) / (own_n + SHRINK),
                             w=_unknown(own_n, wanted))


def _unknown(own_n: pl.Expr, wanted: pl.Expr) -> pl.Expr:
    """How much of a player's null rate is the population's rather than his
    own (1: nothing of him seen with anyone else in the stratum nor
    elsewhere): the shrinkage weight of his stratum times his factor's.
    The null's variance gets ``(STYLE x expected x weight)^2`` per player
    (:func:`_style_variance`): a player seen only with his one opponent (a
    heads-up regular) may simply be passive, or fold a lot, with everyone."""
    return (SHRINK / (own_n.clip(lower_bound=0.0) + SHRINK)
            * SHRINK / (wanted.clip(lower_bound=0.0) + SHRINK))


def _style_variance(ew: pl.Expr) -> pl.Expr:
    """The null's variance for not knowing one player's style: ``ew`` his
    expected count weighted by :func:`_unknown`, times ``STYLE``, squared."""
    return (STYLE * ew) ** 2


def _factor_of(events: pl.Expr, expected: pl.Expr) -> pl.Expr:
    """A player's own factor over all his strata: his events over what the
    population's rates expect of his decisions (both with everyone but the
    opponent judged), shrunk to 1 with ``SHRINK`` pseudo-events (a player
    seen little is taken as the population)."""
    return (events.clip(lower_bound=0.0) + SHRINK) / (expected.clip(lower_bound=0.0) + SHRINK)


def _prior_of(base: pl.Expr, factor: pl.Expr) -> pl.Expr:
    """The rate a player's own rate in one stratum is shrunk to: the
    population's there (``base``) times his factor (:func:`_factor_of`),
    on the odds scale (so that it stays a probability)."""
    odds = base / (1 - base) * factor
    return pl.when((base <= 0.0) | (base >= 1.0)).then(base).otherwise(odds / (1 + odds))


def _soft_clustered(con: duckdb.DuckDBPyConnection, rates: pl.DataFrame) -> pl.DataFrame:
    """The variance of each pair's soft-play count clustered by blocks of
    ``BLOCK`` of their consecutive hands together (``isoft``): the sum over
    blocks of (bets and raises into each other in the block - their
    expected number)^2, ``rates``: p0 per pair, direction and cell. The
    actions of one hand, and of a stretch of hands, go together (a raise is
    followed by more raises, a check by checks), so they are not
    independent trials; this variance does not assume they are (a sandwich
    estimator), and is used when larger than the independent one."""
    wide = rates.pivot(on="dc", index=["g", "a", "b"], values="p0")  # each pair's as columns
    wide = wide.with_columns(pl.lit(None, pl.Float64).alias(str(dc)) for dc in _DC
                             if str(dc) not in wide.columns)  # fmt: skip
    con.register("isoft_rates", wide.rename({str(dc): f"p{dc}" for dc in _DC}))
    try:
        bets = " + ".join(_field("k", dc) for dc in _DC)
        expected = " + ".join(f"{_field('n', dc)} * coalesce(r.p{dc}, 0)" for dc in _DC)
        return frame(con, f"""
            SELECT g, a, b, sum(r * r) AS clustered FROM (
                SELECT s.g, s.a, s.b, ({bets}) - ({expected}) AS r
                FROM isoft s JOIN isoft_rates r ON r.g = s.g AND r.a = s.a AND r.b = s.b)
            GROUP BY ALL""")  # fmt: skip
    finally:
        con.unregister("isoft_rates")


def _soft_evidence(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Hands the pair played heads-up to the end without a bet or raise."""
    return frame(con, f"""
        SELECT g, a, b, list(hand_id ORDER BY hk)[1:{EVIDENCE}] AS ev
        FROM ip WHERE passive GROUP BY ALL""")


def _events(con: duckdb.DuckDBPyConnection, keys: pl.DataFrame, out: list[dict[str, Signal]]
            ) -> None:  # fmt: skip
    """The signals that need who was ahead: folds to the other's bet or
    raise with cards ahead of everyone still in (``fold_ahead``), calls of
    the other's all-in while behind (``allin_call_behind``), folds with the
    other and someone more still in that beat everyone but the other, who
    beat the folder (``card_share``), each decision as the per-hand facts
    judged it (reports.integrity.facts: each seat's standing on the
    decision's round as the import stored it; a decision where one of the
    players has no standing, a ``??`` card, is not judged); and stacks lost
    to him."""
    tally = frame(con, """
        SELECT signal, g, x, y, stratum AS r, count(*) FILTER (WHERE judged) AS m,
               count(*) FILTER (WHERE judged AND hit) AS k,
               count(*) FILTER (WHERE NOT judged) AS unjudged
        FROM iev GROUP BY ALL""")  # fmt: skip
    evidence = frame(con, f"""
        SELECT signal, g, least(x, y) AS a, greatest(x, y) AS b,
               list(hand_id ORDER BY hand_id)[1:{EVIDENCE}] AS ev
        FROM iev WHERE judged AND hit GROUP BY ALL""")  # fmt: skip
    for name, signal in (("fold_ahead", facts.FOLD_AHEAD),
                         ("allin_call_behind", facts.ALLIN_CALL),
                         ("card_share", facts.CARD_SHARE), ("fold_to", facts.FOLD_TO)):  # fmt: skip
        rows = tally.filter(pl.col("signal") == signal).drop("signal")
        ev = evidence.filter(pl.col("signal") == signal).drop("signal")
        _tally_signal(rows, ev, keys, out, name)
    _stack_lost(con, keys, out)


def _tally_signal(tally: pl.DataFrame, evidence: pl.DataFrame, keys: pl.DataFrame,
                  out: list[dict[str, Signal]], name: str) -> None:  # fmt: skip
    """Each pair's events (both directions) against the actor's own rate
    with everyone else for the game and stratum, shrunk to the population's
    with ``SHRINK`` pseudo-decisions (a player who folds a lot folds ahead
    to everyone), times the other's factor: his events with everyone but
    the actor over what their own rates expected (a bluffer is folded to
    ahead, a tight player is the one ahead, with everyone); upper tail.
    ``tally``: judged decisions ``m`` and events ``k`` per game, actor x,
    other y and stratum r, with the decisions not judged."""
    m, k = pl.col("m"), pl.col("k")
    unjudged = tally.group_by("g", a=pl.min_horizontal("x", "y"),
                              b=pl.max_horizontal("x", "y")).agg(pl.col("unjudged").sum())
    df = tally.filter(m > 0)
    if name == "fold_to":
        _fold_to(df, keys, out, name)
        return
    # every total a row needs is a window over one integer key: the game's
    # stratum (the population), x in the game, x's stratum, x towards y, y
    width = 1 << max(1, int(df.select(pl.max_horizontal("x", "y").max()).item() or 0)
                     .bit_length())  # fmt: skip
    strata = 1 + int(df.select(pl.col("r").max()).item() or 0)
    g = pl.col("g").cast(pl.Int64)
    lazy = df.lazy()  # one plan: polars shares the windows' groups
    lazy = lazy.with_columns(gr=g * strata + pl.col("r"), gx=g * width + pl.col("x"),
                             gy=g * width + pl.col("y"))  # fmt: skip
    # the players' factors are per table size (the stratum's last digit): a style
    # seen at full tables says little of the play heads-up
    size = pl.col("r") % SIZES
    lazy = lazy.with_columns(xr=pl.col("gx") * strata + pl.col("r"),
                             xy=(pl.col("gx") * width + pl.col("y")) * SIZES + size,
                             gx=pl.col("gx") * SIZES + size,
                             gy=pl.col("gy") * SIZES + size)  # fmt: skip
    lazy = lazy.with_columns(pop_n=m.sum().over("gr"), pop_k=k.sum().over("gr"),
                             own_n=m.sum().over("xr"), own_k=k.sum().over("xr"))  # fmt: skip
    # the actor's own factor over his strata, with everyone but y
    lazy = lazy.with_columns(pe=(m * pl.col("pop_k")) / pl.col("pop_n"),
                             base=pl.col("pop_k") / pl.col("pop_n"))  # fmt: skip
    pe = pl.col("pe")
    events = k.sum().over("gx").cast(pl.Float64) - k.sum().over("xy")
    wanted = pe.sum().over("gx") - pe.sum().over("xy")
    lazy = lazy.with_columns(factor=_factor_of(events, wanted),
                             w=_unknown(pl.col("own_n") - m, wanted))
    prior = _prior_of(pl.col("base"), pl.col("factor"))
    lazy = lazy.with_columns(rate=((pl.col("own_k") - k) + SHRINK * prior)
                             / ((pl.col("own_n") - m) + SHRINK))  # fmt: skip
    mr = m * pl.col("rate")
    # the other's factor: his events with everyone but x over what their rates expect
    others_y = mr.sum().over("gy") - mr.sum().over("xy")
    scale = (((k.sum().over("gy").cast(pl.Float64) - k.sum().over("xy")) + SHRINK)
             / (others_y + SHRINK))  # fmt: skip
    lazy = lazy.with_columns(p0=pl.min_horizontal(pl.lit(1.0), pl.col("rate") * scale),
                             wy=SHRINK / (others_y.clip(lower_bound=0.0) + SHRINK))
    p0 = pl.col("p0")
    # what is not known of either one's style (x's rate, y's factor) widens the null
    sums = {"count": k.sum(), "opp": m.sum(), "e": (m * p0).sum(),
            "v": (m * p0 * (1 - p0)).sum(), "ew": (m * p0 * pl.col("w")).sum(),
            "ewy": (m * p0 * pl.col("wy")).sum()}  # fmt: skip
    directed = lazy.group_by("g", "x", "y").agg(**sums).with_columns(
        v=pl.col("v") + _style_variance(pl.col("ew")) + _style_variance(pl.col("ewy")))
    if name in DIRECTED:  # each direction apart: x towards y, as (a, b) and (b, a)
        agg = directed.collect()
        for d, (x, y) in (("ab", ("a", "b")), ("ba", ("b", "a"))):
            per = _aligned(keys, agg.rename({"x": x, "y": y}))
            _tally_out(per, out, f"{name}_{d}", with_detail=False)
        return
    agg = directed.group_by(pl.col("g"), a=pl.min_horizontal("x", "y"),
                            b=pl.max_horizontal("x", "y")).agg(
        pl.col("count", "opp", "e", "v").sum()).collect()
    per = _aligned(keys, agg).join(unjudged, on=["g", "a", "b"], how="left",
                                   maintain_order="left")  # fmt: skip
    per = per.join(evidence, on=["g", "a", "b"], how="left", maintain_order="left")
    _tally_out(per, out, name)


def _fold_to(df: pl.DataFrame, keys: pl.DataFrame, out: list[dict[str, Signal]],
             name: str) -> None:  # fmt: skip
    """x's folds to y's bets against, in the same spots (game, round, bet
    size, someone more in, table size: the stratum ``r``), x's folds to
    everyone else's bets, and others' folds to y's bets: two
    Cochran-Mantel-Haenszel tests (each stratum a 2x2 table, its
    hypergeometric mean and variance; only strata with decisions of both
    kinds count), and the signal is the weaker of the two (both must hold: a
    player who folds to everyone, or a bettor everyone folds to, is no
    partner). Each direction apart (``name_ab``, ``name_ba``); upper tail."""
    m, k = pl.col("m"), pl.col("k")

    def sums(lazy: pl.LazyFrame) -> pl.LazyFrame:
        out: dict[str, pl.Expr] = {"count": k.sum(), "opp": m.sum()}
        for side, (tot, hit) in (("1", ("M", "K")), ("2", ("N", "J"))):
            t, h = pl.col(tot).cast(pl.Float64), pl.col(hit).cast(pl.Float64)
            inf = t > m  # a stratum where he (or the bettor) met others too
            out[f"k{side}"] = k.filter(inf).sum()
            out[f"e{side}"] = (m * h / t).filter(inf).sum()
            out[f"v{side}"] = (m * (t - m) * h * (t - h) / (t * t * (t - 1))).filter(inf).sum()
        return lazy.group_by("g", "x", "y").agg(**out)

    lazy = df.lazy().with_columns(
        M=m.sum().over("g", "x", "r"), K=k.sum().over("g", "x", "r"),
        N=m.sum().over("g", "y", "r"), J=k.sum().over("g", "y", "r"))
    # two passes: a likely partner (his folds to y over TRIM in z) is left out of
    # x's folds to the others and of the others' folds to y (as for soft play)
    first = sums(lazy).filter(pl.col("v1") >= 1.0).select(
        "g", "x", "y", trim=(pl.col("k1") - pl.col("e1")) / pl.col("v1").sqrt() > TRIM)
    lazy = lazy.join(first.lazy(), on=["g", "x", "y"], how="left").with_columns(
        pl.col("trim").fill_null(False))
    t = pl.col("trim")
    mt, kt = pl.when(t).then(m).otherwise(0), pl.when(t).then(k).otherwise(0)
    lazy = lazy.with_columns(
        M=pl.col("M") - mt.sum().over("g", "x", "r") + mt,
        K=pl.col("K") - kt.sum().over("g", "x", "r") + kt,
        N=pl.col("N") - mt.sum().over("g", "y", "r") + mt,
        J=pl.col("J") - kt.sum().over("g", "y", "r") + kt)
    agg = sums(lazy).collect()
    for d, (x, y) in (("ab", ("a", "b")), ("ba", ("b", "a"))):
        per = _aligned(keys, agg.rename({"x": x, "y": y}))
        cols = [per.get_column(c).to_list() for c in
                ("count", "opp", "k1", "e1", "v1", "k2", "e2", "v2")]  # fmt: skip
        for sigs, (count, opp, k1, e1, v1, k2, e2, v2) in zip(out, zip(*cols, strict=True),
                                                              strict=True):  # fmt: skip
            count, opp = int(count or 0), int(opp or 0)
            k1, e1, v1, k2, e2, v2 = (float(v or 0) for v in (k1, e1, v1, k2, e2, v2))
            expected = count - k1 + e1
            sig = Signal(value=count / expected if expected else None, count=count,
                         opportunity=opp, expected=expected,
                         detail={"against_others": {"count": int(k1), "expected": round(e1, 2)},
                                 "others_to_bettor": {"count": int(k2),
                                                      "expected": round(e2, 2)}})  # fmt: skip
            if v1 >= 1.0 and v2 >= 1.0:
                z, k_, e_, v_ = min((_cmh_z(k1, e1, v1), k1, e1, v1),
                                    (_cmh_z(k2, e2, v2), k2, e2, v2))  # fmt: skip
                sig.observed, sig.mean, sig.variance, sig.size = k_, e_, v_, e_
                sig.z, sig.probability = z, upper_tail(z)
            sigs[f"{name}_{d}"] = sig


def _cmh_z(count: float, expected: float, variance: float) -> float:
    """z of a Mantel-Haenszel count, with the continuity correction."""
    d = count - expected
    d = d - 0.5 if d > 0.5 else d + 0.5 if d < -0.5 else 0.0
    return d / math.sqrt(variance)


def _tally_out(per: pl.DataFrame, out: list[dict[str, Signal]], name: str,
               with_detail: bool = True) -> None:
    """One count signal per row of ``per`` (count, opp, e, v; ``with_detail``:
    unjudged and ev too), as ``name`` of each pair's signals."""
    n = per.height
    cols = [per.get_column(c).to_list() if c in per.columns else [None] * n
            for c in ("count", "opp", "e", "v", "unjudged", "ev")]  # fmt: skip
    for sigs, (count, opp, expected, var, unj, ev) in zip(out, zip(*cols, strict=True),
                                                          strict=True):  # fmt: skip
        count, opp, expected, var = int(count or 0), int(opp or 0), expected or 0.0, var or 0.0
        s = Signal(value=count / expected if expected else None, count=count,
                   opportunity=opp, expected=expected,
                   detail={"unjudged": int(unj or 0)} if with_detail else {},
                   evidence=list(ev or []))  # fmt: skip
        s.judge(count, expected, var)
        sigs[name] = s


def _stack_lost(con: duckdb.DuckDBPyConnection, keys: pl.DataFrame,
                out: list[dict[str, Signal]]) -> None:  # fmt: skip
    """Hands where one lost his whole stack and the other took the most of
    it (two who took as much: each of them, not an arbitrary one), against
    the other's share of everything the loser put into pots while they sat
    together (a taker who wins most of his chips anyway takes most of his
    stacks too); upper tail."""
    rows = frame(con, f"""
        WITH share AS (  -- y's share of x's chips, over the games
            SELECT x, y, sum(chips) / sum(o) AS share FROM (
                SELECT a AS x, b AS y, chips_ab AS chips, out_a AS o FROM ip
                WHERE chips_ab IS NOT NULL
                UNION ALL
                SELECT b, a, chips_ba, out_b FROM ip WHERE chips_ba IS NOT NULL)
            GROUP BY ALL),
        bust AS (
            SELECT g, x, y, sum(lost)::BIGINT AS n, sum(took)::BIGINT AS k,
                   sum(lost * (1.0 / (players - 1))) / sum(lost) AS even,
                   list(hand_id ORDER BY hk) FILTER (WHERE took > 0)[1:{EVIDENCE}] AS ev
            FROM (SELECT hk, g, a AS x, b AS y, lost_a AS lost, took_ab AS took, players,
                         hand_id FROM ip WHERE lost_a > 0
                  UNION ALL
                  SELECT hk, g, b, a, lost_b, took_ba, players, hand_id FROM ip
                  WHERE lost_b > 0)
            GROUP BY ALL)
        SELECT b.g, b.x, b.y, b.n, b.k, coalesce(s.share, 0) AS share, b.even, b.ev
        FROM bust b LEFT JOIN share s ON s.x = b.x AND s.y = b.y""")  # fmt: skip
    # the share is shrunk to an even split over SHRINK pseudo-busts
    n = pl.col("n")
    rows = rows.with_columns(p0=(n * pl.col("share") + SHRINK * pl.col("even")) / (n + SHRINK))
    rows = rows.select("g", "x", "y", "n", "k", e=n * pl.col("p0"),
                       v=n * pl.col("p0") * (1 - pl.col("p0")), ev="ev")  # fmt: skip
    df = keys
    for d, (x, y) in (("ab", ("a", "b")), ("ba", ("b", "a"))):
        df = df.join(rows.rename({"x": x, "y": y, **{c: f"{c}_{d}" for c in "nkev"},
                                  "ev": f"ev_{d}"}),
                     on=["g", "a", "b"], how="left", maintain_order="left")  # fmt: skip
    df = df.with_columns(pl.col("n_ab", "n_ba", "k_ab", "k_ba").fill_null(0),
                         pl.col("e_ab", "e_ba", "v_ab", "v_ba").fill_null(0.0))
    df = df.select(count=pl.col("k_ab") + pl.col("k_ba"), opp=pl.col("n_ab") + pl.col("n_ba"),
                   e=pl.col("e_ab") + pl.col("e_ba"), v=pl.col("v_ab") + pl.col("v_ba"),
                   ev_ab="ev_ab", ev_ba="ev_ba")  # fmt: skip
    cols = ("count", "opp", "e", "v", "ev_ab", "ev_ba")
    for sigs, (count, opp, expected, var, ev_ab, ev_ba) in zip(
            out, zip(*(df.get_column(c).to_list() for c in cols), strict=True),
            strict=True):  # fmt: skip
        evidence = sorted((ev_ab or []) + (ev_ba or []))[:EVIDENCE] if ev_ab or ev_ba else []
        s = Signal(value=count / expected if expected else None, count=count, opportunity=opp,
                   expected=expected, evidence=evidence)  # fmt: skip
        s.judge(count, expected, var)
        sigs["stack_lost"] = s


def _overdispersed(signals: list[Signal], tail: str, tested_side: bool = False) -> None:
    """Pairs differ in how their styles meet (a player bets less into one
    who always raises, wins more from one he reads well), and that
    difference grows with the hands they play: a fixed share of the
    expectation, not binomial noise. So each model's variance gets a term
    ``tau^2 x size^2`` (size: the expected count; chip flow: the chips that
    passed between the two), with ``tau`` the population's: the one that
    makes the ``QUANTILE`` of z^2 over the half of the judged pairs with the
    largest size N(0, 1)'s (``CHI2_Q``; a quantile: the few colluders do not
    set it). With fewer than ``EMPIRICAL_PAIRS`` pairs judged, tau is 0.
    ``tested_side``: fitted on the z's of the tested tail only (a directed
    signal: a partner who folds to his partner always makes his folds to
    everyone else look few, a far tail on the other side)."""
    judged = [s for s in signals if s.z is not None and s.variance > 0]
    if len(judged) < EMPIRICAL_PAIRS:
        return
    fit = [s for s in judged if not tested_side or ((s.z or 0.0) < 0) == (tail == "lower")]
    if len(fit) < EMPIRICAL_PAIRS:
        return
    big = sorted(fit, key=lambda s: -s.size)[: max(EMPIRICAL_PAIRS, len(fit) // 2)]

    def z(s: Signal, t2: float) -> float:
        d = s.observed - (s.expected if s.mean is None else s.mean)
        if s.continuity:
            d = d - 0.5 if d > 0 else d + 0.5 if d < 0 else d
        return s.capped(d / math.sqrt(s.variance + t2 * s.size * s.size))

    def scaled_quantile(t2: float) -> float:
        """The QUANTILE of z^2 on the scale of a median (0.455 when it is chi2(1)'s)."""
        v = sorted(z(s, t2) ** 2 for s in big)
        return v[int(QUANTILE * (len(v) - 1))] / CHI2_Q * 0.455

    t2 = 0.0
    if scaled_quantile(0.0) > 0.455:
        lo, hi = 0.0, 1e-4
        while scaled_quantile(hi) > 0.455 and hi < 1e6:
            hi *= 4
        for _ in range(50):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if scaled_quantile(mid) > 0.455 else (lo, mid)
        t2 = hi
    for s in judged:
        s.z = z(s, t2)
        if tail == "two":
            s.probability = min(1.0, 2 * upper_tail(abs(s.z)))
        else:
            s.probability = upper_tail(-s.z if tail == "lower" else s.z)
        s.detail["overdispersion"] = round(math.sqrt(t2), 4)


def _empirical_null(signals: list[Signal], tail: str, required: bool) -> None:
    """The models miss how particular styles meet (who exploits whom, who
    bets into whom), so their z's spread wider than N(0, 1) among honest
    pairs: each z is centred on the median of the pairs' z's and divided by
    their spread (1.4826 x the median absolute deviation, at least 1), the
    empirical null of the population (most pairs are honest); ``tail``:
    "upper", "lower" or "two" sided. With fewer than ``EMPIRICAL_PAIRS``
    pairs judged there is no population to estimate it from: the model's z
    stands, or (``required``, chip flow) the signal is not judged."""
    judged = [s for s in signals if s.z is not None]
    if len(judged) < EMPIRICAL_PAIRS:
        if required:
            for s in judged:
                s.z = s.probability = None
                s.detail["null"] = f"fewer than {EMPIRICAL_PAIRS} pairs to estimate it from"
        return
    zs = sorted(s.z for s in judged if s.z is not None)
    mid = _median([(z, 1) for z in zs])
    spread = max(1.0, 1.4826 * _median([(abs(z - mid), 1) for z in zs]))
    for s in judged:
        assert s.z is not None
        s.z = (s.z - mid) / spread
        if tail == "two":
            s.probability = min(1.0, 2 * upper_tail(abs(s.z)))
        else:
            s.probability = upper_tail(-s.z if tail == "lower" else s.z)
        s.detail["null_centre"] = round(mid, 3)
        s.detail["null_spread"] = round(spread, 3)


def _median(values: list[tuple[float, int]]) -> float:
    """The weighted median of (value, weight) pairs."""
    values = sorted(values)
    half = sum(w for _v, w in values) / 2
    run = 0
    for v, w in values:
        run += w
        if run >= half:
            return v
    return values[-1][0] if values else 0.0


# ----------------------------------------------------------------- report


def integrity(con: duckdb.DuckDBPyConnection, filters: Filters | None = None,
              cache: str | Path | Cache | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> list[Pair]:  # fmt: skip
    """Every pair of players who shared a hand (``filters.min_hands``: at
    least that many together), most suspicious first. ``cache``: the
    reports' cache (reports.cache; None keeps it in memory for this
    call), where the seats' standings and the per-hand facts are read: the
    hands it lacks (every hand, at a database's first integrity report;
    after it, the import keeps them) are computed first, within
    ``facts.FILL_MEMORY_LIMIT`` (reports.integrity.standings,
    reports.integrity.facts). ``progress(stage, done, total)`` hears of
    the standings and facts computed, a batch of hands at a time."""
    # hundreds of thousands of small objects (a signal per pair and signal, their
    # details): the cyclic collector would walk them again and again, for
    # nothing (they hold no cycles); it runs again once the report is made
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _integrity(con, filters, cache, progress)
    finally:
        if collecting:
            gc.enable()


def _integrity(con: duckdb.DuckDBPyConnection, filters: Filters | None,
               cache: str | Path | Cache | None,
               progress: Callable[[str, int, int], None] | None) -> list[Pair]:  # fmt: skip
    f = filters or Filters()
    # the population is every pair of the hands the hand filters keep, whatever
    # pairs are shown: --game, --player and --min-hands only narrow the list
    everything = replace(f, games=(), players=(), min_hands=0)
    store = cache if isinstance(cache, Cache) else Cache(con, cache)
    try:
        store.want(*everything.where())
        with facts.fill_memory(con):
            standings.fill(con, store, batch=standings.BATCH, progress=progress)
            facts.fill(con, store, batch=facts.BATCH, progress=progress)
        games, names = _load(con, everything, store)
        keep = _pairs(con).filter(pl.col("n") >= 1)
        # in key order (the integers are in the order of the names), and ties of the
        # ranking broken by game: the same hands give the same report whatever order
        # the SQL returned its rows in
        keys = keep.select("g", "a", "b")
        sigs: list[dict[str, Signal]] = []
        for n, e, tables, sessions in zip(*(keep.get_column(c).to_list() for c in
                                            ("n", "expected", "tables", "sessions")),
                                          strict=True):  # fmt: skip
            s = Signal(value=n / e if e else None, count=n, opportunity=n, expected=e,
                       detail={"tables": tables, "sessions": sessions})
            s.judge(n, e, e)
            sigs.append({"overlap": s})
        _chip_flow(con, keep.select("g", "a", "b", "n"), names, sigs)
        _soft_play(con, keys, sigs)
        _events(con, keys, sigs)
        # each signal's null calibrated per game and table size (heads-up apart)
        groups = list(zip(keep.get_column("g").to_list(),
                          (2 * hu > n for hu, n in zip(keep.get_column("hu").to_list(),
                                                       keep.get_column("n").to_list(),
                                                       strict=True)), strict=True))  # fmt: skip
        for name in BEHAVIOUR:
            tail = {"chip_flow": "two", "soft_play": "lower"}.get(name, "upper")
            if name in DIRECTED:
                both = [s[f"{name}_{d}"] for d in ("ab", "ba") for s in sigs]
                _calibrate(both, groups + groups, tail, tested_side=True)
                for row, (a, b) in zip(sigs, zip(keep.get_column("a").to_list(),
                                                 keep.get_column("b").to_list(), strict=True),
                                       strict=True):  # fmt: skip
                    row[name] = _stronger(row.pop(f"{name}_ab"), row.pop(f"{name}_ba"),
                                          names[a], names[b])  # fmt: skip
            else:
                _calibrate([s[name] for s in sigs], groups, tail)
        out = [Pair(games[g], (names[a], names[b]), n, {name: s[name] for name in SIGNALS},
                    key=(g, a, b))
               for g, a, b, n, s in zip(*(keep.get_column(c).to_list() for c in "gabn"), sigs,
                                        strict=True)]  # fmt: skip
        _alerts(out)
        from reports.integrity.evidence import attach

        attach(con, [p for p in out if p.alert], EVIDENCE)
    except duckdb.Error as error:
        raise ReportError(f"cannot compute the integrity report: {error}") from error
    finally:
        con.execute("DROP VIEW IF EXISTS ip; DROP VIEW IF EXISTS iev; DROP VIEW IF EXISTS ist")
        if store is not cache:
            store.close()
    # ranked by the score as shown (shown_score), ties by hands together,
    # names and game: the same order at every run
    out.sort(key=lambda p: (-shown_score(p.score), -p.hands_together, p.players, p.game))
    rings(out)
    from reports.integrity import review

    return review.attach([p for p in out if _shown(p, f)], review.read(con))


def _shown(p: Pair, f: Filters) -> bool:
    """Whether the filters that only narrow the list keep the pair."""
    return (p.hands_together >= max(f.min_hands, 1)
            and (not f.games or p.game in f.games)
            and (not f.players or bool(set(p.players) & set(f.players))))


def _calibrate(signals: list[Signal], groups: list[tuple[int, bool]], tail: str,
               tested_side: bool = False) -> None:
    """Overdispersion and the empirical null of one signal, per game and
    table size: the pairs who play mostly heads-up apart from the others
    when each side has ``EMPIRICAL_PAIRS`` judged, else the game's together."""
    by: dict[tuple[int, bool], list[Signal]] = defaultdict(list)
    for s, key in zip(signals, groups, strict=True):
        by[key].append(s)
    games: dict[int, list[list[Signal]]] = defaultdict(list)
    for (g, _hu), ss in sorted(by.items()):
        games[g].append(ss)
    for parts in games.values():
        enough = all(sum(s.z is not None for s in ss) >= EMPIRICAL_PAIRS for ss in parts)
        for group in parts if enough else [[s for ss in parts for s in ss]]:
            _overdispersed(group, tail, tested_side)
            _empirical_null(group, tail, False)


def _stronger(ab: Signal, ba: Signal, a: str, b: str) -> Signal:
    """A directed signal (a towards b, b towards a) as one: the direction
    with the smaller probability, which doubles (either could have been it);
    the other direction in ``detail``."""
    first = ba.probability is not None and (ab.probability is None
                                            or ba.probability < ab.probability)  # fmt: skip
    s, other = (ba, ab) if first else (ab, ba)
    actor, toward = (b, a) if first else (a, b)
    if s.probability is not None:
        s.probability = min(1.0, 2 * s.probability)
        s.z = -NORMAL.inv_cdf(max(1e-300, s.probability)) if s.probability < 1 else 0.0
    s.detail = {**s.detail, "actor": actor, "toward": toward,
                "other_way": {"count": other.count, "opportunity": other.opportunity,
                              "expected": rounded(other.expected), "z": rounded(other.z)}}
    return s


_FAMILIES = sorted(set(FAMILY.values()))


def adjusted(p: Pair) -> float:
    """The pair's probability under the null, two ways, the smaller one
    doubled (either could have been it): the smallest behaviour signal's
    probability x the signals (one strong signal); and, of the independent
    families (:data:`FAMILY`; a family's probability: its smallest x its
    signals), the second smallest ``q2`` as ``C(F, 2) x q2^2`` (two
    families each unlikely: what room practice calls several pieces of
    evidence)."""
    ps = {n: s.probability for n, s in p.signals.items()
          if n in BEHAVIOUR and s.probability is not None}  # fmt: skip
    single = min(1.0, min(ps.values()) * len(BEHAVIOUR))
    fams = sorted(min(1.0, min(ps[n] for n in ps if FAMILY[n] == f)
                      * sum(FAMILY[n] == f for n in BEHAVIOUR))
                  for f in _FAMILIES if any(FAMILY[n] == f for n in ps))  # fmt: skip
    pairwise = 1.0
    if len(fams) >= 2:
        k = len(_FAMILIES)
        pairwise = min(1.0, k * (k - 1) / 2 * fams[1] ** 2)
    return min(1.0, 2 * min(single, pairwise))


def _alerts(pairs: list[Pair]) -> None:
    """Score, alert and tier of every pair: ``adjusted`` (:func:`adjusted`);
    the alerts are the pairs
    the Benjamini-Hochberg procedure keeps at a false discovery rate of
    ``ALERT`` over every pair judged (hands together at least ``MIN_HANDS``);
    the tier: ``escalate`` when signals of two or more independent families
    (:data:`FAMILY`) each have a probability at most ``SUPPORT``, else
    ``review``."""
    judged: list[Pair] = []
    for p in pairs:
        ps = [s.probability for name, s in p.signals.items()
              if name in BEHAVIOUR and s.probability is not None]  # fmt: skip
        if p.hands_together < MIN_HANDS or not ps:
            continue
        p.adjusted = adjusted(p)
        p.score = max(0.0, -math.log10(max(p.adjusted, 1e-300)))
        judged.append(p)
    ranked = sorted(p.adjusted for p in judged)
    m = len(ranked)
    threshold = max((q for k, q in enumerate(ranked, 1) if q <= k / m * ALERT), default=0.0)
    for p in pairs:
        p.threshold = threshold
    for p in judged:
        p.alert = threshold > 0 and p.adjusted <= threshold
        if p.alert:
            families = {FAMILY[n] for n, s in p.signals.items() if n in BEHAVIOUR
                        and s.probability is not None and s.probability <= SUPPORT}  # fmt: skip
            p.tier = "escalate" if len(families) >= 2 else "review"


__all__ = ["ALERT", "MIN_HANDS", "SIGNALS", "Pair", "Ring", "Signal", "integrity", "rings",
           "shown_score"]

__all__ = ["ALERT", "MIN_EXPECTED", "Pair", "Ring", "Signal", "integrity", "rings", "shown_score"]
